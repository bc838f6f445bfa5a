"""Binomial's AI levels: only legal actions (free cells; pass or an unused number that fits), from the seat's
own view, deterministic given the generator."""

from random import Random

import pytest

from bot.games.binomial.game import GAME
from bot.games.binomial.view import fitting
from tests.test_binomial_properties import walk_game

LEVELS = ("easy", "normal", "hard")


@pytest.mark.parametrize("seats", [2, 4, 7])
@pytest.mark.parametrize("options", [{}, {"dark": True}, {"reward_for_fighting": True}])
def test_ai_actions_are_legal(seats: int, options: dict[str, bool]) -> None:
    if seats == 7:
        options = {**options, "same_boat": True}
    levels = [LEVELS[s % 3] for s in range(seats)]
    fights = 0
    for before, step, _, _ in walk_game(seats, options, seats * 11, levels):
        for seat, action in step.items():
            if seat is None:
                continue
            assert action in (GAME.legal(before, seat) or [])
            assert GAME.check(before, seat, action) == action
            if action.get("fight"):
                fights += 1
                view = GAME.view(before, seat)
                assert int(action["number"]) in fitting(view)
    assert fights > 0


def test_ai_is_deterministic_given_the_generator() -> None:
    state = GAME.setup(4, {}, 9)
    rng = Random(0)
    while GAME.prompt(state).kind != "declare":  # type: ignore[union-attr]
        prompt = GAME.prompt(state)
        assert prompt is not None
        if prompt.chance:
            state, _ = GAME.apply(state, {None: GAME.chance(state, rng)})
            continue
        for level in LEVELS:
            view = GAME.view(state, 0)
            assert GAME.ai(view, 0, level, Random(5)) == GAME.ai(view, 0, level, Random(5))
        state, _ = GAME.apply(state, {s: GAME.ai(GAME.view(state, s), s, "hard", Random(s)) for s in prompt.seats})
    seat = next(iter(GAME.prompt(state).seats))  # type: ignore[union-attr]
    for level in LEVELS:
        view = GAME.view(state, seat)
        assert GAME.ai(view, seat, level, Random(3)) == GAME.ai(view, seat, level, Random(3))


def test_ai_with_nothing_fitting_passes() -> None:
    from bot.games.binomial import engine
    from bot.games.binomial.rules import CARD_KEYS

    deck = ("divisible_by_10", *(k for k in CARD_KEYS if k != "divisible_by_10"))
    ones = engine.Sheet(tuple([1] * 16), (0,) * 8)
    state = engine.State(2, engine.Variants(), (deck,), 0, (ones, ones), (0, 0), rolls=(1,) * 16)
    for level in LEVELS:
        assert GAME.ai(GAME.view(state, 0), 0, level, Random(1)) == {"fight": False}


def test_unknown_level_is_refused() -> None:
    state = GAME.setup(2, {}, 1)
    state, _ = GAME.apply(state, {None: {"digit": 1}})
    with pytest.raises(ValueError, match="unknown AI level"):
        GAME.ai(GAME.view(state, 0), 0, "godlike", Random(1))


def test_no_game_module_imports_one_that_imports_it_back() -> None:
    """Binomial's AI had ai.py and ai_hard.py importing each other (issue 35): the level dispatch now sits
    above both. Checked for every game's modules, imports inside functions included."""
    from tests.test_layers import MODULES, direct_imports

    games = {m for m in MODULES if m.startswith("bot.games.")}
    graph = {m: {i for i in direct_imports(m) if i in games} for m in games}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo.extend(graph[here])
        return False

    circles = sorted(f"{a} <-> {b}" for a in games for b in graph[a] if a != b and reaches(b, a))
    assert not circles, circles
