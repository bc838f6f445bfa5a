"""Poisoned views, for every game of ``bot.games.GAMES``: an AI seat decides from what its seat may see only.

At many points of AI games, the other seats' hidden data is replaced by garbage (The Number: their pending
numbers; Binomial: their sheets' unused numbers and their picks declared this round). The seat's view must not
change, and neither may any level's decision given the same generator. A game of the tuple with no poisoner here
hides nothing (Numeri; a game whose pending choices the core keeps, as it does for every game): it needs no
entry, and the test checks that its seat views show nothing of their own (equal to the table's, or no
``secrets()``); a game that hides something in its state adds its poisoner here. A game whose AI learns from past games
(``LearningGame``) is also checked on that path: priors come from the table's view only, so poisoned seats
give the same priors, and the same priors with a poisoned view give the same decision.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest

from bot.core.game import Game, LearningGame, PastGame
from bot.games import GAMES
from bot.games.binomial.engine import State as BinomialState
from bot.games.thenumber.engine import GameState, choose

AnyGame = Game[Any, Any, Any]
Poisoner = Callable[[Any, int, Random], Any]  # (state, seat, rng) -> a state with others' secrets changed


def poison_thenumber(state: GameState, seat: int, rng: Random) -> GameState:
    """Every other seat that still plays gets a random pending number (a number it might have chosen)."""
    me = str(seat)
    for p in state.players:
        if p != me and not state.is_exhausted(p):
            digits = sorted(state.available(p))
            state = choose(state, p, "".join(str(rng.choice(digits)) for _ in range(3)))
    return state


def poison_binomial(state: BinomialState, seat: int, rng: Random) -> BinomialState:
    """Every other sheet's unused numbers become random digits (written cells only), and every other
    seat's declared number this round becomes a random number; revealed numbers stay as they are."""
    sheets = list(state.sheets)
    for s, sheet in enumerate(sheets):
        if s == seat:
            continue
        cells = list(sheet.cells)
        for k, used in enumerate(sheet.used):
            if used == 0:
                for i in (2 * k, 2 * k + 1):
                    if cells[i] is not None:
                        cells[i] = rng.randrange(10)
        sheets[s] = dataclasses.replace(sheet, cells=tuple(cells))
    declared = tuple((s, n if s == seat or n is None else rng.randrange(100)) for s, n in state.declared)
    return dataclasses.replace(state, sheets=tuple(sheets), declared=declared)


# The games that hide something in their state; every other game of the tuple hides nothing (checked below).
POISONERS: dict[str, Poisoner] = {
    "thenumber": poison_thenumber,
    "binomial": poison_binomial,
}


def decision_points(game: AnyGame, seats: int, seed: int, every: int) -> Iterator[tuple[Any, int]]:
    """(state, awaited seat) at every ``every``-th step of a game among AI seats of all levels."""
    state = game.setup(seats, {}, seed)
    rng = Random(seed)
    levels = [game.ai_levels[s % len(game.ai_levels)] for s in range(seats)]
    index = 0
    while (prompt := game.prompt(state)) is not None:
        if prompt.chance:
            state, _ = game.apply(state, {None: game.chance(state, rng)})
            continue
        awaited = sorted(prompt.seats)
        if index % every == 0:
            for seat in awaited:
                yield state, seat
        index += 1
        step = {s: game.ai(game.view(state, s), s, levels[s], Random(rng.random())) for s in awaited}
        if not prompt.sealed:
            step = {awaited[0]: step[awaited[0]]}
        state, _ = game.apply(state, step)


def test_every_poisoner_is_for_a_game_of_the_tuple() -> None:
    assert set(POISONERS) <= {g.key for g in GAMES}


def secrets_of(view: Any) -> tuple[str, ...]:
    found = getattr(view, "secrets", None)
    return tuple(found()) if callable(found) else ()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
@pytest.mark.parametrize("seats", [2, 4])
def test_hidden_data_never_changes_a_decision(game: AnyGame, seats: int) -> None:
    """Two different poisonings of the same state (so that public facts such as who has chosen agree)
    give the seat the same view and every level the same decision."""
    poisoner = POISONERS.get(game.key)
    rng = Random(seats)
    checked = differing = 0
    for seed in (1, 2):
        points = list(decision_points(game, seats, seed, every=3))
        if len(points) < 6:  # a short game: every decision point
            points = list(decision_points(game, seats, seed, every=1))
        for state, seat in points:
            if poisoner is None:  # nothing is the seat's alone
                own = game.view(state, seat)
                assert own == game.view(state, None) or not secrets_of(own), (
                    f"{game.key}: seat {seat} sees {secrets_of(own)} of its own: add a poisoner to POISONERS")
                one = other = state
            else:
                one, other = poisoner(state, seat, rng), poisoner(state, seat, rng)
                differing += one != other
            clean, dirty = game.view(one, seat), game.view(other, seat)
            assert dirty == clean
            for k, level in enumerate(game.ai_levels):
                assert game.ai(dirty, seat, level, Random(k)) == game.ai(clean, seat, level, Random(k))
            checked += 1
    assert checked > 10
    if poisoner is not None:
        assert differing > checked // 2  # the poison was really there, and different, most of the time


def test_binomial_poison_keeps_every_public_fact() -> None:
    """Binomial's poison changes only what is hidden: the seat's view equals the unpoisoned one."""
    game = next(g for g in GAMES if g.key == "binomial")
    rng = Random(5)
    for state, seat in decision_points(game, 3, 4, every=2):
        assert game.view(poison_binomial(state, seat, rng), seat) == game.view(state, seat)


LEARNING = [g for g in GAMES if isinstance(g, LearningGame)]


@pytest.mark.parametrize("game", LEARNING, ids=lambda g: g.key)
def test_priors_never_carry_hidden_data_and_never_let_it_change_a_decision(game: AnyGame) -> None:
    """The history a learning AI gets is the table's view of each game: poisoning the other seats' secrets
    (a pending number, in the middle of a game) changes no prior; with priors given, a poisoned view still
    gives every level the same decision."""
    poisoner = POISONERS.get(game.key)
    learner = game if isinstance(game, LearningGame) else None
    assert learner is not None
    if poisoner is None:
        pytest.skip(f"{game.key} hides nothing: no hidden data to carry")
    rng = Random(9)
    points = list(decision_points(game, 3, 5, every=2))
    # Priors as the service makes them, from what the table saw of a game (here: at every point of one).
    for state, seat in points:
        other = (seat + 1) % 3
        clean = learner.ai_priors({0: [PastGame(game.view(state, None), other)]})
        dirty = learner.ai_priors({0: [PastGame(game.view(poisoner(state, seat, rng), None), other)]})
        assert clean == dirty
    late = points[-1][0]  # the table's view late in a game
    priors = learner.ai_priors({1: [PastGame(game.view(late, None), 0)],
                                2: [PastGame(game.view(late, None), 2)]})
    assert priors is not None
    checked = 0
    for state, seat in decision_points(game, 3, 6, every=2):
        one, other_state = poisoner(state, seat, rng), poisoner(state, seat, rng)
        clean_view, dirty_view = game.view(one, seat), game.view(other_state, seat)
        assert clean_view == dirty_view
        for k, level in enumerate(game.ai_levels):
            assert (learner.ai(dirty_view, seat, level, Random(k), priors)
                    == learner.ai(clean_view, seat, level, Random(k), priors))
        checked += 1
    assert checked > 5
