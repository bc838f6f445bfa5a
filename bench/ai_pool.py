"""The hard level against the opponent pool of :mod:`bench.ai_pool_players`, in 2 to 5 seats.

For each seat count and each pool strategy, one hard seat plays the rest of the table filled with that
strategy; and a best responder sits with three hard seats. Figures are fractional win shares (a win
shared by k players counts 1/k) with 95% Wilson intervals; hard's decision times are gathered over every
game. Each game depends only on (seed, matchup, game index), so the figures do not depend on the worker
count. Hard draws from its own secret generator, which the readers in the pool never see.
"""

import random
import signal
import sys
from collections.abc import Sequence
from typing import TextIO

from bench.ai_pool_players import POOL
from bench.pool_runner import Matchup, Times, decide, pool_matchups, selected
from bench.pool_runner import run_pool as run_table
from bot.games.thenumber.ai import choose_number
from bot.games.thenumber.engine import new_game, play_turn, public_view

SEAT_COUNTS = (2, 3, 4, 5)
TARGET_SEATS = {2: 0.50, 4: 0.40}  # hard's share against a full table of one strategy; others are reported
READER_TARGET = 0.35  # a best responder with three hard seats wins at most this share


def matchups(seat_counts: Sequence[int] = SEAT_COUNTS) -> list[Matchup]:
    return pool_matchups(list(POOL), seat_counts, TARGET_SEATS.get, "best_responder", READER_TARGET)


def play_game(matchup: Matchup, seed: int, index: int) -> tuple[float, Times]:
    """One game, the measured seat rotating round the table: its win share and hard's decision times."""
    strategies, measured = matchup.seated(index)
    names = [f"p{i}" for i in range(len(strategies))]
    # Secret generators, one per seat and game: nothing another seat can see or compute.
    rngs = [random.Random(f"pool:{seed}:{matchup.title}:{index}:{i}") for i in range(len(names))]
    state = new_game(names)
    times = Times()
    while not state.finished:
        view = public_view(state)
        numbers = {}
        for i, name in enumerate(names):
            if name in view.exhausted:
                continue
            numbers[name] = decide(strategies[i], POOL, choose_number, view, name, rngs[i], times)
        state, _ = play_turn(state, numbers)
    winners = state.winners()
    share = 1 / len(winners) if names[measured] in winners else 0.0
    return share, times


def run_pool(games: int, seed: int, workers: int, seat_counts: Sequence[int] = SEAT_COUNTS,
             only: Sequence[str] = (), progress: TextIO | None = sys.stderr, out: TextIO = sys.stdout) -> int:
    return run_table(f"pool: {games} games per matchup, seed {seed}", play_game,
                     selected(matchups(seat_counts), only), games, seed, workers, progress, out)


def stop_prints() -> None:
    """Lets a run started in the background be stopped and still print what it has: a shell without job
    control starts background commands with SIGINT ignored (so Ctrl-C's KeyboardInterrupt never came and a
    long run could only be killed, losing every figure); SIGINT and SIGTERM now raise KeyboardInterrupt,
    which the pool's runner catches to print the games played so far."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
