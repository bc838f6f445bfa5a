"""The PostgreSQL backend of :class:`storage.base.GameStore`, on asyncpg: several bot processes share one database.

The same record and guarantees as :mod:`storage.sqlite`. SQLite serialises every writer; here work on one game
is serialised by its ``games`` row: every transaction that changes a game locks that row first (``FOR UPDATE``,
or an ``UPDATE`` of it), so the statements after the lock see everything committed before it. Hence:

- exactly-once resolution: ``resolve_phase`` is a compare-and-set on the phase under the row lock (and on the
  number of drafts, when asked), and a partial unique index allows one ``resolve`` action per phase;
- a choice and a resolution of the same game never interleave: a choice is one statement that bumps the row's
  ``last_seq`` (taking the lock) only while the game runs at the expected phase, and inserts its action;
- one open game per channel is the unique index; one open game per player is checked under an advisory lock
  on the player, taken by every transaction that may seat them.

Every method commits before it returns (asyncpg's transaction block commits on exit; a lone statement runs in
its own transaction), so whatever a caller acknowledges is committed.
"""

import asyncio
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Literal

import asyncpg

from .base import (
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
from .pg_connection import PoolHolder, create_pool, migrate
from .postgres_games import HeldGame, game_version, held_game, version_of
from .ratings import CHANGES_SQL, RatingChange, RatingJob, apply_postgres, change_of, pg
from .records import game_records

_OPEN = "('lobby', 'running')"
_APPEND = ("WITH g AS (UPDATE games SET last_seq = last_seq + 1 WHERE id = $1{guard} RETURNING last_seq)"
           " INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
           " SELECT $1, g.last_seq, $2, $3, $4, $5, $6 FROM g")
APPEND_SQL = _APPEND.format(guard="")
# The hot path: the game must run at the phase the choice is for, in the same statement.
CHOICE_SQL = _APPEND.format(guard=" AND status = 'running' AND phase = $2")
# The same, on a game this process holds (shards): it also returns the version it leaves the game at, the
# columns of postgres_games.VERSION_SQL, so that the holder need not read it again before letting go.
CHOICE_VERSION_SQL = (
    "WITH g AS (UPDATE games SET last_seq = last_seq + 1 WHERE id = $1 AND status = 'running' AND phase = $2"
    " RETURNING last_seq, status, phase, deadline, status_message_id, announced_phase, updated_at),"
    " a AS (INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
    " SELECT $1, g.last_seq, $2, 'choose', $3, $4, $5 FROM g)"
    " SELECT status, phase, deadline, status_message_id, announced_phase, updated_at, last_seq AS choices,"
    " (SELECT COUNT(*) FROM seats s WHERE s.game_id = $1 AND s.state = 'seated') AS seated FROM g")


class PostgresStore(PoolHolder):
    """A pool of connections to one PostgreSQL database (``postgresql://user@host:port/name``)."""

    what = "the store"

    def __init__(self, url: str, *, shared: bool = False, **options: Any) -> None:
        super().__init__(url, **options)
        self.shared = shared  # several processes (shards) work on this database: lock each game across them
        self._lock_pool: asyncpg.Pool | None = None
        self._held: dict[int, HeldGame] = {}  # the games this process holds (shared only), by game

    def replaced(self) -> bool:
        return False  # a server's database is not a file that can be deleted under the bot

    async def open(self) -> None:
        await self._open_pool()
        try:
            async with self.pool.acquire() as conn:
                await migrate(conn)
            if self.shared:  # its own pool: a holder of game locks makes store calls (see postgres_games)
                self._lock_pool = await create_pool(self.url, size=self.pool_size, timeout_s=self.timeout_s)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._lock_pool is not None:
            pool, self._lock_pool = self._lock_pool, None
            await pool.close()
        await super().close()

    def locks_games(self) -> bool:
        """Whether ``game_lock`` takes a lock (processes share the database); otherwise it yields None at once."""
        return self._lock_pool is not None

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[GameVersion | None]:
        if self._lock_pool is None:
            yield None  # one process: nothing to lock against, and its cache is the truth
            return
        async with held_game(self._lock_pool, game_id) as held:
            self._held[game_id] = held
            try:
                yield held.version
            finally:
                del self._held[game_id]

    async def game_version(self, game_id: int) -> GameVersion:
        # The holder's own read (GameLocks reads what it leaves the game at before letting go) goes over the
        # connection holding the game: no pool round trip, and the same committed rows (READ COMMITTED).
        held = self._holding(game_id)
        if held is not None:
            return held.left or await game_version(held.conn, game_id)
        return await game_version(self.pool, game_id)

    def _holding(self, game_id: int) -> HeldGame | None:
        """The game's hold, when the calling task is its holder."""
        held = self._held.get(game_id)
        return held if held is not None and held.task is asyncio.current_task() else None

    def _changing(self, game_id: int) -> None:
        """Before any write of a game: the version its holder knows is no longer the stored one."""
        held = self._held.get(game_id)
        if held is not None:
            held.left = None

    async def schema_version(self) -> int:
        return int(await self.pool.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))

    # Lobby and seats ----------------------------------------------------------------------------
    async def create_lobby(self, kind: str, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                           options: Mapping[str, Any], now: float) -> GameRecord:
        async with self._tx() as db:
            await _lock_user(db, host_id)
            await _refuse_if_busy(db, channel_id)
            await _refuse_if_playing(db, host_id)
            game_id = await db.fetchval(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, 'lobby', $5, $6, $6)"
                f" ON CONFLICT (channel_id) WHERE status IN {_OPEN} DO NOTHING RETURNING id",
                kind, guild_id, channel_id, host_id, json.dumps(dict(options)), float(now))
            if game_id is None:  # another process opened a game here since the check above
                await _refuse_if_busy(db, channel_id)
                raise ChannelBusy(0)
            await db.execute("INSERT INTO seats (game_id, seat, user_id, name, joined_at) VALUES ($1, 0, $2, $3, $4)",
                             game_id, host_id, host_name, float(now))
            return await _load(db, int(game_id))

    async def seat_player(self, game_id: int, user_id: int | None, name: str, max_seats: int, now: float,
                          ai_level: str | None = None) -> SeatRecord:
        self._changing(game_id)
        async with self._tx() as db:
            game = await _lock_game(db, game_id)
            if game["status"] != "lobby":
                raise WrongStatus(game["status"])
            if user_id is not None:
                await _lock_user(db, user_id)
                await _refuse_if_playing(db, user_id)
            rows = await db.fetch("SELECT seat, state FROM seats WHERE game_id = $1", game_id)
            taken = {int(r["seat"]) for r in rows}
            if sum(r["state"] == "seated" for r in rows) >= max_seats:
                raise GameFull()
            seat = next(n for n in range(len(taken) + 1) if n not in taken)
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, ai_level, joined_at) VALUES ($1, $2, $3, $4, $5, $6)",
                game_id, seat, user_id, name, ai_level, float(now))
            await _touch(db, game_id, now)
            return SeatRecord(seat, user_id, name, ai_level)

    async def unseat_player(self, game_id: int, seat: int, state: SeatState, now: float,
                            new_host_id: int | None = None) -> None:
        self._changing(game_id)
        async with self._tx() as db:
            game = await _lock_game(db, game_id)
            if new_host_id is not None:  # the host leaves: the role passes in the same transaction
                await db.execute("UPDATE games SET host_id = $1 WHERE id = $2", new_host_id, game_id)
            if game["status"] == "lobby":
                # Free the seat and close the gap (seats stay numbered 0..n-1), in two steps: a unique key is
                # checked row by row.
                await db.execute("DELETE FROM seats WHERE game_id = $1 AND seat = $2", game_id, seat)
                await db.execute("UPDATE seats SET seat = -seat WHERE game_id = $1 AND seat > $2", game_id, seat)
                await db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = $1 AND seat < 0", game_id)
            elif game["status"] == "running":
                await db.execute("UPDATE seats SET state = $1 WHERE game_id = $2 AND seat = $3", state, game_id, seat)
                await _append(db, game_id, int(game["phase"]), "unseat", seat, {"state": state}, now)
            else:
                raise WrongStatus(game["status"])
            await _touch(db, game_id, now)

    async def start_game(self, game_id: int, deadline: float | None, now: float,
                         payload: Mapping[str, Any] | None = None) -> GameRecord:
        self._changing(game_id)
        async with self._tx() as db:
            game = await _lock_game(db, game_id)
            if game["status"] != "lobby":
                raise WrongStatus(game["status"])
            await db.execute("UPDATE games SET status = 'running', phase = 0, deadline = $1, updated_at = $2,"
                             " status_message_id = NULL WHERE id = $3", _real(deadline), float(now), game_id)
            await _append(db, game_id, 0, "start", None, payload or {}, now)
            return await _load(db, game_id)

    async def load_games(self, game_ids: Sequence[int]) -> list[GameRecord]:
        if not game_ids:
            return []
        async with self.pool.acquire() as db:
            return await load_many(db, "id = ANY($1::bigint[])", ([int(i) for i in game_ids],))

    # Play ---------------------------------------------------------------------------------------
    async def record_choice(self, game_id: int, phase: int, seat: int, payload: Mapping[str, Any],
                            now: float) -> None:
        # The hot path: one statement (one round trip, its own transaction) that stores the choice only while
        # the game runs at this phase. When it stores nothing, the transaction below says why.
        self._changing(game_id)
        held = self._holding(game_id)
        if held is not None:
            # Over the holder's connection (a session lock: no transaction is open on it, so the statement
            # commits on its own as it would on any other), which spares a pool acquire and release.
            row = await held.conn.fetchrow(CHOICE_VERSION_SQL, game_id, phase, seat, json.dumps(dict(payload)),
                                           float(now))
            if row is not None:
                held.left = version_of(row)
                return
        elif (await self.pool.execute(CHOICE_SQL, game_id, phase, "choose", seat, json.dumps(dict(payload)),
                                      float(now))).endswith(" 1"):
            return
        async with self._tx() as db:
            game = await _lock_game(db, game_id)
            if game["status"] != "running":
                raise WrongStatus(game["status"])
            if int(game["phase"]) != phase:
                raise StalePhase(phase, int(game["phase"]))
            await _append(db, game_id, phase, "choose", seat, payload, now)

    async def resolve_phase(self, game_id: int, phase: int, payload: Mapping[str, Any],
                            next_deadline: float | None, finished: bool, now: float,
                            *, choices: int | None = None, rating: RatingJob | None = None) -> bool:
        """Compare-and-set on the phase under the game's row lock; with ``choices``, also on how many ``choose``
        rows the phase has (counted after the lock, so a draft committed by another process is seen).
        ``rating`` (only with ``finished``): the game's rating, written in the same transaction as its end."""
        self._changing(game_id)
        async with self._tx() as db:
            game = await db.fetchrow("SELECT phase, status FROM games WHERE id = $1 FOR UPDATE", game_id)
            if game is None or game["status"] != "running" or int(game["phase"]) != phase:
                return False  # someone else resolved this phase first
            if choices is not None:
                stored = await db.fetchval("SELECT COUNT(*) FROM actions WHERE game_id = $1 AND phase = $2"
                                           " AND kind = 'choose'", game_id, phase)
                if int(stored) != choices:
                    return False
            await db.execute(
                "UPDATE games SET phase = phase + 1, deadline = $1, status = $2, updated_at = $3,"
                " status_message_id = NULL, end_reason = CASE WHEN $4 THEN 'finished' ELSE end_reason END"
                " WHERE id = $5",
                None if finished else _real(next_deadline), "finished" if finished else "running", float(now),
                finished, game_id)
            await _append(db, game_id, phase, "resolve", None, payload, now)
            if finished and rating is not None:
                await apply_postgres(db, game_id, rating, now)
            return True

    async def set_deadline(self, game_id: int, phase: int, deadline: float | None, now: float) -> None:
        self._changing(game_id)
        await self.pool.execute("UPDATE games SET deadline = $1, updated_at = $2 WHERE id = $3 AND phase = $4",
                                _real(deadline), float(now), game_id, phase)

    async def set_message(self, game_id: int, which: Literal["lobby", "status", "thread"],
                          message_id: int | None) -> None:
        self._changing(game_id)
        column = {"lobby": "lobby_message_id", "status": "status_message_id", "thread": "thread_id"}[which]
        await self.pool.execute(f"UPDATE games SET {column} = $1 WHERE id = $2", message_id, game_id)

    async def mark_announced(self, game_id: int, phase: int) -> bool:
        self._changing(game_id)
        status = await self.pool.execute(
            "UPDATE games SET announced_phase = $1 WHERE id = $2 AND announced_phase < $1", phase, game_id)
        return status == "UPDATE 1"

    async def end_game(self, game_id: int, status: GameStatus, reason: str, now: float) -> bool:
        self._changing(game_id)
        done = await self.pool.execute(
            f"UPDATE games SET status = $1, end_reason = $2, deadline = NULL, updated_at = $3"
            f" WHERE id = $4 AND status IN {_OPEN}", status, reason, float(now), game_id)
        return done == "UPDATE 1"

    # Reading ------------------------------------------------------------------------------------
    async def load_game(self, game_id: int) -> GameRecord:
        async with self.pool.acquire() as db:
            return await _load(db, game_id)

    async def open_games(self, kind: str | None = None, *, details: bool = True, after: int = 0,
                         limit: int | None = None) -> list[GameRecord]:
        where, params = (f"status IN {_OPEN} AND kind = $1", (kind,)) if kind else (f"status IN {_OPEN}", ())
        if after:
            where, params = f"{where} AND id > ${len(params) + 1}", (*params, after)
        if limit is not None:
            where += f" ORDER BY id LIMIT {int(limit)}"
        async with self.pool.acquire() as db:
            return await load_many(db, where, params, details=details)

    async def open_game_in_channel(self, channel_id: int) -> GameRecord | None:
        async with self.pool.acquire() as db:
            # two lookups, each on its own partial index (see the SQLite store)
            games = await load_many(db, f"id IN (SELECT id FROM games WHERE channel_id = $1 AND status IN {_OPEN}"
                                        f" UNION ALL SELECT id FROM games WHERE thread_id = $1 AND status IN {_OPEN})",
                                     (channel_id,))
        return games[0] if games else None

    async def open_game_of_user(self, user_id: int, *, details: bool = True) -> GameRecord | None:
        where = f"status IN {_OPEN} AND id IN (SELECT game_id FROM seats WHERE user_id = $1 AND state = 'seated')"
        async with self.pool.acquire() as db:
            games = await load_many(db, where, (user_id,), details=details)
        return games[0] if games else None

    async def finished_games(self, guild_id: int | None, limit: int, kind: str | None = None) -> list[GameRecord]:
        """The latest finished games of a server (of ``kind`` only, when given)."""
        guild = "guild_id IS NULL AND $1::bigint IS NULL" if guild_id is None else "guild_id = $1"
        where = f"status = 'finished' AND {guild} AND ($2::text IS NULL OR kind = $2) ORDER BY updated_at DESC LIMIT $3"
        async with self.pool.acquire() as db:
            return await load_many(db, where, (guild_id, kind, limit))

    async def unannounced_finished_games(self, kind: str | None = None) -> list[GameRecord]:
        async with self.pool.acquire() as db:
            return await load_many(db, "status = 'finished' AND announced_phase < phase - 1"
                                       " AND ($1::text IS NULL OR kind = $1)", (kind,))

    async def past_games(self, kind: str, user_ids: Sequence[int], per_user: int) -> list[GameRecord]:
        """The newest ``per_user`` finished games of ``kind`` of each user that had an AI seat, newest first."""
        if not user_ids or per_user <= 0:
            return []
        where = (
            "id IN (SELECT game_id FROM ("
            " SELECT s.game_id, ROW_NUMBER() OVER (PARTITION BY s.user_id ORDER BY g.updated_at DESC, g.id DESC) AS n"
            " FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ANY($1::bigint[]) AND g.kind = $2 AND g.status = 'finished'"
            " AND EXISTS (SELECT 1 FROM seats a WHERE a.game_id = g.id AND a.ai_level IS NOT NULL)) AS mine"
            " WHERE n <= $3) ORDER BY updated_at DESC, id DESC")
        async with self.pool.acquire() as db:
            return await load_many(db, where, (list(user_ids), kind, per_user))

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What a finished game changed in the ratings (none: not rated), per scope and seat."""
        return [change_of(r) for r in await self.pool.fetch(pg(CHANGES_SQL), game_id)]

    async def get_meta(self, key: str) -> str | None:
        value = await self.pool.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        await self.pool.execute("INSERT INTO meta (key, value) VALUES ($1, $2)"
                                " ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value)

    async def get_notify(self, user_id: int) -> tuple[bool, bool]:
        """(DM reminders, mentions) as the player set them with /notify; both on by default."""
        row = await self.pool.fetchrow("SELECT dm, mention FROM user_notify WHERE user_id = $1", user_id)
        return (True, True) if row is None else (bool(row["dm"]), bool(row["mention"]))

    async def set_notify(self, user_id: int, dm: bool, mention: bool) -> None:
        await self.pool.execute("INSERT INTO user_notify (user_id, dm, mention) VALUES ($1, $2, $3)"
                                " ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, mention = excluded.mention",
                                user_id, int(dm), int(mention))

    async def get_summary(self, user_id: int) -> bool:
        """/notify summary: the daily DM listing the tables waiting for the player; on by default."""
        value = await self.pool.fetchval("SELECT summary FROM user_notify WHERE user_id = $1", user_id)
        return True if value is None else bool(value)

    async def set_summary(self, user_id: int, on: bool) -> None:
        await self.pool.execute("INSERT INTO user_notify (user_id, summary) VALUES ($1, $2)"
                                " ON CONFLICT (user_id) DO UPDATE SET summary = excluded.summary", user_id, int(on))

    async def claim_reminder(self, game_id: int, phase: int, slot: str, now: float) -> bool:
        """As SQLite's: True for the one caller whose row went in (it sends the reminder)."""
        done = await self.pool.execute("INSERT INTO reminders_sent (game_id, phase, slot, sent_at)"
                                       " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                                       game_id, phase, slot, float(now))
        return bool(done == "INSERT 0 1")

    async def claim_summary(self, user_id: int, day: str, now: float) -> bool:
        """As :meth:`claim_reminder`, for a player's daily summary of ``day`` (its UTC date)."""
        done = await self.pool.execute("INSERT INTO summaries_sent (user_id, day, sent_at) VALUES ($1, $2, $3)"
                                       " ON CONFLICT DO NOTHING", user_id, day, float(now))
        return bool(done == "INSERT 0 1")

    async def running_games_of_user(self, user_id: int) -> list[GameRecord]:
        """Every running game ``user_id`` is seated at, in any server (for /mygames): the games' rows only."""
        where = "status = 'running' AND id IN (SELECT game_id FROM seats WHERE user_id = $1 AND state = 'seated')"
        async with self.pool.acquire() as db:
            return await load_many(db, where + " ORDER BY deadline", (user_id,), details=False)


# Helpers (all take a connection; those that write are called inside a transaction) ----------------
def _real(value: float | None) -> float | None:
    return None if value is None else float(value)


async def _lock_game(db: asyncpg.Connection, game_id: int) -> asyncpg.Record:
    row = await db.fetchrow("SELECT status, phase FROM games WHERE id = $1 FOR UPDATE", game_id)
    if row is None:
        raise UnknownGame(game_id)
    return row


async def _lock_user(db: asyncpg.Connection, user_id: int) -> None:
    """Serialise the transactions that may seat this user (the one-open-game-per-player rule spans games)."""
    await db.execute("SELECT pg_advisory_xact_lock(hashtextextended('seat-user:' || $1::text, 0))", str(user_id))


async def _refuse_if_busy(db: asyncpg.Connection, channel_id: int) -> None:
    busy = await db.fetchval(f"SELECT id FROM games WHERE channel_id = $1 AND status IN {_OPEN}", channel_id)
    if busy is not None:
        raise ChannelBusy(int(busy))


async def _refuse_if_playing(db: asyncpg.Connection, user_id: int) -> None:
    channel = await db.fetchval(
        f"SELECT g.channel_id FROM games g JOIN seats s ON s.game_id = g.id"
        f" WHERE s.user_id = $1 AND s.state = 'seated' AND g.status IN {_OPEN} LIMIT 1", user_id)
    if channel is not None:
        raise AlreadyPlaying(int(channel))


async def _touch(db: asyncpg.Connection, game_id: int, now: float) -> None:
    await db.execute("UPDATE games SET updated_at = $1 WHERE id = $2", float(now), game_id)


async def _append(db: asyncpg.Connection, game_id: int, phase: int, kind: str, seat: int | None,
                  payload: Mapping[str, Any], now: float) -> None:
    await db.execute(APPEND_SQL, game_id, phase, kind, seat, json.dumps(dict(payload)), float(now))


async def _load(db: asyncpg.Connection, game_id: int) -> GameRecord:
    games = await load_many(db, "id = $1", (game_id,))
    if not games:
        raise UnknownGame(game_id)
    return games[0]


async def load_many(db: asyncpg.Connection, where: str, params: tuple[Any, ...], *,
                    details: bool = True) -> list[GameRecord]:
    """Games matching ``where`` with their seats and actions, in three queries whatever the count."""
    rows = await db.fetch(f"SELECT * FROM games WHERE {where}", *params)
    if not rows or not details:
        return game_records(rows)
    ids = [int(r["id"]) for r in rows]
    seat_rows = await db.fetch(
        "SELECT game_id, seat, user_id, name, ai_level, state FROM seats WHERE game_id = ANY($1::bigint[])"
        " ORDER BY game_id, seat", ids)
    action_rows = await db.fetch(
        "SELECT game_id, seq, phase, kind, seat, payload, at FROM actions WHERE game_id = ANY($1::bigint[])"
        " ORDER BY game_id, seq", ids)
    return game_records(rows, seat_rows, action_rows)
