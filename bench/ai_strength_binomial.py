"""How strong are Binomial's AI levels? ``python -m bench.ai_strength_binomial [--games N] [--seed S]``.

Four-seat games of hard against three normal and of normal against three easy, the lead level rotating
through the seats. Prints the lead level's win share (shared wins split) with its 95% Wilson interval and
the decision-time percentiles. Targets: both >= 0.40 (parity 0.25), p99 < 200 ms. It reports, it never asserts.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from bench.common import percentile
from bot.games.binomial.game import GAME
from bot.terminal.arena import wilson

MATCHUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("hard vs 3 normal", ("hard", "normal", "normal", "normal")),
    ("normal vs 3 easy", ("normal", "easy", "easy", "easy")),
)
TARGET = 0.40


def play_one(levels: Sequence[str], seed: int, options: Mapping[str, Any] | None = None,
             times: list[float] | None = None, cpu: list[float] | None = None) -> tuple[float, ...]:
    """One game among AI seats; each seat's share of the win (ties split). Decision times (ms) go to
    ``times`` (wall clock) and ``cpu`` (this process's CPU time: what the decision costs on a loaded box)."""
    state = GAME.setup(len(levels), options or {}, seed)
    dice = Random(f"dice:{seed}")
    rngs = [Random(f"ai:{seed}:{s}") for s in range(len(levels))]
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            step: dict[int | None, Mapping[str, Any]] = {None: GAME.chance(state, dice)}
        else:
            step = {}
            for seat in sorted(prompt.seats):
                start, start_cpu = time.perf_counter(), time.process_time()
                step[seat] = GAME.ai(GAME.view(state, seat), seat, levels[seat], rngs[seat])
                if times is not None:
                    times.append((time.perf_counter() - start) * 1000)
                if cpu is not None:
                    cpu.append((time.process_time() - start_cpu) * 1000)
        state, _ = GAME.apply(state, step)
    result = GAME.result(state)
    assert result is not None
    return tuple(1 / len(result.winners) if s in result.winners else 0.0 for s in range(len(levels)))


def run(seats: Sequence[str], games: int, seed: int) -> dict[str, float]:
    wins = 0.0
    times: list[float] = []
    cpu: list[float] = []
    lead = seats[0]
    for g in range(games):
        shift = g % len(seats)  # rotate: the lead level sits in every seat in turn
        levels = list(seats[-shift:]) + list(seats[:-shift]) if shift else list(seats)
        lead_seat = shift
        share = play_one(levels, seed * 100_003 + g, times=times, cpu=cpu)
        wins += share[lead_seat]
    low, high = wilson(wins, games)
    return {"level": lead, "games": games, "win_share": wins / games, "ci95_low": low, "ci95_high": high,
            "decision_ms_p50": percentile(times, 50), "decision_ms_p99": percentile(times, 99),
            "decision_cpu_ms_p99": percentile(cpu, 99)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_strength_binomial", description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for title, seats in MATCHUPS:
        figures = run(seats, args.games, args.seed)
        print(f"{title}: {args.games} games, seed {args.seed}: {figures['level']} win share "
              f"{figures['win_share']:.3f} (95% CI {figures['ci95_low']:.3f}-{figures['ci95_high']:.3f}); "
              f"target {TARGET:.2f}, parity {1 / len(seats):.2f}; decisions p50 "
              f"{figures['decision_ms_p50']:.2f} ms, p99 {figures['decision_ms_p99']:.2f} ms "
              f"(CPU time p99 {figures['decision_cpu_ms_p99']:.2f} ms; load average {os.getloadavg()[0]:.1f})",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
