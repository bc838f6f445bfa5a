"""The SQLite backend of :class:`storage.base.GameStore`, on aiosqlite.

Durability: WAL journal, ``synchronous=FULL`` and one explicit ``BEGIN IMMEDIATE`` transaction per
call, committed before the call returns, so whatever a caller acknowledges is already on disk.

Record: the ``actions`` table is an append-only log (``choose`` with the secret value, ``resolve``
with the revealed numbers, ``unseat``). No snapshots: a game has at most a few dozen actions and the
pure engine folds them in well under a millisecond, so a snapshot would only be a second copy that
can drift. Exactly-once resolution: ``resolve_phase`` advances ``games.phase`` with a compare-and-set
on the old phase, and a partial unique index allows one ``resolve`` action per phase.
"""

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from .base import (
    ActionRecord,
    AlreadyPlaying,
    ChannelBusy,
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

_OPEN = "('lobby', 'running')"
_VERSION = (
    "SELECT status, phase, deadline, status_message_id, announced_phase, updated_at,"
    " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.phase = g.phase AND a.kind = 'choose') AS choices,"
    " (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id AND s.state = 'seated') AS seated"
    " FROM games g WHERE id = ?")


class SQLiteStore(ConnectionHolder):
    """One aiosqlite connection; an asyncio lock keeps each transaction whole."""

    what = "the store"

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 10_000, synchronous: str = "FULL",
                 shared: bool = False) -> None:
        self.path = str(path)
        self.busy_timeout_ms = busy_timeout_ms
        self.synchronous = synchronous
        super().__init__()
        self._lock = asyncio.Lock()
        # Several processes on this file (shards): games are locked across them (see game_lock).
        self._game_locks = FileGameLocks(f"{self.path}-games.lock") if shared and self.path != ":memory:" else None

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
        try:
            await self._migrate()
            if self._game_locks is not None:
                self._game_locks.open()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._game_locks is not None:
            self._game_locks.close()
        await super().close()

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[GameVersion | None]:
        if self._game_locks is None:
            yield None  # one process: nothing to lock against, and its cache is the truth
            return
        async with self._game_locks.hold(game_id):
            yield await self.game_version(game_id)

    async def game_version(self, game_id: int) -> GameVersion:
        async with self._lock:
            row = await _fetchone(self.db, _VERSION, (game_id,))
        if row is None:
            raise UnknownGame(game_id)
        return GameVersion(row["status"], int(row["phase"]), int(row["choices"]), int(row["seated"]), row["deadline"],
                           row["status_message_id"], int(row["announced_phase"]), float(row["updated_at"]))

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            db = self.db
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                await db.execute("ROLLBACK")
                raise
            await db.execute("COMMIT")

    async def _migrate(self) -> None:
        migrations = load_migrations()
        async with self._tx() as db:
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            row = await (await db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")).fetchone()
            current = int(row[0]) if row else 0
            check_version(current, len(migrations))
            for migration in migrations[current:]:
                for statement in migration.statements:
                    await db.execute(statement)
                await db.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)",
                                 (migration.version, migration.name, time.time()))

    async def schema_version(self) -> int:
        row = await (await self.db.execute("SELECT MAX(version) FROM schema_migrations")).fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    # Lobby and seats ----------------------------------------------------------------------------
    async def create_lobby(self, kind: str, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                           options: Mapping[str, Any], now: float) -> GameRecord:
        async with self._tx() as db:
            busy = await _fetchone(db, f"SELECT id FROM games WHERE channel_id = ? AND status IN {_OPEN}",
                                   (channel_id,))
            if busy:
                raise ChannelBusy(int(busy["id"]))
            await _refuse_if_playing(db, host_id)
            cursor = await db.execute(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (kind, guild_id, channel_id, host_id, json.dumps(dict(options)), now, now),
            )
            game_id = int(cursor.lastrowid or 0)
            await db.execute("INSERT INTO seats (game_id, seat, user_id, name, joined_at) VALUES (?, 0, ?, ?, ?)",
                             (game_id, host_id, host_name, now))
            return await _load(db, game_id)

    async def seat_player(self, game_id: int, user_id: int | None, name: str, max_seats: int, now: float,
                          ai_level: str | None = None) -> SeatRecord:
        async with self._tx() as db:
            game = await _game_row(db, game_id)
            if game["status"] != "lobby":
                raise WrongStatus(game["status"])
            if user_id is not None:
                await _refuse_if_playing(db, user_id)
            taken = {int(r["seat"]) for r in await db.execute_fetchall(
                "SELECT seat FROM seats WHERE game_id = ?", (game_id,))}
            seated = await _fetchone(db, "SELECT COUNT(*) AS n FROM seats WHERE game_id = ? AND state = 'seated'",
                                     (game_id,))
            if seated is not None and int(seated["n"]) >= max_seats:
                raise GameFull()
            seat = next(n for n in range(len(taken) + 1) if n not in taken)
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, ai_level, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, user_id, name, ai_level, now),
            )
            await _touch(db, game_id, now)
            return SeatRecord(seat, user_id, name, ai_level)

    async def unseat_player(self, game_id: int, seat: int, state: SeatState, now: float,
                            new_host_id: int | None = None) -> None:
        async with self._tx() as db:
            game = await _game_row(db, game_id)
            if new_host_id is not None:  # the host leaves: the role passes in the same transaction
                await db.execute("UPDATE games SET host_id = ? WHERE id = ?", (new_host_id, game_id))
            if game["status"] == "lobby":
                # Nothing happened yet: free the seat, and close the gap so the seats stay numbered 0..n-1 (a
                # game's rules number their seats by position). Two steps: the primary key is checked row by row.
                await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
                await db.execute("UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?", (game_id, seat))
                await db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game_id,))
            elif game["status"] == "running":
                await db.execute("UPDATE seats SET state = ? WHERE game_id = ? AND seat = ?", (state, game_id, seat))
                await _append(db, game_id, int(game["phase"]), "unseat", seat, {"state": state}, now)
            else:
                raise WrongStatus(game["status"])
            await _touch(db, game_id, now)

    async def start_game(self, game_id: int, deadline: float | None, now: float,
                         payload: Mapping[str, Any] | None = None) -> GameRecord:
        async with self._tx() as db:
            game = await _game_row(db, game_id)
            if game["status"] != "lobby":
                raise WrongStatus(game["status"])
            await db.execute("UPDATE games SET status = 'running', phase = 0, deadline = ?, updated_at = ?,"
                             " status_message_id = NULL WHERE id = ?", (deadline, now, game_id))
            await _append(db, game_id, 0, "start", None, payload or {}, now)
            return await _load(db, game_id)

    # Play ---------------------------------------------------------------------------------------
    async def record_choice(self, game_id: int, phase: int, seat: int, payload: Mapping[str, Any],
                            now: float) -> None:
        # Fast path, the hot one: a single INSERT ... WHERE (the game runs at this phase), in autocommit mode.
        # A write statement takes SQLite's write lock when it starts (as BEGIN IMMEDIATE does) and commits,
        # durably, before it returns: the same transaction as below in one round trip to the database
        # thread instead of five. When it inserts nothing, the full version below says why.
        async with self._lock:
            cursor = await self.db.execute(
                "INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
                " SELECT ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, 'choose', ?, ?, ?"
                " WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'running' AND phase = ?)",
                (game_id, game_id, phase, seat, json.dumps(dict(payload)), now, game_id, phase),
            )
            if cursor.rowcount == 1:
                return
        async with self._tx() as db:
            game = await _game_row(db, game_id)
            if game["status"] != "running":
                raise WrongStatus(game["status"])
            if int(game["phase"]) != phase:
                raise StalePhase(phase, int(game["phase"]))
            await _append(db, game_id, phase, "choose", seat, payload, now)

    async def resolve_phase(self, game_id: int, phase: int, payload: Mapping[str, Any],
                            next_deadline: float | None, finished: bool, now: float,
                            *, choices: int | None = None) -> bool:
        """Compare-and-set on the phase; with ``choices``, also on how many ``choose`` rows the phase has,
        so a step built from drafts another process has not seen (a draft stored since) is refused."""
        async with self._tx() as db:
            status = "finished" if finished else "running"
            guard = ("" if choices is None else
                     " AND (SELECT COUNT(*) FROM actions WHERE game_id = games.id AND phase = games.phase"
                     " AND kind = 'choose') = ?")
            cursor = await db.execute(
                "UPDATE games SET phase = phase + 1, deadline = ?, status = ?, updated_at = ?,"
                " status_message_id = NULL,"
                " end_reason = CASE WHEN ? THEN 'finished' ELSE end_reason END"
                " WHERE id = ? AND phase = ? AND status = 'running'" + guard,
                (None if finished else next_deadline, status, now, finished, game_id, phase,
                 *(() if choices is None else (choices,))),
            )
            if cursor.rowcount != 1:
                return False  # someone else resolved this phase first
            await _append(db, game_id, phase, "resolve", None, payload, now)
            return True

    async def set_deadline(self, game_id: int, phase: int, deadline: float | None, now: float) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE games SET deadline = ?, updated_at = ? WHERE id = ? AND phase = ?",
                             (deadline, now, game_id, phase))

    async def set_message(self, game_id: int, which: Literal["lobby", "status"], message_id: int | None) -> None:
        column = {"lobby": "lobby_message_id", "status": "status_message_id"}[which]
        async with self._tx() as db:
            await db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, game_id))

    async def mark_announced(self, game_id: int, phase: int) -> bool:
        async with self._tx() as db:
            cursor = await db.execute(
                "UPDATE games SET announced_phase = ? WHERE id = ? AND announced_phase < ?", (phase, game_id, phase))
            return cursor.rowcount == 1

    async def end_game(self, game_id: int, status: GameStatus, reason: str, now: float) -> bool:
        async with self._tx() as db:
            cursor = await db.execute(
                f"UPDATE games SET status = ?, end_reason = ?, deadline = NULL, updated_at = ?"
                f" WHERE id = ? AND status IN {_OPEN}", (status, reason, now, game_id))
            return cursor.rowcount == 1

    # Reading ------------------------------------------------------------------------------------
    async def load_game(self, game_id: int) -> GameRecord:
        async with self._lock:
            return await _load(self.db, game_id)

    async def open_games(self, kind: str | None = None, *, details: bool = True) -> list[GameRecord]:
        where = f"status IN {_OPEN}" + (" AND kind = ?" if kind else "")
        params: tuple[Any, ...] = (kind,) if kind else ()
        async with self._lock:
            return await _load_many(self.db, where, params, details=details)

    async def open_game_in_channel(self, channel_id: int) -> GameRecord | None:
        async with self._lock:
            games = await _load_many(self.db, f"channel_id = ? AND status IN {_OPEN}", (channel_id,))
        return games[0] if games else None

    async def open_game_of_user(self, user_id: int, *, details: bool = True) -> GameRecord | None:
        where = (f"status IN {_OPEN} AND id IN (SELECT game_id FROM seats WHERE user_id = ? AND state = 'seated')")
        async with self._lock:
            games = await _load_many(self.db, where, (user_id,), details=details)
        return games[0] if games else None

    async def finished_games(self, guild_id: int | None, limit: int, kind: str | None = None) -> list[GameRecord]:
        """The latest finished games of a server (of ``kind`` only, when given: its caller folds them)."""
        where = "status = 'finished' AND guild_id IS ? AND (? IS NULL OR kind = ?) ORDER BY updated_at DESC LIMIT ?"
        async with self._lock:
            return await _load_many(self.db, where, (guild_id, kind, kind, limit))

    async def unannounced_finished_games(self, kind: str | None = None) -> list[GameRecord]:
        """Finished games whose last resolved turn was never posted (a crash between commit and post), of
        ``kind`` only when given."""
        async with self._lock:
            return await _load_many(self.db, "status = 'finished' AND announced_phase < phase - 1"
                                             " AND (? IS NULL OR kind = ?)", (kind, kind))

    async def get_meta(self, key: str) -> str | None:
        async with self._lock:
            row = await _fetchone(self.db, "SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._tx() as db:
            await db.execute("INSERT INTO meta (key, value) VALUES (?, ?)"
                             " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))


# Helpers (all take an open connection; the caller holds the lock) ------------------------------
async def _fetchone(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
    cursor = await db.execute(sql, tuple(params))
    return await cursor.fetchone()


async def _game_row(db: aiosqlite.Connection, game_id: int) -> sqlite3.Row:
    row = await _fetchone(db, "SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise UnknownGame(game_id)
    return row


async def _refuse_if_playing(db: aiosqlite.Connection, user_id: int) -> None:
    row = await _fetchone(
        db, f"SELECT g.channel_id FROM games g JOIN seats s ON s.game_id = g.id"
            f" WHERE s.user_id = ? AND s.state = 'seated' AND g.status IN {_OPEN} LIMIT 1", (user_id,))
    if row is not None:
        raise AlreadyPlaying(int(row["channel_id"]))


async def _touch(db: aiosqlite.Connection, game_id: int, now: float) -> None:
    await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))


async def _append(db: aiosqlite.Connection, game_id: int, phase: int, kind: str, seat: int | None,
                  payload: Mapping[str, Any], now: float) -> None:
    await db.execute(
        "INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
        " VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, ?, ?)",
        (game_id, game_id, phase, kind, seat, json.dumps(dict(payload)), now),
    )


async def _load(db: aiosqlite.Connection, game_id: int) -> GameRecord:
    games = await _load_many(db, "id = ?", (game_id,))
    if not games:
        raise UnknownGame(game_id)
    return games[0]


async def _load_many(db: aiosqlite.Connection, where: str, params: tuple[Any, ...], *,
                     details: bool = True) -> list[GameRecord]:
    """Games matching ``where`` with their seats and actions, in three queries whatever the count
    (``details=False``: the games' own rows only, without seats and actions)."""
    rows = list(await db.execute_fetchall(f"SELECT * FROM games WHERE {where}", params))
    if not rows:
        return []
    if not details:
        return [_record(r, (), ()) for r in rows]
    ids = [int(r["id"]) for r in rows]
    seats: dict[int, list[SeatRecord]] = {i: [] for i in ids}
    actions: dict[int, list[ActionRecord]] = {i: [] for i in ids}
    if len(ids) == 1:  # the common case (one game): no temp table, two statements fewer
        which, which_params = "= ?", (ids[0],)
    else:
        # A temp table of ids keeps the queries fast and within SQLite's parameter limit for 10,000 games.
        await db.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (id INTEGER PRIMARY KEY)")
        await db.execute("DELETE FROM temp.wanted")
        await db.executemany("INSERT INTO temp.wanted VALUES (?)", [(i,) for i in ids])
        which, which_params = "IN (SELECT id FROM temp.wanted)", ()
    # Named columns read by position, and every payload decoded by one json.loads of a single array:
    # loading 10,000 games (300,000 actions) at a restart is dominated by per-row Python overhead.
    for game_id, seat, user_id, name, ai_level, state in await db.execute_fetchall(
            f"SELECT game_id, seat, user_id, name, ai_level, state FROM seats"
            f" WHERE game_id {which} ORDER BY game_id, seat", which_params):
        seats[int(game_id)].append(SeatRecord(int(seat), user_id, name, ai_level, state))
    action_rows = await db.execute_fetchall(
        f"SELECT game_id, seq, phase, kind, seat, payload, at FROM actions"
        f" WHERE game_id {which} ORDER BY game_id, seq", which_params)
    payloads = json.loads("[" + ",".join([r[5] for r in action_rows]) + "]") if action_rows else []
    for (game_id, seq, phase, kind, seat, _, at), payload in zip(action_rows, payloads, strict=True):
        actions[int(game_id)].append(ActionRecord(int(seq), int(phase), kind, seat, payload, at))
    return [_record(r, tuple(seats[int(r["id"])]), tuple(actions[int(r["id"])])) for r in rows]


def _record(r: sqlite3.Row, seats: tuple[SeatRecord, ...], actions: tuple[ActionRecord, ...]) -> GameRecord:
    return GameRecord(
        id=int(r["id"]), kind=r["kind"], guild_id=r["guild_id"], channel_id=int(r["channel_id"]),
        host_id=int(r["host_id"]), status=r["status"], options=json.loads(r["options"]), phase=int(r["phase"]),
        deadline=r["deadline"], lobby_message_id=r["lobby_message_id"], status_message_id=r["status_message_id"],
        announced_phase=int(r["announced_phase"]), end_reason=r["end_reason"], created_at=r["created_at"],
        updated_at=r["updated_at"], seats=seats, actions=actions,
    )
