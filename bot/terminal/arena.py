"""``python -m bot arena``: AI-only games of any game, with win rates, Wilson intervals and decision times per level.

Every game is played over the protocol by one loop (``bot.core.fold.playout``, each seat the game's AI at
its level, chance drawn as the bot draws it), so a new game needs nothing here.

Figures are per level: when a level sits in several seats, each seat of each game counts as one
"game" for it (seat-games), wins are shared on ties (a two-way tie is half a win each).
Games are spread over processes but each game's outcome depends only on (seed, game index), and
results are gathered in game order, so the table is the same whatever the worker count.
"""

import json
import math
import multiprocessing
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, TextIO

from bot.core.fold import SeatPolicy, ai_policy, playout
from bot.core.game import Game
from bot.games import GAMES, game_for

Z95 = 1.959964
DEFAULT_GAME = GAMES[0].key  # the first registered game, The Number


@dataclass
class LevelStats:
    games: int = 0
    wins: float = 0.0
    score_sum: int = 0
    decision_ms: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class GameRecord:
    levels: tuple[str, ...]
    wins: tuple[float, ...]
    scores: tuple[int, ...]
    decision_ms: tuple[tuple[str, float], ...]


def seating(seats: Sequence[str], index: int) -> tuple[str, ...]:
    """Rotate the seats from game to game so no level always sits first (seat order shows in tie order only)."""
    k = index % len(seats)
    return tuple(seats[k:]) + tuple(seats[:k])


def _timed(policy: SeatPolicy, level: str, times: list[tuple[str, float]]) -> SeatPolicy:
    def decide(view: Any, legal: Any, rng: Random) -> Any:
        start = time.perf_counter()
        action = policy(view, legal, rng)
        times.append((level, (time.perf_counter() - start) * 1000))
        return action
    return decide


def play_one(game_key: str, seats: Sequence[str], seed: int, index: int) -> GameRecord:
    game = game_for(game_key)
    levels = seating(seats, index)
    game_seed = seed * 1_000_003 + index
    times: list[tuple[str, float]] = []
    policies = [_timed(ai_policy(game, seat, level), level, times) for seat, level in enumerate(levels)]
    _, state = playout(game, len(levels), {}, game_seed, policies, Random(f"arena:{game_seed}"))
    result = game.result(state)
    assert result is not None  # playout plays to the end
    winners = result.winners
    wins = tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(len(levels)))
    return GameRecord(levels, wins, tuple(result.scores[seat] for seat in range(len(levels))), tuple(times))


def _job(args: tuple[str, tuple[str, ...], int, int]) -> GameRecord:
    return play_one(*args)


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a win rate (shared wins count fractionally)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


class Progress:
    """A one-line progress bar on a stream (stderr), redrawn at most ~100 times."""

    def __init__(self, total: int, stream: TextIO | None, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.step = max(1, total // 100)

    def update(self, done: int) -> None:
        if self.stream is None or (done % self.step and done != self.total):
            return
        filled = self.width * done // max(1, self.total)
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total} games")
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def _records(game_key: str, seats: tuple[str, ...], games: int, seed: int, workers: int
             ) -> Iterator[GameRecord]:
    jobs = [(game_key, seats, seed, i) for i in range(games)]
    if workers <= 1 or games < 4:
        yield from map(_job, jobs)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(_job, jobs, chunksize=max(1, min(20, games // (workers * 8))))


def run_arena(games: int, seats: Sequence[str], seed: int = 0, workers: int = 1,
              progress: TextIO | None = None, game: "str | Game[Any, Any, Any]" = DEFAULT_GAME
              ) -> dict[str, dict[str, Any]]:
    """Play ``games`` games of ``game`` (a key or the game) and return the per-level figures (``--json``)."""
    game_key = game if isinstance(game, str) else game.key
    game_for(game_key)  # an unknown key fails here, not in a worker
    stats: dict[str, LevelStats] = {level: LevelStats() for level in dict.fromkeys(seats)}
    bar = Progress(games, progress)
    for done, record in enumerate(_records(game_key, tuple(seats), games, seed, workers), start=1):
        for level, win, score in zip(record.levels, record.wins, record.scores, strict=True):
            s = stats[level]
            s.games, s.wins, s.score_sum = s.games + 1, s.wins + win, s.score_sum + score
        for level, ms in record.decision_ms:
            stats[level].decision_ms.append(ms)
        bar.update(done)
    figures: dict[str, dict[str, Any]] = {}
    for level, s in stats.items():
        low, high = wilson(s.wins, s.games)
        figures[level] = {
            "games": s.games,
            "wins": round(s.wins, 3),
            "win_rate": round(s.wins / s.games, 4) if s.games else 0.0,
            "ci95_low": round(low, 4),
            "ci95_high": round(high, 4),
            "mean_score": round(s.score_sum / s.games, 2) if s.games else 0.0,
            "decision_ms_p50": round(percentile(s.decision_ms, 0.50), 3),
            "decision_ms_p99": round(percentile(s.decision_ms, 0.99), 3),
        }
    return figures


def format_table(figures: dict[str, dict[str, Any]]) -> str:
    head = (f"{'level':<8} {'games':>6} {'wins':>8} {'win rate':>8} {'95% CI':>15} {'mean':>7} "
            f"{'p50 ms':>7} {'p99 ms':>7}")
    lines = [head, "-" * len(head)]
    for level, f in figures.items():
        ci = f"{f['ci95_low']:.3f}-{f['ci95_high']:.3f}"
        lines.append(f"{level:<8} {f['games']:>6} {f['wins']:>8.1f} {f['win_rate']:>8.3f} {ci:>15} "
                     f"{f['mean_score']:>7.1f} {f['decision_ms_p50']:>7.2f} {f['decision_ms_p99']:>7.2f}")
    return "\n".join(lines)


def main_arena(games: int, seats: Sequence[str], seed: int, workers: int, as_json: bool,
               out: TextIO | None = None, err: TextIO | None = None, game: str = DEFAULT_GAME) -> int:
    out, err = out or sys.stdout, err or sys.stderr  # the streams of now, not of the import
    figures = run_arena(games, seats, seed, workers, progress=err, game=game)
    if as_json:
        json.dump(figures, out)
        out.write("\n")
    else:
        title = "" if game == DEFAULT_GAME else f"{game_for(game).title}: "  # The Number's line as it was
        out.write(f"{title}{games} games, seats: {' '.join(seats)}, seed {seed}\n{format_table(figures)}\n")
    return 0
