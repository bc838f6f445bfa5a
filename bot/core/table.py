"""A table: one stored game with its engine state, for any game implementing :mod:`bot.core.game`.

The state is never stored: it is the fold of the stored steps (the ``resolve`` payloads) through the game,
from ``setup`` with the seed kept in the ``start`` action. The drafts of the current sealed step (``choose``
rows, the latest per seat) are kept beside the state, since engines see only complete steps.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from storage.base import ActionRecord, GameRecord, SeatRecord

from .fold import fold as fold_steps
from .game import Action, Game, Prompt, Seat

AWAY_AFTER_MISSES = 2
PRIORS_KEY = "ai_priors"  # the start action's key of the AI priors, beside "seed"


def misses_in_a_row(steps: Sequence[Mapping[str, Any]], seat: Seat) -> int:
    """How many of the latest ``steps`` that asked ``seat`` it let time out, counted back to one it acted in."""
    key, misses = str(seat), 0
    for payload in reversed(steps):
        if key not in payload["step"] and seat not in payload.get("timed_out", ()):
            continue  # a step that did not ask this seat
        if payload.get("reason") == "only":
            continue  # its only move, played at once: neither a miss nor the player coming back
        if seat not in payload.get("timed_out", ()):
            break
        misses += 1
    return misses


def by_position(record: GameRecord) -> GameRecord:
    """``record`` with its seats numbered 0..n-1 in seat order, as the protocol numbers them.

    A lobby freed the seat of whoever left it (before seats were renumbered on leaving), so a game may have
    started with seats 0, 2 and 3: its stored rows name those numbers, while the game's state knows seats
    0, 1 and 2. Steps, their timeouts and the drafts are renumbered too."""
    numbers = [s.seat for s in record.seats]
    if numbers == list(range(len(numbers))):
        return record
    position = {str(number): str(index) for index, number in enumerate(numbers)}
    seat_index = {number: index for index, number in enumerate(numbers)}

    def renumbered(action: ActionRecord) -> ActionRecord:
        if action.seat is not None:
            action = replace(action, seat=seat_index.get(action.seat, action.seat))
        if action.kind != "resolve":
            return action
        payload: dict[str, Any] = dict(action.payload)
        payload["step"] = {position.get(str(k), str(k)): a for k, a in action.payload["step"].items()}
        payload["timed_out"] = [seat_index.get(s, s) for s in action.payload.get("timed_out", ())]
        return replace(action, payload=payload)

    return replace(record, seats=tuple(replace(s, seat=i) for i, s in enumerate(record.seats)),
                   actions=tuple(renumbered(a) for a in record.actions))


def stored_numbers(record: GameRecord) -> dict[Seat, int]:
    """Seat position -> the seat number the store knows it by (empty when they are the same)."""
    numbers = [s.seat for s in record.seats]
    return {} if numbers == list(range(len(numbers))) else dict(enumerate(numbers))


def stored_steps(record: GameRecord) -> list[Mapping[str, Any]]:
    """The ``resolve`` payloads of ``record``, in order: the applied steps with their reason and timeouts."""
    return [a.payload for a in record.actions if a.kind == "resolve"]


def seed_of(record: GameRecord) -> int:
    """The game's seed, drawn once at start (0 for a game started before seeds were stored)."""
    start = next((a for a in record.actions if a.kind == "start"), None)
    return int(start.payload.get("seed", 0)) if start is not None else 0


def priors_of(record: GameRecord) -> Mapping[str, Any] | None:
    """The AI priors the game was started with (see ``bot.core.game.LearningGame``), None if none.

    Kept in the ``start`` action beside the seed: computed once from the players' finished games when the
    game started, they are part of what fixes the AI's moves, as the seed is."""
    start = next((a for a in record.actions if a.kind == "start"), None)
    priors = start.payload.get(PRIORS_KEY) if start is not None else None
    return priors if isinstance(priors, Mapping) else None


def fold(game: Game[Any, Any, Any], record: GameRecord, upto: int | None = None) -> tuple[Any, list[Any]]:
    """The state after the first ``upto`` stored steps (all by default) and the event of each of them."""
    record = by_position(record)
    steps = [payload["step"] for payload in stored_steps(record)]
    return fold_steps(game, len(record.seats), record.options, seed_of(record), steps, upto)


def step_openings(record: GameRecord) -> array[float]:
    """When each step began (the ``start`` row, then each ``resolve`` row: step k began when step k-1 was
    committed), as the store recorded it. Packed (8 bytes a step): every loaded game keeps it."""
    return array("d", (a.at for a in record.actions if a.kind in ("start", "resolve")))


def stored_drafts(record: GameRecord) -> tuple[dict[Seat, Action], int]:
    """The latest draft of each seat in the current phase, and how many ``choose`` rows the phase has."""
    drafts: dict[Seat, Action] = {}
    rows = 0
    for action in record.actions:
        if action.kind == "choose" and action.phase == record.phase and action.seat is not None:
            drafts[action.seat] = action.payload
            rows += 1
    return drafts, rows


@dataclass(slots=True)
class Table:
    """A game in memory. ``record`` keeps the games' row and seats (its action log is dropped: the state
    and ``steps`` hold what is needed); ``choices`` counts the stored draft rows of the current phase, so
    a commit can prove to the store that it saw every draft."""

    record: GameRecord
    game: Game[Any, Any, Any]
    state: Any = field(repr=False)  # None before the game started
    seed: int = field(repr=False)  # never shown before the end
    steps: list[Mapping[str, Any]] = field(default_factory=list, repr=False)
    drafts: dict[Seat, Action] = field(default_factory=dict, repr=False)
    choices: int = 0
    # Seat position -> stored seat number, for a game started with a gap in its seats (empty otherwise):
    # ``record`` is numbered by position, the store's rows by number.
    numbers: dict[Seat, int] = field(default_factory=dict, repr=False)
    # What the game's AI starts from (LearningGame.ai_priors at the start), as stored; None for most games.
    ai_priors: Mapping[str, Any] | None = field(default=None, repr=False)
    # When each step began (index = step), by the service's clock: which step a message sent at a given time
    # was meant for (see ``step_at``).
    openings: array[float] = field(default_factory=lambda: array("d"), repr=False)
    # (state, record, prompt): the last prompt, kept while neither changed (both are replaced, never mutated):
    # one choice reads it a dozen times (acknowledgement, turn message, buttons, who is awaited).
    _prompt: tuple[Any, GameRecord, Prompt | None] | None = field(default=None, init=False, repr=False,
                                                                  compare=False)
    # (record, seat number -> its seat): kept while the record is the same (a choice looks seats up by number).
    _seats: tuple[GameRecord, dict[Seat, SeatRecord]] | None = field(default=None, init=False, repr=False,
                                                                     compare=False)

    @classmethod
    def load(cls, game: Game[Any, Any, Any], record: GameRecord) -> Table:
        """Fold a stored game (the one fold of a game's log the service uses)."""
        if record.status == "lobby":
            return cls(replace(record, actions=()), game, None, 0)
        numbers = stored_numbers(record)
        record = by_position(record)
        state, _ = fold(game, record)
        drafts, rows = stored_drafts(record) if record.status == "running" else ({}, 0)
        return cls(replace(record, actions=()), game, state, seed_of(record), stored_steps(record), drafts, rows,
                   numbers, priors_of(record), step_openings(record))

    def stored(self, seat: Seat) -> int:
        """The seat number the store knows ``seat`` by."""
        return self.numbers.get(seat, seat)

    def stored_payload(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A step's payload with the store's seat numbers (the same payload unless the seats have a gap)."""
        if not self.numbers:
            return dict(payload)
        return {**payload, "step": {k if k == "chance" else str(self.stored(int(k))): a
                                    for k, a in payload["step"].items()},
                "timed_out": [self.stored(s) for s in payload.get("timed_out", ())]}

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def step(self) -> int:
        """The number of the current step (the stored phase counter)."""
        return self.record.phase

    @property
    def running(self) -> bool:
        return self.record.status == "running"

    @property
    def seated(self) -> frozenset[Seat]:
        return frozenset(s.seat for s in self.record.seated)

    @property
    def prompt(self) -> Prompt | None:
        """What the current step asks, of the seats still at the table (None: over, or not running)."""
        kept = self._prompt
        if kept is not None and kept[0] is self.state and kept[1] is self.record:
            return kept[2]
        prompt = self.game.prompt(self.state) if self.running else None
        if prompt is not None:
            prompt = replace(prompt, seats=prompt.seats & self.seated)
        self._prompt = (self.state, self.record, prompt)
        return prompt

    def awaited(self) -> frozenset[Seat]:
        """The seated seats the current step still waits for."""
        prompt = self.prompt
        if prompt is None or prompt.chance:
            return frozenset()
        return prompt.seats - self.drafts.keys() if prompt.sealed else prompt.seats

    def seat(self, number: Seat) -> SeatRecord:
        kept = self._seats
        if kept is None or kept[0] is not self.record:
            kept = self._seats = (self.record, {s.seat: s for s in reversed(self.record.seats)})  # the first wins
        found = kept[1].get(number)
        return found if found is not None else next(s for s in self.record.seats if s.seat == number)  # (raises)

    def away(self, seat: Seat) -> bool:
        """True when ``seat`` timed out in each of the last two steps that asked it."""
        return self.misses_in_a_row(seat) >= AWAY_AFTER_MISSES

    def misses_in_a_row(self, seat: Seat) -> int:
        """How many of the latest steps that asked ``seat`` it let time out, counted back to one it acted in."""
        return misses_in_a_row(self.steps, seat)

    def step_at(self, when: float) -> int:
        """The step that was open at ``when``, compared to the millisecond as Discord's ids carry a message's
        time (the current step when the times are not all known: a game stored without its start row)."""
        if len(self.openings) != self.step + 1:
            return self.step
        ms = int(when * 1000)
        return next((k for k in range(self.step, 0, -1) if int(self.openings[k] * 1000) <= ms), 0)

    def advance(self, state: Any, payload: Mapping[str, Any], deadline: float | None, finished: bool,
                now: float) -> None:
        """The step just committed to the store at ``now``: the next step starts with no drafts."""
        self.record = replace(self.record, phase=self.record.phase + 1, deadline=deadline,
                              status="finished" if finished else "running", status_message_id=None,
                              end_reason="finished" if finished else self.record.end_reason)
        self.state = state
        self.steps.append(payload)
        self.openings.append(now)
        self.drafts = {}
        self.choices = 0
