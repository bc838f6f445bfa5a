"""Statistics on PostgreSQL: the same results cache and reads as :class:`storage.stats.SQLiteStats` (see there for
why ``game_results`` is a derived cache and how every read fills it first), in PostgreSQL's SQL.

Several processes may fill the cache at once: rows are inserted with ``ON CONFLICT DO NOTHING``, and a row is a
pure function of a finished game, so whichever process writes it writes the same thing.
"""

import json
from collections.abc import Iterable, Sequence
from typing import Any

from .base import GameRecord
from .pg_connection import PoolHolder
from .postgres import load_many
from .ratings import RatingReads, pg
from .stats import _COLUMNS, SEATS_SQL, SeatResult, StatsCache, Summariser

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


class PostgresStats(PoolHolder, StatsCache, RatingReads):
    """The results cache of the game kinds ``kinds`` (those ``summarise`` can fold), on its own pool."""

    what = "the statistics pool"
    all_missing = ALL_MISSING

    def __init__(self, url: str, summarise: Summariser, kinds: Iterable[str], *, pool_size: int = 4,
                 timeout_s: float = 10.0) -> None:
        PoolHolder.__init__(self, url, pool_size=pool_size, timeout_s=timeout_s)
        StatsCache.__init__(self, summarise, kinds)

    # The cache ----------------------------------------------------------------------------------
    async def _latest_finish(self, guild_id: int | None, kind: str) -> float | None:
        guild = "guild_id IS NULL AND $1::bigint IS NULL" if guild_id is None else "guild_id = $1"
        latest = await self.pool.fetchval(
            f"SELECT MAX(updated_at) FROM games WHERE {guild} AND status = 'finished' AND kind = $2", guild_id, kind)
        return None if latest is None else float(latest)

    def _guild_missing(self, guild_id: int | None, since: float, kind: str) -> tuple[str, tuple[Any, ...]]:
        where = NO_GUILD_MISSING if guild_id is None else GUILD_MISSING
        return where, (guild_id, max(since, -1e300), kind)  # a finite bound: -inf is no float8 parameter here

    async def _missing_ids(self, sql: str, params: tuple[Any, ...]) -> list[int]:
        return [int(r[0]) for r in await self.pool.fetch(sql, *params)]

    async def _records(self, ids: list[int]) -> list[GameRecord]:
        async with self.pool.acquire() as db:
            return await load_many(db, "id = ANY($1::bigint[])", (ids,))

    async def _save(self, results: Iterable[SeatResult]) -> None:
        rows = [(r.game_id, r.seat, r.kind, r.guild_id, r.user_id, float(r.finished_at), r.final_score, int(r.won),
                 json.dumps(dict(r.extra), sort_keys=True, separators=(",", ":"))) for r in results]
        if rows:
            async with self.pool.acquire() as db, db.transaction():
                await db.executemany(f"INSERT INTO game_results ({_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)"
                                     " ON CONFLICT DO NOTHING", rows)

    async def _clear(self) -> None:
        await self.pool.execute("DELETE FROM game_results")

    # Reading ------------------------------------------------------------------------------------
    async def results(self, game_id: int) -> list[SeatResult]:
        rows = await self.pool.fetch(f"SELECT {_COLUMNS} FROM game_results WHERE game_id = $1 ORDER BY seat", game_id)
        return [_result(r) for r in rows]

    async def all_results(self, kind: str | None = None) -> list[SeatResult]:
        rows = await self.pool.fetch(f"SELECT {_COLUMNS} FROM game_results WHERE $1::text IS NULL OR kind = $1"
                                     " ORDER BY game_id, seat", kind)
        return [_result(r) for r in rows]

    async def _player_rows(self, guild_id: int, kind: str, user_id: int) -> Sequence[Sequence[Any]]:
        return await self.pool.fetch(PLAYER_SQL, guild_id, kind, user_id)

    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> Sequence[Sequence[Any]]:
        return await self.pool.fetch(pg(sql), *params)

    async def records(self, ids: list[int]) -> list[GameRecord]:
        return await self._records(ids)

    async def _leader_rows(self, guild_id: int, kind: str, since: float, until: float, min_games: int
                           ) -> Sequence[Sequence[Any]]:
        return await self.pool.fetch(LEADERBOARD_SQL, guild_id, kind, since, until, min_games)

    async def _names(self, guild_id: int, kind: str, user_ids: list[int]) -> dict[int, str]:
        """Each player's name at the table in their latest game of ``kind`` in this server."""
        # One backward step of game_results_by_player per player shown (not every game they played).
        rows = await self.pool.fetch(
            "SELECT u.id, (SELECT s.name FROM game_results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
            " WHERE r.guild_id = $1 AND r.kind = $2 AND r.user_id = u.id ORDER BY r.finished_at DESC LIMIT 1)"
            " FROM unnest($3::bigint[]) AS u(id)", guild_id, kind, user_ids)
        return {int(r[0]): str(r[1]) for r in rows if r[1] is not None}

    async def _recent_heads(self, guild_id: int, kind: str, limit: int) -> Sequence[Sequence[Any]]:
        return await self.pool.fetch(RECENT_SQL, guild_id, kind, limit)

    async def _seat_rows(self, game_id: int) -> Sequence[Sequence[Any]]:
        return await self.pool.fetch(SEATS_SQL.format(game="$1"), game_id)

    async def explain(self, sql: str, params: tuple[Any, ...]) -> list[str]:
        """The lines of EXPLAIN for ``sql`` (tests and the benchmark check that indexes are used)."""
        rows = await self.pool.fetch(f"EXPLAIN {sql}", *params)
        return [str(r[0]) for r in rows]


def _result(r: Any) -> SeatResult:
    return SeatResult(int(r[0]), int(r[1]), str(r[2]), r[3], r[4], float(r[5]), int(r[6]), bool(r[7]),
                      json.loads(r[8]))
