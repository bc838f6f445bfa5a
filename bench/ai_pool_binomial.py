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
import sys
from collections.abc import Sequence
from dataclasses import replace
from random import Random
from typing import TextIO

from bench.ai_pool import stop_prints
from bench.ai_pool_binomial_players import POOL
from bench.pool_runner import HARD, Matchup, Times, decide, pool_matchups, selected
from bench.pool_runner import run_pool as run_table
from bot.games.binomial.game import GAME

SEAT_COUNTS = (2, 3, 4, 5)
TARGET_SEATS = {2: 0.50, 4: 0.40}  # hard's share against a full table of one strategy
# Against the strong simulation player and the reader that runs hard's own code, issue 40 asks 0.55 heads-up
# and 0.30 at 4 seats; the pool's own 4-seat target is stricter and stays.
STRONG = ("monte_carlo", "reader")
TARGET_STRONG = {2: 0.55, 4: 0.40}
READER = "responder"
READER_TARGET = 0.35  # the responder with three hard seats wins at most this share


def matchups(seat_counts: Sequence[int] = SEAT_COUNTS) -> list[Matchup]:
    table = pool_matchups(list(POOL), seat_counts, TARGET_SEATS.get, READER, READER_TARGET)
    return [replace(m, target=TARGET_STRONG.get(len(m.seats))) if m.seats[0] == HARD and m.seats[1] in STRONG
            else m for m in table]


def play_game(matchup: Matchup, seed: int, index: int) -> tuple[float, Times]:
    """One game, the measured seat rotating round the table: its win share and hard's decision times."""
    strategies, measured = matchup.seated(index)
    n = len(strategies)
    game_seed = seed * 1_000_003 + index  # the same deals for every matchup: a paired comparison
    state = GAME.setup(n, {}, game_seed)
    dice = Random(f"binomial-pool-dice:{game_seed}")
    rngs = [Random(f"binomial-pool:{seed}:{matchup.title}:{index}:{i}") for i in range(n)]
    times = Times()
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            state, _ = GAME.apply(state, {None: GAME.chance(state, dice)})
            continue
        step = {seat: decide(strategies[seat], POOL, GAME.ai, GAME.view(state, seat), seat, rngs[seat], times)
                for seat in sorted(prompt.seats)}
        state, _ = GAME.apply(state, step)
    result = GAME.result(state)
    assert result is not None
    share = 1 / len(result.winners) if measured in result.winners else 0.0
    return share, times


def run_pool(games: int, seed: int, workers: int, seat_counts: Sequence[int] = SEAT_COUNTS,
             only: Sequence[str] = (), progress: TextIO | None = sys.stderr, out: TextIO = sys.stdout) -> int:
    return run_table(f"binomial pool: {games} games per matchup, seed {seed}", play_game,
                     selected(matchups(seat_counts), only), games, seed, workers, progress, out)


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
    stop_prints()
    unknown = sorted(set(args.only) - set(POOL) - {HARD})
    if unknown:
        parser.error(f"unknown strategy {unknown[0]!r}; the pool: {', '.join(POOL)}")
    return run_pool(args.games, args.seed, args.workers, args.seats, args.only)


if __name__ == "__main__":
    sys.exit(main())
