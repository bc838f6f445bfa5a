"""Numeri through the core protocol (bot.core.game): prompts, legal actions, parse, apply, views, result."""

from __future__ import annotations

import copy
import dataclasses
from random import Random

import pytest

from bot.core.game import Prompt, RuleError
from bot.games.numeri import engine
from bot.games.numeri.game import GAME
from bot.games.numeri.view import NumeriView

from .numeri_helpers import play_game, state_at


def test_game_attributes() -> None:
    assert (GAME.key, GAME.title, GAME.seats, GAME.ai_levels) == ("numeri", "Numeri", range(2, 5),
                                                                  ("easy", "normal", "hard"))
    assert [o.name for o in GAME.options] == ["turn_seconds", "auto_play"]  # auto_play: the table option of issue 36


def test_a_turn_is_a_die_then_an_open_move() -> None:
    state = GAME.setup(2, {}, 5)
    assert GAME.prompt(state) == Prompt(frozenset(), "die", chance=True)
    assert GAME.legal(state, state.current) == []
    state, event = GAME.apply(state, {None: {"roll": 3}})
    assert isinstance(event, engine.Rolled) and event.roll == 3
    seat = state.current
    assert GAME.prompt(state) == Prompt(frozenset({seat}), "move")
    assert GAME.legal(state, seat) == [{"moves": [3]}] and GAME.legal(state, 1 - seat) == []
    with pytest.raises(RuleError, match="turn"):
        GAME.check(state, 1 - seat, {"moves": [3]})
    with pytest.raises(RuleError):
        GAME.apply(state, {None: {"roll": 2}})
    state, event = GAME.apply(state, {seat: {"moves": [3]}})
    assert isinstance(event, engine.Moved) and event.moves == (engine.Move(3, None, 1),)
    assert GAME.prompt(state) == Prompt(frozenset(), "die", chance=True)


def test_a_roll_with_no_move_passes_at_once() -> None:
    state = state_at({1: 37, 2: 20}, {1: 36})
    after, event = GAME.apply(state, {None: {"roll": 1}})
    assert isinstance(event, engine.Passed) and event.next_seat == 1
    assert GAME.prompt(after) == Prompt(frozenset(), "die", chance=True) and after.current == 1


def test_parse_accepts_the_usual_spellings() -> None:
    state = state_at({1: 30, 3: 20}, {}, roll=4)
    for text in ("1 3", "1+3", " 1,3 ", "1 + 3"):
        assert GAME.parse(state, 0, text) == {"moves": [1, 3]}
    assert GAME.parse(state, 0, "4") == {"moves": [4]}
    for text in ("", "x", "1 3 4", "2", "٣"):
        with pytest.raises(RuleError):
            GAME.parse(state, 0, text)


def test_legal_lists_at_most_25_stable_actions_each_accepted_by_check() -> None:
    def watch(before: object, event: object, after: engine.State) -> None:
        if GAME.prompt(after) is not None and after.roll is not None:
            legal = GAME.legal(after, after.current)
            assert 1 <= len(legal) <= 25 and legal == GAME.legal(after, after.current)
            for action in legal:
                assert GAME.check(after, after.current, action) == action

    play_game(4, 9, watch=watch)


def test_view_shows_everything_and_is_frozen() -> None:
    state = play_game(3, 4)
    view = GAME.view(state, None)
    assert isinstance(view, NumeriView) and view == GAME.view(state, 0)
    assert view.positions == state.positions and view.over and view.barrier == 14
    assert view.scores == engine.scores(state.positions) and len(view.board) == 37
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.roll = 3  # type: ignore[misc]


def test_result_extra_and_timeout() -> None:
    state = play_game(2, 8)
    result = GAME.result(state)
    assert result is not None
    for seat in range(2):
        extra = result.extra[seat]
        assert extra["never_entered"] == sum(1 for sq in state.positions[seat] if sq is None)
        assert sum(extra["points"]) == result.scores[seat]
    assert GAME.result(GAME.setup(2, {}, 1)) is None
    state = GAME.apply(GAME.setup(4, {}, 2), {None: {"roll": "*"}})[0]
    step = GAME.timeout(state, frozenset({state.current}))
    before = copy.deepcopy(state)
    GAME.apply(state, step)
    assert state == before and list(step) == [state.current]
    assert step[state.current] == GAME.ai(GAME.view(state, None), state.current, "normal", Random(0))


def test_chance_draws_every_face_from_the_rng() -> None:
    state = GAME.setup(2, {}, 1)
    faces = {GAME.chance(state, Random(i))["roll"] for i in range(200)}
    assert faces == {1, 2, 3, 4, 5, "*"}
