"""Which backend: PostgreSQL when a ``postgresql://`` URL is given, else the SQLite file. The bot and its cogs
build their store, lease and statistics here, so nothing above storage/ names a backend."""

from collections.abc import Iterable
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


def make_store(url: str | None, path: str | Path, *, busy_timeout_ms: int = 10_000, shared: bool = False) -> GameStore:
    """``shared``: several processes (shards) use the database, so games are locked across them."""
    if is_postgres_url(url):
        assert url is not None
        return PostgresStore(url, timeout_s=max(1.0, busy_timeout_ms / 1000), shared=shared)
    return SQLiteStore(path, busy_timeout_ms=busy_timeout_ms, shared=shared)


class Leases:
    """Several leases held as one: a process of several shards on PostgreSQL leases each of its shards."""

    def __init__(self, leases: list[Lease]) -> None:
        self.leases = leases

    async def open(self) -> None:
        for lease in self.leases:
            await lease.open()

    async def close(self) -> None:
        for lease in self.leases:
            await lease.close()

    async def acquire(self, now: float | None = None) -> None:
        taken: list[Lease] = []
        try:
            for lease in self.leases:
                await lease.acquire(now)
                taken.append(lease)
        except BaseException:
            for lease in taken:  # all or nothing: a refused start holds no shard
                await lease.release()
            raise

    async def renew(self, now: float | None = None) -> bool:
        return all([await lease.renew(now) for lease in self.leases])

    async def release(self) -> None:
        for lease in self.leases:
            await lease.release()


def _underlying(store: GameStore) -> GameStore:
    """The backend store behind a wrapper that delegates to it as ``inner`` (the shard view, bot/shards.py)."""
    while hasattr(store, "inner"):
        store = store.inner
    return store


def make_lease(store: GameStore, *, busy_timeout_ms: int = 10_000, name: str = WHOLE_DATABASE,
               shard_count: int = 1, shard_ids: Iterable[int] = (0,)) -> Lease | None:
    """The lease of the database behind ``store`` (None for an in-memory SQLite database: nothing to share).

    On PostgreSQL, ``name`` says what the lease covers: the whole database by default; processes sharing the
    database by shard take one lease per shard instead (e.g. ``"shard 3 of 4"``), so only a second process with
    the same shard is refused. A SQLite file has one row per shard (storage/lease.py)."""
    store = _underlying(store)
    if isinstance(store, PostgresStore):
        if shard_count == 1:
            return PostgresLease(store.url, name=name)
        hint = "give this one other SHARD_IDS"
        return Leases([PostgresLease(store.url, name=f"shard {i} of {shard_count}", hint=hint)
                       for i in sorted(shard_ids)])
    path = getattr(store, "path", None)
    if path is None or str(path) == ":memory:":
        return None
    return SQLiteLease(path, busy_timeout_ms=busy_timeout_ms, shard_count=shard_count, shard_ids=shard_ids)


def make_stats(store: GameStore, summarise: Summariser, kinds: list[str], *,
               busy_timeout_ms: int = 10_000) -> Stats | None:
    """Statistics on the database behind ``store`` (None when they cannot have a connection of their own)."""
    store = _underlying(store)
    if isinstance(store, PostgresStore):
        return PostgresStats(store.url, summarise, kinds)
    path = getattr(store, "path", None)
    if path is None or str(path) == ":memory:":
        return None
    return SQLiteStats(path, summarise, kinds, busy_timeout_ms=busy_timeout_ms)


def describe(url: str | None, path: str | Path) -> str:
    """The database as an operator's message names it (never with its password)."""
    return safe_url(url) if is_postgres_url(url) and url is not None else str(path)
