"""The two store methods several processes need (``GameStore.game_lock`` and ``game_version``), for the
PostgreSQL backend: free functions on asyncpg, so :class:`storage.postgres.PostgresStore` only delegates.

The lock is ``pg_advisory_xact_lock`` on the game, in a transaction held open on its own connection for as
long as the caller works on the game: the end of that transaction releases it, whatever happens (an error,
a dropped connection, a killed process), so there is no unlock that could fail and leave it held. That
connection must come from a pool the store's own calls do not use: a caller holding the lock makes store
calls, and with one shared pool, as many holders as connections would wait for each other forever.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from .base import GameVersion, UnknownGame

VERSION_SQL = (
    "SELECT status, phase, deadline, status_message_id, announced_phase, updated_at,"
    " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.phase = g.phase AND a.kind = 'choose') AS choices,"
    " (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id AND s.state = 'seated') AS seated"
    " FROM games g WHERE id = $1")
# The same key space as the store's other advisory locks ('seat-user:...', 'lease:...'): a text, hashed.
LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtextextended('game:' || $1::text, 0))"


async def game_version(db: Any, game_id: int) -> GameVersion:
    """``db``: an asyncpg pool or connection."""
    row = await db.fetchrow(VERSION_SQL, game_id)
    if row is None:
        raise UnknownGame(game_id)
    return GameVersion(row["status"], int(row["phase"]), int(row["choices"]), int(row["seated"]),
                       None if row["deadline"] is None else float(row["deadline"]), row["status_message_id"],
                       int(row["announced_phase"]), float(row["updated_at"]))


@asynccontextmanager
async def hold_game(lock_pool: asyncpg.Pool, game_id: int) -> AsyncIterator[GameVersion]:
    """Hold ``game_id`` against every other process until the block ends; yields its stored version, read
    under the lock (so it is the version the holder starts from)."""
    async with lock_pool.acquire() as conn, conn.transaction():
        await conn.execute(LOCK_SQL, str(game_id))
        yield await game_version(conn, game_id)
