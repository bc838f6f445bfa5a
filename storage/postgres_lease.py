"""Leases on PostgreSQL: the same rule as :class:`storage.lease.SQLiteLease` (a second live process refuses to
start; a dead or silent holder is taken over), one row per lease ``name``. The default name covers the whole
database, as on SQLite; processes that share the database by shard lease a name per shard set instead."""

import os
import socket
import time
import uuid

from .lease import TIMEOUT_SECONDS, Holder, InstanceRunning, pid_alive
from .pg_connection import PoolHolder, migrate, safe_url

WHOLE_DATABASE = "instance"


class PostgresLease(PoolHolder):
    what = "the instance lease"

    def __init__(self, url: str, *, name: str = WHOLE_DATABASE, timeout: float = TIMEOUT_SECONDS,
                 hint: str = "give this one another DATABASE_URL") -> None:
        # One connection is enough, and its own: a heartbeat never waits behind the store's transactions.
        super().__init__(url, pool_size=1)
        self.name = name
        self.timeout = timeout
        self.hint = hint
        self.me = Holder(uuid.uuid4().hex, os.getpid(), socket.gethostname(), 0.0)

    async def open(self) -> None:
        await self._open_pool()
        async with self.pool.acquire() as conn:
            await migrate(conn)  # the lease may be opened before the store: its table must exist

    def _alive(self, holder: Holder, now: float) -> bool:
        if now - holder.heartbeat >= self.timeout:
            return False
        if holder.hostname == self.me.hostname:
            return pid_alive(holder.pid)
        return True

    async def acquire(self, now: float | None = None) -> None:
        """Take the lease, or raise :class:`InstanceRunning` while another live process holds it."""
        now = time.time() if now is None else now
        async with self._tx() as db:
            # The row may not exist yet: an advisory lock on the name makes two first takers queue.
            await db.execute("SELECT pg_advisory_xact_lock(hashtextextended('lease:' || $1, 0))", self.name)
            row = await db.fetchrow("SELECT holder, pid, hostname, heartbeat FROM instance_lease WHERE name = $1",
                                    self.name)
            if row is not None:
                holder = Holder(row["holder"], int(row["pid"]), row["hostname"], float(row["heartbeat"]))
                if holder.token != self.me.token and self._alive(holder, now):
                    what = "the database" if self.name == WHOLE_DATABASE else f"{self.name} of the database"
                    raise InstanceRunning(safe_url(self.url), holder, now, what=what, hint=self.hint)
            await db.execute(
                "INSERT INTO instance_lease (name, holder, pid, hostname, acquired_at, heartbeat)"
                " VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
                " pid = excluded.pid, hostname = excluded.hostname, acquired_at = excluded.acquired_at,"
                " heartbeat = excluded.heartbeat",
                self.name, self.me.token, self.me.pid, self.me.hostname, float(now))

    async def renew(self, now: float | None = None) -> bool:
        """Beat the heart; False when another process has taken the lease meanwhile."""
        now = time.time() if now is None else now
        done = await self.pool.execute("UPDATE instance_lease SET heartbeat = $1 WHERE name = $2 AND holder = $3",
                                       float(now), self.name, self.me.token)
        return done == "UPDATE 1"

    async def release(self) -> None:
        await self.pool.execute("DELETE FROM instance_lease WHERE name = $1 AND holder = $2", self.name, self.me.token)
