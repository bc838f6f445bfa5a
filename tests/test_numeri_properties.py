"""Property tests over random games of Numeri, cross-checked against an independent restatement."""

from __future__ import annotations

import copy
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.numeri import engine
from bot.games.numeri.engine import Moved, Passed, Rolled, State
from bot.games.numeri.game import GAME

from . import numeri_reference as ref
from .numeri_helpers import play_game

# Each move takes one token at least one square forward and a token has 37 squares to go (off -> 37), so a
# game has at most 37 x 5 x seats moves. Passes need a roll naming a token with no free square ahead: at
# most two such tokens exist while the game runs, so passes are rare; the throw bound below leaves room.
MOVE_BOUND = 37 * 5


def as_board(state: State) -> ref.Board:
    return {(s, t): sq for s, seat in enumerate(state.positions) for t, sq in enumerate(seat, start=1)
            if sq is not None}


def check_step(before: State, event: object, after: State) -> None:
    assert before.positions != after.positions or not isinstance(event, Moved)
    squares = [sq for seat in after.positions for sq in seat if sq is not None]
    assert len(squares) == len(set(squares)), "a square holds two tokens"
    for old, new in zip(before.positions, after.positions, strict=True):
        for a, b in zip(old, new, strict=True):
            assert a is None or (b is not None and b >= a), "a token moved backwards or left the board"
    board = as_board(before)
    if isinstance(event, Rolled):
        expected = ref.options(board, before.seats, before.current, event.roll)
        got = engine.legal_choices(after.positions, after.seats, after.current, event.roll)
        assert sorted(got) == sorted(expected) and got
    elif isinstance(event, Passed):
        assert not ref.options(board, before.seats, before.current, event.roll)
        assert after.current == (before.current + 1) % before.seats
    else:
        assert isinstance(event, Moved)
        choice = tuple(m.token for m in event.moves)
        if event.ended and len(choice) == 1 and event.roll not in ("*", choice[0]):
            choice = next(c for c in ref.options(board, before.seats, before.current, event.roll)
                          if c[0] == choice[0] and len(c) == 2)
        new_board, extra, over = ref.play(board, before.current, choice)
        assert new_board == as_board(after) and extra == event.extra_turn and over == event.ended == after.over
        assert after.current == (before.current if extra else (before.current + 1) % before.seats) or over


@settings(max_examples=60, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_random_games_follow_the_rules(seats: int, seed: int) -> None:
    counts = {"moves": 0, "throws": 0}

    def watch(before: State, event: object, after: State) -> None:
        frozen = copy.deepcopy(before)
        check_step(before, event, after)
        assert before == frozen
        counts["throws"] += isinstance(event, Rolled | Passed)
        counts["moves"] += isinstance(event, Moved)

    final = play_game(seats, seed, watch=watch)
    assert final.over and engine.ended(final.positions)
    assert counts["moves"] <= MOVE_BOUND * seats
    assert counts["throws"] <= 4 * MOVE_BOUND * seats
    result = GAME.result(final)
    assert result is not None
    board = as_board(final)
    assert list(result.scores.values()) == ref.totals(board, seats)
    for seat in range(seats):
        assert result.scores[seat] == sum(result.extra[seat]["points"])
    best = max(result.scores.values())
    assert result.winners == {s for s, v in result.scores.items() if v == best}


@settings(max_examples=20, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_same_seed_same_game(seats: int, seed: int) -> None:
    def trace(seed: int) -> list[object]:
        events: list[object] = []
        play_game(seats, seed, watch=lambda b, e, a: events.append(e))
        return events

    assert trace(seed) == trace(seed)


def test_apply_never_mutates_and_the_view_is_frozen() -> None:
    state = GAME.setup(3, {}, 11)
    rng = Random(3)
    for _ in range(60):
        if GAME.prompt(state) is None:
            break
        snapshot = copy.deepcopy(state)
        prompt = GAME.prompt(state)
        assert prompt is not None
        step = ({None: GAME.chance(state, rng)} if prompt.chance
                else {state.current: rng.choice(GAME.legal(state, state.current))})
        after, _ = GAME.apply(state, step)
        assert state == snapshot and after is not state
        state = after
