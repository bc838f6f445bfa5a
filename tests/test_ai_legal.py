"""The AI players: always a legal number, the same one for the same seed, and blind to pending numbers."""

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.thenumber import ai
from bot.games.thenumber.ai import LEVELS, AIPlayer, choose_number
from bot.games.thenumber.engine import GameState, choose, new_game, public_view, validate_choice
from bot.games.thenumber.errors import SitsOut
from bot.games.thenumber.numbers import ALL_DIGITS
from bot.games.thenumber.rules import ROUNDS, TURNS_PER_ROUND

NAMES = ("ana", "ben", "cy", "dee", "eve")
digit_sets = st.frozensets(st.integers(0, 9))


@st.composite
def states(draw: st.DrawFn) -> GameState:
    """Any mid-game position: random boards (full ones sit out), round and turn."""
    seats = draw(st.integers(2, 5))
    players = NAMES[:seats]
    round_no = draw(st.integers(1, ROUNDS))
    turn = draw(st.integers(1, TURNS_PER_ROUND))
    crossed = {p: draw(digit_sets) for p in players}
    return GameState(
        players=players, round=round_no, turn=turn, crossed=crossed,
        points={p: ((0,) * 5,) * (round_no - 1) + ((0,) * (turn - 1),) for p in players},
        round_bonus={p: (len(crossed[p]),) * (round_no - 1) for p in players},
    )


def playing(state: GameState) -> list[str]:
    return [p for p in state.players if not state.is_exhausted(p)]


@settings(max_examples=40, deadline=None)
@given(states(), st.integers(0, 2**32))
def test_every_level_plays_a_legal_number_deterministically(state: GameState, seed: int) -> None:
    view = public_view(state)
    for level in LEVELS:
        for p in playing(state):
            number = choose_number(view, p, level, random.Random(seed))
            assert validate_choice(state, p, number) == number  # three ASCII digits, all available
            assert choose_number(view, p, level, random.Random(seed)) == number
            bot = AIPlayer(p, level, seed)
            assert bot.choose(view) == bot.choose(view)


@settings(max_examples=25, deadline=None)
@given(states(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_pending_numbers_do_not_change_the_choice(state: GameState, seed: int, poison: int) -> None:
    rng = random.Random(poison)
    for me in playing(state):
        poisoned = [state, state]
        for k in range(2):  # two different sets of secret numbers for the opponents
            for p in playing(state):
                if p != me:
                    digits = sorted(ALL_DIGITS - state.crossed[p])
                    poisoned[k] = choose(poisoned[k], p, "".join(str(rng.choice(digits)) for _ in range(3)))
        for level in LEVELS:
            clean = choose_number(public_view(state), me, level, random.Random(seed))
            for dirty in poisoned:
                assert choose_number(public_view(dirty), me, level, random.Random(seed)) == clean


def test_a_player_with_no_digit_left_is_told_it_sits_out() -> None:
    state = new_game(["ana", "ben", "cy"])
    state = GameState(players=state.players, crossed={**state.crossed, "ana": ALL_DIGITS},
                      points=state.points, round_bonus=state.round_bonus)
    with pytest.raises(SitsOut):
        choose_number(public_view(state), "ana", "hard", random.Random(1))


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError):
        AIPlayer("ana", "godlike")


def test_ai_modules_use_no_clock_and_no_global_random() -> None:
    """Determinism: only a passed-in random.Random; no time, no module-level random functions."""
    folder = Path(ai.__file__).parent
    for path in sorted(folder.glob("ai*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not {"time", "datetime", "secrets", "os"} & set(names), path.name
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"


def test_ai_modules_never_touch_a_pending_number() -> None:
    """Blind by construction: no AI module reads ``pending``, ``chosen`` contents or ``secret_view``."""
    folder = Path(ai.__file__).parent
    for path in sorted(folder.glob("ai*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"pending", "secret_view"}, f"{path.name} reads {node.attr}"
            if isinstance(node, ast.Name | ast.alias):
                name = node.id if isinstance(node, ast.Name) else node.name
                assert name not in {"secret_view", "resolve_turn", "choose"}, f"{path.name} uses {name}"
