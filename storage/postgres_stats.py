"""Statistics on PostgreSQL: the same results cache and reads as :class:`storage.stats.SQLiteStats` (see there for
why ``game_results`` is a derived cache and how every read fills it first), in PostgreSQL's SQL.

Several processes may fill the cache at once: rows are inserted with ``ON CONFLICT DO NOTHING``, and a row is a
pure function of a finished game, so whichever process writes it writes the same thing.
"""

import asyncio
import json
from collections.abc import Iterable
from typing import Any

from .base import SeatRecord
from .pg_connection import PoolHolder
from .postgres import load_many
from .stats import (
    _COLUMNS,
    _RANK_KEYS,
    RECHECK_MARGIN,
    REFRESH_BATCH,
    THREAD_ABOVE,
    GameLine,
    LeaderPage,
    LeaderRow,
    PlayerGame,
    RankBy,
    SeatResult,
    Summariser,
    _count_above,
    _summarise_all,
)

# The hot queries, named so that tests and the benchmark can EXPLAIN exactly what runs.
LEADERBOARD_SQL = ("SELECT user_id, COUNT(*), SUM(won), AVG(final_score) FROM game_results"
                   " WHERE guild_id = $1 AND kind = $2 AND finished_at >= $3 AND finished_at < $4"
                   " GROUP BY user_id HAVING user_id IS NOT NULL AND COUNT(*) >= $5")
PLAYER_SQL = ("SELECT r.game_id, g.channel_id, r.finished_at, r.final_score, r.won, r.extra"
              " FROM game_results r JOIN games g ON g.id = r.game_id"
              " WHERE r.guild_id = $1 AND r.kind = $2 AND r.user_id = $3 ORDER BY r.finished_at, r.game_id")
RECENT_SQL = ("SELECT r.game_id, MAX(r.finished_at) AS finished_at FROM game_results r"
              " WHERE r.guild_id = $1 AND r.kind = $2 GROUP BY r.game_id"
              " ORDER BY finished_at DESC, r.game_id DESC LIMIT $3")
MISSING_SQL = ("SELECT g.id FROM games g WHERE {where}"
               " AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id) LIMIT {limit}")
GUILD_MISSING = "g.guild_id = $1 AND g.status = 'finished' AND g.updated_at >= $2 AND g.kind = $3"
NO_GUILD_MISSING = "g.guild_id IS NULL AND $1::bigint IS NULL AND g.status = 'finished' AND g.updated_at >= $2" \
                   " AND g.kind = $3"
ALL_MISSING = "g.status = 'finished' AND g.kind = $1"


class PostgresStats(PoolHolder):
    """The results cache of the game kinds ``kinds`` (those ``summarise`` can fold), on its own pool."""

    what = "the statistics pool"

    def __init__(self, url: str, summarise: Summariser, kinds: Iterable[str], *, pool_size: int = 4,
                 timeout_s: float = 10.0) -> None:
        super().__init__(url, pool_size=pool_size, timeout_s=timeout_s)
        self.summarise = summarise
        self.kinds = tuple(kinds)
        self._lock = asyncio.Lock()  # one refresh at a time in this process
        self._checked: dict[tuple[int | None, str], float] = {}

    def _known(self, kind: str) -> str:
        if kind not in self.kinds:
            raise ValueError(f"no statistics for {kind!r} games (known: {', '.join(self.kinds)})")
        return kind

    # The cache ----------------------------------------------------------------------------------
    async def refresh(self, guild_id: int | None = None, kind: str | None = None, *, every_guild: bool = False
                      ) -> int:
        """Compute and store the results of finished games that have none yet; returns how many games."""
        done = 0
        if every_guild:
            for each in (self._known(kind),) if kind is not None else self.kinds:
                while True:
                    async with self._lock:
                        count = await self._fill_batch(ALL_MISSING, (each,))
                    if not count:
                        break
                    done += count
            return done
        if kind is None:
            raise ValueError("a refresh of one server names the kind of its games")
        self._known(kind)
        guild = "guild_id IS NULL AND $1::bigint IS NULL" if guild_id is None else "guild_id = $1"
        async with self._lock:
            latest = await self.pool.fetchval(
                f"SELECT MAX(updated_at) FROM games WHERE {guild} AND status = 'finished' AND kind = $2",
                guild_id, kind)
            checked = self._checked.get((guild_id, kind), float("-inf")) - RECHECK_MARGIN
            where = NO_GUILD_MISSING if guild_id is None else GUILD_MISSING
            while count := await self._fill_batch(where, (guild_id, max(checked, -1e300), kind)):
                done += count
            if latest is not None:
                self._checked[(guild_id, kind)] = float(latest)
            return done

    async def _fill_batch(self, where: str, params: tuple[Any, ...]) -> int:
        rows = await self.pool.fetch(MISSING_SQL.format(where=where, limit=REFRESH_BATCH), *params)
        ids = [int(r[0]) for r in rows]
        if not ids:
            return 0
        async with self.pool.acquire() as db:
            records = await load_many(db, "id = ANY($1::bigint[])", (ids,))
        if len(records) > THREAD_ABOVE:
            results = await asyncio.to_thread(_summarise_all, self.summarise, records)
        else:
            results = _summarise_all(self.summarise, records)
        await self._save(results)
        return len({r.game_id for r in results})

    async def rebuild(self) -> int:
        """Forget every cached result and recompute them all from the actions log."""
        async with self._lock:
            await self.pool.execute("DELETE FROM game_results")
            self._checked.clear()
        return await self.refresh(every_guild=True)

    async def _save(self, results: Iterable[SeatResult]) -> None:
        rows = [(r.game_id, r.seat, r.kind, r.guild_id, r.user_id, float(r.finished_at), r.final_score, int(r.won),
                 json.dumps(dict(r.extra), sort_keys=True, separators=(",", ":"))) for r in results]
        if rows:
            async with self.pool.acquire() as db, db.transaction():
                await db.executemany(f"INSERT INTO game_results ({_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)"
                                     " ON CONFLICT DO NOTHING", rows)

    # Reading ------------------------------------------------------------------------------------
    async def results(self, game_id: int) -> list[SeatResult]:
        rows = await self.pool.fetch(f"SELECT {_COLUMNS} FROM game_results WHERE game_id = $1 ORDER BY seat", game_id)
        return [_result(r) for r in rows]

    async def all_results(self, kind: str | None = None) -> list[SeatResult]:
        rows = await self.pool.fetch(f"SELECT {_COLUMNS} FROM game_results WHERE $1::text IS NULL OR kind = $1"
                                     " ORDER BY game_id, seat", kind)
        return [_result(r) for r in rows]

    async def player_games(self, guild_id: int, kind: str, user_id: int) -> list[PlayerGame]:
        await self.refresh(guild_id, kind)
        rows = await self.pool.fetch(PLAYER_SQL, guild_id, kind, user_id)
        return [PlayerGame(int(r[0]), int(r[1]), float(r[2]), int(r[3]), bool(r[4]), json.loads(r[5]))
                for r in rows]

    async def leaderboard(self, guild_id: int, kind: str, by: RankBy, since: float, until: float, *,
                          min_games: int = 1, page: int = 0, per_page: int = 10) -> LeaderPage:
        """Players of ``guild_id`` ranked over the ``kind`` games finished in [since, until); equal values share
        a rank (the same ranking as SQLiteStats)."""
        await self.refresh(guild_id, kind)
        rows = await self.pool.fetch(LEADERBOARD_SQL, guild_id, kind, float(since), float(until), min_games)
        key = _RANK_KEYS[by]
        players = sorted(((int(u), int(g), int(w), float(a)) for u, g, w, a in rows),
                         key=lambda p: (-key(p), -p[1], p[0]))
        pages = max(1, -(-len(players) // per_page))
        page = min(max(page, 0), pages - 1)
        shown = players[page * per_page:(page + 1) * per_page]
        names = await self._names(guild_id, kind, [p[0] for p in shown])
        leaders = []
        for user_id, games, wins, average in shown:
            rank = 1 + _count_above(players, key, key((user_id, games, wins, average)))
            leaders.append(LeaderRow(rank, user_id, names.get(user_id, str(user_id)), games, wins, average))
        return LeaderPage(tuple(leaders), page, pages, len(players))

    async def _names(self, guild_id: int, kind: str, user_ids: list[int]) -> dict[int, str]:
        """Each player's name at the table in their latest game of ``kind`` in this server."""
        if not user_ids:
            return {}
        # One backward step of game_results_by_player per player shown (not every game they played).
        rows = await self.pool.fetch(
            "SELECT u.id, (SELECT s.name FROM game_results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
            " WHERE r.guild_id = $1 AND r.kind = $2 AND r.user_id = u.id ORDER BY r.finished_at DESC LIMIT 1)"
            " FROM unnest($3::bigint[]) AS u(id)", guild_id, kind, user_ids)
        return {int(r[0]): str(r[1]) for r in rows if r[1] is not None}

    async def recent(self, guild_id: int, kind: str, limit: int = 10) -> list[GameLine]:
        """The latest finished ``kind`` games of a server, newest first."""
        await self.refresh(guild_id, kind)
        heads = await self.pool.fetch(RECENT_SQL, guild_id, kind, limit)
        lines = []
        for game_id, finished_at in heads:
            rows = await self.pool.fetch(
                "SELECT s.seat, s.user_id, s.name, s.ai_level, s.state, r.final_score, r.won, g.channel_id"
                " FROM game_results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " JOIN games g ON g.id = r.game_id WHERE r.game_id = $1 ORDER BY r.seat", game_id)
            seats = tuple((SeatRecord(int(r[0]), r[1], r[2], r[3], r[4]), int(r[5]), bool(r[6])) for r in rows)
            lines.append(GameLine(int(game_id), int(rows[0][7]) if rows else 0, float(finished_at), seats))
        return lines

    async def explain(self, sql: str, params: tuple[Any, ...]) -> list[str]:
        """The lines of EXPLAIN for ``sql`` (tests and the benchmark check that indexes are used)."""
        rows = await self.pool.fetch(f"EXPLAIN {sql}", *params)
        return [str(r[0]) for r in rows]


def _result(r: Any) -> SeatResult:
    return SeatResult(int(r[0]), int(r[1]), str(r[2]), r[3], r[4], float(r[5]), int(r[6]), bool(r[7]),
                      json.loads(r[8]))
