"""Numeri's hard level against the opponent pool of :mod:`bench.ai_pool_numeri_players`, in 2 to 4 seats.

``python -m bench.ai_pool_numeri [--games N] [--seed S] [--workers W] [--seats 2 3 4] [--only NAME ...]``
(also ``python -m bench.ai_strength --game numeri --pool``). For each seat count and each pool strategy,
one hard seat plays the rest of the table filled with that strategy, the hard seat rotating round the
table. Figures are fractional win shares (a win shared by k players counts 1/k) with 95% Wilson
intervals; the target is parity (1/seats) plus a margin. Each game depends only on (seed, matchup, game
index), so the figures do not depend on the worker count. It reports, it never asserts.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import TextIO

from bench.ai_pool_numeri_players import POOL
from bench.pool_runner import played
from bot.games.numeri import ai
from bot.games.numeri.game import GAME, die_rng
from bot.terminal.arena import percentile, wilson

HARD = "hard"
SEAT_COUNTS = (2, 3, 4)
MARGIN = 0.05  # hard's share should beat parity by at least this much against every strategy


@dataclass(frozen=True)
class Matchup:
    seats: tuple[str, ...]  # the measured strategy first, then the others

    @property
    def title(self) -> str:
        rest = self.seats[1:]
        return f"{self.seats[0]} vs {len(rest)} {rest[0]} ({len(self.seats)} seats)"

    @property
    def target(self) -> float:
        return 1 / len(self.seats) + MARGIN


@dataclass
class Tally:
    games: int = 0
    share: float = 0.0
    hard_ms: list[float] = field(default_factory=list)


def matchups(seat_counts: Sequence[int] = SEAT_COUNTS, only: Sequence[str] = ()) -> list[Matchup]:
    names = [n for n in POOL if not only or n in only]
    return [Matchup((HARD, *(name,) * (n - 1))) for n in seat_counts for name in names]


def play_game(matchup: Matchup, seed: int, index: int) -> tuple[float, list[float]]:
    """One game, the measured seat rotating round the table: its win share and hard's decision times."""
    n = len(matchup.seats)
    k = index % n
    strategies = matchup.seats[k:] + matchup.seats[:k]  # the measured seat sits at position (n - k) % n
    measured = (n - k) % n
    game_seed = _game_seed(seed, matchup, index)
    rngs = [Random(f"numeri-pool:{seed}:{matchup.title}:{index}:{i}") for i in range(n)]
    state = GAME.setup(n, {}, game_seed)
    times: list[float] = []
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            state, _ = GAME.apply(state, {None: GAME.chance(state, die_rng(game_seed, state.throws))})
            continue
        seat = state.current
        view = GAME.view(state, seat)
        started = time.perf_counter()
        if strategies[seat] == HARD:
            choice = ai.choose(view, seat, HARD, rngs[seat])
            times.append((time.perf_counter() - started) * 1000)
        else:
            choice = POOL[strategies[seat]](view, seat, rngs[seat])
        state, _ = GAME.apply(state, {seat: {"moves": list(choice)}})
    result = GAME.result(state)
    assert result is not None
    share = 1 / len(result.winners) if measured in result.winners else 0.0
    return share, times


def _game_seed(seed: int, matchup: Matchup, index: int) -> int:
    """A game's seed from the run's seed and the game index (the same dice for every strategy)."""
    return seed * 1_000_003 + len(matchup.seats) * 100_000 + index


def _job(args: tuple[int, Matchup, int, int]) -> tuple[int, float, list[float]]:
    which, matchup, seed, index = args
    share, times = play_game(matchup, seed, index)
    return which, share, times


def run_pool(games: int, seed: int, workers: int, seat_counts: Sequence[int] = SEAT_COUNTS,
             only: Sequence[str] = (), progress: TextIO | None = sys.stderr, out: TextIO = sys.stdout) -> int:
    table = matchups(seat_counts, only)
    jobs = [(w, m, seed, i) for w, m in enumerate(table) for i in range(games)]
    tallies = [Tally() for _ in table]
    for which, share, times in played(_job, jobs, workers, progress):
        t = tallies[which]
        t.games, t.share = t.games + 1, t.share + share
        t.hard_ms.extend(times)
    out.write(format_pool(table, tallies, games, seed))
    return 0


def format_pool(table: Sequence[Matchup], tallies: Sequence[Tally], games: int, seed: int) -> str:
    lines = [f"numeri pool: {games} games per matchup, seed {seed}; target parity + {MARGIN:.2f}",
             f"{'matchup':<36} {'games':>6} {'share':>7} {'95% CI':>13} {'parity':>6} {'target':>7}  verdict"]
    worst: dict[int, tuple[float, float, str]] = {}
    for m, t in zip(table, tallies, strict=True):
        p = t.share / t.games if t.games else 0.0
        low, high = wilson(t.share, t.games)
        verdict = "ok" if p >= m.target else f"MISSED by {m.target - p:.3f}"
        lines.append(f"{m.title:<36} {t.games:>6} {p:>7.3f} {low:>6.3f}-{high:.3f} {1 / len(m.seats):>6.2f} "
                     f"{m.target:>7.2f}  {verdict}")
        n = len(m.seats)
        if n not in worst or p < worst[n][0]:
            worst[n] = (p, low, m.seats[1])
    lines.append("")
    for n in sorted(worst):
        p, low, name = worst[n]
        lines.append(f"worst case, {n} seats: hard {p:.3f} (95% CI low {low:.3f}) against {name} "
                     f"(parity {1 / n:.2f}, target {1 / n + MARGIN:.2f})")
    all_ms = [ms for t in tallies for ms in t.hard_ms]
    lines.append(f"hard decision time over {len(all_ms)} decisions: p50 {percentile(all_ms, 0.5):.1f} ms, "
                 f"p99 {percentile(all_ms, 0.99):.1f} ms, max {max(all_ms, default=0.0):.1f} ms (target p99 < 200)")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_pool_numeri", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seats", type=int, nargs="+", choices=SEAT_COUNTS, default=list(SEAT_COUNTS))
    parser.add_argument("--only", nargs="+", default=[], choices=list(POOL), help="only these strategies")
    args = parser.parse_args(argv)
    return run_pool(args.games, args.seed, args.workers, args.seats, args.only)


if __name__ == "__main__":
    sys.exit(main())
