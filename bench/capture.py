"""``python -m bench.capture --game thenumber|numeri|binomial --seats N --humans H [--seed S] [--out DIR]``:
one whole game captured as players see it.

The game is played in the project's test world (bench/capture_play.py: the real bot against the local fake
Discord, simulated humans acting only on what the bot sent, AI seats filling the rest). Written to DIR
(default ``bench/captures``): ``<game>-<seats>.txt``, the transcript rendered roughly as Discord shows it
(bench/capture_render.py), and ``<game>-<seats>.json``, the counts (bench/capture_counts.py), also printed as a
table. ``--think`` is how long (fake-clock seconds, on average) a human takes before each move, ``--late`` the share
of moves made only after the step's reminder, ``--turn-seconds`` the table's turn timer. The figures of the
issue-36 redesign's targets are kept in bench/CAPTURE.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games import GAMES

from .capture_counts import count, table
from .capture_play import Played, play_game
from .capture_render import transcript

OUT = Path(__file__).resolve().parent / "captures"


@dataclass
class Capture:
    played: Played
    text: str
    counts: dict[str, Any]


async def capture(key: str, seats: int, humans: int, seed: int = 1, *, think: float = 5.0, late: float = 0.2,
                  turn_seconds: int = 60, validate: bool = True) -> Capture:
    """Play and record one game; the transcript and the counts (``validate``: the fake checks every body
    against Discord's OpenAPI description, its violations listed in ``played.fake.violations``)."""
    with tempfile.TemporaryDirectory(prefix="capture-") as tmp:
        played = await play_game(key, seats, humans, seed, Path(tmp), think=think, late=late,
                                 turn_seconds=turn_seconds, validate=validate)
    title = (f"{key}: {seats} seats, humans {', '.join(n.capitalize() for n in played.humans)}, "
             f"{seats - humans} AI, seed {seed}")
    text = transcript(played.fake.world, played.fake.world.journal or [], played.names, played.fake.requests, title)
    return Capture(played, text, count(played))


def write(result: Capture, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{result.played.key}-{result.played.seats}"
    text, data = out / f"{stem}.txt", out / f"{stem}.json"
    text.write_text(result.text + "\n", encoding="utf-8")
    data.write_text(json.dumps(result.counts, indent=2) + "\n", encoding="utf-8")
    return text, data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.capture", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=[g.key for g in GAMES])
    parser.add_argument("--seats", type=int, required=True)
    parser.add_argument("--humans", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--think", type=float, default=5.0, help="fake-clock seconds a human takes per move")
    parser.add_argument("--late", type=float, default=0.2,
                        help="share of moves a human makes only after the step's reminder")
    parser.add_argument("--turn-seconds", type=int, default=60)
    args = parser.parse_args(argv)
    result = asyncio.run(capture(args.game, args.seats, args.humans, args.seed, think=args.think, late=args.late,
                                 turn_seconds=args.turn_seconds))
    text, data = write(result, args.out)
    print(table(result.counts))
    print(f"\ntranscript: {text}\ncounts: {data}")
    if result.played.fake.violations:
        print("fake Discord violations:\n" + "\n".join(result.played.fake.violations))


if __name__ == "__main__":
    main()
