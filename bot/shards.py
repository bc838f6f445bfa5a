"""What one shard process of a shared database is responsible for.

Discord sends a server's events to shard ``(guild_id >> 22) % count`` and every DM to shard 0, so each
process restores, times and posts the games of its own servers, and the one holding shard 0 also takes
every DM (of any game) and answers through REST. A game with no server (started in a DM) is shard 0's.
"""

import asyncio
import logging
from collections.abc import Hashable, Sequence
from typing import Any

from bot.core.clock import Clock
from bot.core.timers import Callback, Scheduler
from bot.settings import Shards
from storage.base import GameRecord, GameStore

log = logging.getLogger(__name__)


class ShardScopedStore:
    """The store, but the games a process looks for when it restores or sweeps (open games, finished games
    whose end was not posted) are only those of its own shards; every other call goes through unchanged,
    so a DM still reaches any game."""

    def __init__(self, store: GameStore, shards: Shards) -> None:
        self.inner = store
        self.shards = shards
        self.foreign: set[int] = set()  # games seen here that another shard's process runs (a DM brought them)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def owns(self, record: GameRecord) -> bool:
        if self.shards.owns(record.guild_id):
            return True
        self.foreign.add(record.id)
        return False

    async def load_game(self, game_id: int) -> GameRecord:
        record = await self.inner.load_game(game_id)
        self.owns(record)
        return record

    async def load_games(self, game_ids: Sequence[int]) -> list[GameRecord]:
        records = await self.inner.load_games(game_ids)
        for record in records:
            self.owns(record)
        return records

    async def open_game_of_user(self, user_id: int, *, details: bool = True) -> GameRecord | None:
        record = await self.inner.open_game_of_user(user_id, details=details)
        if record is not None:
            self.owns(record)
        return record

    async def open_games(self, kind: str | None = None, *, details: bool = True, after: int = 0,
                         limit: int | None = None) -> list[GameRecord]:
        # A page (``limit``) is empty only when no open game is left after ``after``: pages of other shards'
        # games are read past, so that a caller paging by the last id it got never stops early.
        while True:
            page = await self.inner.open_games(kind, details=details, after=after, limit=limit)
            mine = [r for r in page if self.owns(r)]
            if mine or limit is None or len(page) < limit:
                return mine
            after = page[-1].id

    async def unannounced_finished_games(self, kind: str | None = None) -> list[GameRecord]:
        return [r for r in await self.inner.unannounced_finished_games(kind) if self.owns(r)]


class Resync:
    """What a shard process learns without being told: another process (the one of shard 0, taking a DM)
    may commit a step of this process's game and then die before posting it, or leave the next deadline
    armed only in itself. So, every ``period`` seconds, each game of this process's servers whose stored
    state moved and then stayed put for a whole period is caught up once: what was committed but not told
    is told, the deadline stored is armed here. The period lets a live process finish its own posts first,
    and the posts' fixed nonces make Discord drop a duplicate even then. Polling, not a notification: a
    change can never be missed, only noticed one period late."""

    def __init__(self, bot: Any, store: ShardScopedStore, period: float) -> None:
        self.bot, self.store, self.period = bot, store, period
        self._last: dict[int, tuple[Any, ...]] = {}
        self._done: dict[int, tuple[Any, ...]] = {}

    async def run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            await asyncio.sleep(self.period)
            try:
                await self.once()
            except Exception as exc:  # a failing database: the next round tries again
                log.warning("could not look for games changed by other processes: %s", exc)

    async def once(self) -> int:
        """One round; returns how many games were caught up."""
        records = [*await self.store.open_games(details=False), *await self.store.unannounced_finished_games()]
        now: dict[int, tuple[Any, ...]] = {}
        caught = 0
        for record in records:
            mark = (record.status, record.phase, record.announced_phase, record.status_message_id, record.deadline)
            now[record.id] = mark
            if self._last.get(record.id) != mark or self._done.get(record.id) == mark:
                continue  # still moving (its process may be posting right now), or already caught up
            self._done[record.id] = mark
            recovery = self._recovery_for(record.kind)
            if recovery is not None and record.status in ("running", "finished"):
                await recovery.catch_up(record.id)
                caught += 1
        self._last = now
        self._done = {k: v for k, v in self._done.items() if k in now}
        return caught

    def _recovery_for(self, kind: str) -> Any:
        """The front end's catch-up of games of ``kind`` (a cog's ``recovery`` whose service runs that kind)."""
        for cog in self.bot.cogs.values():
            recovery = getattr(cog, "recovery", None)
            service = getattr(recovery, "service", None)
            kinds = getattr(service, "by_key", None)
            served = kind in kinds if isinstance(kinds, dict) else getattr(getattr(service, "spec", None),
                                                                             "kind", None) == kind
            if served and hasattr(recovery, "catch_up"):
                return recovery
        return None


# The timers that time a game (the others post or retry posts, which any process may do for a game it acted on).
TIMING = frozenset({"deadline", "reminder"})


class ShardScheduler(Scheduler):
    """Times only this process's games: a deadline or reminder of another shard's game (armed after a DM
    this process took for it) is left to that game's process, which learns it from the store (Resync), so
    a player is never reminded twice and a deadline runs in one place."""

    def __init__(self, clock: Clock, store: ShardScopedStore) -> None:
        super().__init__(clock)
        self.store = store

    def schedule(self, key: Hashable, when: float, callback: Callback) -> None:
        if isinstance(key, tuple) and len(key) == 2 and key[0] in TIMING and key[1] in self.store.foreign:
            self.cancel(key)
            return
        super().schedule(key, when, callback)
