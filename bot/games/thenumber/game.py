"""The Number on the game protocol (``bot.core.game``): a thin adapter over the engine, which stays as it is.

Seats are the protocol's ints 0..n-1; inside, the engine names each player ``str(seat)``. A turn is one
sealed ``number`` step awaiting every seat that still has a digit; the step's numbers are played as the
table plays them (a seat absent from the step is missing; a number using a crossed-off digit is invalid).
The seats' pending numbers never reach the table's view: only ``view(state, seat)`` holds that seat's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from bot.core.game import Action, Game, History, Prompt, Result, RuleError, Seat, Step

from . import ai, rules
from .ai_history import checked_priors, prior_from_history
from .check import Status
from .engine import GameState, PublicView, TurnOutcome, new_game, play_turn, public_view, validate_choice
from .errors import BadSeating, GameOver, MalformedNumber, NotSeated, SitsOut, TheNumberError, UnavailableDigit

KIND = "number"  # the prompt's kind: the presenter asks for a three-digit number
FIELD = "number"  # the one key of an action: {"number": "513"}
TURN_SECONDS = rules.TURN_SECONDS  # also the bounds of Settings.turn_seconds (a test checks they agree)


# The engine's typed errors, each also a RuleError: the core catches RuleError, while the presenter (and
# bot/i18n/thenumber.py refusal) keeps telling them apart by their own type.
_AS_RULE_ERROR: dict[type[TheNumberError], type[RuleError]] = {
    kind: type(kind.__name__, (RuleError, kind), {"__module__": __name__, "__qualname__": kind.__name__})
    for kind in (MalformedNumber, UnavailableDigit, NotSeated, SitsOut, GameOver, BadSeating)
}


def refused(error: TheNumberError) -> RuleError:
    """``error`` as a RuleError of the same engine type: key = its code, values = its fields."""
    if isinstance(error, RuleError):
        return error
    kind = _AS_RULE_ERROR.get(type(error))
    if kind is None:
        return RuleError(str(error), error.code, **vars(error))
    both = kind.__new__(kind, *error.args)
    both.__dict__.update(vars(error))
    both.key, both.values = error.code, dict(vars(error))
    return both


def number_of(action: Any) -> str:
    """The text of an action ``{"number": "513"}`` (not yet checked against the board), or RuleError."""
    if isinstance(action, Mapping) and set(action) == {FIELD} and isinstance(action[FIELD], str):
        return action[FIELD]
    raise RuleError(f"an action of The Number is {{{FIELD!r}: '{rules.EXAMPLE_NUMBER}'}}, not {action!r:.60}",
                    "bad_action")


def player(seat: Seat) -> str:
    """The engine's name for ``seat`` (cogs/thenumber/records.py seat_key says the same)."""
    return str(seat)


def stored_step(numbers: Mapping[str, str]) -> dict[str, Action]:
    """A turn stored before the protocol (a resolve row's ``{"numbers": {"0": "513"}}``) as a stored step."""
    return {seat: {FIELD: number} for seat, number in numbers.items()}


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat sees: the table's view, plus the number it has chosen this turn (if any)."""

    table: PublicView
    seat: Seat
    pending: str | None = field(default=None, repr=False)  # kept out of log lines, as GameState does

    def secrets(self) -> tuple[str, ...]:
        """What this seat may see and the table may not (the conformance test looks for leaks of it)."""
        return () if self.pending is None else (self.pending,)


def table_of(view: PublicView | SeatView) -> PublicView:
    return view.table if isinstance(view, SeatView) else view


# The table's view (and the prompt) of the last states asked for, by identity: a turn's state stays the same
# object while its seats choose (drafts are kept beside it), and each choice draws the turn message, the
# acknowledgement and the buttons from it. All are frozen, so they are shared safely; the bound keeps a few
# hundred tables'.
_VIEWS: dict[int, tuple[GameState, PublicView]] = {}
_PROMPTS: dict[int, tuple[GameState, Prompt]] = {}  # the same for the step's prompt (frozen too)
_VIEWS_KEPT = 512


def _public_view(state: GameState) -> PublicView:
    kept = _VIEWS.get(id(state))
    if kept is not None and kept[0] is state:
        return kept[1]
    if len(_VIEWS) >= _VIEWS_KEPT:
        _VIEWS.clear()
    view = public_view(state)
    _VIEWS[id(state)] = (state, view)
    return view


class TheNumber:
    key = rules.GAME_KEY
    title = "The Number"
    seats = range(rules.MIN_SEATS, rules.MAX_SEATS + 1)
    options = (TURN_SECONDS,)
    ai_levels = ai.LEVELS
    # Only hard models its opponents: only a table with a hard seat reads the players' past games.
    ai_learning_levels = frozenset({"hard"})

    def __repr__(self) -> str:
        return f"<game {self.key}>"

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> GameState:
        """A new game; The Number draws nothing, so ``seed`` changes nothing."""
        try:
            return new_game([player(s) for s in range(seats)])
        except TheNumberError as error:
            raise refused(error) from None

    def prompt(self, state: GameState) -> Prompt | None:
        if state.finished:
            return None
        kept = _PROMPTS.get(id(state))
        if kept is not None and kept[0] is state:
            return kept[1]
        if len(_PROMPTS) >= _VIEWS_KEPT:
            _PROMPTS.clear()
        # Every seat may be exhausted on a round's last turn: an empty sealed step, applied at once.
        awaited = frozenset(int(p) for p in state.players if not state.is_exhausted(p))
        prompt = Prompt(awaited, KIND, sealed=True)
        _PROMPTS[id(state)] = (state, prompt)
        return prompt

    def legal(self, state: GameState, seat: Seat) -> None:
        return None  # up to 1000 numbers: typed, then parsed

    def parse(self, state: GameState, seat: Seat, text: str) -> Action:
        try:
            return {FIELD: validate_choice(state, player(seat), text)}
        except TheNumberError as error:
            raise refused(error) from None

    def check(self, state: GameState, seat: Seat, action: Action) -> Action:
        return self.parse(state, seat, number_of(action))

    def chance(self, state: GameState, rng: Random) -> Action:
        raise RuleError("The Number has no chance steps", "no_chance")

    def apply(self, state: GameState, step: Step) -> tuple[GameState, TurnOutcome]:
        numbers: dict[str, str] = {}
        for seat, action in step.items():
            if seat is None:
                raise RuleError("The Number has no chance steps", "no_chance")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state.players):
                raise refused(NotSeated(str(seat)))
            numbers[player(seat)] = number_of(action)
        try:
            return play_turn(state, numbers)
        except TheNumberError as error:
            raise refused(error) from None

    def timeout(self, state: GameState, missing: frozenset[Seat]) -> Step:
        return {}  # whoever has not chosen is missing this turn

    def view(self, state: GameState, seat: Seat | None) -> PublicView | SeatView:
        table = _public_view(state)
        if seat is None:
            return table
        return SeatView(table, seat, state.pending.get(player(seat)))

    def result(self, state: GameState) -> Result | None:
        if not state.finished:
            return None
        scores = state.final_scores()
        winners = set(state.winners())
        extra: dict[Seat, dict[str, Any]] = {}
        for p in state.players:
            played = [outcome.results[p] for outcome in state.history]
            numbers = [r.number for r in played if r.number is not None]
            extra[int(p)] = {"played": len(numbers), "approved": sum(r.status is Status.APPROVED for r in played),
                             "numbers": numbers}
        return Result({int(p): scores[p] for p in state.players}, frozenset(int(p) for p in winners), extra)

    def ai_priors(self, history: History) -> dict[str, dict[str, float]] | None:
        """Each human's prior over player types (see ai_history), by the engine's name for their seat now.

        Only the public view of each past game is read: the numbers that game revealed."""
        priors = {player(seat): prior_from_history([(table_of(p.view), player(p.seat)) for p in games])
                  for seat, games in history.items()}
        return priors or None

    def ai(self, view: PublicView | SeatView, seat: Seat, level: str, rng: Random,
           priors: Mapping[str, Any] | None = None) -> Action:
        """An AI seat's number, from the public part of its view only (as bot/games/thenumber/ai.py wants),
        and, for hard, the priors the game started with (ai_priors of the players' past games)."""
        try:
            return {FIELD: ai.choose_number(table_of(view), player(seat), level, rng, checked_priors(priors))}
        except TheNumberError as error:
            raise refused(error) from None


GAME: Game[GameState, PublicView | SeatView, TurnOutcome] = TheNumber()


def turn_payload(numbers: Mapping[str, str], reason: str, timed_out: Any = ()) -> dict[str, Any]:
    """A revealed turn as the core stores every step: ``{"step": {"0": {"number": "513"}}, "reason",
    "timed_out"}`` (seats in order; a missing seat is absent from the step). For tools that write logs."""
    step = {k: {FIELD: numbers[k]} for k in sorted(numbers, key=int)}
    return {"step": step, "reason": reason, "timed_out": sorted(timed_out)}


def turn_numbers(payload: Mapping[str, Any]) -> dict[str, str]:
    """The numbers a stored turn revealed, by seat key (the inverse of :func:`turn_payload`)."""
    return {k: action[FIELD] for k, action in payload["step"].items()}


def phase_of(state: GameState) -> int:
    """The step counter of ``state``: one step per turn."""
    return (state.round - 1) * rules.TURNS_PER_ROUND + (state.turn - 1)
