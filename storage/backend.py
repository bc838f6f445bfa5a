"""Which backend: PostgreSQL when a ``postgresql://`` URL is given, else the SQLite file. The bot and its cogs
build their store, lease and statistics here, so nothing above storage/ names a backend."""

from pathlib import Path
from typing import Protocol

from .base import GameStore
from .lease import SQLiteLease
from .pg_connection import is_postgres_url, safe_url
from .postgres import PostgresStore
from .postgres_lease import WHOLE_DATABASE, PostgresLease
from .postgres_stats import PostgresStats
from .sqlite import SQLiteStore
from .stats import SQLiteStats, Summariser

Stats = SQLiteStats | PostgresStats


class Lease(Protocol):
    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def acquire(self, now: float | None = None) -> None: ...
    async def renew(self, now: float | None = None) -> bool: ...
    async def release(self) -> None: ...


def make_store(url: str | None, path: str | Path, *, busy_timeout_ms: int = 10_000) -> GameStore:
    if is_postgres_url(url):
        assert url is not None
        return PostgresStore(url, timeout_s=max(1.0, busy_timeout_ms / 1000))
    return SQLiteStore(path, busy_timeout_ms=busy_timeout_ms)


def make_lease(store: GameStore, *, busy_timeout_ms: int = 10_000, name: str = WHOLE_DATABASE) -> Lease | None:
    """The lease of the database behind ``store`` (None for an in-memory SQLite database: nothing to share).

    On PostgreSQL, ``name`` says what the lease covers: the whole database by default; processes sharing the
    database by shard take one lease per shard instead (e.g. ``"shard 3 of 4"``), so only a second process with
    the same shard is refused. A SQLite file always has one process."""
    if isinstance(store, PostgresStore):
        return PostgresLease(store.url, name=name)
    path = getattr(store, "path", None)
    if path is None or str(path) == ":memory:":
        return None
    return SQLiteLease(path, busy_timeout_ms=busy_timeout_ms)


def make_stats(store: GameStore, summarise: Summariser, kinds: list[str], *,
               busy_timeout_ms: int = 10_000) -> Stats | None:
    """Statistics on the database behind ``store`` (None when they cannot have a connection of their own)."""
    if isinstance(store, PostgresStore):
        return PostgresStats(store.url, summarise, kinds)
    path = getattr(store, "path", None)
    if path is None or str(path) == ":memory:":
        return None
    return SQLiteStats(path, summarise, kinds, busy_timeout_ms=busy_timeout_ms)


def describe(url: str | None, path: str | Path) -> str:
    """The database as an operator's message names it (never with its password)."""
    return safe_url(url) if is_postgres_url(url) and url is not None else str(path)
