"""One bot process per database: a lease row with a heartbeat.

Two processes on one database would each trust their own cache and contradict each other, so a second
one refuses to start. The holder is free to take over when it is gone: on this host, when its pid is no
longer alive (so a restart right after ``kill -9`` is immediate); on another host, when its heartbeat is
older than ``timeout`` seconds. The lease has its own connection, so it never waits behind the store's.
"""

import os
import socket
import sqlite3
import time
import uuid
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


class InstanceRunning(StoreError):
    def __init__(self, path: str, holder: Holder, now: float, *,
                 what: str = "the database", hint: str = "give this one another DATABASE_PATH") -> None:
        self.holder = holder
        seen = max(0, int(now - holder.heartbeat))
        super().__init__(
            f"another bot process (pid {holder.pid} on {holder.hostname}, last seen {seen} s ago) is using"
            f" {what} {path}: stop it first, or {hint}")


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


class SQLiteLease(ConnectionHolder):
    what = "the instance lease"

    def __init__(self, path: str | Path, *, timeout: float = TIMEOUT_SECONDS, busy_timeout_ms: int = 10_000) -> None:
        super().__init__()
        self.path = str(path)
        self.timeout = timeout
        self.busy_timeout_ms = busy_timeout_ms
        self.me = Holder(uuid.uuid4().hex, os.getpid(), socket.gethostname(), 0.0)

    async def open(self) -> None:
        db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
        db.row_factory = sqlite3.Row
        await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        self._db = db

    def _alive(self, holder: Holder, now: float) -> bool:
        if now - holder.heartbeat >= self.timeout:
            return False  # silent too long (also covers a pid reused by an unrelated process)
        if holder.hostname == self.me.hostname:
            return pid_alive(holder.pid)
        return True

    async def acquire(self, now: float | None = None) -> None:
        """Take the lease, or raise :class:`InstanceRunning` while another live process holds it."""
        now = time.time() if now is None else now
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            row = await (await db.execute(
                "SELECT holder, pid, hostname, heartbeat FROM instance_lease WHERE id = 1")).fetchone()
            if row is not None:
                holder = Holder(row["holder"], int(row["pid"]), row["hostname"], float(row["heartbeat"]))
                if holder.token != self.me.token and self._alive(holder, now):
                    raise InstanceRunning(self.path, holder, now)
            await db.execute(
                "INSERT INTO instance_lease (id, holder, pid, hostname, acquired_at, heartbeat)"
                " VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET holder = excluded.holder,"
                " pid = excluded.pid, hostname = excluded.hostname, acquired_at = excluded.acquired_at,"
                " heartbeat = excluded.heartbeat",
                (self.me.token, self.me.pid, self.me.hostname, now, now))
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")

    async def renew(self, now: float | None = None) -> bool:
        """Beat the heart; False when another process has taken the lease meanwhile."""
        now = time.time() if now is None else now
        cursor = await self.db.execute("UPDATE instance_lease SET heartbeat = ? WHERE id = 1 AND holder = ?",
                                       (now, self.me.token))
        return cursor.rowcount == 1

    async def release(self) -> None:
        await self.db.execute("DELETE FROM instance_lease WHERE id = 1 AND holder = ?", (self.me.token,))
