"""The Number's bench pool: every strategy writes legal numbers from the public view (figures: bench/)."""

from __future__ import annotations

import random
from io import StringIO

import pytest

from bench.ai_pool import Matchup, play_game, run_pool
from bench.ai_pool_players import POOL
from bot.games.thenumber.engine import new_game, play_turn, public_view, validate_choice


def test_the_pool_holds_the_simple_habits_the_product_levels_and_the_readers_of_hard() -> None:
    assert len(POOL) >= 8
    assert {"high_repeat", "easy", "normal", "monte_carlo", "best_responder", "predictor", "predictor_1",
            "predictor_4"} <= set(POOL)


@pytest.mark.parametrize("name", sorted(POOL))
def test_every_pool_strategy_writes_a_legal_number(name: str) -> None:
    state = new_game(["p0", "p1", "p2"])
    rng = random.Random(name)
    for _ in range(3):
        view = public_view(state)
        numbers = {p: validate_choice(state, p, POOL[name](view, p, rng)) for p in view.players}
        state, _ = play_turn(state, numbers)


def test_a_pool_run_prints_its_matchup_and_the_worst_case() -> None:
    out = StringIO()
    run_pool(2, 1, 1, seat_counts=(2,), only=("predictor_1",), progress=None, out=out)
    text = out.getvalue()
    assert "hard vs 1 predictor_1 (2 seats)" in text and "worst case, 2 seats" in text


def test_a_pool_game_gives_the_measured_seat_a_share() -> None:
    assert 0.0 <= play_game(Matchup(("hard", "cheap_low"), 0.5), 1, 0)[0] <= 1.0


def test_the_measured_seat_moves_round_the_table_and_keeps_its_strategy() -> None:
    matchup = Matchup(("hard", "easy", "uniform"))
    for index in range(6):
        strategies, measured = matchup.seated(index)
        assert strategies[measured] == "hard" and sorted(strategies) == sorted(matchup.seats)
    assert {matchup.seated(i)[1] for i in range(3)} == {0, 1, 2}
