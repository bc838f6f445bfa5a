"""Numeri on the game core: ``GAME`` implements ``bot.core.game.Game`` over the pure engine.

Each turn is two steps: a chance step (kind "die") draws the roll, then the current seat's open "move"
step. A roll that allows no move passes the turn when it is applied, so the next prompt is the next die.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from bot.core.game import Action, Prompt, Result, Seat, Step

from . import engine, errors
from .ai import choose
from .engine import Event, State
from .rules import DIE_FACES, GAME_KEY, MAX_SEATS, MIN_SEATS, TITLE, TURN_SECONDS
from .view import NumeriView, view_of

AI_LEVELS = ("easy", "normal", "hard")


def die_rng(seed: int, throws: int) -> Random:
    """The generator of a game's next die outside the bot (terminal, bench, tests): seed and throw count."""
    return Random(f"numeri:{seed}:{throws}")


def moves_value(value: Any) -> list[int]:
    """An action's ``moves`` (JSON list of token numbers), or the error that says what is wrong."""
    if not isinstance(value, list | tuple):
        raise errors.BadInput(repr(value))
    for token in value:
        if isinstance(token, bool) or not isinstance(token, int):
            raise errors.BadToken(token)
    return list(value)


_SEPARATORS = re.compile(r"[\s+,]+")


# An action lists the tokens a throw moves. A split whose first part ends the game moves only that token (its
# second part is never made): its action is that one token, as a replay script lists it, so that a button, a
# DM or an export never shows a move that is not made. The engine knows it as the split.
def made(state: State, choice: Sequence[int]) -> tuple[int, ...]:
    """The tokens ``choice`` (legal, as the engine lists it) really moves."""
    tokens = tuple(choice)
    return tokens[:1] if engine.first_part_ends(state, tokens) else tokens


def split_of(state: State, moves: list[int]) -> list[int]:
    """``moves`` as the engine's choice: one token that is the first part of a split ending the game is that
    split (a single move of that token, if the roll allows one, comes first: it is the same move)."""
    if len(moves) != 1 or state.roll is None or state.over:
        return moves
    legal = engine.legal_choices(state.positions, state.seats, state.current, state.roll)
    if tuple(moves) in legal:
        return moves
    split = next((c for c in legal if len(c) == 2 and c[0] == moves[0] and engine.first_part_ends(state, c)), None)
    return list(split) if split is not None else moves


class Numeri:
    key = GAME_KEY
    title = TITLE
    seats = range(MIN_SEATS, MAX_SEATS + 1)
    options = (TURN_SECONDS,)
    ai_levels = AI_LEVELS

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        return engine.new_game(seats, seed)

    def prompt(self, state: State) -> Prompt | None:
        if state.over:
            return None
        if state.roll is None:
            return Prompt(frozenset(), "die", chance=True)
        return Prompt(frozenset({state.current}), "move")

    def legal(self, state: State, seat: Seat) -> Sequence[Action]:
        if state.over or state.roll is None or seat != state.current:
            return []
        return [{"moves": list(made(state, c))}
                for c in engine.legal_choices(state.positions, state.seats, seat, state.roll)]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        # NFKC as every game reads typed text: full-width "２" is 2 (other scripts' digits stay refused)
        words = [w for w in _SEPARATORS.split(unicodedata.normalize("NFKC", text).strip()) if w]
        if not words or not all(w.isascii() and w.isdigit() for w in words):
            raise errors.BadInput(text)
        return self.check(state, seat, {"moves": [int(w) for w in words]})

    def check(self, state: State, seat: Seat, action: Action) -> Action:
        if state.over:
            raise errors.GameOver()
        if state.roll is None:
            raise errors.RollFirst()
        if seat != state.current:
            raise errors.NotYourTurn(state.current)
        if not isinstance(action, Mapping) or "moves" not in action:
            raise errors.BadInput(repr(action))
        return {"moves": list(made(state, engine.validate(state, split_of(state, moves_value(action["moves"])))))}

    def chance(self, state: State, rng: Random) -> Action:
        return {"roll": rng.choice(DIE_FACES)}

    def apply(self, state: State, step: Step) -> tuple[State, Event]:
        if state.over:
            raise errors.GameOver()
        if state.roll is None:
            action = step.get(None)
            if not isinstance(action, Mapping) or "roll" not in action:
                raise errors.RollFirst()
            return engine.roll(state, action["roll"])
        action = step.get(state.current)
        if action is None:
            raise errors.NotYourTurn(state.current)
        if isinstance(action, Mapping) and action.get("left") is True:  # only the core writes it (forfeit)
            return engine.forfeit_turn(state)
        return engine.move(state, split_of(state, self.check(state, state.current, action)["moves"]))

    def timeout(self, state: State, missing: frozenset[Seat]) -> Step:
        if state.over or state.roll is None or state.current not in missing:
            return {}
        rng = Random(f"numeri-timeout:{state.throws}")
        return {state.current: self.ai(view_of(state), state.current, "normal", rng)}

    def forfeit(self, state: State, seats: frozenset[Seat]) -> Step:
        """A seat that left forfeits: its turns pass and its tokens stay where they are (they still block
        squares and still score, but the seat ranks last and wins nothing: see ``bot.core.game.forfeited``)."""
        if state.over or state.roll is None or state.current not in seats:
            return {}
        return {state.current: {"left": True}}

    def view(self, state: State, seat: Seat | None) -> NumeriView:
        return view_of(state)

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        return standing(state)

    def ai(self, view: NumeriView, seat: Seat, level: str, rng: Random) -> Action:
        return {"moves": list(made(view.state(), choose(view, seat, level, rng)))}


def standing(state: State) -> Result:
    """Scores, winners and per-seat figures as the position stands (finished or not)."""
    positions = state.positions
    extra = {
        seat: {
            "never_entered": engine.never_entered(positions, seat),
            "squares": list(positions[seat]),
            "points": [engine.token_points(t, sq) for t, sq in enumerate(positions[seat], start=1)],
            "extra_turns": (state.extra_turns or (0,) * state.seats)[seat],
        }
        for seat in range(state.seats)
    }
    return Result(scores=dict(enumerate(engine.scores(positions))), winners=engine.winners(positions), extra=extra)


GAME = Numeri()
