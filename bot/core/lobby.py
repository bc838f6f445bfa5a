"""The lobby of any game: open a table, take and leave seats, add AI players, cancel.

Nothing here knows a game's rules beyond its :class:`GameSpec` (seat counts, AI levels); a service of
several games says which spec a table follows by overriding :meth:`LobbyService.spec_for`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from storage.base import GameRecord, GameStore

from .clock import Clock, SystemClock
from .errors import AlreadySeated, AlreadyStarted, NotHost, NotInGame, NotRunning, UnknownLevel
from .locks import GameLocks

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True)
class GameSpec:
    kind: str
    title: str
    min_seats: int
    max_seats: int
    ai_levels: tuple[str, ...] = ()  # empty: any level (The Number's service checks its own)

    @classmethod
    def of(cls, game: Game[Any, Any, Any]) -> GameSpec:
        return cls(kind=game.key, title=game.title, min_seats=game.seats.start, max_seats=game.seats.stop - 1,
                   ai_levels=tuple(game.ai_levels))


class LobbyService:
    def __init__(self, store: GameStore, spec: GameSpec, clock: Clock | None = None) -> None:
        self.store = store
        self.spec = spec
        self.clock: Clock = clock or SystemClock()
        self.locks = GameLocks(store, self._stale)

    def _stale(self, game_id: int) -> None:
        """Another process changed the game: forget what this one cached of it (services with a cache)."""
        drop = getattr(self, "_drop", None)
        if drop is not None:
            drop(game_id)

    async def open_lobby(self, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                         options: Mapping[str, Any], *, kind: str | None = None) -> GameRecord:
        return await self.store.create_lobby(kind or self.spec.kind, guild_id, channel_id, host_id, host_name,
                                             options, self.clock.now())

    def spec_for(self, record: GameRecord) -> GameSpec:
        """The spec a table follows (one game per service here; a service of several games looks at kind)."""
        return self.spec

    async def join(self, game_id: int, user_id: int, name: str) -> GameRecord:
        async with self.locks(game_id):
            record = await self.store.load_game(game_id)
            self._require_lobby(record)
            if record.seat_of(user_id) is not None:
                raise AlreadySeated()
            await self.store.seat_player(game_id, user_id, name, self.spec_for(record).max_seats, self.clock.now())
            return await self.store.load_game(game_id)

    async def add_ai(self, game_id: int, by_user: int, level: str, name: str) -> GameRecord:
        async with self.locks(game_id):
            record = await self.store.load_game(game_id)
            self._require_lobby(record)
            if by_user != record.host_id:
                raise NotHost("add_ai")
            spec = self.spec_for(record)
            if spec.ai_levels and level not in spec.ai_levels:
                raise UnknownLevel(spec.ai_levels)
            await self.store.seat_player(game_id, None, name, spec.max_seats, self.clock.now(), ai_level=level)
            return await self.store.load_game(game_id)

    async def leave_lobby(self, game_id: int, user_id: int) -> GameRecord:
        async with self.locks(game_id):
            record = await self.store.load_game(game_id)
            self._require_lobby(record)
            seat = record.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            await self.store.unseat_player(game_id, seat.seat, "left", self.clock.now(),
                                           new_host_id=successor(record, user_id))
            record = await self.store.load_game(game_id)
            if not any(s.user_id is not None for s in record.seated):
                await self.store.end_game(game_id, "cancelled", "everyone left", self.clock.now())
                record = await self.store.load_game(game_id)
            return record

    async def cancel(self, game_id: int, by_user: int, can_manage: bool) -> GameRecord:
        async with self.locks(game_id):
            record = await self.store.load_game(game_id)
            if record.status not in ("lobby", "running"):
                raise NotRunning(record.status)
            if by_user != record.host_id and not can_manage:
                raise NotHost("cancel")
            await self.store.end_game(game_id, "cancelled", f"cancelled by <@{by_user}>", self.clock.now())
            self.forget(game_id)
            return await self.store.load_game(game_id)

    def forget(self, game_id: int) -> None:
        """Drop what is cached about a game that has ended."""
        self.locks.forget(game_id)

    @staticmethod
    def _require_lobby(record: GameRecord) -> None:
        if record.status == "running":
            raise AlreadyStarted()
        if record.status != "lobby":
            raise NotRunning(record.status)


def successor(record: GameRecord, leaving_user: int) -> int | None:
    """Who becomes host when ``leaving_user`` leaves: the next seated person after the host's seat (AI
    players never host); None when the one leaving is not the host, or nobody is left to take over."""
    if leaving_user != record.host_id:
        return None
    people = [s for s in record.seated if s.user_id is not None and s.user_id != leaving_user]
    if not people:
        return None
    host_seat = next((s.seat for s in record.seats if s.user_id == leaving_user), -1)
    after = [s for s in people if s.seat > host_seat]
    return (after or people)[0].user_id
