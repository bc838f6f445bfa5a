"""The game object: sealed rounds of picks; the core keeps each seat's pending pick until all are in, so the
state holds nothing secret and every seat's view is the table's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from random import Random
from typing import Any

from bot.core.game import Action, Prompt, Result, RuleError, Seat, Step

from .rules import GAME_KEY, MAX_SEATS, MIN_SEATS, NUMBERS, ROUNDS, TITLE, TURN_SECONDS


@dataclass(frozen=True, slots=True)
class State:
    scores: tuple[int, ...]
    round: int = 1  # 1-based; ROUNDS + 1 once over
    last: Mapping[int, int] | None = None  # the previous round's picks, by seat (public once revealed)


@dataclass(frozen=True, slots=True)
class Revealed:
    round: int
    picks: Mapping[int, int]
    winner: int | None  # the seat whose pick was the highest unique one
    value: int


class HighestUniqueNumber:
    key = GAME_KEY
    title = TITLE
    seats = range(MIN_SEATS, MAX_SEATS + 1)
    options = (TURN_SECONDS,)
    ai_levels = ("easy", "normal", "hard")

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        return State((0,) * seats)

    def prompt(self, state: State) -> Prompt | None:
        if state.round > ROUNDS:
            return None
        return Prompt(frozenset(range(len(state.scores))), "number", sealed=True)

    def legal(self, state: State, seat: Seat) -> Sequence[Action]:
        return [{"number": n} for n in NUMBERS] if state.round <= ROUNDS else []

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        word = text.strip()
        if not word.isdigit():
            raise RuleError(f"{word!r} is not a number", "not_a_number", text=word[:20])
        return self.check(state, seat, {"number": int(word)})

    def check(self, state: State, seat: Seat, action: Action) -> Action:
        number = action.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or number not in NUMBERS:
            raise RuleError(f"pick a number from {NUMBERS.start} to {NUMBERS.stop - 1}", "range",
                            low=NUMBERS.start, high=NUMBERS.stop - 1)
        if state.round > ROUNDS:
            raise RuleError("the game is over", "over")
        return {"number": number}

    def chance(self, state: State, rng: Random) -> Action:
        raise RuleError("no chance step in this game", "no_chance")

    def apply(self, state: State, step: Step) -> tuple[State, Revealed]:
        picks = {seat: int(self.check(state, seat, action)["number"]) for seat, action in step.items()
                 if seat is not None}
        counts = Counter(picks.values())
        unique = [n for n, c in counts.items() if c == 1]
        best = max(unique, default=0)
        winner = next((s for s, n in picks.items() if n == best), None) if best else None
        scores = list(state.scores)
        if winner is not None:
            scores[winner] += best
        event = Revealed(state.round, dict(sorted(picks.items())), winner, best)
        return replace(state, scores=tuple(scores), round=state.round + 1, last=event.picks), event

    def timeout(self, state: State, missing: frozenset[Seat]) -> Step:
        return {}  # who did not pick takes no part in the round

    def view(self, state: State, seat: Seat | None) -> State:
        return state  # nothing is secret in the state: the core keeps the pending picks

    def result(self, state: State) -> Result | None:
        if state.round <= ROUNDS:
            return None
        top = max(state.scores)
        return Result(dict(enumerate(state.scores)), frozenset(s for s, v in enumerate(state.scores) if v == top))

    def ai(self, view: State, seat: Seat, level: str, rng: Random) -> Action:
        numbers = list(NUMBERS)
        if level == "easy":
            return {"number": rng.choice(numbers)}
        if level == "normal":  # the high ones, where the points are
            return {"number": rng.choice(numbers[len(numbers) // 2:])}
        # hard: avoid last round's most popular pick, lean high
        popular = Counter((view.last or {}).values()).most_common(1)
        avoid = popular[0][0] if popular else None
        return {"number": rng.choice([n for n in numbers[2:] if n != avoid] or numbers)}


GAME = HighestUniqueNumber()
