"""Two tiny games implementing the protocol, pure, to test the generic service with.

``RACE``: a dice race. A chance step rolls a die, then the seat whose turn it is moves 1..die squares
(open step); the first to reach the goal wins. ``BIDS``: a sealed-bid game. Each round every seat bids
secretly from its budget; the highest single bid wins the round. Each seat also holds a secret lucky
number drawn from the seed, shown only in its own view, added to its score at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from random import Random
from typing import Any

from bot.core.game import Action, Option, Prompt, Result, RuleError, Seat, Step

# Dice race -------------------------------------------------------------------------------------
GOAL = 12


@dataclass(frozen=True, slots=True)
class RaceState:
    positions: tuple[int, ...]
    turn: Seat
    die: int | None = None  # rolled and not yet moved


@dataclass(frozen=True, slots=True)
class Rolled:
    die: int


@dataclass(frozen=True, slots=True)
class Moved:
    seat: Seat
    steps: int
    to: int


class DiceRace:
    key = "race"
    title = "Dice race"
    seats = range(2, 5)
    options = (Option("turn_seconds", 60, 15, 3600),)
    ai_levels = ("greedy", "random")

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> RaceState:
        return RaceState((0,) * seats, Random(seed).randrange(seats))

    def prompt(self, state: RaceState) -> Prompt | None:
        if max(state.positions) >= GOAL:
            return None
        if state.die is None:
            return Prompt(frozenset(), "roll", chance=True)
        return Prompt(frozenset({state.turn}), "move")

    def legal(self, state: RaceState, seat: Seat) -> Sequence[Action] | None:
        if state.die is None or seat != state.turn:
            return []
        return [{"steps": k} for k in range(1, state.die + 1)]

    def parse(self, state: RaceState, seat: Seat, text: str) -> Action:
        try:
            steps = int(text.strip())
        except ValueError:
            raise RuleError(f"{text!r} is not a number of squares", "not_a_number") from None
        return self.check(state, seat, {"steps": steps})

    def check(self, state: RaceState, seat: Seat, action: Action) -> Action:
        if state.die is None or seat != state.turn:
            raise RuleError("it is not your move", "not_your_move")
        steps = action.get("steps")
        if not isinstance(steps, int) or not 1 <= steps <= state.die:
            raise RuleError(f"move 1 to {state.die} squares", "bad_steps", die=state.die)
        return {"steps": steps}

    def chance(self, state: RaceState, rng: Random) -> Action:
        return {"die": rng.randint(1, 6)}

    def apply(self, state: RaceState, step: Step) -> tuple[RaceState, Rolled | Moved]:
        if state.die is None:
            die = int(step[None]["die"])
            if not 1 <= die <= 6:
                raise RuleError("a die shows 1 to 6", "bad_die")
            return replace(state, die=die), Rolled(die)
        (seat, action), = step.items()
        steps = int(self.check(state, state.turn if seat is None else seat, action)["steps"])
        positions = list(state.positions)
        positions[state.turn] += steps
        moved = Moved(state.turn, steps, positions[state.turn])
        return RaceState(tuple(positions), (state.turn + 1) % len(positions)), moved

    def timeout(self, state: RaceState, missing: frozenset[Seat]) -> Step:
        return {state.turn: {"steps": 1}} if state.turn in missing else {}

    def view(self, state: RaceState, seat: Seat | None) -> RaceState:
        return state  # nothing is secret

    def result(self, state: RaceState) -> Result | None:
        if self.prompt(state) is not None:
            return None
        scores = dict(enumerate(state.positions))
        return Result(scores, frozenset(s for s, p in scores.items() if p >= GOAL))

    def ai(self, view: RaceState, seat: Seat, level: str, rng: Random) -> Action:
        die = view.die or 1
        return {"steps": die if level == "greedy" else rng.randint(1, die)}


# Sealed bids -----------------------------------------------------------------------------------
ROUNDS = 3
BUDGET = 10


@dataclass(frozen=True, slots=True)
class BidState:
    round: int
    budgets: tuple[int, ...]
    points: tuple[int, ...]
    lucky: tuple[int, ...]  # secret: each seat sees only its own


@dataclass(frozen=True, slots=True)
class BidView:
    round: int
    budgets: tuple[int, ...]
    points: tuple[int, ...]
    lucky: int | None  # the viewer's own


@dataclass(frozen=True, slots=True)
class Revealed:
    round: int
    bids: Mapping[Seat, int]
    winner: Seat | None


class SealedBids:
    key = "bids"
    title = "Sealed bids"
    seats = range(2, 6)
    # "teams" is only declared (the rules ignore it), to test the core's check of seat-limited options
    options = (Option("turn_seconds", 60, 15, 3600), Option("teams", False, seats=range(4, 6)))
    ai_levels = ("half", "all")

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> BidState:
        rng = Random(seed)
        return BidState(1, (BUDGET,) * seats, (0,) * seats, tuple(rng.randint(100, 999) for _ in range(seats)))

    def prompt(self, state: BidState) -> Prompt | None:
        if state.round > ROUNDS:
            return None
        return Prompt(frozenset(range(len(state.budgets))), "bid", sealed=True)

    def legal(self, state: BidState, seat: Seat) -> Sequence[Action] | None:
        return [{"bid": b} for b in range(state.budgets[seat] + 1)]

    def parse(self, state: BidState, seat: Seat, text: str) -> Action:
        try:
            bid = int(text.strip())
        except ValueError:
            raise RuleError(f"{text!r} is not a bid", "not_a_number") from None
        return self.check(state, seat, {"bid": bid})

    def check(self, state: BidState, seat: Seat, action: Action) -> Action:
        bid = action.get("bid")
        if not isinstance(bid, int) or not 0 <= bid <= state.budgets[seat]:
            raise RuleError(f"bid 0 to {state.budgets[seat]}", "bad_bid", budget=state.budgets[seat])
        return {"bid": bid}

    def chance(self, state: BidState, rng: Random) -> Action:
        raise RuleError("nothing is left to chance", "no_chance")

    def apply(self, state: BidState, step: Step) -> tuple[BidState, Revealed]:
        if state.round > ROUNDS:
            raise RuleError("the game is over", "over")
        bids = {seat: int(self.check(state, seat, action)["bid"]) for seat, action in step.items() if seat is not None}
        top = max(bids.values(), default=0)
        leaders = [s for s, b in bids.items() if b == top]
        winner = leaders[0] if len(leaders) == 1 and top > 0 else None
        budgets = tuple(b - bids.get(s, 0) for s, b in enumerate(state.budgets))
        points = tuple(p + (1 if s == winner else 0) for s, p in enumerate(state.points))
        return replace(state, round=state.round + 1, budgets=budgets, points=points), Revealed(
            state.round, dict(sorted(bids.items())), winner)

    def timeout(self, state: BidState, missing: frozenset[Seat]) -> Step:
        return {seat: {"bid": 0} for seat in sorted(missing)}

    def view(self, state: BidState, seat: Seat | None) -> BidView:
        return BidView(state.round, state.budgets, state.points, None if seat is None else state.lucky[seat])

    def result(self, state: BidState) -> Result | None:
        if state.round <= ROUNDS:
            return None
        scores = {s: p * 1000 + state.lucky[s] for s, p in enumerate(state.points)}
        best = max(scores.values())
        return Result(scores, frozenset(s for s, v in scores.items() if v == best))

    def ai(self, view: BidView, seat: Seat, level: str, rng: Random) -> Action:
        budget = view.budgets[seat]
        return {"bid": budget if level == "all" else rng.randint(0, budget // 2)}


RACE = DiceRace()
BIDS = SealedBids()
