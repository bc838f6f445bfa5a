"""Statistics over finished games: per-player stats, leaderboards, recent games. All their SQL is here.

Where the figures come from
---------------------------
The actions log stays the only record of a game. A player's final score needs the rules engine (points
depend on which numbers were eliminated), and folding 100,000 games through the engine takes about a
minute, far too slow for a leaderboard. So the per-seat result of each finished game (final score, won,
numbers played, numbers approved, the numbers written) is kept in ``game_results``: a **derived cache**,
never written by anything but this module, and always recomputable from the log:

- A finished game never changes again (no action is appended to it, its seats and guild are fixed), so a
  cached row can never drift from the log it was computed from.
- Rows are not written in the transaction that finishes a game (that would mean a hook inside
  ``SQLiteStore.resolve_phase``). Instead every read first fills the rows of the finished games that have
  none yet (:meth:`SQLiteStats.refresh`: one indexed anti-join, then the engine for the few new games), so
  a read never misses a game, whether it finished a second ago, before this feature existed or while the
  bot was down. The bot also refreshes right after a game ends, so reads usually find nothing to do.
- :meth:`SQLiteStats.rebuild` throws the cache away and recomputes it from the log; a test checks that the
  cache equals a recomputation through the game service's own ``rebuild``.

What a result is comes from a *summariser* the caller passes in (for The Number:
``bot.services.thenumber_stats.summarise``), so this module knows SQL and not the rules.

Connection: its own aiosqlite connection to the store's file (WAL lets it read while the store writes).
Sharing the store's connection would mix these statements into the store's open transactions.
"""

import asyncio
import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from .base import SeatRecord
from .connection import ConnectionHolder

RankBy = Literal["wins", "rate", "average"]
REFRESH_BATCH = 500
THREAD_ABOVE = 20  # summarise more games than this in a worker thread, off the event loop
# A server's finished games are checked for missing results once in full, then only those finished since
# (games.updated_at) the latest finish seen, minus this margin for transactions that commit out of order.
RECHECK_MARGIN = 300.0


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """What a summariser needs of a finished game: its seats and the numbers revealed each turn."""

    id: int
    guild_id: int | None
    channel_id: int
    finished_at: float
    seats: tuple[SeatRecord, ...]
    turns: tuple[Mapping[str, Any], ...]  # the stored steps (each resolve payload's "step"), in order


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One row of ``game_results``."""

    game_id: int
    seat: int
    guild_id: int | None
    user_id: int | None
    finished_at: float
    final_score: int
    won: bool
    played: int
    approved: int
    numbers: tuple[str, ...]


Summariser = Callable[[FinishedGame], Sequence[SeatResult]]


@dataclass(frozen=True, slots=True)
class PlayerGame:
    game_id: int
    channel_id: int
    finished_at: float
    final_score: int
    won: bool
    played: int
    approved: int
    numbers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LeaderRow:
    rank: int
    user_id: int
    name: str
    games: int
    wins: int
    average: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class LeaderPage:
    rows: tuple[LeaderRow, ...]
    page: int  # 0-based, clamped to the pages there are
    pages: int
    players: int  # how many players qualify


@dataclass(frozen=True, slots=True)
class GameLine:
    """A finished game in a server's history."""

    game_id: int
    channel_id: int
    finished_at: float
    seats: tuple[tuple[SeatRecord, int, bool], ...]  # (seat, final score, won), seat order


# The hot queries, named so that tests can EXPLAIN exactly what runs.
LEADERBOARD_SQL = ("SELECT user_id, COUNT(*), SUM(won), AVG(final_score) FROM game_results"
                   " WHERE guild_id = ? AND finished_at >= ? AND finished_at < ?"
                   " GROUP BY user_id HAVING user_id IS NOT NULL AND COUNT(*) >= ?")
PLAYER_SQL = ("SELECT r.game_id, g.channel_id, r.finished_at, r.final_score, r.won, r.played, r.approved, r.numbers"
              " FROM game_results r JOIN games g ON g.id = r.game_id"
              " WHERE r.guild_id = ? AND r.user_id = ? ORDER BY r.finished_at, r.game_id")
MISSING_SQL = ("SELECT g.id FROM games g WHERE {where}"
               " AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id) LIMIT {limit}")
GUILD_MISSING = "g.guild_id IS ? AND g.status = 'finished' AND g.updated_at >= ? AND g.kind = ?"

# (user_id, games, wins, average) -> the value a ranking sorts on, biggest first
_RANK_KEYS: dict[str, Callable[[tuple[int, int, int, float]], float]] = {
    "wins": lambda p: p[2],
    "rate": lambda p: p[2] / p[1],
    "average": lambda p: p[3],
}
_COLUMNS = ("game_id, seat, guild_id, user_id, finished_at, final_score, won, played, approved, numbers")


class SQLiteStats(ConnectionHolder):
    what = "the statistics connection"

    def __init__(self, path: str | Path, summarise: Summariser, kind: str, *, busy_timeout_ms: int = 10_000) -> None:
        self.path = str(path)
        self.summarise = summarise
        self.kind = kind
        self.busy_timeout_ms = busy_timeout_ms
        super().__init__()
        self._lock = asyncio.Lock()  # one refresh/transaction at a time on this connection
        self._checked: dict[int | None, float] = {}  # guild -> every game finished before this has results

    async def open(self) -> None:
        if self.path == ":memory:":
            raise ValueError("statistics need a database file (a second connection to :memory: is another DB)")
        db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
        await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        await db.execute("PRAGMA foreign_keys = ON")
        # Aggregates read a few MB of index: keep them in memory rather than re-read through the OS each time.
        await db.execute("PRAGMA cache_size = -32768")
        await db.execute("PRAGMA mmap_size = 268435456")
        self._db = db

    # The cache ----------------------------------------------------------------------------------
    async def refresh(self, guild_id: int | None = None, *, every_guild: bool = False) -> int:
        """Compute and store the results of finished games that have none yet; returns how many games.

        For one server (what every read does) the whole refresh holds the lock, so the read that follows
        sees every game; ``every_guild`` (the start-up backfill and :meth:`rebuild`) takes it per batch so
        that commands are not held up behind a long backfill."""
        done = 0
        if every_guild:
            while True:
                async with self._lock:
                    count = await self._fill_batch("g.status = 'finished' AND g.kind = ?", (self.kind,))
                if not count:
                    return done
                done += count
        async with self._lock:
            latest = await self.db.execute_fetchall(
                "SELECT MAX(updated_at) FROM games WHERE guild_id IS ? AND status = 'finished'", (guild_id,))
            checked = self._checked.get(guild_id, float("-inf")) - RECHECK_MARGIN
            while count := await self._fill_batch(GUILD_MISSING, (guild_id, checked, self.kind)):
                done += count
            if latest and latest[0][0] is not None:
                self._checked[guild_id] = float(latest[0][0])
            return done

    async def _fill_batch(self, where: str, params: tuple[Any, ...]) -> int:
        rows = await self.db.execute_fetchall(MISSING_SQL.format(where=where, limit=REFRESH_BATCH), params)
        ids = [int(r[0]) for r in rows]
        if not ids:
            return 0
        games = await self._finished_games(ids)
        if len(games) > THREAD_ABOVE:
            results = await asyncio.to_thread(_summarise_all, self.summarise, games)
        else:
            results = _summarise_all(self.summarise, games)
        await self._save(results)
        return len(ids)

    async def rebuild(self) -> int:
        """Forget every cached result and recompute them all from the actions log."""
        async with self._lock:
            await self.db.execute("DELETE FROM game_results")
            self._checked.clear()
        return await self.refresh(every_guild=True)

    async def _finished_games(self, ids: list[int]) -> list[FinishedGame]:
        db = self.db
        await db.execute("CREATE TEMP TABLE IF NOT EXISTS stats_wanted (id INTEGER PRIMARY KEY)")
        await db.execute("DELETE FROM temp.stats_wanted")
        await db.executemany("INSERT INTO temp.stats_wanted VALUES (?)", [(i,) for i in ids])
        heads = {int(r[0]): r for r in await db.execute_fetchall(
            "SELECT id, guild_id, channel_id FROM games WHERE id IN (SELECT id FROM temp.stats_wanted)")}
        seats: dict[int, list[SeatRecord]] = {i: [] for i in heads}
        for game_id, seat, user_id, name, ai_level, state in await db.execute_fetchall(
                "SELECT game_id, seat, user_id, name, ai_level, state FROM seats"
                " WHERE game_id IN (SELECT id FROM temp.stats_wanted) ORDER BY game_id, seat"):
            seats[int(game_id)].append(SeatRecord(int(seat), user_id, name, ai_level, state))
        turns: dict[int, list[Mapping[str, Any]]] = {i: [] for i in heads}
        ended: dict[int, float] = {}
        for game_id, payload, at in await db.execute_fetchall(
                "SELECT game_id, payload, at FROM actions WHERE kind = 'resolve'"
                " AND game_id IN (SELECT id FROM temp.stats_wanted) ORDER BY game_id, seq"):
            turns[int(game_id)].append(json.loads(payload)["step"])
            ended[int(game_id)] = float(at)
        return [FinishedGame(i, heads[i][1], int(heads[i][2]), ended.get(i, 0.0), tuple(seats[i]), tuple(turns[i]))
                for i in ids if i in heads]

    async def _save(self, results: Iterable[SeatResult]) -> None:
        rows = [(r.game_id, r.seat, r.guild_id, r.user_id, r.finished_at, r.final_score, int(r.won), r.played,
                 r.approved, ",".join(r.numbers)) for r in results]
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.executemany(f"INSERT OR IGNORE INTO game_results ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                                 rows)
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")

    # Reading ------------------------------------------------------------------------------------
    async def results(self, game_id: int) -> list[SeatResult]:
        """The cached results of one finished game, in seat order (after a refresh of its server)."""
        rows = await self.db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM game_results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_result(r) for r in rows]

    async def all_results(self) -> list[SeatResult]:
        rows = await self.db.execute_fetchall(f"SELECT {_COLUMNS} FROM game_results ORDER BY game_id, seat")
        return [_result(r) for r in rows]

    async def player_games(self, guild_id: int, user_id: int) -> list[PlayerGame]:
        await self.refresh(guild_id)
        rows = await self.db.execute_fetchall(PLAYER_SQL, (guild_id, user_id))
        return [PlayerGame(int(r[0]), int(r[1]), float(r[2]), int(r[3]), bool(r[4]), int(r[5]), int(r[6]),
                           _numbers(r[7])) for r in rows]

    async def leaderboard(self, guild_id: int, by: RankBy, since: float, until: float, *, min_games: int = 1,
                          page: int = 0, per_page: int = 10) -> LeaderPage:
        """Players of ``guild_id`` ranked over the games finished in [since, until); equal values share a rank.

        One aggregate over a covering index range (a few thousand players at most), ranked here."""
        await self.refresh(guild_id)
        rows = await self.db.execute_fetchall(LEADERBOARD_SQL, (guild_id, since, until, min_games))
        key = _RANK_KEYS[by]
        players = sorted(((int(u), int(g), int(w), float(a)) for u, g, w, a in rows),
                         key=lambda p: (-key(p), -p[1], p[0]))
        pages = max(1, -(-len(players) // per_page))
        page = min(max(page, 0), pages - 1)
        shown = players[page * per_page:(page + 1) * per_page]
        names = await self._names(guild_id, [p[0] for p in shown])
        leaders = []
        for user_id, games, wins, average in shown:
            value = key((user_id, games, wins, average))
            rank = 1 + _count_above(players, key, value)
            leaders.append(LeaderRow(rank, user_id, names.get(user_id, str(user_id)), games, wins, average))
        return LeaderPage(tuple(leaders), page, pages, len(players))

    async def _names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """Each player's name at the table in their latest game in this server."""
        names: dict[int, str] = {}
        for user_id in user_ids:
            row = await self.db.execute_fetchall(
                "SELECT s.name FROM game_results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " WHERE r.guild_id = ? AND r.user_id = ? ORDER BY r.finished_at DESC LIMIT 1", (guild_id, user_id))
            if row:
                names[user_id] = str(row[0][0])
        return names

    async def recent(self, guild_id: int, limit: int = 10) -> list[GameLine]:
        """The latest finished games of a server, newest first."""
        await self.refresh(guild_id)
        heads = await self.db.execute_fetchall(
            "SELECT DISTINCT r.game_id, r.finished_at FROM game_results r WHERE r.guild_id = ?"
            " ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ?", (guild_id, limit))
        lines = []
        for game_id, finished_at in heads:
            rows = await self.db.execute_fetchall(
                "SELECT s.seat, s.user_id, s.name, s.ai_level, s.state, r.final_score, r.won, g.channel_id"
                " FROM game_results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " JOIN games g ON g.id = r.game_id WHERE r.game_id = ? ORDER BY r.seat", (game_id,))
            seats = tuple((SeatRecord(int(r[0]), r[1], r[2], r[3], r[4]), int(r[5]), bool(r[6])) for r in rows)
            lines.append(GameLine(int(game_id), int(rows[0][7]) if rows else 0, float(finished_at), seats))
        return lines

    async def game_guild(self, game_id: int) -> tuple[int | None, str, str] | None:
        """(guild_id, kind, status) of a game, or None when there is no such game."""
        rows = await self.db.execute_fetchall("SELECT guild_id, kind, status FROM games WHERE id = ?", (game_id,))
        return None if not rows else (rows[0][0], str(rows[0][1]), str(rows[0][2]))

    async def explain(self, sql: str, params: tuple[Any, ...]) -> list[str]:
        """EXPLAIN QUERY PLAN details of ``sql`` (tests and the benchmark check that indexes are used)."""
        rows = await self.db.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
        return [str(r[3]) for r in rows]


def _count_above(players: Sequence[tuple[int, int, int, float]],
                 key: Callable[[tuple[int, int, int, float]], float], value: float) -> int:
    """How many players rank strictly above ``value`` (``players`` is sorted by ``key``, biggest first)."""
    low, high = 0, len(players)
    while low < high:
        mid = (low + high) // 2
        if key(players[mid]) > value:
            low = mid + 1
        else:
            high = mid
    return low


def _summarise_all(summarise: Summariser, games: Sequence[FinishedGame]) -> list[SeatResult]:
    return [row for game in games for row in summarise(game)]


def _numbers(text: str) -> tuple[str, ...]:
    return tuple(text.split(",")) if text else ()


def _result(r: sqlite3.Row | Sequence[Any]) -> SeatResult:
    return SeatResult(int(r[0]), int(r[1]), r[2], r[3], float(r[4]), int(r[5]), bool(r[6]), int(r[7]), int(r[8]),
                      _numbers(r[9]))
