"""The two storage backends as tests see them: a store, statistics, a lease and raw SQL on either.

PostgreSQL: one database per test run, ``test_<random>`` on the server of ``TEST_POSTGRES_URL`` (default: this
project's machines, 127.0.0.1:5432, user postgres, trust authentication), migrated once and emptied before each
test (far quicker than a new database), dropped at the end of the run.
"""

import asyncio
import os
import re
import sqlite3
import uuid
from collections.abc import Coroutine, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest
import yarl

from storage.lease import SQLiteLease
from storage.pg_connection import migrate
from storage.postgres import PostgresStore
from storage.postgres_lease import PostgresLease
from storage.postgres_stats import PostgresStats
from storage.sqlite import SQLiteStore
from storage.stats import SQLiteStats, Summariser

BACKENDS = ("sqlite", "postgres")
DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
# Emptied before each test: DELETE (the games' rows cascade) is much quicker than TRUNCATE on tables this small.
EMPTY = ("DELETE FROM game_results; DELETE FROM ratings; DELETE FROM rated_games; DELETE FROM user_notify;"
         " DELETE FROM reminders_sent; DELETE FROM summaries_sent; DELETE FROM actions; DELETE FROM seats;"
         " DELETE FROM games; DELETE FROM meta;"
         " DELETE FROM instance_lease; SELECT setval(pg_get_serial_sequence('games', 'id'), 1, false)")

AnyStore = SQLiteStore | PostgresStore
AnyStats = SQLiteStats | PostgresStats
AnyLease = SQLiteLease | PostgresLease
T = TypeVar("T")


def server_url() -> str:
    return os.environ.get("TEST_POSTGRES_URL", DEFAULT_SERVER)


def database_url(server: str, name: str) -> str:
    return str(yarl.URL(server).with_path("/" + name))


@dataclass(frozen=True)
class Backend:
    name: str
    target: str  # the SQLite file or the PostgreSQL URL

    @property
    def postgres(self) -> bool:
        return self.name == "postgres"

    def store(self, **options: Any) -> AnyStore:
        return PostgresStore(self.target, **options) if self.postgres else SQLiteStore(self.target, **options)

    def stats(self, summarise: Summariser, kinds: Iterable[str]) -> AnyStats:
        return (PostgresStats(self.target, summarise, kinds) if self.postgres
                else SQLiteStats(self.target, summarise, kinds))

    def lease(self, **options: Any) -> AnyLease:
        return PostgresLease(self.target, **options) if self.postgres else SQLiteLease(self.target, **options)

    async def execute(self, sql: str, *params: Any) -> None:
        """Raw SQL behind the store's back (``?`` placeholders), as an old version of the code might have left."""
        if self.postgres:
            numbered = iter(range(1, len(params) + 1))
            await pg_execute(self.target, re.sub(r"\?", lambda _: f"${next(numbered)}", sql), *params)
        else:
            with sqlite3.connect(self.target) as raw:
                raw.execute(sql, params)


def sqlite_backend(path: Path) -> Backend:
    return Backend("sqlite", str(path))


async def pg_execute(url: str, sql: str, *params: Any) -> None:
    """One statement on a connection of its own (asyncpg placeholders)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql, *params)
    finally:
        await conn.close()


async def postgres_backend(url: str) -> Backend:
    await pg_execute(url, EMPTY)
    return Backend("postgres", url)


async def _problem(server: str) -> str | None:
    try:
        conn = await asyncpg.connect(server, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        return f"{yarl.URL(server).with_password(None)} cannot be reached ({type(exc).__name__}: {exc})"
    await conn.close()
    return None


def unavailable(reason: str) -> None:
    """Skip, or fail when the run must test PostgreSQL (CI sets REQUIRE_POSTGRES=1)."""
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        pytest.fail(f"REQUIRE_POSTGRES=1 but PostgreSQL {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason} (set TEST_POSTGRES_URL to a server)")


async def create_database(server: str, name: str, *, migrated: bool = True) -> str:
    await pg_execute(server, f'CREATE DATABASE "{name}"')
    url = database_url(server, name)
    if migrated:
        conn = await asyncpg.connect(url)
        try:
            await migrate(conn)
        finally:
            await conn.close()
    return url


async def drop_database(server: str, name: str) -> None:
    await pg_execute(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def new_name(prefix: str = "test") -> str:
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to the end in a loop of its own, on a thread: the fixture that needs the database
    first may be set up inside a test's running loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def run_database() -> Iterator[str]:
    """A migrated database for the run (a generator for a session fixture): created, yielded, dropped."""
    server = server_url()
    problem = _run(_problem(server))
    if problem:
        unavailable(problem)
    name = new_name()
    url = _run(create_database(server, name))
    try:
        yield url
    finally:
        _run(drop_database(server, name))
