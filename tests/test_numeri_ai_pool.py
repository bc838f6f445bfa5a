"""Numeri's bench pool: every strategy plays legal moves to the end from the public view (figures: bench/)."""

from __future__ import annotations

from io import StringIO
from random import Random

import pytest

from bench.ai_pool_numeri import Matchup, matchups, play_game, run_pool
from bench.ai_pool_numeri_players import POOL
from bench.pool_runner import format_pool
from bot.games.numeri.engine import State
from bot.games.numeri.game import GAME

from .numeri_helpers import play_game as play_numeri


def test_the_pool_holds_at_least_eight_strategies_and_every_seat_count() -> None:
    assert len(POOL) >= 8
    table = matchups()
    assert {len(m.seats) for m in table} == {2, 3, 4}
    assert all(m.seats[0] == "hard" for m in table)


@pytest.mark.parametrize("name", sorted(POOL))
def test_every_pool_strategy_picks_a_legal_choice_to_the_end(name: str) -> None:
    def policy(state: State, rng: Random) -> list[int]:
        choice = POOL[name](GAME.view(state, state.current), state.current, Random(state.throws))
        assert {"moves": list(choice)} in GAME.legal(state, state.current)
        return list(choice)

    assert play_numeri(3, 5, policy).over


def test_a_pool_game_rotates_the_measured_seat_and_reports_a_share() -> None:
    matchup = Matchup(("normal", "random", "random"))
    shares = [play_game(matchup, 1, index)[0] for index in range(3)]
    assert all(0.0 <= s <= 1.0 for s in shares)


def test_the_pool_report_names_the_worst_case() -> None:
    out = StringIO()
    assert run_pool(1, 1, 1, (2,), ["random"], progress=None, out=out) == 0
    report = out.getvalue()
    assert "hard vs 1 random (2 seats)" in report and "worst case, 2 seats" in report
    assert "p99" in format_pool("numeri pool", [], [])
