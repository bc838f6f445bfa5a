"""The game object: one open turn at a time, everything public."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from bot.core.game import Action, Prompt, Result, RuleError, Seat, Step

from .rules import GAME_KEY, MAX_SEATS, MAX_TAKE, MIN_SEATS, PILE, TITLE, TURN_SECONDS


@dataclass(frozen=True, slots=True)
class State:
    seats: int
    pile: int
    turn: Seat = 0
    winner: Seat | None = None


@dataclass(frozen=True, slots=True)
class Took:
    seat: Seat
    count: int
    left: int


class Nim:
    key = GAME_KEY
    title = TITLE
    seats = range(MIN_SEATS, MAX_SEATS + 1)
    options = (TURN_SECONDS, PILE)
    ai_levels = ("easy", "normal", "hard")

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        return State(seats, int(options.get("pile", PILE.default)), Random(seed).randrange(seats))

    def prompt(self, state: State) -> Prompt | None:
        return None if state.winner is not None else Prompt(frozenset({state.turn}), "take")

    def legal(self, state: State, seat: Seat) -> Sequence[Action]:
        if state.winner is not None or seat != state.turn:
            return []
        return [{"take": n} for n in range(1, min(MAX_TAKE, state.pile) + 1)]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        word = text.strip()
        if not word.isdigit():
            raise RuleError(f"{word!r} is not a number", "not_a_number", text=word[:20])
        return self.check(state, seat, {"take": int(word)})

    def check(self, state: State, seat: Seat, action: Action) -> Action:
        if state.winner is not None:
            raise RuleError("the game is over", "over")
        if seat != state.turn:
            raise RuleError("it is not your turn", "not_your_turn")
        count = action.get("take")
        most = min(MAX_TAKE, state.pile)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= most:
            raise RuleError(f"take 1 to {most}", "take", most=most)
        return {"take": count}

    def chance(self, state: State, rng: Random) -> Action:
        raise RuleError("no chance step in this game", "no_chance")

    def apply(self, state: State, step: Step) -> tuple[State, Took]:
        ((seat, action),) = ((s, a) for s, a in step.items() if s is not None)
        count = int(self.check(state, seat, action)["take"])
        left = state.pile - count
        after = State(state.seats, left, (seat + 1) % state.seats, seat if left == 0 else None)
        return after, Took(seat, count, left)

    def timeout(self, state: State, missing: frozenset[Seat]) -> Step:
        return {seat: {"take": 1} for seat in missing}  # who lets the clock run takes one

    def view(self, state: State, seat: Seat | None) -> State:
        return state  # nothing is hidden

    def result(self, state: State) -> Result | None:
        if state.winner is None:
            return None
        return Result({s: int(s == state.winner) for s in range(state.seats)}, frozenset({state.winner}))

    def ai(self, view: State, seat: Seat, level: str, rng: Random) -> Action:
        most = min(MAX_TAKE, view.pile)
        best = view.pile % (MAX_TAKE + 1)  # leaves a multiple of 4: a lost pile for the next player (two seats)
        if level == "hard" and best:
            return {"take": best}
        if level == "normal" and best and rng.random() < 0.5:
            return {"take": best}
        return {"take": rng.randint(1, most)}


GAME = Nim()
