"""What one shard process of a shared database is responsible for.

Discord sends a server's events to shard ``(guild_id >> 22) % count`` and every DM to shard 0, so each
process restores, times and posts the games of its own servers, and the one holding shard 0 also takes
every DM (of any game) and answers through REST. A game with no server (started in a DM) is shard 0's.
"""

from typing import Any

from bot.settings import Shards
from storage.base import GameRecord, GameStore


class ShardScopedStore:
    """The store, but the games a process looks for when it restores or sweeps (open games, finished games
    whose end was not posted) are only those of its own shards; every other call goes through unchanged,
    so a DM still reaches any game."""

    def __init__(self, store: GameStore, shards: Shards) -> None:
        self.inner = store
        self.shards = shards

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def owns(self, record: GameRecord) -> bool:
        return self.shards.owns(record.guild_id)

    async def open_games(self, kind: str | None = None, *, details: bool = True) -> list[GameRecord]:
        return [r for r in await self.inner.open_games(kind, details=details) if self.owns(r)]

    async def unannounced_finished_games(self, kind: str | None = None) -> list[GameRecord]:
        return [r for r in await self.inner.unannounced_finished_games(kind) if self.owns(r)]
