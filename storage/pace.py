"""One token's REST budget shared by the processes that share its database (shards): tickets in that database.

Discord's global limit is per token, and every shard process of a bot runs on the same token and the same
database (PostgreSQL, or one SQLite file on one machine): that database is the one thing they are sure to
share, so the budget lives there and no setting has to split it (bot/http_pacing.py explains the pace).

There are ``requests`` tickets per token. A process takes a ticket before a request may leave, and stamps it
when the request's answer is back; a ticket can be taken again only a ``window`` after that stamp. Each ticket
is thus used at most once by any request that Discord counts within one window, so all the processes together
stay within ``requests`` per sliding window, and a ticket goes wherever requests wait, without shares to tune.
A process that stopped with a ticket taken (killed) leaves it for at most ``STALE`` seconds: then it counts as
answered at the moment it was taken plus ``STALE`` (no request stays in flight that long: discord.py retries or
gives up first).

PostgreSQL times every ticket by the server's clock, so the machines' clocks do not matter; SQLite's processes
share one machine's clock. The rows live in an UNLOGGED table (PostgreSQL) or a file beside the database
(SQLite, ``<database>-pace``): they matter for a window, never after a crash, and are no part of the data (no
migration, not copied by ``migrate-db``). A token is named by a hash of it, never the token itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import time
from pathlib import Path

STALE = 60.0  # seconds after which a ticket taken by a process that never stamped it is free again
MOST_WAIT = 0.05  # seconds: when every ticket is in flight, ask again this soon (another process will stamp)


def token_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


class PostgresTickets:
    """The tickets in an UNLOGGED table of the shared PostgreSQL database (a connection of its own)."""

    def __init__(self, url: str, key: str, requests: int, window: float) -> None:
        self.url, self.key, self.requests, self.window = url, key, requests, window
        self._conn: object | None = None
        self._lock = asyncio.Lock()  # one connection: one statement at a time
        self._taken: dict[int, float] = {}  # ticket -> when we took it (the server's clock): our claim

    async def _connection(self):  # type: ignore[no-untyped-def]
        if self._conn is None:
            import asyncpg  # only PostgreSQL deployments have it imported

            conn = await asyncpg.connect(self.url)
            await conn.execute("""CREATE UNLOGGED TABLE IF NOT EXISTS rest_pace (
                token text NOT NULL, ticket integer NOT NULL, taken_at double precision,
                answered_at double precision NOT NULL DEFAULT 0, PRIMARY KEY (token, ticket))""")
            await conn.execute("INSERT INTO rest_pace (token, ticket) SELECT $1, g FROM generate_series(0, $2 - 1) g"
                               " ON CONFLICT DO NOTHING", self.key, self.requests)
            self._conn = conn
        return self._conn

    async def take(self) -> tuple[int | None, float]:
        async with self._lock:
            conn = await self._connection()
            row = await conn.fetchrow("""
                WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t),
                pick AS (SELECT p.ticket FROM rest_pace p, now WHERE p.token = $1 AND p.ticket < $2
                         AND ((p.taken_at IS NULL AND p.answered_at <= now.t - $3) OR p.taken_at <= now.t - $4)
                         ORDER BY p.answered_at LIMIT 1 FOR UPDATE SKIP LOCKED)
                UPDATE rest_pace r SET taken_at = (SELECT t FROM now) FROM pick
                WHERE r.token = $1 AND r.ticket = pick.ticket RETURNING r.ticket, r.taken_at""",
                self.key, self.requests, self.window, STALE + self.window)
            if row is not None:
                self._taken[row["ticket"]] = row["taken_at"]
                return row["ticket"], 0.0
            wait = await conn.fetchval("""
                SELECT min(CASE WHEN taken_at IS NULL THEN answered_at + $3 ELSE taken_at + $4 END)
                       - extract(epoch FROM clock_timestamp())::float8
                FROM rest_pace WHERE token = $1 AND ticket < $2""",
                self.key, self.requests, self.window, STALE + self.window)
            return None, min(MOST_WAIT, max(0.001, wait or 0.0))

    async def stamp(self, ticket: int) -> None:
        taken_at = self._taken.pop(ticket, None)
        if taken_at is None:
            return
        async with self._lock:
            conn = await self._connection()
            # Only our own claim: a ticket we held past STALE may be another process's by now.
            await conn.execute("UPDATE rest_pace SET taken_at = NULL,"
                               " answered_at = extract(epoch FROM clock_timestamp())::float8"
                               " WHERE token = $1 AND ticket = $2 AND taken_at = $3", self.key, ticket, taken_at)

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()  # type: ignore[attr-defined]


class SQLiteTickets:
    """The tickets in a small SQLite file beside the database, for shard processes on one machine. Each step
    is one short write transaction, run in a thread (another process may hold the file's lock a moment)."""

    def __init__(self, database: Path, key: str, requests: int, window: float) -> None:
        self.path = Path(f"{database}-pace")
        self.key, self.requests, self.window = key, requests, window
        self._conn: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()
        self._taken: dict[int, float] = {}

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=OFF")  # a crash loses a window's stamps at most: STALE covers it
            conn.execute("CREATE TABLE IF NOT EXISTS rest_pace (token TEXT NOT NULL, ticket INTEGER NOT NULL,"
                         " taken_at REAL, answered_at REAL NOT NULL DEFAULT 0, PRIMARY KEY (token, ticket))")
            conn.executemany("INSERT OR IGNORE INTO rest_pace (token, ticket) VALUES (?, ?)",
                             [(self.key, n) for n in range(self.requests)])
            self._conn = conn
        return self._conn

    def _take(self) -> tuple[int | None, float]:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            now = time.time()
            row = conn.execute("SELECT ticket FROM rest_pace WHERE token = ? AND ticket < ? AND"
                               " ((taken_at IS NULL AND (answered_at <= ? OR answered_at > ?)) OR taken_at <= ?)"
                               " ORDER BY answered_at LIMIT 1",
                               (self.key, self.requests, now - self.window, now + STALE,  # a clock set back
                                now - STALE - self.window)).fetchone()
            if row is not None:
                conn.execute("UPDATE rest_pace SET taken_at = ? WHERE token = ? AND ticket = ?",
                             (now, self.key, row[0]))
                self._taken[row[0]] = now
                return row[0], 0.0
            (soonest,) = conn.execute(
                "SELECT min(CASE WHEN taken_at IS NULL THEN answered_at + ? ELSE taken_at + ? END)"
                " FROM rest_pace WHERE token = ? AND ticket < ?",
                (self.window, STALE + self.window, self.key, self.requests)).fetchone()
            return None, min(MOST_WAIT, max(0.001, (soonest or now) - now))
        finally:
            conn.execute("COMMIT")

    def _stamp(self, ticket: int, taken_at: float) -> None:
        self._connection().execute("UPDATE rest_pace SET taken_at = NULL, answered_at = ?"
                                   " WHERE token = ? AND ticket = ? AND taken_at = ?",
                                   (time.time(), self.key, ticket, taken_at))

    async def take(self) -> tuple[int | None, float]:
        async with self._lock:
            return await asyncio.to_thread(self._take)

    async def stamp(self, ticket: int) -> None:
        taken_at = self._taken.pop(ticket, None)
        if taken_at is not None:
            async with self._lock:
                await asyncio.to_thread(self._stamp, ticket, taken_at)

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()


SharedTickets = PostgresTickets | SQLiteTickets


def shared_tickets(store: object, token: str, requests: int, window: float) -> SharedTickets | None:
    """The token's tickets in the database behind ``store`` (None for an in-memory SQLite database: no other
    process can share it)."""
    from .backend import _underlying
    from .postgres import PostgresStore

    store = _underlying(store)  # type: ignore[arg-type]
    if isinstance(store, PostgresStore):
        return PostgresTickets(store.url, token_key(token), requests, window)
    path = getattr(store, "path", None)
    if path is None or str(path) == ":memory:":
        return None
    return SQLiteTickets(Path(path), token_key(token), requests, window)
