"""The PostgreSQL game lock across processes (storage/postgres_games.py) on a real server: a holder keeps the
game from every other connection until its block ends, other games stay free, and the version is read under
the lock. The tables are the few columns the version reads."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage.postgres_games import game_version, hold_game
from tests.backends import unavailable

SERVER = os.environ.get("SHARDS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
SCHEMA = """
CREATE TABLE games (id BIGINT PRIMARY KEY, status TEXT NOT NULL, phase INTEGER NOT NULL, deadline DOUBLE PRECISION,
                    status_message_id BIGINT, announced_phase INTEGER NOT NULL, updated_at DOUBLE PRECISION NOT NULL,
                    last_seq INTEGER NOT NULL DEFAULT 0);
CREATE TABLE actions (game_id BIGINT NOT NULL, phase INTEGER NOT NULL, kind TEXT NOT NULL);
CREATE TABLE seats (game_id BIGINT NOT NULL, state TEXT NOT NULL);
INSERT INTO games VALUES (1, 'running', 0, NULL, NULL, -1, 1.0, 0), (2, 'running', 0, NULL, NULL, -1, 1.0, 0);
INSERT INTO seats VALUES (1, 'seated'), (1, 'seated'), (2, 'seated');
"""


@pytest.fixture
async def database() -> AsyncIterator[str]:
    try:
        admin = await asyncpg.connect(SERVER, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        unavailable(f"at {SERVER} cannot be reached ({type(exc).__name__}: {exc})")
    name = f"shards_{secrets.token_hex(6)}"
    await admin.execute(f"CREATE DATABASE {name}")
    url = SERVER.rsplit("/", 1)[0] + "/" + name
    try:
        conn = await asyncpg.connect(url)
        await conn.execute(SCHEMA)
        await conn.close()
        yield url
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()


async def test_a_game_is_held_against_other_connections_until_the_block_ends(database: str) -> None:
    one = await asyncpg.create_pool(database, min_size=1, max_size=2)
    other = await asyncpg.create_pool(database, min_size=1, max_size=2)
    entered = asyncio.Event()
    try:
        async with hold_game(one, 1) as version:
            assert (version.status, version.phase, version.choices, version.seated) == ("running", 0, 0, 2)

            async def second() -> int:
                async with hold_game(other, 1) as seen:
                    entered.set()
                    return seen.choices

            waiting = asyncio.create_task(second())
            async with hold_game(other, 2) as free:  # another game is not held
                assert free.seated == 1
            assert not entered.is_set()
            # the holder's work, committed: a draft, appended as the store appends (the game's counter moves)
            await one.execute("WITH g AS (UPDATE games SET last_seq = last_seq + 1 WHERE id = 1 RETURNING id)"
                              " INSERT INTO actions SELECT id, 0, 'choose' FROM g")
        # the second holder starts from what the first one left
        assert await asyncio.wait_for(waiting, 30) == 1  # a safety net: the lock is the event
        assert (await game_version(other, 1)).choices == 1
    finally:
        await one.close()
        await other.close()


async def test_a_holder_that_fails_or_a_waiter_cancelled_leaves_the_game_free(database: str) -> None:
    """The lock is a session's: an error in the block lets go, and a waiter cancelled while it waits (perhaps
    just after the server gave it the lock) ends its connection rather than give it back holding the game."""
    one = await asyncpg.create_pool(database, min_size=1, max_size=2)
    other = await asyncpg.create_pool(database, min_size=1, max_size=1)
    try:
        with pytest.raises(RuntimeError):
            async with hold_game(one, 1):
                raise RuntimeError("the holder's work failed")
        async with hold_game(one, 1):
            waiting = asyncio.create_task(hold_game(other, 1).__aenter__())
            while not await one.fetchval("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                                         " AND wait_event_type = 'Lock'"):
                await asyncio.sleep(0)  # until the waiter waits for the lock (the event, not a delay)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
        async with hold_game(other, 1) as version:  # the game is free for the next holder, on the same pool
            assert version.phase == 0
        assert not await one.fetchval("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND database ="
                                      " (SELECT oid FROM pg_database WHERE datname = current_database())")
    finally:
        await one.close()
        await other.close()
