"""One bot process per shard of a database: a lease row per shard, with a heartbeat.

Two processes working on the same servers would each trust their own cache and contradict each other, so
a process refuses to start while a live one holds any of its shards. An unsharded process holds shard 0 of
1, the whole bot; processes of different shard counts would split the servers differently, so they never
share a database either. A holder is free to take over when it is gone: on this host, when its pid is no
longer alive (so a restart right after ``kill -9`` is immediate); on another host, when its heartbeat is
older than ``timeout`` seconds. The lease has its own connection, so it never waits behind the store's.

The decision (:func:`blocking_holder`) is plain Python over the rows, so every backend shares it.
"""

import os
import socket
import sqlite3
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from .base import StoreError
from .connection import ConnectionHolder

HEARTBEAT_SECONDS = 10.0
TIMEOUT_SECONDS = 60.0  # six missed heartbeats: a holder on another host is considered gone


@dataclass(frozen=True, slots=True)
class Holder:
    token: str
    pid: int
    hostname: str
    heartbeat: float
    shard: int = 0
    shard_count: int = 1


class InstanceRunning(StoreError):
    def __init__(self, path: str, holder: Holder, now: float, shard_count: int = 1, *,
                 what: str = "the database", hint: str = "give this one another DATABASE_PATH") -> None:
        self.holder = holder
        seen = max(0, int(now - holder.heartbeat))
        who = f"another bot process (pid {holder.pid} on {holder.hostname}, last seen {seen} s ago)"
        if holder.shard_count == shard_count == 1:
            text = f"{who} is using {what} {path}: stop it first, or {hint}"
        elif holder.shard_count == shard_count:
            text = (f"{who} runs shard {holder.shard} of {shard_count} on {what} {path}: stop it first, or"
                    " give this one other SHARD_IDS")
        else:
            text = (f"{who} runs {what} {path} as {holder.shard_count} shard(s), this one as {shard_count}:"
                    " every process of one database needs the same SHARD_COUNT (stop it first)")
        super().__init__(text)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


def alive(holder: Holder, me: Holder, now: float, timeout: float) -> bool:
    if now - holder.heartbeat >= timeout:
        return False  # silent too long (also covers a pid reused by an unrelated process)
    if holder.hostname == me.hostname:
        return pid_alive(holder.pid)
    return True


def blocking_holder(rows: Iterable[Holder], me: Holder, shard_count: int, shard_ids: Iterable[int], now: float,
                    timeout: float) -> Holder | None:
    """The live holder that keeps ``me`` from taking ``shard_ids`` of ``shard_count``, if any."""
    wanted = set(shard_ids)
    for row in sorted(rows, key=lambda r: r.shard):
        if row.token == me.token or not alive(row, me, now, timeout):
            continue
        if row.shard_count != shard_count or row.shard in wanted:
            return row
    return None


class SQLiteLease(ConnectionHolder):
    what = "the instance lease"

    def __init__(self, path: str | Path, *, timeout: float = TIMEOUT_SECONDS, busy_timeout_ms: int = 10_000,
                 shard_count: int = 1, shard_ids: Iterable[int] = (0,)) -> None:
        super().__init__()
        self.path = str(path)
        self.timeout = timeout
        self.busy_timeout_ms = busy_timeout_ms
        self.shard_count = shard_count
        self.shard_ids = tuple(sorted(set(shard_ids)))
        if not self.shard_ids or not all(0 <= s < shard_count for s in self.shard_ids):
            raise ValueError(f"shards {self.shard_ids} are not shards of {shard_count}")
        self.me = Holder(uuid.uuid4().hex, os.getpid(), socket.gethostname(), 0.0)

    async def open(self) -> None:
        db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
        db.row_factory = sqlite3.Row
        await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        self._db = db

    def _alive(self, holder: Holder, now: float) -> bool:
        return alive(holder, self.me, now, self.timeout)

    async def acquire(self, now: float | None = None) -> None:
        """Take the lease of every shard of this process, or raise :class:`InstanceRunning` while another
        live process holds one of them (or runs another shard count)."""
        now = time.time() if now is None else now
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            cursor = await db.execute(
                "SELECT shard, shard_count, holder, pid, hostname, heartbeat FROM shard_lease")
            rows = [Holder(r["holder"], int(r["pid"]), r["hostname"], float(r["heartbeat"]), int(r["shard"]),
                           int(r["shard_count"])) for r in await cursor.fetchall()]
            blocker = blocking_holder(rows, self.me, self.shard_count, self.shard_ids, now, self.timeout)
            if blocker is not None:
                raise InstanceRunning(self.path, blocker, now, self.shard_count)
            gone = [r.shard for r in rows if r.token == self.me.token or r.shard in self.shard_ids
                    or not self._alive(r, now)]
            await db.executemany("DELETE FROM shard_lease WHERE shard = ?", [(s,) for s in gone])
            await db.executemany(
                "INSERT INTO shard_lease (shard, shard_count, holder, pid, hostname, acquired_at, heartbeat)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(s, self.shard_count, self.me.token, self.me.pid, self.me.hostname, now, now)
                 for s in self.shard_ids])
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")

    async def renew(self, now: float | None = None) -> bool:
        """Beat the heart; False when another process has taken one of the shards meanwhile."""
        now = time.time() if now is None else now
        cursor = await self.db.execute("UPDATE shard_lease SET heartbeat = ? WHERE holder = ?",
                                       (now, self.me.token))
        return cursor.rowcount == len(self.shard_ids)

    async def release(self) -> None:
        await self.db.execute("DELETE FROM shard_lease WHERE holder = ?", (self.me.token,))
