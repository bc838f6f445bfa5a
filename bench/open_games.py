"""Days-long tables: ``python -m bot`` restarted on 100,000 open games (bench.restart's measure: spawn -> the
first interaction answered, the start-up work, resident memory), and the heap each open game costs: the resident
anonymous memory (RssAnon) of the same start-up on 100,000 and on 1,000 open games, the difference divided by
the 99,000 games between them (what the process holds per game, whatever it holds for itself).

``python -m bench.open_games [--open 100000] [--keep DIR]`` prints the figures (``--keep`` reuses the generated
databases there: 100,000 games take minutes to generate).
"""

import argparse
import asyncio
import tempfile
from pathlib import Path
from typing import Any

from .common import Figure, summary
from .restart import generate_open, measure

OPEN = 100_000
BASE = 1_000
ANSWER_TARGET = 2.0


def run(quick: bool = False, keep: Path | None = None, open_games: int = OPEN) -> list[Figure]:
    open_games = 20_000 if quick else open_games
    with tempfile.TemporaryDirectory(prefix="bench-open-") as tmp:
        where = keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        big, small = generate_open(where, open_games), generate_open(where, BASE)
        runs: list[dict[str, Any]] = []
        for n in range(1):  # one start each: 100,000 games take minutes to start up
            work = Path(tmp) / f"run{n}"
            work.mkdir()
            runs.append({"big": asyncio.run(measure(big, work)), "small": asyncio.run(measure(small, work))})
    answered = summary([r["big"]["answered"] for r in runs])
    per_game = summary([(r["big"]["anon_mb"] - r["small"]["anon_mb"]) * 1024 / (open_games - BASE) for r in runs])
    last = runs[-1]["big"]
    return [
        Figure(f"open_games_restart_s_{open_games}", f"Restart on {open_games:,} open games: spawn -> first "
               "interaction answered", "s", answered, f"< {ANSWER_TARGET:.0f} s", answered["max"] < ANSWER_TARGET,
               note=f"python -m bot against the fake; connected {last['connected']:.2f} s; every deadline armed at "
                    f"{last['armed']:.2f} s; start-up work over at {last['settled']:.1f} s, {last['cpu']:.1f} s CPU; "
                    f"tables opened meanwhile answered in {last['busy_answer_median'] * 1000:.0f} ms (median), "
                    f"{last['busy_answer_max'] * 1000:.0f} ms at most"),
        Figure("open_games_heap_kib", "Heap per open game (RssAnon, 100,000 vs 1,000 open games)", "KiB",
               per_game, note=f"RssAnon {last['anon_mb']:.0f} MiB at {open_games:,} open games, "
                              f"{runs[-1]['small']['anon_mb']:.0f} MiB at {BASE:,}; VmRSS {last['rss_mb']:.0f} MiB"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.open_games", description=__doc__)
    parser.add_argument("--open", type=int, default=OPEN)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    from .__main__ import table

    print(table(run(keep=args.keep, open_games=args.open)))


if __name__ == "__main__":
    main()
