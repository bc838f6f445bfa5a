"""What every PostgreSQL holder here shares: an asyncpg pool, its life cycle, transactions, and migrations."""

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from .holder import Holder
from .migrations import POSTGRES, check_version, load_migrations

# Taken by every migrating process for the length of its transaction: two processes started at once on an
# empty database would otherwise both create the tables (CREATE TABLE IF NOT EXISTS is not safe under races).
MIGRATION_LOCK = 0x6E67_6D69  # "ngmi", any fixed number


async def keep_session(conn: asyncpg.Connection) -> None:
    """What a connection goes back to its pool with: nothing to undo. asyncpg's default sends a reset query
    (``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``) at every release, a round trip and a
    wake-up of the server per store call; none of that state is left here (no LISTEN, no SET, no cursor
    outside a transaction; the one session-level advisory lock, a game's, is let go before its connection
    goes back, or the connection is terminated: see postgres_games). asyncpg still rolls back a transaction
    left open before this is called, so a connection never goes back inside one."""


def create_pool(url: str, *, size: int, timeout_s: float) -> asyncpg.Pool:
    """A pool of connections to ``url``, reused as they are (see :func:`keep_session`); asyncpg keeps each
    connection's prepared statements (its default statement cache), so a store call is one round trip."""
    return asyncpg.create_pool(url, min_size=1, max_size=size, timeout=timeout_s, reset=keep_session)


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and str(url).split("://", 1)[0] in ("postgresql", "postgres")


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    head, sep, tail = url.partition("://")
    if "@" not in tail:
        return url
    credentials, _, host = tail.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{head}{sep}{user}@{host}" if user else f"{head}{sep}{host}"


class PoolHolder(Holder):
    """Owns one asyncpg pool to ``url``, opened by ``open`` (the subclass adds its own steps)."""

    what = "the database pool"

    def __init__(self, url: str, *, pool_size: int = 10, timeout_s: float = 10.0) -> None:
        self.url = url
        self.pool_size = pool_size
        self.timeout_s = timeout_s
        self._pool: asyncpg.Pool | None = None

    async def _open_pool(self) -> None:
        self._pool = await create_pool(self.url, size=self.pool_size, timeout_s=self.timeout_s)

    async def open(self) -> None:
        await self._open_pool()

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        return self._opened(self._pool)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction on one pooled connection, committed when the block ends (READ COMMITTED: each
        statement sees what was committed before it started, so a statement after a row lock sees the
        latest committed rows)."""
        async with self.pool.acquire() as conn, conn.transaction():
            yield conn


async def migrate(conn: asyncpg.Connection) -> int:
    """Apply the missing PostgreSQL migrations in one transaction; returns the resulting version. A schema newer
    than this code raises :class:`SchemaTooNew` before anything is written (and the transaction is rolled back)."""
    migrations = load_migrations(POSTGRES)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
        current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")) if exists else 0
        check_version(current, len(migrations))
        if not exists:
            await conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                               " applied_at DOUBLE PRECISION NOT NULL)")
        for migration in migrations[current:]:
            for statement in migration.statements:
                await conn.execute(statement)
            await conn.execute("INSERT INTO schema_migrations VALUES ($1, $2, $3)",
                               migration.version, migration.name, time.time())
    return len(migrations)
