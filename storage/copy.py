"""Copy a SQLite database into an empty PostgreSQL database, then prove the copy (``python -m bot migrate-db``).

Everything a bot keeps is copied: games, seats, actions, the settings in ``meta`` (server languages, the commands
hash), the derived statistics cache, the ratings (ledger, changes, current values), /notify's settings and the daily
reminders and summaries already sent. Not copied: ``schema_migrations`` (each backend numbers its own) and the leases
``instance_lease``, ``shard_lease`` (a process's, not the data's). The copy is one PostgreSQL transaction, so a
failure leaves the target empty; the source's lease is held throughout, so no bot writes to it meanwhile. The proof:
for every table, the row count and a SHA-256 of every row in key order, read back from both databases.
"""

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from .base import StoreError
from .lease import SQLiteLease
from .pg_connection import safe_url
from .postgres import PostgresStore
from .sqlite import SQLiteStore

# Table -> its key (the order rows are hashed in). Parents before children, for the foreign keys.
TABLES: dict[str, str] = {
    "meta": "key",
    "games": "id",
    "seats": "game_id, seat",
    "actions": "game_id, seq",
    "game_results": "game_id, seat",
    "rated_games": "game_id",
    "rating_changes": "game_id, scope, user_id",
    "ratings": "kind, scope, user_id",
    "user_notify": "user_id",
    "reminders_sent": "game_id, phase, slot",
    "summaries_sent": "user_id, day",
}
NOT_COPIED = frozenset({"schema_migrations", "instance_lease", "shard_lease"})  # leases: a process's


class CopyRefused(StoreError):
    """The copy cannot be made (nothing was written to the target)."""


@dataclass(frozen=True, slots=True)
class TableCheck:
    table: str
    rows: int
    sha256: str


@dataclass(frozen=True, slots=True)
class CopyReport:
    source: str
    target: str
    tables: tuple[TableCheck, ...]


async def copy_sqlite_to_postgres(path: str | Path, url: str) -> CopyReport:
    """Copy the SQLite file ``path`` into the empty PostgreSQL database ``url`` and verify it; raises
    :class:`CopyRefused` (target not empty, source missing or in use, copy not equal) with a sentence to act on."""
    source = Path(path)
    if not source.is_file():
        raise CopyRefused(f"there is no SQLite database at {source}")
    async with SQLiteStore(source) as sqlite_store, SQLiteLease(source) as lease:  # the current schema, as a start
        await lease.acquire()  # raises InstanceRunning while a bot uses the file: stop it first
        try:
            async with PostgresStore(url) as pg_store:
                await _refuse_unknown_tables(sqlite_store)
                async with pg_store.pool.acquire() as conn:
                    checks = await _copy(sqlite_store, conn, url)
        finally:
            await lease.release()
    return CopyReport(str(source), safe_url(url), checks)


async def _refuse_unknown_tables(store: SQLiteStore) -> None:
    rows = await store.db.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"
                                           " AND name NOT LIKE 'sqlite_%'")
    unknown = sorted({str(r[0]) for r in rows} - set(TABLES) - NOT_COPIED)
    if unknown:
        raise CopyRefused(f"the SQLite database has tables this version cannot copy: {', '.join(unknown)}")


async def _copy(store: SQLiteStore, conn: asyncpg.Connection, url: str) -> tuple[TableCheck, ...]:
    async with conn.transaction():
        await conn.execute("LOCK TABLE " + ", ".join(TABLES) + " IN EXCLUSIVE MODE")  # no bot writes meanwhile
        for table in TABLES:
            if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                raise CopyRefused(f"the PostgreSQL database {safe_url(url)} is not empty (table {table} has rows):"
                                  " copy into a new, empty database")
        for table in TABLES:
            columns = await _columns(conn, table, copied=True)
            cursor = await store.db.execute(f"SELECT {', '.join(columns)} FROM {table}")
            types = await _types(conn, table, columns)
            while batch := await cursor.fetchmany(5_000):
                await conn.copy_records_to_table(table, records=[_typed(r, types) for r in batch], columns=columns)
        # What PostgreSQL keeps besides: each game's latest seq (appends take the next), and the id sequence.
        await conn.execute("UPDATE games SET last_seq = COALESCE((SELECT MAX(seq) FROM actions a"
                           " WHERE a.game_id = games.id), 0)")
        await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                           " FROM games")
        return await _verify(store, conn)  # inside the transaction: a copy that differs is never committed


async def _columns(conn: asyncpg.Connection, table: str, *, copied: bool = False) -> list[str]:
    rows = await conn.fetch("SELECT column_name FROM information_schema.columns WHERE table_schema = 'public'"
                            " AND table_name = $1 ORDER BY ordinal_position", table)
    names = [str(r[0]) for r in rows]
    return [n for n in names if n != "last_seq"] if copied else names


async def _types(conn: asyncpg.Connection, table: str, columns: Sequence[str]) -> list[type]:
    rows = await conn.fetch("SELECT column_name, data_type FROM information_schema.columns"
                            " WHERE table_schema = 'public' AND table_name = $1", table)
    kinds = {str(r[0]): str(r[1]) for r in rows}
    return [float if kinds[c] == "double precision" else int if kinds[c] in ("bigint", "integer") else str
            for c in columns]


def _typed(row: Iterable[Any], types: Sequence[type]) -> tuple[Any, ...]:
    return tuple(None if v is None else t(v) for v, t in zip(row, types, strict=True))


async def _verify(store: SQLiteStore, conn: asyncpg.Connection) -> tuple[TableCheck, ...]:
    checks = []
    for table, key in TABLES.items():
        columns = await _columns(conn, table, copied=True)
        types = await _types(conn, table, columns)
        select = f"SELECT {', '.join(columns)} FROM {table}"
        # Sorted here by the key, not by ORDER BY: the two databases may collate text differently.
        at = [columns.index(k.strip()) for k in key.split(",")]
        mine = _digest(sorted((_typed(r, types) for r in await store.db.execute_fetchall(select)),
                              key=lambda r: [r[i] for i in at]))
        theirs = _digest(sorted((tuple(r) for r in await conn.fetch(select)), key=lambda r: [r[i] for i in at]))
        if mine != theirs:
            raise CopyRefused(f"the copy of table {table} differs from the source ({mine[0]} rows against"
                              f" {theirs[0]}): nothing was kept, the target is still empty")
        checks.append(TableCheck(table, mine[0], mine[1]))
    return tuple(checks)


def _digest(rows: Iterable[tuple[Any, ...]]) -> tuple[int, str]:
    digest, count = hashlib.sha256(), 0
    for row in rows:
        digest.update(repr(row).encode())
        digest.update(b"\n")
        count += 1
    return count, digest.hexdigest()

