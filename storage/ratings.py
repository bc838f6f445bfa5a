"""Skill ratings in storage: what a finished game's rating writes, in the transaction that finishes the game, and
the reads of ratings. No maths here: the caller passes a :class:`RatingJob` whose ``rate`` is a pure function
(``bot.core.rating``), so a rating is a deterministic function of the stored games and can be recomputed.

Tables (migration 0007 in SQLite, 0002 in PostgreSQL):

- ``rated_games``: the ledger, one row per rated game, with ``seq`` the order in which games were rated (the
  order a recompute replays them in), and the season the game counted in (a server may change its season
  length: the ledger keeps what applied then).
- ``rating_changes``: per game, scope and player, the rating before and after, and the place it was fed with.
- ``ratings``: the current rating per game kind, scope and player (what leaderboards read, by an index).

A scope is a text: ``server:<guild>`` (all time on one server), ``global`` (across servers), and
``season:<guild>:<season>`` (one server's season, ``2026-12`` or ``2026-Q4``).

Exactly once: the job is applied inside ``resolve_phase``'s transaction when it finishes the game, whose
compare-and-set on the phase lets one transaction finish a game; ``rated_games.game_id`` is the primary key
besides. Order across processes: on PostgreSQL every rating takes one transaction-level advisory lock before it
reads a rating (taken after the game's row lock, always in that order), so two games finishing at once are
rated one after the other and ``seq`` follows that order; SQLite serialises every writer anyway.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Skill = tuple[float, float]  # (mu, sigma)
# The players' skills before the game (None: no rating yet in that scope) -> after, in the job's player order
Rater = Callable[[Sequence[Skill | None]], Sequence[Skill]]


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    user_id: int
    seat: int  # the stored seat number
    place: int  # 1 = first; equal places are ties


@dataclass(frozen=True, slots=True)
class RatingJob:
    """What rating one finished game writes: the same ``rate`` in every scope, from each scope's ratings."""

    kind: str
    guild_id: int | None
    season: str
    scopes: tuple[str, ...]
    players: tuple[RatedPlayer, ...]
    rate: Rater


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's change in one scope by one game (read back for the final message and the recompute)."""

    game_id: int
    scope: str
    user_id: int
    seat: int
    place: int
    before: Skill | None
    after: Skill
    games: int  # the player's rated games in this scope, this one included


@dataclass(frozen=True, slots=True)
class RatingRow:
    user_id: int
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    game_id: int
    seq: int
    kind: str
    guild_id: int | None
    season: str


# The hot read, named so that tests and the benchmark can EXPLAIN it: one ordered range of ratings_board.
BOARD_SQL = ("SELECT user_id, mu, sigma, games FROM ratings WHERE kind = ? AND scope = ? AND games >= ?"
             " ORDER BY mu DESC, user_id LIMIT ? OFFSET ?")
BOARD_COUNT_SQL = "SELECT COUNT(*) FROM ratings WHERE kind = ? AND scope = ? AND games >= ?"
ABOVE_SQL = "SELECT COUNT(*) FROM ratings WHERE kind = ? AND scope = ? AND games >= ? AND mu > ?"
CHANGES_SQL = ("SELECT game_id, scope, user_id, seat, place, mu_before, sigma_before, mu_after, sigma_after, games"
               " FROM rating_changes WHERE game_id = ? ORDER BY scope, seat")
LEDGER_SQL = "SELECT game_id, seq, kind, guild_id, season FROM rated_games ORDER BY seq"
SEASONS_SQL = ("SELECT DISTINCT scope FROM ratings WHERE kind = ? AND scope >= ? AND scope < ?")


def pg(sql: str) -> str:
    """``sql`` with PostgreSQL's numbered parameters instead of ``?``."""
    parts = sql.split("?")
    return "".join(part + (f"${i}" if i < len(parts) else "") for i, part in enumerate(parts, start=1))


def server_scope(guild_id: int | None) -> str:
    return f"server:{guild_id if guild_id is not None else 'none'}"


GLOBAL_SCOPE = "global"


def season_scope(guild_id: int | None, season: str) -> str:
    return f"season:{guild_id if guild_id is not None else 'none'}:{season}"


def season_range(guild_id: int | None) -> tuple[str, str]:
    """[low, high) of the scopes of every season of one server (a range of the primary key)."""
    prefix = season_scope(guild_id, "")
    return prefix, prefix[:-1] + chr(ord(":") + 1)


def season_of_scope(scope: str) -> str:
    return scope.rsplit(":", 1)[1]


# Writing (inside the transaction that finishes the game) ---------------------------------------------
def apply_sqlite(db: Any, game_id: int, job: RatingJob, now: float) -> None:
    """Apply ``job`` on a sqlite3 connection, inside the caller's transaction."""
    row = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM rated_games").fetchone()
    db.execute("INSERT INTO rated_games (game_id, seq, kind, guild_id, season, rated_at) VALUES (?, ?, ?, ?, ?, ?)",
               (game_id, int(row[0]), job.kind, job.guild_id, job.season, now))
    users = json.dumps([p.user_id for p in job.players])
    for scope in job.scopes:
        found = {int(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in db.execute(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE kind = ? AND scope = ?"
            " AND user_id IN (SELECT value FROM json_each(?))", (job.kind, scope, users))}
        for player, before, after in _changes(job, found):
            games = found.get(player.user_id, (0.0, 0.0, 0))[2] + 1
            db.execute("INSERT INTO ratings (kind, scope, user_id, mu, sigma, games, last_game)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, scope, user_id) DO UPDATE SET"
                       " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
                       " last_game = excluded.last_game",
                       (job.kind, scope, player.user_id, after[0], after[1], games, game_id))
            db.execute(_INSERT_CHANGE, (game_id, scope, player.user_id, player.seat, player.place,
                                        *(before or (None, None)), after[0], after[1], games))


async def apply_postgres(db: Any, game_id: int, job: RatingJob, now: float) -> None:
    """Apply ``job`` on an asyncpg connection, inside the caller's transaction (the game's row already locked)."""
    await db.execute("SELECT pg_advisory_xact_lock(hashtextextended('ratings', 0))")
    seq = await db.fetchval("SELECT COALESCE(MAX(seq), 0) + 1 FROM rated_games")
    await db.execute(pg("INSERT INTO rated_games (game_id, seq, kind, guild_id, season, rated_at)"
                        " VALUES (?, ?, ?, ?, ?, ?)"), game_id, int(seq), job.kind, job.guild_id, job.season,
                     float(now))
    users = [p.user_id for p in job.players]
    for scope in job.scopes:
        found = {int(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in await db.fetch(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE kind = $1 AND scope = $2"
            " AND user_id = ANY($3::bigint[])", job.kind, scope, users)}
        rows, changes = [], []
        for player, before, after in _changes(job, found):
            games = found.get(player.user_id, (0.0, 0.0, 0))[2] + 1
            rows.append((job.kind, scope, player.user_id, after[0], after[1], games, game_id))
            changes.append((game_id, scope, player.user_id, player.seat, player.place,
                            *(before or (None, None)), after[0], after[1], games))
        await db.executemany(
            "INSERT INTO ratings (kind, scope, user_id, mu, sigma, games, last_game)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (kind, scope, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, last_game = excluded.last_game", rows)
        await db.executemany(pg(_INSERT_CHANGE), changes)


_INSERT_CHANGE = ("INSERT INTO rating_changes (game_id, scope, user_id, seat, place, mu_before, sigma_before,"
                  " mu_after, sigma_after, games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _changes(job: RatingJob, found: dict[int, tuple[float, float, int]]
             ) -> list[tuple[RatedPlayer, Skill | None, Skill]]:
    befores: list[Skill | None] = [found[p.user_id][:2] if p.user_id in found else None for p in job.players]
    afters = job.rate(befores)
    if len(afters) != len(job.players):
        raise ValueError("a rater must give one rating per player")
    return [(p, b, (float(a[0]), float(a[1]))) for p, b, a in zip(job.players, befores, afters, strict=True)]


# Reading ------------------------------------------------------------------------------------------
def change_of(r: Sequence[Any]) -> RatingChange:
    before = None if r[5] is None else (float(r[5]), float(r[6]))
    return RatingChange(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), before, (float(r[7]), float(r[8])),
                        int(r[9]))


def ledger_of(r: Sequence[Any]) -> LedgerEntry:
    return LedgerEntry(int(r[0]), int(r[1]), str(r[2]), None if r[3] is None else int(r[3]), str(r[4]))


def rating_of(r: Sequence[Any]) -> RatingRow:
    return RatingRow(int(r[0]), float(r[1]), float(r[2]), int(r[3]))


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingPage:
    rows: tuple[BoardRow, ...]
    page: int  # 0-based, clamped to the pages there are
    pages: int
    players: int


class RatingReads:
    """The reads of ratings both statistics backends share; each gives ``_fetch`` (``?`` parameters), and the
    results cache its ``refresh`` and ``_names`` (a player's name at the table in their latest game)."""

    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> Sequence[Sequence[Any]]:
        raise NotImplementedError

    async def _names(self, guild_id: int, kind: str, user_ids: list[int]) -> dict[int, str]:
        raise NotImplementedError

    async def refresh(self, guild_id: int | None = None, kind: str | None = None, *, every_guild: bool = False
                      ) -> int:
        raise NotImplementedError

    async def rating_board(self, guild_id: int, kind: str, scope: str, *, min_games: int, page: int = 0,
                           per_page: int = 10) -> RatingPage:
        """Players of ``scope`` with at least ``min_games`` rated games, best first; equal ratings share a rank.
        One ordered range of the index ``ratings_board`` per page, and one count for the first rank shown."""
        players = int((await self._fetch(BOARD_COUNT_SQL, (kind, scope, min_games)))[0][0])
        pages = max(1, -(-players // per_page))
        page = min(max(page, 0), pages - 1)
        rows = [rating_of(r) for r in await self._fetch(BOARD_SQL, (kind, scope, min_games, per_page,
                                                                    page * per_page))]
        names = {}
        if rows:
            await self.refresh(guild_id, kind)  # the names come from the results of the latest games
            names = await self._names(guild_id, kind, [r.user_id for r in rows])
        board: list[BoardRow] = []
        for position, row in enumerate(rows, start=page * per_page + 1):
            if board and board[-1].mu == row.mu:
                rank = board[-1].rank  # a tie shares its rank
            elif not board:  # the page's first row may tie with the previous page's last: count who is above
                rank = 1 + int((await self._fetch(ABOVE_SQL, (kind, scope, min_games, row.mu)))[0][0])
            else:
                rank = position  # ordered by rating: everyone above it is on this page or before
            board.append(BoardRow(rank, row.user_id, names.get(row.user_id, str(row.user_id)), row.mu, row.sigma,
                                  row.games))
        return RatingPage(tuple(board), page, pages, players)

    async def player_ratings(self, kind: str, user_id: int, scopes: Sequence[str]) -> dict[str, RatingRow]:
        """A player's current rating in each of ``scopes`` where they have one."""
        found = {}
        for scope in scopes:
            rows = await self._fetch("SELECT user_id, mu, sigma, games FROM ratings WHERE kind = ? AND scope = ?"
                                     " AND user_id = ?", (kind, scope, user_id))
            if rows:
                found[scope] = rating_of(rows[0])
        return found

    async def seasons(self, guild_id: int | None, kind: str) -> list[str]:
        """The seasons of ``kind`` played on a server, newest first."""
        low, high = season_range(guild_id)
        rows = await self._fetch(SEASONS_SQL, (kind, low, high))
        return sorted((season_of_scope(str(r[0])) for r in rows), reverse=True)

    async def rating_ledger(self) -> list[LedgerEntry]:
        return [ledger_of(r) for r in await self._fetch(LEDGER_SQL, ())]

    async def all_rating_changes(self) -> list[RatingChange]:
        return [change_of(r) for r in await self._fetch(CHANGES_SQL.replace("WHERE game_id = ? ", ""), ())]

    async def all_ratings(self) -> dict[tuple[str, str, int], tuple[float, float, int]]:
        rows = await self._fetch("SELECT kind, scope, user_id, mu, sigma, games FROM ratings", ())
        return {(str(r[0]), str(r[1]), int(r[2])): (float(r[3]), float(r[4]), int(r[5])) for r in rows}
