"""The SQLite backend of :class:`storage.base.GameStore`, on aiosqlite.

Durability with group commit: WAL journal and ``synchronous=FULL``; every write is queued and the writes
that arrive while a commit is under way (across games) go into the next single ``BEGIN IMMEDIATE ...
COMMIT``, so one fsync makes a whole batch durable. A caller is resumed only after the transaction that
holds its write has committed, so whatever it acknowledges is already on disk. Each write runs inside its
own SAVEPOINT: one that raises (a refused join, a stale phase) is undone alone, and the rest of its batch
commits. A batch runs as one function in the connection's thread (one hop to the database thread per
batch instead of one per statement), which is what lets a batch of hundreds cost little more than one fsync.

Record: the ``actions`` table is an append-only log (``choose`` with the secret value, ``resolve``
with the revealed numbers, ``unseat``). No snapshots: a game has at most a few dozen actions and the
pure engine folds them in well under a millisecond, so a snapshot would only be a second copy that
can drift. Exactly-once resolution: ``resolve_phase`` advances ``games.phase`` with a compare-and-set
on the old phase, and a partial unique index allows one ``resolve`` action per phase.
"""

import asyncio
import contextlib
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from .base import (
    AlreadyPlaying,
    ChannelBusy,
    DatabaseReplaced,
    GameFull,
    GameRecord,
    GameStatus,
    GameVersion,
    SeatRecord,
    SeatState,
    StalePhase,
    UnknownGame,
    WrongStatus,
)
from .connection import ConnectionHolder
from .filelock import FileGameLocks
from .migrations import check_version, load_migrations
from .ratings import CHANGES_SQL, RatingChange, RatingJob, apply_sqlite, change_of
from .records import game_records

_OPEN = "('lobby', 'running')"
_VERSION = (
    "SELECT status, phase, deadline, status_message_id, announced_phase, updated_at,"
    " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.phase = g.phase AND a.kind = 'choose') AS choices,"
    " (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id AND s.state = 'seated') AS seated"
    " FROM games g WHERE id = ?")
T = TypeVar("T")
Conn = sqlite3.Connection
# A bound on one transaction's size: a huge backlog is committed in several fsyncs rather than one
# transaction that keeps every caller of the backlog waiting for the slowest write in it.
MAX_BATCH = 1000


@dataclass(slots=True)
class _Write:
    fn: Callable[[Conn], Any]
    future: "asyncio.Future[Any]"
    atomic: bool  # wrap in a SAVEPOINT (False only for a single statement, which SQLite undoes alone)


class SQLiteStore(ConnectionHolder):
    """One aiosqlite connection; writes are group-committed, reads run between batches."""

    what = "the store"

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 10_000, synchronous: str = "FULL",
                 max_batch: int = MAX_BATCH, shared: bool = False) -> None:
        self.path = str(path)
        self.busy_timeout_ms = busy_timeout_ms
        self.synchronous = synchronous
        self.max_batch = max_batch
        super().__init__()
        self._queue: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        # Counters for tests and the bench: writes / commits is the mean group size.
        self.commits = 0
        self.writes = 0
        # Several processes on this file (shards): games are locked across them (see game_lock).
        self._game_locks = FileGameLocks(f"{self.path}-games.lock") if shared and self.path != ":memory:" else None
        # The file opened (st_dev, st_ino): a path that names another file, or none, means it was deleted or
        # replaced under the running bot (an admin's mistake, a cleanup script). SQLite in WAL mode would go on
        # committing into the unnamed file and every acknowledged choice would be lost at the next start.
        self._opened_as: tuple[int, int] | None = None
        self.gone = False

    # Life cycle ---------------------------------------------------------------------------------
    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
        db.row_factory = sqlite3.Row
        await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute(f"PRAGMA synchronous = {self.synchronous}")
        await db.execute("PRAGMA foreign_keys = ON")
        self._db = db
        self._opened_as = self._identity()
        try:
            await self._write(_migrate)
            if self._game_locks is not None:
                self._game_locks.open()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        flusher = self._flusher
        if flusher is not None and self._db is not None:
            # let the writes already queued commit (their callers are waiting; each got its own error)
            with contextlib.suppress(Exception):
                await asyncio.shield(flusher)
        if self._game_locks is not None:
            self._game_locks.close()
        await super().close()

    def locks_games(self) -> bool:
        """Whether ``game_lock`` takes a lock (a file shared by processes); otherwise it yields None at once."""
        return self._game_locks is not None

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[GameVersion | None]:
        if self._game_locks is None:
            yield None  # one process: nothing to lock against, and its cache is the truth
            return
        async with self._game_locks.hold(game_id):
            yield await self.game_version(game_id)

    async def game_version(self, game_id: int) -> GameVersion:
        row = await self._read(lambda db: db.execute(_VERSION, (game_id,)).fetchone())
        if row is None:
            raise UnknownGame(game_id)
        return GameVersion(row["status"], int(row["phase"]), int(row["choices"]), int(row["seated"]), row["deadline"],
                           row["status_message_id"], int(row["announced_phase"]), float(row["updated_at"]))

    async def _run(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn(connection)`` in the connection's own thread, as one call.

        aiosqlite's public API is one statement per hop to its thread; a batch of hundreds of writes as
        hundreds of hops would cost more than its fsync. ``_execute`` and ``_conn`` are the documented-in-code
        primitives every public method of aiosqlite is built on (stable from 0.17 to 0.22)."""
        db = self.db
        result: T = await db._execute(lambda: fn(db._conn))
        return result

    async def _read(self, fn: Callable[[Conn], T]) -> T:
        """A read, in order after the writes already queued (as under the one lock this store had before):
        whoever reads after another task asked for a write sees it."""
        if self._queue:
            await asyncio.wait([self._queue[-1].future])
        return await self._run(fn)

    def _identity(self) -> tuple[int, int] | None:
        if self.path == ":memory:":
            return None
        try:
            found = os.stat(self.path)
        except OSError:
            return None
        return found.st_dev, found.st_ino

    def replaced(self) -> bool:
        """Whether the database file was deleted or replaced since it was opened (one stat: cheap enough to ask
        around every commit and every second). Once True it stays True: nothing is written any more."""
        if not self.gone and self._opened_as is not None and self._identity() != self._opened_as:
            self.gone = True
        return self.gone

    async def _write(self, fn: Callable[[Conn], T], *, atomic: bool = True) -> T:
        """Queue a write; resumed with its result once the transaction that holds it has committed."""
        if self.gone:  # known: refused at once (else the flush asks, before and after each batch commits)
            raise DatabaseReplaced(self.path)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.append(_Write(fn, future, atomic))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush(), name="sqlite group commit")
        return await future

    async def _flush(self) -> None:
        """Commit the queue batch after batch: whatever queued up during a commit goes into the next one.
        The first write of a quiet moment is not delayed: it starts a batch of one at once."""
        try:
            while self._queue:
                batch = [w for w in self._queue[:self.max_batch] if not w.future.cancelled()]
                del self._queue[:self.max_batch]
                if not batch:
                    continue
                try:
                    if self.replaced():
                        raise DatabaseReplaced(self.path)
                    outcomes = await self._run(partial(_commit_batch, [(w.fn, w.atomic) for w in batch]))
                    if self.replaced():  # deleted while this batch committed: it went into the unnamed file
                        raise DatabaseReplaced(self.path)
                except Exception as exc:  # nothing of the batch committed: every caller gets the error
                    for w in batch:
                        if not w.future.done():
                            w.future.set_exception(exc)
                    continue
                except BaseException:
                    for w in batch:
                        w.future.cancel()
                    raise
                self.commits += 1
                self.writes += len(batch)
                for w, (ok, value) in zip(batch, outcomes, strict=True):
                    if w.future.done():
                        continue
                    if ok:
                        w.future.set_result(value)
                    else:
                        w.future.set_exception(value)
        finally:
            self._flusher = None
            if self._queue:  # only after a cancellation: nobody is left to commit these
                for w in self._queue:
                    w.future.cancel()
                self._queue.clear()

    async def schema_version(self) -> int:
        row = await self._read(lambda c: c.execute("SELECT MAX(version) FROM schema_migrations").fetchone())
        return int(row[0]) if row and row[0] is not None else 0

    # Lobby and seats ----------------------------------------------------------------------------
    async def create_lobby(self, kind: str, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                           options: Mapping[str, Any], now: float) -> GameRecord:
        def write(db: Conn) -> GameRecord:
            busy = db.execute(f"SELECT id FROM games WHERE channel_id = ? AND status IN {_OPEN}",
                              (channel_id,)).fetchone()
            if busy:
                raise ChannelBusy(int(busy["id"]))
            _refuse_if_playing(db, host_id)
            cursor = db.execute(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (kind, guild_id, channel_id, host_id, json.dumps(dict(options)), now, now),
            )
            game_id = int(cursor.lastrowid or 0)
            db.execute("INSERT INTO seats (game_id, seat, user_id, name, joined_at) VALUES (?, 0, ?, ?, ?)",
                       (game_id, host_id, host_name, now))
            return _load(db, game_id)
        return await self._write(write)

    async def seat_player(self, game_id: int, user_id: int | None, name: str, max_seats: int, now: float,
                          ai_level: str | None = None) -> SeatRecord:
        def write(db: Conn) -> SeatRecord:
            game = _game_row(db, game_id)
            if game["status"] != "lobby":
                raise WrongStatus(game["status"])
            if user_id is not None:
                _refuse_if_playing(db, user_id)
            taken = {int(r["seat"]) for r in db.execute("SELECT seat FROM seats WHERE game_id = ?", (game_id,))}
            seated = db.execute("SELECT COUNT(*) AS n FROM seats WHERE game_id = ? AND state = 'seated'",
                                (game_id,)).fetchone()
            if seated is not None and int(seated["n"]) >= max_seats:
                raise GameFull()
            seat = next(n for n in range(len(taken) + 1) if n not in taken)
            db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, ai_level, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, user_id, name, ai_level, now),
            )
            _touch(db, game_id, now)
            return SeatRecord(seat, user_id, name, ai_level)
        return await self._write(write)

    async def unseat_player(self, game_id: int, seat: int, state: SeatState, now: float,
                            new_host_id: int | None = None) -> None:
        def write(db: Conn) -> None:
            game = _game_row(db, game_id)
            if new_host_id is not None:  # the host leaves: the role passes in the same transaction
                db.execute("UPDATE games SET host_id = ? WHERE id = ?", (new_host_id, game_id))
            if game["status"] == "lobby":
                # Nothing happened yet: free the seat, and close the gap so the seats stay numbered 0..n-1 (a
                # game's rules number their seats by position). Two steps: the primary key is checked row by row.
                db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
                db.execute("UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?", (game_id, seat))
                db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game_id,))
            elif game["status"] == "running":
                db.execute("UPDATE seats SET state = ? WHERE game_id = ? AND seat = ?", (state, game_id, seat))
                _append(db, game_id, int(game["phase"]), "unseat", seat, {"state": state}, now)
            else:
                raise WrongStatus(game["status"])
            _touch(db, game_id, now)
        await self._write(write)

    async def start_game(self, game_id: int, deadline: float | None, now: float,
                         payload: Mapping[str, Any] | None = None) -> GameRecord:
        def write(db: Conn) -> GameRecord:
            game = _game_row(db, game_id)
            if game["status"] != "lobby":
                raise WrongStatus(game["status"])
            db.execute("UPDATE games SET status = 'running', phase = 0, deadline = ?, updated_at = ?,"
                       " status_message_id = NULL WHERE id = ?", (deadline, now, game_id))
            _append(db, game_id, 0, "start", None, payload or {}, now)
            return _load(db, game_id)
        return await self._write(write)

    # Play ---------------------------------------------------------------------------------------
    async def record_choice(self, game_id: int, phase: int, seat: int, payload: Mapping[str, Any],
                            now: float) -> None:
        text = json.dumps(dict(payload))

        def write(db: Conn) -> None:
            # The hot path: one INSERT ... WHERE (the game runs at this phase). One statement is undone alone by
            # SQLite when it fails, so it needs no savepoint; when it inserts nothing, the reads below say why.
            cursor = db.execute(
                "INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
                " SELECT ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, 'choose', ?, ?, ?"
                " WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'running' AND phase = ?)",
                (game_id, game_id, phase, seat, text, now, game_id, phase),
            )
            if cursor.rowcount == 1:
                return
            game = _game_row(db, game_id)
            if game["status"] != "running":
                raise WrongStatus(game["status"])
            raise StalePhase(phase, int(game["phase"]))
        await self._write(write, atomic=False)

    async def resolve_phase(self, game_id: int, phase: int, payload: Mapping[str, Any],
                            next_deadline: float | None, finished: bool, now: float,
                            *, choices: int | None = None, rating: RatingJob | None = None) -> bool:
        """Compare-and-set on the phase; with ``choices``, also on how many ``choose`` rows the phase has,
        so a step built from drafts another process has not seen (a draft stored since) is refused. ``rating``
        (only with ``finished``): the game's rating, written in the same transaction as its end."""
        def write(db: Conn) -> bool:
            status = "finished" if finished else "running"
            guard = ("" if choices is None else
                     " AND (SELECT COUNT(*) FROM actions WHERE game_id = games.id AND phase = games.phase"
                     " AND kind = 'choose') = ?")
            cursor = db.execute(
                "UPDATE games SET phase = phase + 1, deadline = ?, status = ?, updated_at = ?,"
                " status_message_id = NULL,"
                " end_reason = CASE WHEN ? THEN 'finished' ELSE end_reason END"
                " WHERE id = ? AND phase = ? AND status = 'running'" + guard,
                (None if finished else next_deadline, status, now, finished, game_id, phase,
                 *(() if choices is None else (choices,))),
            )
            if cursor.rowcount != 1:
                return False  # someone else resolved this phase first
            _append(db, game_id, phase, "resolve", None, payload, now)
            if finished and rating is not None:
                apply_sqlite(db, game_id, rating, now)
            return True
        return await self._write(write)

    async def set_deadline(self, game_id: int, phase: int, deadline: float | None, now: float) -> None:
        await self._write(_statement("UPDATE games SET deadline = ?, updated_at = ? WHERE id = ? AND phase = ?",
                                     (deadline, now, game_id, phase)), atomic=False)

    async def set_message(self, game_id: int, which: Literal["lobby", "status", "thread"],
                          message_id: int | None) -> None:
        column = {"lobby": "lobby_message_id", "status": "status_message_id", "thread": "thread_id"}[which]
        await self._write(_statement(f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, game_id)),
                          atomic=False)

    async def mark_announced(self, game_id: int, phase: int) -> bool:
        return await self._write(lambda db: db.execute(
            "UPDATE games SET announced_phase = ? WHERE id = ? AND announced_phase < ?",
            (phase, game_id, phase)).rowcount == 1, atomic=False)

    async def end_game(self, game_id: int, status: GameStatus, reason: str, now: float) -> bool:
        return await self._write(lambda db: db.execute(
            f"UPDATE games SET status = ?, end_reason = ?, deadline = NULL, updated_at = ?"
            f" WHERE id = ? AND status IN {_OPEN}", (status, reason, now, game_id)).rowcount == 1, atomic=False)

    # Reading ------------------------------------------------------------------------------------
    # Each read is one call in the connection's thread, so it never sees half of a batch.
    async def load_game(self, game_id: int) -> GameRecord:
        return await self._read(lambda db: _load(db, game_id))

    async def load_games(self, game_ids: Sequence[int]) -> list[GameRecord]:
        # One read for a batch (the restart sweep): the ids as one JSON array, whatever SQLite's parameter limit.
        if not game_ids:
            return []
        ids = json.dumps([int(i) for i in game_ids])
        return await self._read(lambda db: _load_rows(db, "id IN (SELECT value FROM json_each(?))", (ids,)))

    async def open_games(self, kind: str | None = None, *, details: bool = True, after: int = 0,
                         limit: int | None = None) -> list[GameRecord]:
        # ``limit``: one page of games by id after ``after`` (a restart reads its 10,000 open games in pages,
        # so that the players' queries on this connection are not queued behind one long read).
        where = f"status IN {_OPEN}" + (" AND kind = ?" if kind else "") + (" AND id > ?" if after else "")
        params: tuple[Any, ...] = ((kind,) if kind else ()) + ((after,) if after else ())
        if limit is not None:
            where += f" ORDER BY id LIMIT {int(limit)}"
        return await self._read(lambda db: _load_rows(db, where, params, details=details))

    async def open_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The open table of the channel, or of the thread it plays in (``channel_id`` a thread's id)."""
        # Two lookups, each on its own partial index (an OR of the two columns would scan every open game).
        where = (f"id IN (SELECT id FROM games WHERE channel_id = ? AND status IN {_OPEN}"
                 f" UNION ALL SELECT id FROM games WHERE thread_id = ? AND status IN {_OPEN})")
        games = await self._read(lambda db: _load_rows(db, where, (channel_id, channel_id)))
        return games[0] if games else None

    async def open_game_of_user(self, user_id: int, *, details: bool = True) -> GameRecord | None:
        where = (f"status IN {_OPEN} AND id IN (SELECT game_id FROM seats WHERE user_id = ? AND state = 'seated')")
        games = await self._read(lambda db: _load_rows(db, where, (user_id,), details=details))
        return games[0] if games else None

    async def finished_games(self, guild_id: int | None, limit: int, kind: str | None = None) -> list[GameRecord]:
        """The latest finished games of a server (of ``kind`` only, when given: its caller folds them)."""
        where = "status = 'finished' AND guild_id IS ? AND (? IS NULL OR kind = ?) ORDER BY updated_at DESC LIMIT ?"
        return await self._read(lambda db: _load_rows(db, where, (guild_id, kind, kind, limit)))

    async def unannounced_finished_games(self, kind: str | None = None) -> list[GameRecord]:
        """Finished games whose last resolved turn was never posted (a crash between commit and post), of
        ``kind`` only when given."""
        return await self._read(lambda db: _load_rows(db, "status = 'finished' AND announced_phase < phase - 1"
                                                         " AND (? IS NULL OR kind = ?)", (kind, kind)))

    async def past_games(self, kind: str, user_ids: Sequence[int], per_user: int) -> list[GameRecord]:
        """The newest ``per_user`` finished games of ``kind`` of each user that had an AI seat, newest first."""
        if not user_ids or per_user <= 0:
            return []
        marks = ", ".join("?" * len(user_ids))
        where = (
            "id IN (SELECT game_id FROM ("
            " SELECT s.game_id, ROW_NUMBER() OVER (PARTITION BY s.user_id ORDER BY g.updated_at DESC, g.id DESC) AS n"
            " FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE s.user_id IN ({marks}) AND g.kind = ? AND g.status = 'finished'"
            " AND EXISTS (SELECT 1 FROM seats a WHERE a.game_id = g.id AND a.ai_level IS NOT NULL))"
            " WHERE n <= ?) ORDER BY updated_at DESC, id DESC")
        params = (*user_ids, kind, per_user)
        return await self._read(lambda db: _load_rows(db, where, params))

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What a finished game changed in the ratings (none: not rated), per scope and seat."""
        rows = await self._read(lambda db: db.execute(CHANGES_SQL, (game_id,)).fetchall())
        return [change_of(r) for r in rows]

    async def get_meta(self, key: str) -> str | None:
        row = await self._read(lambda db: db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone())
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(_statement("INSERT INTO meta (key, value) VALUES (?, ?)"
                                     " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value)),
                          atomic=False)

    async def get_notify(self, user_id: int) -> tuple[bool, bool]:
        """(DM reminders, mentions) as the player set them with /notify; both on by default."""
        row = await self._read(lambda db: db.execute("SELECT dm, mention FROM user_notify WHERE user_id = ?",
                                                     (user_id,)).fetchone())
        return (True, True) if row is None else (bool(row["dm"]), bool(row["mention"]))

    async def set_notify(self, user_id: int, dm: bool, mention: bool) -> None:
        await self._write(_statement("INSERT INTO user_notify (user_id, dm, mention) VALUES (?, ?, ?) ON CONFLICT"
                                     " (user_id) DO UPDATE SET dm = excluded.dm, mention = excluded.mention",
                                     (user_id, int(dm), int(mention))), atomic=False)

    async def get_summary(self, user_id: int) -> bool:
        """/notify summary: the daily DM listing the tables waiting for the player; on by default."""
        row = await self._read(lambda db: db.execute("SELECT summary FROM user_notify WHERE user_id = ?",
                                                     (user_id,)).fetchone())
        return True if row is None else bool(row["summary"])

    async def set_summary(self, user_id: int, on: bool) -> None:
        await self._write(_statement("INSERT INTO user_notify (user_id, summary) VALUES (?, ?) ON CONFLICT"
                                     " (user_id) DO UPDATE SET summary = excluded.summary", (user_id, int(on))),
                          atomic=False)

    async def claim_reminder(self, game_id: int, phase: int, slot: str, now: float) -> bool:
        """Record that a daily table's reminder ``slot`` of step ``phase`` is being sent: True for the one caller
        that recorded it (it sends), False when it was already (a restart, another process: nothing is sent)."""
        def claim(db: Conn) -> bool:
            cursor = db.execute("INSERT INTO reminders_sent (game_id, phase, slot, sent_at) VALUES (?, ?, ?, ?)"
                                " ON CONFLICT DO NOTHING", (game_id, phase, slot, now))
            return cursor.rowcount == 1

        return bool(await self._write(claim, atomic=False))

    async def claim_summary(self, user_id: int, day: str, now: float) -> bool:
        """As :meth:`claim_reminder`, for a player's daily summary of ``day`` (its UTC date)."""
        def claim(db: Conn) -> bool:
            cursor = db.execute("INSERT INTO summaries_sent (user_id, day, sent_at) VALUES (?, ?, ?)"
                                " ON CONFLICT DO NOTHING", (user_id, day, now))
            return cursor.rowcount == 1

        return bool(await self._write(claim, atomic=False))

    async def running_games_of_user(self, user_id: int) -> list[GameRecord]:
        """Every running game ``user_id`` is seated at, in any server (for /mygames): the games' rows only."""
        where = "status = 'running' AND id IN (SELECT game_id FROM seats WHERE user_id = ? AND state = 'seated')"
        return await self._read(lambda db: _load_rows(db, where + " ORDER BY deadline", (user_id,),
                                                      details=False))


# The batch (runs in the connection's thread) ------------------------------------------------------
def _commit_batch(items: list[tuple[Callable[[Conn], Any], bool]], db: Conn) -> list[tuple[bool, Any]]:
    """One transaction for every write of the batch; (True, result) or (False, the error) for each.
    Raises (nothing committed) when the transaction itself fails."""
    db.execute("BEGIN IMMEDIATE")
    outcomes: list[tuple[bool, Any]] = []
    try:
        for fn, atomic in items:
            if atomic:
                db.execute("SAVEPOINT one_write")
            try:
                value = fn(db)
            except Exception as exc:
                if not db.in_transaction:  # SQLite rolled everything back (I/O error, disk full): the batch fails
                    raise
                if atomic:
                    db.execute("ROLLBACK TO one_write")
                    db.execute("RELEASE one_write")
                outcomes.append((False, exc))
            else:
                if atomic:
                    db.execute("RELEASE one_write")
                outcomes.append((True, value))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return outcomes


def _statement(sql: str, params: tuple[Any, ...]) -> Callable[[Conn], None]:
    """A write of one statement (SQLite undoes a failed statement alone: no savepoint needed)."""
    def write(db: Conn) -> None:
        db.execute(sql, params)
    return write


def _migrate(db: Conn) -> None:
    migrations = load_migrations()
    db.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
               " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
    row = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    current = int(row[0]) if row else 0
    check_version(current, len(migrations))
    for migration in migrations[current:]:
        for statement in migration.statements:
            db.execute(statement)
        db.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (migration.version, migration.name, time.time()))


# Helpers (all take the connection, in its thread) -----------------------------------------------
def _game_row(db: Conn, game_id: int) -> sqlite3.Row:
    row: sqlite3.Row | None = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGame(game_id)
    return row


def _refuse_if_playing(db: Conn, user_id: int) -> None:
    row = db.execute(
        f"SELECT g.channel_id FROM games g JOIN seats s ON s.game_id = g.id"
        f" WHERE s.user_id = ? AND s.state = 'seated' AND g.status IN {_OPEN} LIMIT 1", (user_id,)).fetchone()
    if row is not None:
        raise AlreadyPlaying(int(row["channel_id"]))


def _touch(db: Conn, game_id: int, now: float) -> None:
    db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))


def _append(db: Conn, game_id: int, phase: int, kind: str, seat: int | None, payload: Mapping[str, Any],
            now: float) -> None:
    db.execute(
        "INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
        " VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, ?, ?)",
        (game_id, game_id, phase, kind, seat, json.dumps(dict(payload)), now),
    )


def _load(db: Conn, game_id: int) -> GameRecord:
    games = _load_rows(db, "id = ?", (game_id,))
    if not games:
        raise UnknownGame(game_id)
    return games[0]


def _load_rows(db: Conn, where: str, params: tuple[Any, ...], *, details: bool = True) -> list[GameRecord]:
    """Games matching ``where`` with their seats and actions, in three queries whatever the count
    (``details=False``: the games' own rows only, without seats and actions)."""
    rows = db.execute(f"SELECT * FROM games WHERE {where}", params).fetchall()
    if not rows:
        return []
    if not details:
        return game_records(rows)
    ids = [int(r["id"]) for r in rows]
    which_params: Iterable[Any]
    if len(ids) == 1:  # the common case (one game): no temp table, two statements fewer
        which, which_params = "= ?", (ids[0],)
    else:
        # A temp table of ids keeps the queries fast and within SQLite's parameter limit for 10,000 games.
        db.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (id INTEGER PRIMARY KEY)")
        db.execute("DELETE FROM temp.wanted")
        db.executemany("INSERT INTO temp.wanted VALUES (?)", [(i,) for i in ids])
        which, which_params = "IN (SELECT id FROM temp.wanted)", ()
    seat_rows = db.execute(
        f"SELECT game_id, seat, user_id, name, ai_level, state FROM seats"
        f" WHERE game_id {which} ORDER BY game_id, seat", tuple(which_params)).fetchall()
    action_rows = db.execute(
        f"SELECT game_id, seq, phase, kind, seat, payload, at FROM actions"
        f" WHERE game_id {which} ORDER BY game_id, seq", tuple(which_params)).fetchall()
    return game_records(rows, seat_rows, action_rows)


async def _load_many(db: aiosqlite.Connection, where: str, params: tuple[Any, ...], *,
                     details: bool = True) -> list[GameRecord]:
    """:func:`_load_rows` on another aiosqlite connection (storage/stats.py reads games through it)."""
    games: list[GameRecord] = await db._execute(lambda: _load_rows(db._conn, where, params, details=details))
    return games
