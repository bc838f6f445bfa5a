"""The two store methods several processes need (``GameStore.game_lock`` and ``game_version``), for the
PostgreSQL backend: free functions on asyncpg, so :class:`storage.postgres.PostgresStore` only delegates.

The lock is ``pg_advisory_xact_lock`` on the game, in a transaction held open on its own connection for as
long as the caller works on the game: the end of that transaction releases it, whatever happens (an error,
a dropped connection, a killed process), so there is no unlock that could fail and leave it held. That
connection must come from a pool the store's own calls do not use: a caller holding the lock makes store
calls, and with one shared pool, as many holders as connections would wait for each other forever.

Round trips, since every choice in a shared database pays them: the BEGIN and the lock go in one simple
query, the version is read by the next statement (a statement's snapshot is taken when it starts, so the
version must not be read by the statement that waits for the lock), and the holder's own last version read
goes over the same connection (see :class:`HeldGame`), then the COMMIT.
"""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import asyncpg

from .base import GameVersion, UnknownGame

VERSION_SQL = (
    "SELECT status, phase, deadline, status_message_id, announced_phase, updated_at,"
    " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.phase = g.phase AND a.kind = 'choose') AS choices,"
    " (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id AND s.state = 'seated') AS seated"
    " FROM games g WHERE id = $1")
# The same key space as the store's other advisory locks ('seat-user:...', 'lease:...'): a text, hashed; the
# same key as ever ('game:<id>'), so processes of an older version on the database still exclude these.
# A simple query (no parameters: the id is formatted from an int) may hold two statements: one round trip.
LOCK_SQL = "BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('game:{game_id}', 0))"


async def game_version(db: Any, game_id: int) -> GameVersion:
    """``db``: an asyncpg pool or connection."""
    row = await db.fetchrow(VERSION_SQL, game_id)
    if row is None:
        raise UnknownGame(game_id)
    return version_of(row)


def version_of(row: Any) -> GameVersion:
    """The version in a row of VERSION_SQL's columns."""
    return GameVersion(row["status"], int(row["phase"]), int(row["choices"]), int(row["seated"]),
                       None if row["deadline"] is None else float(row["deadline"]), row["status_message_id"],
                       int(row["announced_phase"]), float(row["updated_at"]))


@dataclass(slots=True)
class HeldGame:
    """A game this process holds: the connection whose transaction holds it, and the task holding it (only
    that task may use the connection: asyncpg runs one statement at a time on a connection).

    ``left``: the version the holder's latest write left the game at, when that write returned it (a choice
    does, in its own statement); None when unknown (any other write), so the holder's last read is a read.
    A version that is older than the stored one can only make the next holder reload the game, never keep
    a cache another process made stale."""

    conn: asyncpg.Connection
    task: "asyncio.Task[Any] | None"
    version: GameVersion
    left: GameVersion | None = None


@asynccontextmanager
async def held_game(lock_pool: asyncpg.Pool, game_id: int) -> AsyncIterator[HeldGame]:
    """Hold ``game_id`` against every other process until the block ends; the version in what is yielded is
    read under the lock (so it is the version the holder starts from)."""
    async with lock_pool.acquire() as conn:
        await conn.execute(LOCK_SQL.format(game_id=int(game_id)))
        try:
            held = HeldGame(conn, asyncio.current_task(), await game_version(conn, game_id))
            yield held
        except BaseException:
            # Nothing was written in this transaction: ending it only lets go. If the connection is broken,
            # the server ends the transaction itself (and the pool drops the connection).
            if not conn.is_closed():
                await conn.execute("ROLLBACK")
            raise
        await conn.execute("COMMIT")


@asynccontextmanager
async def hold_game(lock_pool: asyncpg.Pool, game_id: int) -> AsyncIterator[GameVersion]:
    """:func:`held_game`, yielding only the version read under the lock."""
    async with held_game(lock_pool, game_id) as held:
        yield held.version
