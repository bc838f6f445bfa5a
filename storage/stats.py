"""Statistics over finished games of every kind: per-player figures, leaderboards, recent games. All their SQL.

Where the figures come from
---------------------------
The actions log stays the only record of a game. A final score needs the game's rules (folding the log
through the game), and folding 100,000 games takes about a minute, far too slow for a leaderboard. So the
per-seat result of each finished game (kind, final score, won, and the game's own figures as JSON in
``extra``) is kept in ``game_results``: a **derived cache**, never written by anything but this module, and
always recomputable from the log:

- A finished game never changes again (no action is appended to it, its seats and guild are fixed), so a
  cached row can never drift from the log it was computed from.
- Rows are not written in the transaction that finishes a game (that would mean a hook inside
  ``SQLiteStore.resolve_phase``). Instead every read first fills the rows of the finished games of its kind
  that have none yet (:meth:`SQLiteStats.refresh`: one indexed anti-join, then the summariser for the few new
  games), so a read never misses a game, whether it finished a second ago, before this cache existed or
  while the bot was down. The bot also fills the cache at start-up (migration 0005 empties it).
- :meth:`SQLiteStats.rebuild` throws the cache away and recomputes it from the log; a test checks that the
  cache equals a recomputation.

What a result is comes from a *summariser* the caller passes in (``bot.core.stats.summariser``: it folds the
``GameRecord`` through its game), so this module knows SQL and never reads a game's payload. Every query that
summarises or reads results takes the game's kind: kinds never mix. Only finished games have results
(cancelled and abandoned games count in no statistic).

Connection: its own aiosqlite connection to the store's file (WAL lets it read while the store writes).
Sharing the store's connection would mix these statements into the store's open transactions.
"""

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from .base import GameRecord, SeatRecord
from .connection import ConnectionHolder
from .ratings import RatingReads
from .sqlite import _load_many

RankBy = Literal["wins", "rate", "average"]
REFRESH_BATCH = 500
THREAD_ABOVE = 20  # summarise more games than this in a worker thread, off the event loop
# A server's finished games are checked for missing results once in full, then only those finished since
# (games.updated_at) the latest finish seen, minus this margin for transactions that commit out of order.
RECHECK_MARGIN = 300.0


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One row of ``game_results``: ``extra`` is the game's own per-seat figures (JSON), opaque here."""

    game_id: int
    seat: int
    kind: str
    guild_id: int | None
    user_id: int | None
    finished_at: float
    final_score: int
    won: bool
    extra: Mapping[str, Any] = field(default_factory=dict)


# A finished game (seats and actions) -> one row per seat; [] when the game cannot be summarised.
Summariser = Callable[[GameRecord], Sequence[SeatResult]]


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One of a player's finished games: their seat's result and where the game was played."""

    game_id: int
    channel_id: int
    finished_at: float
    final_score: int
    won: bool
    extra: Mapping[str, Any] = field(default_factory=dict)


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
                   " WHERE guild_id = ? AND kind = ? AND finished_at >= ? AND finished_at < ?"
                   " GROUP BY user_id HAVING user_id IS NOT NULL AND COUNT(*) >= ?")
PLAYER_SQL = ("SELECT r.game_id, g.channel_id, r.finished_at, r.final_score, r.won, r.extra"
              " FROM game_results r JOIN games g ON g.id = r.game_id"
              " WHERE r.guild_id = ? AND r.kind = ? AND r.user_id = ? ORDER BY r.finished_at, r.game_id")
RECENT_SQL = ("SELECT DISTINCT r.game_id, r.finished_at FROM game_results r WHERE r.guild_id = ? AND r.kind = ?"
              " ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ?")
MISSING_SQL = ("SELECT g.id FROM games g WHERE {where}"
               " AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id) LIMIT {limit}")
GUILD_MISSING = "g.guild_id IS ? AND g.status = 'finished' AND g.updated_at >= ? AND g.kind = ?"
ALL_MISSING = "g.status = 'finished' AND g.kind = ?"

# (user_id, games, wins, average) -> the value a ranking sorts on, biggest first
_RANK_KEYS: dict[str, Callable[[tuple[int, int, int, float]], float]] = {
    "wins": lambda p: p[2],
    "rate": lambda p: p[2] / p[1],
    "average": lambda p: p[3],
}
_COLUMNS = "game_id, seat, kind, guild_id, user_id, finished_at, final_score, won, extra"


class StatsCache:
    """What both backends share: when the cache is filled, how results are summarised and ranked. The SQL is the
    subclass's (``_latest_finish``, ``_guild_missing``, ``_missing_ids``, ``_records``, ``_save``, ``_clear``,
    ``_player_rows``, ``_leader_rows``, ``_names``, ``_recent_heads``, ``_seat_rows``)."""

    all_missing: str  # the WHERE of MISSING_SQL for every finished game of one kind (its one parameter)

    def __init__(self, summarise: Summariser, kinds: Iterable[str]) -> None:
        self.summarise = summarise
        self.kinds = tuple(kinds)
        self._lock = asyncio.Lock()  # one refresh/transaction at a time in this process
        # (guild, kind) -> every game of that kind finished there before this time has results
        self._checked: dict[tuple[int | None, str], float] = {}

    def _known(self, kind: str) -> str:
        if kind not in self.kinds:
            raise ValueError(f"no statistics for {kind!r} games (known: {', '.join(self.kinds)})")
        return kind

    # The cache ----------------------------------------------------------------------------------
    async def refresh(self, guild_id: int | None = None, kind: str | None = None, *, every_guild: bool = False
                      ) -> int:
        """Compute and store the results of finished games that have none yet; returns how many games.

        For one server and kind (what every read does) the whole refresh holds the lock, so the read that
        follows sees every game; ``every_guild`` (the start-up backfill and :meth:`rebuild`, every kind unless
        one is named) takes it per batch so that commands are not held up behind a long backfill."""
        done = 0
        if every_guild:
            for each in (self._known(kind),) if kind is not None else self.kinds:
                while True:
                    async with self._lock:
                        count = await self._fill_batch(self.all_missing, (each,))
                    if not count:
                        break
                    done += count
            return done
        if kind is None:
            raise ValueError("a refresh of one server names the kind of its games")
        self._known(kind)
        async with self._lock:
            latest = await self._latest_finish(guild_id, kind)
            checked = self._checked.get((guild_id, kind), float("-inf")) - RECHECK_MARGIN
            where, params = self._guild_missing(guild_id, checked, kind)
            while count := await self._fill_batch(where, params):
                done += count
            if latest is not None:
                self._checked[(guild_id, kind)] = float(latest)
            return done

    async def _fill_batch(self, where: str, params: tuple[Any, ...]) -> int:
        """Summarise one batch of games without results; returns how many got theirs (0: nothing more to do,
        also when the games found cannot be summarised, so a broken game never loops a refresh)."""
        ids = await self._missing_ids(MISSING_SQL.format(where=where, limit=REFRESH_BATCH), params)
        if not ids:
            return 0
        records = await self._records(ids)
        if len(records) > THREAD_ABOVE:
            results = await asyncio.to_thread(_summarise_all, self.summarise, records)
        else:
            results = _summarise_all(self.summarise, records)
        await self._save(results)
        return len({r.game_id for r in results})

    async def rebuild(self) -> int:
        """Forget every cached result and recompute them all from the actions log."""
        async with self._lock:
            await self._clear()
            self._checked.clear()
        return await self.refresh(every_guild=True)

    # Reading ------------------------------------------------------------------------------------
    async def player_games(self, guild_id: int, kind: str, user_id: int) -> list[PlayerGame]:
        await self.refresh(guild_id, kind)
        return [PlayerGame(int(r[0]), int(r[1]), float(r[2]), int(r[3]), bool(r[4]), json.loads(r[5]))
                for r in await self._player_rows(guild_id, kind, user_id)]

    async def leaderboard(self, guild_id: int, kind: str, by: RankBy, since: float, until: float, *,
                          min_games: int = 1, page: int = 0, per_page: int = 10) -> LeaderPage:
        """Players of ``guild_id`` ranked over the ``kind`` games finished in [since, until); equal values share
        a rank. One aggregate over a covering index range (a few thousand players at most), ranked here."""
        await self.refresh(guild_id, kind)
        rows = await self._leader_rows(guild_id, kind, float(since), float(until), min_games)
        key = _RANK_KEYS[by]
        players = sorted(((int(u), int(g), int(w), float(a)) for u, g, w, a in rows),
                         key=lambda p: (-key(p), -p[1], p[0]))
        pages = max(1, -(-len(players) // per_page))
        page = min(max(page, 0), pages - 1)
        shown = players[page * per_page:(page + 1) * per_page]
        names = await self._names(guild_id, kind, [p[0] for p in shown]) if shown else {}
        leaders = []
        for user_id, games, wins, average in shown:
            rank = 1 + _count_above(players, key, key((user_id, games, wins, average)))
            leaders.append(LeaderRow(rank, user_id, names.get(user_id, str(user_id)), games, wins, average))
        return LeaderPage(tuple(leaders), page, pages, len(players))

    async def recent(self, guild_id: int, kind: str, limit: int = 10) -> list[GameLine]:
        """The latest finished ``kind`` games of a server, newest first."""
        await self.refresh(guild_id, kind)
        lines = []
        for game_id, finished_at in await self._recent_heads(guild_id, kind, limit):
            rows = await self._seat_rows(int(game_id))
            seats = tuple((SeatRecord(int(r[0]), r[1], r[2], r[3], r[4]), int(r[5]), bool(r[6])) for r in rows)
            lines.append(GameLine(int(game_id), int(rows[0][7]) if rows else 0, float(finished_at), seats))
        return lines

    # The backend's SQL --------------------------------------------------------------------------
    async def _latest_finish(self, guild_id: int | None, kind: str) -> float | None:
        raise NotImplementedError

    def _guild_missing(self, guild_id: int | None, since: float, kind: str) -> tuple[str, tuple[Any, ...]]:
        raise NotImplementedError

    async def _missing_ids(self, sql: str, params: tuple[Any, ...]) -> list[int]:
        raise NotImplementedError

    async def _records(self, ids: list[int]) -> list[GameRecord]:
        raise NotImplementedError

    async def _save(self, results: Iterable[SeatResult]) -> None:
        raise NotImplementedError

    async def _clear(self) -> None:
        raise NotImplementedError

    async def _player_rows(self, guild_id: int, kind: str, user_id: int) -> Sequence[Sequence[Any]]:
        raise NotImplementedError

    async def _leader_rows(self, guild_id: int, kind: str, since: float, until: float, min_games: int
                           ) -> Sequence[Sequence[Any]]:
        raise NotImplementedError

    async def _names(self, guild_id: int, kind: str, user_ids: list[int]) -> dict[int, str]:
        raise NotImplementedError

    async def _recent_heads(self, guild_id: int, kind: str, limit: int) -> Sequence[Sequence[Any]]:
        raise NotImplementedError

    async def _seat_rows(self, game_id: int) -> Sequence[Sequence[Any]]:
        """(seat, user_id, name, ai_level, state, final_score, won, channel_id) of one game, in seat order."""
        raise NotImplementedError


SEATS_SQL = ("SELECT s.seat, s.user_id, s.name, s.ai_level, s.state, r.final_score, r.won, g.channel_id"
             " FROM game_results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
             " JOIN games g ON g.id = r.game_id WHERE r.game_id = {game} ORDER BY r.seat")


class SQLiteStats(ConnectionHolder, StatsCache, RatingReads):
    """The results cache of the game kinds ``kinds`` (those ``summarise`` can fold)."""

    what = "the statistics connection"
    all_missing = ALL_MISSING

    def __init__(self, path: str | Path, summarise: Summariser, kinds: Iterable[str], *,
                 busy_timeout_ms: int = 10_000) -> None:
        self.path = str(path)
        self.busy_timeout_ms = busy_timeout_ms
        ConnectionHolder.__init__(self)
        StatsCache.__init__(self, summarise, kinds)

    async def open(self) -> None:
        if self.path == ":memory:":
            raise ValueError("statistics need a database file (a second connection to :memory: is another DB)")
        db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
        db.row_factory = sqlite3.Row  # as the store's connection: its loader reads games by column name
        await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        await db.execute("PRAGMA foreign_keys = ON")
        # Aggregates read a few MB of index: keep them in memory rather than re-read through the OS each time.
        await db.execute("PRAGMA cache_size = -32768")
        await db.execute("PRAGMA mmap_size = 268435456")
        self._db = db

    # The cache ----------------------------------------------------------------------------------
    async def _latest_finish(self, guild_id: int | None, kind: str) -> float | None:
        rows = await self.db.execute_fetchall(
            "SELECT MAX(updated_at) FROM games WHERE guild_id IS ? AND status = 'finished' AND kind = ?",
            (guild_id, kind))
        return rows[0][0] if rows else None

    def _guild_missing(self, guild_id: int | None, since: float, kind: str) -> tuple[str, tuple[Any, ...]]:
        return GUILD_MISSING, (guild_id, since, kind)

    async def _missing_ids(self, sql: str, params: tuple[Any, ...]) -> list[int]:
        return [int(r[0]) for r in await self.db.execute_fetchall(sql, params)]

    async def _records(self, ids: list[int]) -> list[GameRecord]:
        """The games ``ids`` with their seats and actions (the store's own loader, on this connection)."""
        db = self.db
        await db.execute("CREATE TEMP TABLE IF NOT EXISTS stats_wanted (id INTEGER PRIMARY KEY)")
        await db.execute("DELETE FROM temp.stats_wanted")
        await db.executemany("INSERT INTO temp.stats_wanted VALUES (?)", [(i,) for i in ids])
        return await _load_many(db, "id IN (SELECT id FROM temp.stats_wanted)", ())

    async def _save(self, results: Iterable[SeatResult]) -> None:
        rows = [(r.game_id, r.seat, r.kind, r.guild_id, r.user_id, r.finished_at, r.final_score, int(r.won),
                 json.dumps(dict(r.extra), sort_keys=True, separators=(",", ":"))) for r in results]
        if not rows:
            return
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.executemany(f"INSERT OR IGNORE INTO game_results ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)", rows)
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")

    async def _clear(self) -> None:
        await self.db.execute("DELETE FROM game_results")

    # Reading ------------------------------------------------------------------------------------
    async def results(self, game_id: int) -> list[SeatResult]:
        """The cached results of one finished game, in seat order (after a refresh of its server)."""
        rows = await self.db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM game_results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_result(r) for r in rows]

    async def all_results(self, kind: str | None = None) -> list[SeatResult]:
        where, params = ("WHERE kind = ?", (kind,)) if kind is not None else ("", ())
        rows = await self.db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM game_results {where} ORDER BY game_id, seat", params)
        return [_result(r) for r in rows]

    async def _player_rows(self, guild_id: int, kind: str, user_id: int) -> Sequence[Sequence[Any]]:
        return list(await self.db.execute_fetchall(PLAYER_SQL, (guild_id, kind, user_id)))

    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> Sequence[Sequence[Any]]:
        return list(await self.db.execute_fetchall(sql, params))

    async def records(self, ids: list[int]) -> list[GameRecord]:
        return await self._records(ids)

    async def _leader_rows(self, guild_id: int, kind: str, since: float, until: float, min_games: int
                           ) -> Sequence[Sequence[Any]]:
        return list(await self.db.execute_fetchall(LEADERBOARD_SQL, (guild_id, kind, since, until, min_games)))

    async def _names(self, guild_id: int, kind: str, user_ids: list[int]) -> dict[int, str]:
        """Each player's name at the table in their latest game of ``kind`` in this server."""
        names: dict[int, str] = {}
        for user_id in user_ids:
            row = await self.db.execute_fetchall(
                "SELECT s.name FROM game_results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " WHERE r.guild_id = ? AND r.kind = ? AND r.user_id = ? ORDER BY r.finished_at DESC LIMIT 1",
                (guild_id, kind, user_id))
            if row:
                names[user_id] = str(row[0][0])
        return names

    async def _recent_heads(self, guild_id: int, kind: str, limit: int) -> Sequence[Sequence[Any]]:
        return list(await self.db.execute_fetchall(RECENT_SQL, (guild_id, kind, limit)))

    async def _seat_rows(self, game_id: int) -> Sequence[Sequence[Any]]:
        return list(await self.db.execute_fetchall(SEATS_SQL.format(game="?"), (game_id,)))

    async def explain(self, sql: str, params: tuple[Any, ...]) -> list[str]:
        """EXPLAIN QUERY PLAN details of ``sql`` (tests and the benchmark check that indexes are used)."""
        rows = await self.db.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
        return [str(r[3]) for r in rows]

    @contextlib.asynccontextmanager
    async def streaming(self) -> AsyncIterator[None]:
        """A pass over every finished game (the start-up backfill) with a small page cache (2 MB instead of the
        32 MB that aggregates keep): the pages of tens of thousands of finished games it checks would otherwise
        stay on the heap after every start, memory growing with the finished games up to that cap."""
        await self.db.execute("PRAGMA cache_size = -2000")
        try:
            yield
        finally:
            await self.db.execute("PRAGMA cache_size = -32768")  # as open() sets it


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


def _summarise_all(summarise: Summariser, records: Sequence[GameRecord]) -> list[SeatResult]:
    return [row for record in records for row in summarise(record)]


def _result(r: Sequence[Any]) -> SeatResult:
    return SeatResult(int(r[0]), int(r[1]), str(r[2]), r[3], r[4], float(r[5]), int(r[6]), bool(r[7]),
                      json.loads(r[8]))
