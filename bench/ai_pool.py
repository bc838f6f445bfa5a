"""The hard level against the opponent pool of :mod:`bench.ai_pool_players`, in 2 to 5 seats.

For each seat count and each pool strategy, one hard seat plays the rest of the table filled with that
strategy; and a best responder sits with three hard seats. Figures are fractional win shares (a win
shared by k players counts 1/k) with 95% Wilson intervals; hard's decision times are gathered over every
game. Each game depends only on (seed, matchup, game index), so the figures do not depend on the worker
count. Hard draws from its own secret generator, which the readers in the pool never see.
"""

import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from bench.ai_pool_players import POOL
from bench.pool_runner import played
from bot.games.thenumber.ai import choose_number
from bot.games.thenumber.engine import PublicView, new_game, play_turn, public_view
from bot.terminal.arena import percentile, wilson

HARD = "hard"
SEAT_COUNTS = (2, 3, 4, 5)
# (seats, role whose win share is measured, target) for the targets; others are reported only.
TARGET_SEATS = {2: 0.50, 4: 0.40}
READER_TARGET = 0.35  # a best responder with three hard seats wins at most this share


@dataclass(frozen=True)
class Matchup:
    seats: tuple[str, ...]  # strategy of each seat, the measured one first
    target: float | None
    at_most: bool = False  # the target is a ceiling (for the reader), not a floor

    @property
    def title(self) -> str:
        rest = self.seats[1:]
        return f"{self.seats[0]} vs {len(rest)} {rest[0]} ({len(self.seats)} seats)"


@dataclass
class Tally:
    games: int = 0
    share: float = 0.0
    hard_ms: list[float] = field(default_factory=list)


def matchups(seat_counts: Sequence[int] = SEAT_COUNTS) -> list[Matchup]:
    out = [Matchup((HARD, *(name,) * (n - 1)), TARGET_SEATS.get(n)) for n in seat_counts for name in POOL]
    if 4 in seat_counts:
        out.append(Matchup(("best_responder", HARD, HARD, HARD), READER_TARGET, at_most=True))
    return out


def _choose(strategy: str, view: PublicView, name: str, rng: random.Random) -> str:
    if strategy == HARD:
        return choose_number(view, name, HARD, rng)
    return POOL[strategy](view, name, rng)


def play_game(matchup: Matchup, seed: int, index: int) -> tuple[float, list[float]]:
    """One game, the measured seat rotating round the table: its win share and hard's decision times."""
    n = len(matchup.seats)
    k = index % n
    strategies = matchup.seats[k:] + matchup.seats[:k]  # the measured seat sits at position (n - k) % n
    measured = (n - k) % n
    names = [f"p{i}" for i in range(n)]
    # Secret generators, one per seat and game: nothing another seat can see or compute.
    rngs = [random.Random(f"pool:{seed}:{matchup.title}:{index}:{i}") for i in range(n)]
    state = new_game(names)
    times: list[float] = []
    while not state.finished:
        view = public_view(state)
        numbers = {}
        for i, name in enumerate(names):
            if name in view.exhausted:
                continue
            start = time.perf_counter()
            numbers[name] = _choose(strategies[i], view, name, rngs[i])
            if strategies[i] == HARD:
                times.append((time.perf_counter() - start) * 1000)
        state, _ = play_turn(state, numbers)
    winners = state.winners()
    share = 1 / len(winners) if names[measured] in winners else 0.0
    return share, times


def _job(args: tuple[int, Matchup, int, int]) -> tuple[int, float, list[float]]:
    which, matchup, seed, index = args
    share, times = play_game(matchup, seed, index)
    return which, share, times


def run_pool(games: int, seed: int, workers: int, seat_counts: Sequence[int] = SEAT_COUNTS,
             only: Sequence[str] = (), progress: TextIO | None = sys.stderr, out: TextIO = sys.stdout) -> int:
    table = [m for m in matchups(seat_counts) if not only or any(o in m.seats for o in only)]
    jobs = [(w, m, seed, i) for w, m in enumerate(table) for i in range(games)]
    tallies = [Tally() for _ in table]
    for which, share, times in played(_job, jobs, workers, progress):
        t = tallies[which]
        t.games, t.share = t.games + 1, t.share + share
        t.hard_ms.extend(times)
    out.write(format_pool(table, tallies, games, seed))
    return 0


def format_pool(table: Sequence[Matchup], tallies: Sequence[Tally], games: int, seed: int) -> str:
    lines = [f"pool: {games} games per matchup, seed {seed}",
             f"{'matchup':<42} {'games':>6} {'share':>7} {'95% CI':>13} {'parity':>6} {'target':>8}  verdict"]
    worst: dict[int, tuple[float, str]] = {}
    for m, t in zip(table, tallies, strict=True):
        p = t.share / t.games if t.games else 0.0
        low, high = wilson(t.share, t.games)
        target, verdict = "", ""
        if m.target is not None:
            target = f"{'<=' if m.at_most else '>='}{m.target:.2f}"
            ok = p <= m.target if m.at_most else p >= m.target
            verdict = "ok" if ok else f"MISSED by {abs(p - m.target):.3f}"
        lines.append(f"{m.title:<42} {t.games:>6} {p:>7.3f} {low:>6.3f}-{high:.3f} {1 / len(m.seats):>6.2f} "
                     f"{target:>8}  {verdict}")
        if m.seats[0] == HARD:
            n = len(m.seats)
            if n not in worst or p < worst[n][0]:
                worst[n] = (p, m.seats[1])
    lines.append("")
    for n in sorted(worst):
        p, name = worst[n]
        lines.append(f"worst case, {n} seats: hard {p:.3f} against {name} (parity {1 / n:.2f})")
    all_ms = [ms for t in tallies for ms in t.hard_ms]
    lines.append(f"hard decision time over {len(all_ms)} decisions: p50 {percentile(all_ms, 0.5):.1f} ms, "
                 f"p99 {percentile(all_ms, 0.99):.1f} ms, max {max(all_ms, default=0.0):.1f} ms (target p99 < 200)")
    return "\n".join(lines) + "\n"
