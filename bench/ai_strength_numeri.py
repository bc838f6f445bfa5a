"""How strong are Numeri's AI levels? ``python -m bench.ai_strength_numeri [--games N] [--seed S] [--workers W]``.

(Also ``python -m bench.ai_strength --game numeri``; with ``--pool``, hard against the opponent pool of
:mod:`bench.ai_pool_numeri`.)

Plays 4-seat games of the tested level against three of the level below (hard vs 3 normal, normal vs 3
easy), rotating the tested player's seat, through ``GAME`` exactly as the bot runs it. Prints the tested
level's win share (a tie shares the win) with its 95% Wilson interval, and decision-time percentiles.
Parity is 0.25; targets: share >= 0.40, p99 < 200 ms. It reports, it never asserts.

``--simple`` also plays hard against simple strategies that are not AI levels (``front``: always move the
token furthest along; ``enter``: bring new tokens on first, else move the one furthest behind; ``random``)
in 2-, 3- and 4-seat games (hard against one, two or three of them; parity 1/seats).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from random import Random
from typing import Any

from bench.common import percentile
from bot.games.numeri.engine import State
from bot.games.numeri.game import GAME, die_rng

MATCHUPS: tuple[tuple[str, str], ...] = (("hard", "normal"), ("normal", "easy"))
TARGET = 0.40

Strategy = Callable[[State, Random], dict[str, Any]]


def _start(state: State, moves: Sequence[int]) -> int:
    """Where the first token of ``moves`` stands now (0: off the board)."""
    return state.positions[state.current][moves[0] - 1] or 0


def front(state: State, rng: Random) -> dict[str, Any]:
    """Always move the token furthest along (a single move before a split)."""
    return max(GAME.legal(state, state.current), key=lambda a: (_start(state, a["moves"]), -len(a["moves"])))


def enter(state: State, rng: Random) -> dict[str, Any]:
    """Bring new tokens onto the board first, else move the token furthest behind."""
    return min(GAME.legal(state, state.current), key=lambda a: (_start(state, a["moves"]), len(a["moves"])))


def random_move(state: State, rng: Random) -> dict[str, Any]:
    return rng.choice(list(GAME.legal(state, state.current)))


SIMPLE: dict[str, Strategy] = {"front": front, "enter": enter, "random": random_move}


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def decide(level: str, state: State, rng: Random) -> dict[str, Any]:
    """An AI level's action (from the public view) or a simple strategy's."""
    if level in SIMPLE:
        return SIMPLE[level](state, rng)
    return GAME.ai(GAME.view(state, state.current), state.current, level, rng)


def play(levels: Sequence[str], seed: int, times: dict[str, list[float]]) -> dict[int, float]:
    """One game; returns each seat's share of the win."""
    state = GAME.setup(len(levels), {}, seed)
    rng = Random(f"bench:{seed}")
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            state, _ = GAME.apply(state, {None: GAME.chance(state, die_rng(seed, state.throws))})
            continue
        seat = state.current
        started, cpu = time.perf_counter(), time.thread_time()
        action = decide(levels[seat], state, rng)
        times[levels[seat]].append((time.perf_counter() - started) * 1000)
        # CPU time of the deciding thread: what the decision costs when the machine's cores are shared
        times.setdefault(f"{levels[seat]} cpu", []).append((time.thread_time() - cpu) * 1000)
        state, _ = GAME.apply(state, {seat: action})
    result = GAME.result(state)
    assert result is not None
    return {seat: 1 / len(result.winners) if seat in result.winners else 0.0 for seat in range(len(levels))}


def _one(args: tuple[str, str, int, int, int]) -> tuple[float, list[float], list[float]]:
    tested, other, seats, seed, n = args
    times: dict[str, list[float]] = {tested: [], other: []}
    seat = n % seats
    levels = [other] * seats
    levels[seat] = tested
    share = play(levels, seed * 1_000_003 + n, times)[seat]
    return share, times[tested], times.get(f"{tested} cpu", [])


def matchup(tested: str, other: str, games: int, seed: int, seats: int = 4, workers: int = 1) -> dict[str, float]:
    """Each game depends only on (seed, game index), so the figures do not depend on ``workers``."""
    jobs = [(tested, other, seats, seed, n) for n in range(games)]
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            results = pool.map(_one, jobs, chunksize=10)
    else:
        results = list(map(_one, jobs))
    share = sum(r for r, _, _ in results)
    times = {tested: [t for _, ts, _ in results for t in ts], "cpu": [t for _, _, ts in results for t in ts]}
    rate = share / games
    low, high = wilson(rate, games)
    return {"share": rate, "low": low, "high": high, "p50": percentile(times[tested], 50),
            "p99": percentile(times[tested], 99), "max": max(times[tested], default=float("nan")),
            "cpu_p99": percentile(times["cpu"], 99)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_strength_numeri", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pool", action="store_true", help="hard against the opponent pool (bench.ai_pool_numeri)")
    parser.add_argument("--simple", action="store_true", help="also play hard against simple strategies")
    parser.add_argument("--only-simple", action="store_true", help="only the simple strategies")
    words = list(sys.argv[1:] if argv is None else argv)
    if "--pool" in words:  # the pool has its own options (--seats, --only) and defaults
        from bench.ai_pool_numeri import main as pool_main
        return pool_main([w for w in words if w != "--pool"])
    args = parser.parse_args(words)
    runs = [] if args.only_simple else [(t, o, 4) for t, o in MATCHUPS]
    if args.simple or args.only_simple:
        runs += [("hard", name, seats) for name in SIMPLE for seats in (2, 3, 4)]
    for tested, other, seats in runs:
        f = matchup(tested, other, args.games, args.seed, seats, args.workers)
        target = f"target {TARGET:.2f}, " if seats == 4 and other in dict(MATCHUPS).values() else ""
        print(f"{tested} vs {seats - 1} {other}: {args.games} games, seed {args.seed}: win share "
              f"{f['share']:.3f} (95% CI {f['low']:.3f}-{f['high']:.3f}; {target}parity {1 / seats:.2f}); "
              f"{tested} decision p50 {f['p50']:.2f} ms, p99 {f['p99']:.2f} ms, max {f['max']:.2f} ms "
              f"(CPU time p99 {f['cpu_p99']:.2f} ms)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
