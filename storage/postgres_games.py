"""The two store methods several processes need (``GameStore.game_lock`` and ``game_version``), for the
PostgreSQL backend: free functions on asyncpg, so :class:`storage.postgres.PostgresStore` only delegates.

The lock is a session-level ``pg_advisory_lock`` on the game, held by its own connection for as long as the
caller works on the game. A lock that could stay held would stop the game in every process, so whatever goes
wrong ends the session, which lets go: a killed process or a dropped connection ends it on the server's side,
and an unlock that does not complete (an error, a cancellation) terminates the connection rather than give it
back to its pool. That connection must come from a pool the store's own calls do not use: a caller holding
the lock makes store calls, and with one shared pool, as many holders as connections would wait for each
other forever.

Round trips, since every choice in a shared database pays them: one to take the lock and read the version,
by a function (``pg_temp.hold_game``, made once per connection): its second statement reads with a snapshot
taken after the lock (a statement's snapshot is taken when it starts, so one plain statement could not wait
for the lock and then see what the previous holder committed); one to let go (the holder's last version
read, when it needs one, goes over the same connection: see :class:`HeldGame`).
"""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import asyncpg

from .base import GameVersion, UnknownGame

# ``choices`` is the game's action counter here (``last_seq``, bumped by every append under the row's lock):
# it moves with every draft, as a count of the phase's drafts would, without reading them (counting grew
# with every replaced draft, and both the lock and every choice read it). Versions are only compared, and
# only by the process that read them.
VERSION_SQL = (
    "SELECT status, phase, deadline, status_message_id, announced_phase, updated_at, last_seq AS choices,"
    " (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id AND s.state = 'seated') AS seated"
    " FROM games g WHERE id = $1")
# The same key space as the store's other advisory locks ('seat-user:...', 'lease:...'): a text, hashed; the
# same key as ever ('game:<id>'), so processes of an older version on the database still exclude these.
KEY = "hashtextextended('game:' || {id}::text, 0)"
# A temporary function (this session's only, made on first use): nothing in the schema, no migration.
HOLD_FUNCTION = f"""
CREATE FUNCTION pg_temp.hold_game(game_id bigint) RETURNS TABLE (status text, phase integer,
    deadline double precision, status_message_id bigint, announced_phase integer, updated_at double precision,
    choices integer, seated bigint) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
    PERFORM pg_advisory_lock({KEY.format(id="game_id")});
    RETURN QUERY {VERSION_SQL.replace("$1", "game_id")};
END $$"""
HOLD_SQL = "SELECT * FROM pg_temp.hold_game($1)"
LET_GO_SQL = f"SELECT pg_advisory_unlock({KEY.format(id='$1')})"


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
    """A game this process holds: the connection whose session holds it, and the task holding it (only
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
        try:
            try:
                row = await conn.fetchrow(HOLD_SQL, game_id)
            except (asyncpg.UndefinedFunctionError, asyncpg.InvalidSchemaNameError):
                # this connection's first hold (no function, or no temporary schema yet): refused when
                # prepared, before it ran
                await conn.execute(HOLD_FUNCTION)
                row = await conn.fetchrow(HOLD_SQL, game_id)
        except BaseException:
            # Cancelled or failed after the lock was taken, perhaps (a session's lock outlives the statement):
            # the connection must not go back to its pool holding it.
            conn.terminate()
            raise
        try:
            if row is None:
                raise UnknownGame(game_id)
            yield HeldGame(conn, asyncio.current_task(), version_of(row))
        finally:
            try:
                released = await conn.fetchval(LET_GO_SQL, str(game_id))
            except BaseException:
                conn.terminate()  # the session ends, and with it the lock
                raise
            if not released:  # never expected: this connection held the lock; ending the session is sure
                conn.terminate()


@asynccontextmanager
async def hold_game(lock_pool: asyncpg.Pool, game_id: int) -> AsyncIterator[GameVersion]:
    """:func:`held_game`, yielding only the version read under the lock."""
    async with held_game(lock_pool, game_id) as held:
        yield held.version
