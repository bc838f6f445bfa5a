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
from collections.abc import Sequence
from random import Random
from typing import TextIO

from bench.ai_pool import stop_prints
from bench.ai_pool_numeri_players import POOL
from bench.pool_runner import Matchup, Times, decide, pool_matchups, selected
from bench.pool_runner import run_pool as run_table
from bot.games.numeri import ai
from bot.games.numeri.game import GAME, die_rng

SEAT_COUNTS = (2, 3, 4)
MARGIN = 0.05  # hard's share should beat parity by at least this much against every strategy


def matchups(seat_counts: Sequence[int] = SEAT_COUNTS) -> list[Matchup]:
    return pool_matchups(list(POOL), seat_counts, lambda n: 1 / n + MARGIN)


def play_game(matchup: Matchup, seed: int, index: int) -> tuple[float, Times]:
    """One game, the measured seat rotating round the table: its win share and hard's decision times."""
    strategies, measured = matchup.seated(index)
    game_seed = _game_seed(seed, matchup, index)
    rngs = [Random(f"numeri-pool:{seed}:{matchup.title}:{index}:{i}") for i in range(len(strategies))]
    state = GAME.setup(len(strategies), {}, game_seed)
    times = Times()
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            state, _ = GAME.apply(state, {None: GAME.chance(state, die_rng(game_seed, state.throws))})
            continue
        seat = state.current
        choice = decide(strategies[seat], POOL, ai.choose, GAME.view(state, seat), seat, rngs[seat], times)
        state, _ = GAME.apply(state, {seat: {"moves": list(choice)}})
    result = GAME.result(state)
    assert result is not None
    share = 1 / len(result.winners) if measured in result.winners else 0.0
    return share, times


def _game_seed(seed: int, matchup: Matchup, index: int) -> int:
    """A game's seed from the run's seed and the game index (the same dice for every strategy)."""
    return seed * 1_000_003 + len(matchup.seats) * 100_000 + index


def run_pool(games: int, seed: int, workers: int, seat_counts: Sequence[int] = SEAT_COUNTS,
             only: Sequence[str] = (), progress: TextIO | None = sys.stderr, out: TextIO = sys.stdout) -> int:
    return run_table(f"numeri pool: {games} games per matchup, seed {seed}; target parity + {MARGIN:.2f}",
                     play_game, selected(matchups(seat_counts), only), games, seed, workers, progress, out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_pool_numeri", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seats", type=int, nargs="+", choices=SEAT_COUNTS, default=list(SEAT_COUNTS))
    parser.add_argument("--only", nargs="+", default=[], choices=list(POOL), help="only these strategies")
    args = parser.parse_args(argv)
    stop_prints()
    return run_pool(args.games, args.seed, args.workers, args.seats, args.only)


if __name__ == "__main__":
    sys.exit(main())
