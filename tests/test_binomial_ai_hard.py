"""Binomial's hard level: its opponent model, its sense of the game's length, its mixed choice; and the
bench's opponent pool plays legal actions (else its figures would mean nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from random import Random
from typing import Any

import pytest

from bench.ai_pool_binomial_players import POOL
from bot.games.binomial import ai_hard, engine
from bot.games.binomial.engine import Sheet, State
from bot.games.binomial.game import GAME
from bot.games.binomial.rules import CARD_KEYS
from bot.games.binomial.view import View, fitting


def declare_points(seats: int, seed: int, policy: Any) -> Iterator[tuple[State, int]]:
    """Every (state, seat to act) of a game whose seats follow ``policy(view, seat, rng)``."""
    state = GAME.setup(seats, {}, seed)
    rng = Random(seed)
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            state, _ = GAME.apply(state, {None: GAME.chance(state, rng)})
            continue
        for seat in prompt.seats:
            yield state, seat
        state, _ = GAME.apply(state, {s: policy(GAME.view(state, s), s, rng) for s in prompt.seats})


def test_an_always_fighter_and_a_never_fighter_are_told_apart() -> None:
    fighters = {1: POOL["always_fight"], 2: POOL["never_fight"]}

    def policy(view: View, seat: int, rng: Random) -> Any:
        return fighters.get(seat, POOL["normal"])(view, seat, rng)

    last = None
    for state, _ in declare_points(3, 4, policy):
        if state.kind == "declare" and len(state.history) >= 5:
            last = GAME.view(state, 0)
            break
    assert last is not None
    rates = ai_hard.fight_rates(last, 0)
    assert rates[1] > ai_hard.PRIOR_RATE + 0.1 and rates[2] < ai_hard.PRIOR_RATE - 0.25
    # The always-fighter runs out of numbers first: the game is expected to end before the deck does.
    assert ai_hard.rounds_left(last, 0, rates) < 1 + len(last.unplayed)


def test_hard_mixes_between_near_equal_options() -> None:
    """Somewhere in a few games, the same view gives different actions for different generators."""
    mixed = 0
    for state, seat in declare_points(4, 2, POOL["normal"]):
        if state.kind != "declare":
            continue
        view = GAME.view(state, seat)
        if len(fitting(view)) < 2:
            continue
        actions = {str(GAME.ai(view, seat, "hard", Random(k))) for k in range(12)}
        mixed += len(actions) > 1
    assert mixed > 0


def test_levels_differ() -> None:
    """Easy, normal and hard do not play alike: over one game's decisions, each pair disagrees somewhere."""
    seen = {("easy", "normal"): 0, ("easy", "hard"): 0, ("normal", "hard"): 0}
    for state, seat in declare_points(4, 6, POOL["normal"]):
        view = GAME.view(state, seat)
        got = {level: GAME.ai(view, seat, level, Random(1)) for level in ("easy", "normal", "hard")}
        for a, b in seen:
            seen[a, b] += got[a] != got[b]
    assert all(seen.values()), seen


@pytest.mark.parametrize("name", sorted(POOL))
def test_every_pool_strategy_plays_legal_actions(name: str) -> None:
    strategy = POOL[name]

    def checked(view: View, seat: int, rng: Random) -> Any:
        action = strategy(view, seat, rng)
        assert GAME.check(states[-1], seat, action) == action
        return action

    states: list[State] = []
    for state, _ in declare_points(3, 1, checked):
        if not states or states[-1] is not state:
            states.append(state)
    assert len(states) > 16  # the game went past numerology


def sheet_of(numbers: list[int]) -> Sheet:
    return Sheet(tuple(d for n in numbers for d in divmod(n, 10)))


def test_hard_contests_a_four_point_card_a_rival_would_take_alone() -> None:
    """Heads-up, the rival (chairman) declared fight on 'divisible by 10' (4 points). The rolls hold one 0,
    so every sheet has one number ending in 0, and ours is 80: it beats anything the rival can hold but 90
    and cancels an 80. Passing concedes the 4 points for sure; fighting wins them or cancels the rival's
    number in most of the rival's possible sheets. The old hard counted only its own points (4 times its
    chance, less the number's worth later) and passed every time; valued by the lead, it fights."""
    rolls = (5, 3, 5, 4, 8, 7, 7, 5, 5, 7, 7, 9, 7, 6, 0, 2)
    deck = ("divisible_by_10", *(k for k in CARD_KEYS if k != "divisible_by_10"))
    state = engine.new_game(2, decks=[deck], chairman=1)
    mine = sheet_of([80, 77, 37, 25, 95, 55, 77, 46])
    theirs = sheet_of([77, 92, 55, 77, 80, 37, 55, 46])  # hidden from seat 0: its view is all that counts
    state = replace(state, rolls=rolls, sheets=(mine, theirs), declared=((1, 80),))
    view = GAME.view(state, 0)
    assert view.kind == "declare" and 0 in view.to_act and fitting(view) == (80,)
    actions = [GAME.ai(view, 0, "hard", Random(k)) for k in range(12)]
    assert all(a == {"fight": True, "number": "80"} for a in actions), actions
    # The lead it gains by fighting exceeds what passing gains (0) by a clear margin, not by noise.
    assert ai_hard.option_values(view, 0, Random(1))[80] > 0.3
