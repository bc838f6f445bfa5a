"""Binomial's hard level against the opponent pool of :mod:`bench.ai_pool_binomial_players`, in 2-5 seats.

``python -m bench.ai_strength --game binomial --pool [--games N] [--seats 2 4] [--only responder]``
(or ``python -m bench.ai_pool_binomial``). For each seat count and pool strategy, one hard seat plays the
rest of the table filled with that strategy, rotating round the seats; and a responder (hard's own code
used to predict it) sits with three hard seats. Figures are fractional win shares (a win shared by k
players counts 1/k) with 95% Wilson intervals; hard's decision times are gathered over every game. Each
game depends only on (seed, matchup, game index), so the figures do not depend on the worker count.
Every seat draws from its own generator, which no other seat sees. It reports, it never asserts.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, TextIO

from bench.ai_pool_binomial_players import POOL
from bench.pool_runner import played
from bot.games.binomial.game import GAME
from bot.terminal.arena import percentile, wilson

HARD = "hard"
SEAT_COUNTS = (2, 3, 4, 5)
TARGET_SEATS = {2: 0.50, 4: 0.40}  # hard's share against a full table of one strategy
READER = "responder"
READER_TARGET = 0.35  # the responder with three hard seats wins at most this share


@dataclass(frozen=True)
class Matchup:
    seats: tuple[str, ...]  # each seat's strategy, the measured one first
    target: float | None
    at_most: bool = False  # the target is a ceiling (the reader's), not a floor

    @property
    def title(self) -> str:
        rest = self.seats[1:]
        return f"{self.seats[0]} vs {len(rest)} {rest[0]} ({len(self.seats)} seats)"


@dataclass
class Tally:
    games: int = 0
    share: float = 0.0
    hard_ms: list[float] = field(default_factory=list)
    hard_cpu_ms: list[float] = field(default_factory=list)


def matchups(seat_counts: Sequence[int] = SEAT_COUNTS) -> list[Matchup]:
    out = [Matchup((HARD, *(name,) * (n - 1)), TARGET_SEATS.get(n)) for n in seat_counts for name in POOL]
    if 4 in seat_counts:
        out.append(Matchup((READER, HARD, HARD, HARD), READER_TARGET, at_most=True))
    return out


def _act(strategy: str, view: Any, seat: int, rng: Random) -> Any:
    if strategy == HARD:
        return GAME.ai(view, seat, HARD, rng)
    return POOL[strategy](view, seat, rng)


Times = tuple[list[float], list[float]]  # hard's decisions: wall clock and CPU time (ms)


def play_game(matchup: Matchup, seed: int, index: int) -> tuple[float, Times]:
    """One game, the measured seat rotating round the table: its win share and hard's decision times
    (the CPU time is what a decision costs when the machine is shared)."""
    n = len(matchup.seats)
    k = index % n
    strategies = matchup.seats[k:] + matchup.seats[:k]  # the measured seat sits at (n - k) % n
    measured = (n - k) % n
    game_seed = seed * 1_000_003 + index  # the same deals for every matchup: a paired comparison
    state = GAME.setup(n, {}, game_seed)
    dice = Random(f"binomial-pool-dice:{game_seed}")
    rngs = [Random(f"binomial-pool:{seed}:{matchup.title}:{index}:{i}") for i in range(n)]
    times: list[float] = []
    cpu: list[float] = []
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            state, _ = GAME.apply(state, {None: GAME.chance(state, dice)})
            continue
        step = {}
        for seat in sorted(prompt.seats):
            start, start_cpu = time.perf_counter(), time.process_time()
            step[seat] = _act(strategies[seat], GAME.view(state, seat), seat, rngs[seat])
            if strategies[seat] == HARD:
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
        state, _ = GAME.apply(state, step)
    result = GAME.result(state)
    assert result is not None
    share = 1 / len(result.winners) if measured in result.winners else 0.0
    return share, (times, cpu)


def _job(args: tuple[int, Matchup, int, int]) -> tuple[int, float, Times]:
    which, matchup, seed, index = args
    share, times = play_game(matchup, seed, index)
    return which, share, times


def run_pool(games: int, seed: int, workers: int, seat_counts: Sequence[int] = SEAT_COUNTS,
             only: Sequence[str] = (), progress: TextIO | None = sys.stderr, out: TextIO = sys.stdout) -> int:
    table = [m for m in matchups(seat_counts) if not only or any(o in m.seats for o in only)]
    jobs = [(w, m, seed, i) for w, m in enumerate(table) for i in range(games)]
    tallies = [Tally() for _ in table]
    try:
        for which, share, times in played(_job, jobs, workers, progress):
            t = tallies[which]
            t.games, t.share = t.games + 1, t.share + share
            t.hard_ms.extend(times[0])
            t.hard_cpu_ms.extend(times[1])
    except KeyboardInterrupt:  # a long run stopped by hand still prints what it has (games column)
        out.write("interrupted: the figures below hold the games played so far\n")
    out.write(format_pool(table, tallies, games, seed))
    return 0


def format_pool(table: Sequence[Matchup], tallies: Sequence[Tally], games: int, seed: int) -> str:
    lines = [f"binomial pool: {games} games per matchup, seed {seed}",
             f"{'matchup':<40} {'games':>6} {'share':>7} {'95% CI':>13} {'parity':>6} {'target':>7}  verdict"]
    worst: dict[int, tuple[float, float, str]] = {}
    for m, t in zip(table, tallies, strict=True):
        p = t.share / t.games if t.games else 0.0
        low, high = wilson(t.share, t.games)
        target, verdict = "", ""
        if m.target is not None:
            target = f"{'<=' if m.at_most else '>='}{m.target:.2f}"
            ok = p <= m.target if m.at_most else p >= m.target
            verdict = "ok" if ok else f"MISSED by {abs(p - m.target):.3f}"
        lines.append(f"{m.title:<40} {t.games:>6} {p:>7.3f} {low:>6.3f}-{high:.3f} {1 / len(m.seats):>6.2f} "
                     f"{target:>7}  {verdict}")
        if m.seats[0] == HARD:
            n = len(m.seats)
            if n not in worst or p < worst[n][0]:
                worst[n] = (p, low, m.seats[1])
    lines.append("")
    for n in sorted(worst):
        p, low, name = worst[n]
        lines.append(f"worst case, {n} seats: hard {p:.3f} (95% CI from {low:.3f}) against {name} "
                     f"(parity {1 / n:.2f})")
    all_ms = [ms for t in tallies for ms in t.hard_ms]
    all_cpu = [ms for t in tallies for ms in t.hard_cpu_ms]
    lines.append(f"hard decision time over {len(all_ms)} decisions: p50 {percentile(all_ms, 0.5):.2f} ms, "
                 f"p99 {percentile(all_ms, 0.99):.2f} ms, max {max(all_ms, default=0.0):.1f} ms; CPU time p99 "
                 f"{percentile(all_cpu, 0.99):.2f} ms (target p99 < 200; load average {os.getloadavg()[0]:.1f})")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_strength --game binomial --pool",
                                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pool", action="store_true", help="(accepted: this is the pool)")
    parser.add_argument("--games", type=int, default=1000, help="games per matchup (1000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, nargs="+", choices=SEAT_COUNTS, default=list(SEAT_COUNTS))
    parser.add_argument("--only", nargs="+", default=[], help="only matchups with these strategies")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.only) - set(POOL) - {HARD})
    if unknown:
        parser.error(f"unknown strategy {unknown[0]!r}; the pool: {', '.join(POOL)}")
    return run_pool(args.games, args.seed, args.workers, args.seats, args.only)


if __name__ == "__main__":
    sys.exit(main())
