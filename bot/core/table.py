"""A table: one stored game with its engine state, for any game implementing :mod:`bot.core.game`.

The state is never stored: it is the fold of the stored steps (the ``resolve`` payloads) through the game,
from ``setup`` with the seed kept in the ``start`` action. The drafts of the current sealed step (``choose``
rows, the latest per seat) are kept beside the state, since engines see only complete steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from storage.base import GameRecord, SeatRecord

from .fold import fold as fold_steps
from .game import Action, Game, Prompt, Seat

AWAY_AFTER_MISSES = 2


def stored_steps(record: GameRecord) -> list[Mapping[str, Any]]:
    """The ``resolve`` payloads of ``record``, in order: the applied steps with their reason and timeouts."""
    return [a.payload for a in record.actions if a.kind == "resolve"]


def seed_of(record: GameRecord) -> int:
    """The game's seed, drawn once at start (0 for a game started before seeds were stored)."""
    start = next((a for a in record.actions if a.kind == "start"), None)
    return int(start.payload.get("seed", 0)) if start is not None else 0


def fold(game: Game[Any, Any, Any], record: GameRecord, upto: int | None = None) -> tuple[Any, list[Any]]:
    """The state after the first ``upto`` stored steps (all by default) and the event of each of them."""
    steps = [payload["step"] for payload in stored_steps(record)]
    return fold_steps(game, len(record.seats), record.options, seed_of(record), steps, upto)


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

    @classmethod
    def load(cls, game: Game[Any, Any, Any], record: GameRecord) -> Table:
        """Fold a stored game (the one fold of a game's log the service uses)."""
        if record.status == "lobby":
            return cls(replace(record, actions=()), game, None, 0)
        state, _ = fold(game, record)
        drafts, rows = stored_drafts(record) if record.status == "running" else ({}, 0)
        return cls(replace(record, actions=()), game, state, seed_of(record), stored_steps(record), drafts, rows)

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
        if not self.running:
            return None
        prompt = self.game.prompt(self.state)
        if prompt is None:
            return None
        return replace(prompt, seats=prompt.seats & self.seated)

    def awaited(self) -> frozenset[Seat]:
        """The seated seats the current step still waits for."""
        prompt = self.prompt
        if prompt is None or prompt.chance:
            return frozenset()
        return prompt.seats - self.drafts.keys() if prompt.sealed else prompt.seats

    def seat(self, number: Seat) -> SeatRecord:
        return next(s for s in self.record.seats if s.seat == number)

    def away(self, seat: Seat) -> bool:
        """True when ``seat`` timed out in each of the last two steps that asked it."""
        key = str(seat)
        asked = [p for p in self.steps if key in p["step"] or seat in p.get("timed_out", ())]
        recent = asked[-AWAY_AFTER_MISSES:]
        return len(recent) == AWAY_AFTER_MISSES and all(seat in p.get("timed_out", ()) for p in recent)

    def advance(self, state: Any, payload: Mapping[str, Any], deadline: float | None, finished: bool) -> None:
        """The step just committed to the store: the next step starts with no drafts."""
        self.record = replace(self.record, phase=self.record.phase + 1, deadline=deadline,
                              status="finished" if finished else "running", status_message_id=None,
                              end_reason="finished" if finished else self.record.end_reason)
        self.state = state
        self.steps.append(payload)
        self.drafts = {}
        self.choices = 0
