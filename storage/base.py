"""The storage interface, in game terms. Any backend (SQLite today) implements :class:`GameStore`.

Nothing here knows The Number: a game is a kind, a channel, seats, options, a phase counter and an
append-only list of actions (``choose`` with a secret value, ``resolve`` with what was revealed).

Conventions of the generic game service (``bot/core/service.py``); storage never reads these payloads:
``start`` carries ``{"seed": n}`` (drawn once; never shown before the game ends); ``choose`` is a sealed
draft, the latest per seat per phase counts; ``resolve`` is the applied step ``{"step": {"<seat>" or
"chance": action}, "reason": ..., "timed_out": [seats]}``; ``phase`` counts the applied steps.
"""

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from .ratings import RatingChange, RatingJob

GameStatus = Literal["lobby", "running", "finished", "cancelled"]
OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "running")
SeatState = Literal["seated", "left", "kicked"]


class DatabaseReplaced(Exception):
    """The database file is no longer the one this store opened (deleted or replaced under the running bot):
    a write would land in a file nobody will open again, so none is taken, and none is acknowledged."""


class StoreError(Exception):
    """Base of the errors a store raises; the message is safe to show to users."""


class ChannelBusy(StoreError):
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__("there is already a game in this channel")


class AlreadyPlaying(StoreError):
    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(f"you are already playing in <#{channel_id}>")


class GameFull(StoreError):
    def __init__(self) -> None:
        super().__init__("every seat is taken")


class WrongStatus(StoreError):
    """The game is not in a state that allows this (joining a running game, choosing in a lobby...)."""

    def __init__(self, status: str) -> None:
        self.status = status
        super().__init__(f"the game is {status}")


class StalePhase(StoreError):
    """An action meant for a phase that is already over."""

    def __init__(self, expected: int, current: int) -> None:
        self.expected, self.current = expected, current
        super().__init__("that turn is already over")


class UnknownGame(StoreError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")


class SchemaTooNew(StoreError):
    def __init__(self, found: int, known: int) -> None:
        self.found, self.known = found, known
        super().__init__(
            f"the database schema is version {found} but this code knows only up to {known}; "
            "run a newer version of the bot (the database was left untouched)"
        )


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    user_id: int | None
    name: str
    ai_level: str | None = None
    state: SeatState = "seated"

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seq: int
    phase: int
    kind: str
    seat: int | None
    payload: Mapping[str, Any]
    at: float

    def __repr__(self) -> str:  # choose payloads are secret: keep them out of logs and tracebacks
        return f"ActionRecord(seq={self.seq}, phase={self.phase}, kind={self.kind!r}, seat={self.seat})"


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    kind: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    options: Mapping[str, Any]
    phase: int
    deadline: float | None
    lobby_message_id: int | None
    status_message_id: int | None
    announced_phase: int
    end_reason: str | None
    created_at: float
    updated_at: float
    seats: tuple[SeatRecord, ...] = ()
    actions: tuple[ActionRecord, ...] = field(default=(), repr=False)
    thread_id: int | None = None  # the thread the table plays in (its lobby and final result: channel_id)

    @property
    def seated(self) -> tuple[SeatRecord, ...]:
        return tuple(s for s in self.seats if s.state == "seated")

    def seat_of(self, user_id: int) -> SeatRecord | None:
        return next((s for s in self.seated if s.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class GameVersion:
    """What of a game another process may have changed, read cheaply: two equal versions mean the same
    game (the phase, the draft rows of the phase, the seats, the row's marks). Compared, never ordered."""

    status: GameStatus
    phase: int
    # moves with every ``choose`` row of the current phase (SQLite: their count, a replaced draft counting
    # again; PostgreSQL: the game's action counter)
    choices: int
    seated: int
    deadline: float | None
    status_message_id: int | None
    announced_phase: int
    updated_at: float


class GameStore(Protocol):
    """Everything the game services need from persistence. Every method commits before it returns."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    def replaced(self) -> bool:
        """Whether the database this store opened is gone from under it (a file deleted or replaced); a server
        database cannot be: False."""
        ...

    async def create_lobby(self, kind: str, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                           options: Mapping[str, Any], now: float) -> GameRecord: ...
    async def seat_player(self, game_id: int, user_id: int | None, name: str, max_seats: int, now: float,
                          ai_level: str | None = None) -> SeatRecord: ...
    async def unseat_player(self, game_id: int, seat: int, state: SeatState, now: float,
                            new_host_id: int | None = None) -> None: ...
    async def start_game(self, game_id: int, deadline: float | None, now: float,
                         payload: Mapping[str, Any] | None = None) -> GameRecord: ...
    async def record_choice(self, game_id: int, phase: int, seat: int, payload: Mapping[str, Any],
                            now: float) -> None: ...
    async def resolve_phase(self, game_id: int, phase: int, payload: Mapping[str, Any],
                            next_deadline: float | None, finished: bool, now: float,
                            *, choices: int | None = None, rating: "RatingJob | None" = None) -> bool: ...
    async def set_deadline(self, game_id: int, phase: int, deadline: float | None, now: float) -> None: ...
    async def set_message(self, game_id: int, which: Literal["lobby", "status", "thread"],
                          message_id: int | None) -> None: ...
    async def mark_announced(self, game_id: int, phase: int) -> bool: ...
    async def end_game(self, game_id: int, status: GameStatus, reason: str, now: float) -> bool: ...

    async def load_game(self, game_id: int) -> GameRecord: ...
    async def load_games(self, game_ids: Sequence[int]) -> list[GameRecord]: ...
    async def open_games(self, kind: str | None = None, *, details: bool = True, after: int = 0,
                         limit: int | None = None) -> list[GameRecord]: ...
    async def open_game_in_channel(self, channel_id: int) -> GameRecord | None: ...
    async def open_game_of_user(self, user_id: int, *, details: bool = True) -> GameRecord | None: ...
    async def finished_games(self, guild_id: int | None, limit: int, kind: str | None = None) -> list[GameRecord]: ...
    async def unannounced_finished_games(self, kind: str | None = None) -> list[GameRecord]: ...
    async def past_games(self, kind: str, user_ids: Sequence[int], per_user: int) -> list[GameRecord]:
        """The newest ``per_user`` finished games of ``kind`` of each of ``user_ids`` that an AI seat played in
        (each game once, newest first), with seats and actions, in one read."""
        ...

    async def rating_changes(self, game_id: int) -> "list[RatingChange]": ...
    async def get_meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...
    async def get_notify(self, user_id: int) -> tuple[bool, bool]: ...
    async def set_notify(self, user_id: int, dm: bool, mention: bool) -> None: ...
    async def get_summary(self, user_id: int) -> bool: ...
    async def set_summary(self, user_id: int, on: bool) -> None: ...
    async def claim_reminder(self, game_id: int, phase: int, slot: str, now: float) -> bool: ...
    async def claim_summary(self, user_id: int, day: str, now: float) -> bool: ...
    async def running_games_of_user(self, user_id: int) -> list[GameRecord]: ...

    # Several processes on one store (shards). Exactly-once needs none of this (compare-and-set does it);
    # it keeps a process from acting on a cache another process made stale, and from racing it.
    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[GameVersion | None]:
        """Hold the game against every other process of this store until the block ends (PostgreSQL:
        ``pg_advisory_lock``; SQLite shared by processes: a byte-range file lock). Yields the game's
        stored version read under the lock, or None when this store is used by one process only (no
        lock is taken, nothing is read: the cache of the only process is the truth)."""
        ...

    def locks_games(self) -> bool:
        """Whether ``game_lock`` takes a lock (the store is shared by processes); False: it yields None at once."""
        ...

    async def game_version(self, game_id: int) -> GameVersion: ...
