"""Numeri's bench pool: every strategy plays legal moves to the end from the public view (figures: bench/)."""

from __future__ import annotations

from io import StringIO
from random import Random

import pytest

from bench.ai_pool_numeri import Matchup, matchups, play_game, run_pool
from bench.ai_pool_numeri_players import POOL
from bench.pool_runner import format_pool
from bot.games.numeri import ai, ai_rollout, engine
from bot.games.numeri.engine import Choice, State
from bot.games.numeri.game import GAME
from bot.games.numeri.rules import barrier_for
from bot.games.numeri.view import NumeriView

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


def _plain_reader(view: NumeriView, seat: int, rng: Random) -> Choice:
    """The reader as first written (hard asked on every face of every choice): the pool's reader, which asks
    hard only where the answer can change its decision, must decide as this does and draw as this does."""
    state = view.state()
    legal = engine.legal_choices(state.positions, state.seats, state.current, state.roll)
    if len(legal) == 1:
        return legal[0]
    seeds = [rng.getrandbits(32) for _ in range(8)]

    def share(totals: list[int] | tuple[int, ...]) -> float:
        return 1 / totals.count(max(totals)) if totals[seat] == max(totals) else 0.0

    best, best_value = legal[0], -1.0
    for choice in legal:
        after, moved = engine.move(state, choice)
        if moved.ended or moved.extra_turn or after.current == seat:
            if moved.ended:
                value = share(engine.scores(after.positions))
            else:
                value = 0.0
                for s in seeds:
                    board = ai_rollout.Board(after.positions, after.seats, barrier_for(after.seats))
                    ai_rollout.play_out(board, after.current, Random(s), ai.ROLLOUT_LIMIT)
                    value += share(board.points)
                value /= len(seeds)
        else:
            value = 0.0
            for face in (1, 2, 3, 4, 5, "*"):
                rolled, event = engine.roll(after, face)
                if isinstance(event, engine.Passed):
                    nxt = rolled
                else:
                    nxt, done = engine.move(rolled, ai.hard(rolled, Random(rng.getrandbits(32))))
                    if done.ended:
                        value += share(engine.scores(nxt.positions)) / 6
                        continue
                for s in seeds:
                    board = ai_rollout.Board(nxt.positions, nxt.seats, barrier_for(nxt.seats))
                    ai_rollout.play_out(board, nxt.current, Random(s), ai.ROLLOUT_LIMIT)
                    value += share(board.points) / len(seeds) / 6
        if value > best_value:
            best, best_value = choice, value
    return best


@pytest.mark.parametrize("seats", [2, 4])
def test_the_reader_decides_and_draws_as_the_plain_reader(seats: int) -> None:
    states: list[State] = []

    def normal(state: State, rng: Random) -> list[int]:
        if len(GAME.legal(state, state.current)) > 1:
            states.append(state)
        return list(ai.normal(state))

    play_numeri(seats, 7, normal)
    # the end, where hard searches and most of the reader's work is saved, and two throws from the long game
    for index, state in enumerate([*states[-4:], states[len(states) // 2], states[5]]):
        view = GAME.view(state, state.current)
        fast, plain = Random(index), Random(index)
        assert POOL["reader"](view, state.current, fast) == _plain_reader(view, state.current, plain)
        assert fast.getstate() == plain.getstate()
