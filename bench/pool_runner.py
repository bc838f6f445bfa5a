"""What every game's AI pool shares: its matchups, the seat rotation, the run (in forked worker processes
when asked, with a progress line) and the report of win shares, worst cases and hard's decision times."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from random import Random
from typing import Any, TextIO, TypeVar

from bot.terminal.arena import percentile, wilson

HARD = "hard"
J = TypeVar("J")
R = TypeVar("R")


@dataclass(frozen=True)
class Matchup:
    seats: tuple[str, ...]  # each seat's strategy, the measured one first, then the others
    target: float | None = None
    at_most: bool = False  # the target is a ceiling (a reader's share), not a floor

    @property
    def title(self) -> str:
        rest = self.seats[1:]
        return f"{self.seats[0]} vs {len(rest)} {rest[0]} ({len(self.seats)} seats)"

    def seated(self, index: int) -> tuple[tuple[str, ...], int]:
        """Game ``index``'s strategy per seat and the measured seat: it moves round the table game by game."""
        n = len(self.seats)
        k = index % n
        return self.seats[k:] + self.seats[:k], (n - k) % n


@dataclass
class Times:
    """Hard's decision times (ms): wall clock, and this process's CPU time (what a decision costs on a
    shared machine)."""
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def timed(self, decide: Callable[[], R]) -> R:
        start, start_cpu = time.perf_counter(), time.process_time()
        choice = decide()
        self.wall.append((time.perf_counter() - start) * 1000)
        self.cpu.append((time.process_time() - start_cpu) * 1000)
        return choice


PlayGame = Callable[[Matchup, int, int], tuple[float, Times]]  # (matchup, seed, index) -> share, hard's times


def pool_matchups(names: Sequence[str], seat_counts: Sequence[int], target: Callable[[int], float | None],
                  reader: str | None = None, reader_target: float | None = None) -> list[Matchup]:
    """Hard against a full table of each strategy in each seat count (``target(seats)``: hard's floor), and,
    with 4 seats, ``reader`` with three hard seats (``reader_target``: its ceiling)."""
    out = [Matchup((HARD, *(name,) * (n - 1)), target(n)) for n in seat_counts for name in names]
    if reader is not None and 4 in seat_counts:
        out.append(Matchup((reader, HARD, HARD, HARD), reader_target, at_most=True))
    return out


def decide(strategy: str, pool: Mapping[str, Callable[..., R]], hard: Callable[..., R], view: Any, who: Any,
           rng: Random, times: Times) -> R:
    """A seat's choice: ``hard(view, who, "hard", rng)``, timed, or the pool strategy's ``(view, who, rng)``."""
    if strategy == HARD:
        return times.timed(lambda: hard(view, who, HARD, rng))
    return pool[strategy](view, who, rng)


@dataclass
class Tally:
    games: int = 0
    share: float = 0.0
    times: Times = field(default_factory=Times)


def selected(table: Sequence[Matchup], only: Sequence[str]) -> list[Matchup]:
    """The matchups that seat one of ``only`` (all of them when it is empty)."""
    return [m for m in table if not only or any(o in m.seats for o in only)]


def _results(job: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    if workers <= 1:
        yield from map(job, jobs)
        return
    with get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(job, jobs, chunksize=10)


def played(job: Callable[[J], R], jobs: Sequence[J], workers: int,
           progress: TextIO | None = sys.stderr) -> Iterator[R]:
    """``job(j)`` for every job (in completion order with workers; ``job`` must be a module-level function),
    writing how far the run is to ``progress`` about 200 times."""
    started = time.monotonic()
    step = max(1, len(jobs) // 200)
    try:
        for done, result in enumerate(_results(job, jobs, workers), start=1):
            yield result
            if progress is not None and (done % step == 0 or done == len(jobs)):
                elapsed = time.monotonic() - started
                progress.write(f"\r{done}/{len(jobs)} games, {elapsed:.0f} s, "
                               f"about {elapsed / done * (len(jobs) - done):.0f} s left   ")
                progress.flush()
    finally:
        if progress is not None:
            progress.write("\n")


def _job(args: tuple[PlayGame, int, Matchup, int, int]) -> tuple[int, float, Times]:
    play_game, which, matchup, seed, index = args
    share, times = play_game(matchup, seed, index)
    return which, share, times


def run_pool(heading: str, play_game: PlayGame, table: Sequence[Matchup], games: int, seed: int, workers: int,
             progress: TextIO | None = sys.stderr, out: TextIO = sys.stdout) -> int:
    """Plays ``games`` games of every matchup and writes the report. Each game depends only on (seed,
    matchup, game index), so the figures do not depend on the worker count."""
    jobs = [(play_game, w, m, seed, i) for w, m in enumerate(table) for i in range(games)]
    tallies = [Tally() for _ in table]
    try:
        for which, share, times in played(_job, jobs, workers, progress):
            t = tallies[which]
            t.games, t.share = t.games + 1, t.share + share
            t.times.wall.extend(times.wall)
            t.times.cpu.extend(times.cpu)
    except KeyboardInterrupt:  # a long run stopped by hand still prints what it has (games column)
        out.write("interrupted: the figures below hold the games played so far\n")
    out.write(format_pool(heading, table, tallies))
    return 0


def format_pool(heading: str, table: Sequence[Matchup], tallies: Sequence[Tally]) -> str:
    """One row per matchup (share, 95% Wilson interval, parity, target, verdict), hard's worst case per seat
    count and its decision-time percentiles."""
    width = max((len(m.title) for m in table), default=0) + 2
    lines = [heading,
             f"{'matchup':<{width}} {'games':>6} {'share':>7} {'95% CI':>13} {'parity':>6} {'target':>7}  verdict"]
    worst: dict[int, tuple[float, Matchup, str]] = {}
    for m, t in zip(table, tallies, strict=True):
        p = t.share / t.games if t.games else 0.0
        low, high = wilson(t.share, t.games)
        interval = f"{low:.3f}-{high:.3f}"
        target, verdict = "", ""
        if m.target is not None:
            target = f"{'<=' if m.at_most else '>='}{m.target:.2f}"
            ok = p <= m.target if m.at_most else p >= m.target
            verdict = "ok" if ok else f"MISSED by {abs(p - m.target):.3f}"
        lines.append(f"{m.title:<{width}} {t.games:>6} {p:>7.3f} {interval:>13} {1 / len(m.seats):>6.2f} "
                     f"{target:>7}  {verdict}")
        n = len(m.seats)
        if m.seats[0] == HARD and (n not in worst or p < worst[n][0]):
            worst[n] = (p, m, interval)
    lines.append("")
    for n in sorted(worst):
        p, m, interval = worst[n]
        target = f", target >= {m.target:.2f}" if m.target is not None else ""
        lines.append(f"worst case, {n} seats: hard {p:.3f} (95% CI {interval}) against {m.seats[1]} "
                     f"(parity {1 / n:.2f}{target})")
    wall = [ms for t in tallies for ms in t.times.wall]
    cpu = [ms for t in tallies for ms in t.times.cpu]
    lines.append(f"hard decision time over {len(wall)} decisions: p50 {percentile(wall, 0.5):.1f} ms, "
                 f"p99 {percentile(wall, 0.99):.1f} ms, max {max(wall, default=0.0):.1f} ms; CPU time p99 "
                 f"{percentile(cpu, 0.99):.1f} ms (target p99 < 200; load average {os.getloadavg()[0]:.1f})")
    return "\n".join(lines) + "\n"
