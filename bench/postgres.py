"""PostgreSQL figures (``python -m bench --only postgres``; skipped when no server answers at BENCH_POSTGRES_URL,
default postgresql://postgres@127.0.0.1:5432/postgres). Each measurement gets a database of its own
(``bench_<random>``), dropped at the end.

- Full stack, one process: the modal choices of bench.stack (gateway -> cog -> service -> commit -> ack) on
  PostgreSQL and on SQLite, each against the bare discord.py floor of its own run: the PostgreSQL/SQLite ratio.
- ``migrate-db``'s own copy of the 10,000 games of bench.dbgen's SQLite database, verified (timed). The restart
  on PostgreSQL goes through the real start-up path, in bench.restart.
- The leaderboard over 1,000,000 finished games of one server (written by generate_series, VACUUM ANALYZE as
  autovacuum would), through PostgresStats as the bot calls it (the missing-results check included), against
  a floor: COUNT(*) over the same index range, the least any leaderboard must read; EXPLAIN ANALYZE shows the
  index-only scan.
"""

import asyncio
import contextlib
import os
import tempfile
import time
from pathlib import Path

import asyncpg

from bot.core.stats import period_start, summariser
from bot.games import GAMES
from storage.copy import copy_sqlite_to_postgres
from storage.postgres import PostgresStore
from storage.postgres_stats import LEADERBOARD_SQL, PostgresStats

from .common import Figure, postgres_database, summary
from .stack import Stack, closed_loop

SERVER = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
GUILD, KIND = 1, "thenumber"
NOW = 1_800_000_000.0
YEAR = 365 * 86_400.0


async def _problem() -> str | None:
    try:
        conn = await asyncpg.connect(SERVER, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


def problem() -> str | None:
    """Why the PostgreSQL benchmarks cannot run here (None: they can)."""
    return asyncio.run(_problem())


def database() -> contextlib.AbstractAsyncContextManager[str]:
    """A database of its own on the bench's server, dropped after."""
    return postgres_database(SERVER)


# Full stack -------------------------------------------------------------------------------------
async def _stack_rates(tmp: Path, url: str | None, games: int, repeats: int, count: int) -> tuple[list[float],
                                                                                                  list[float], int]:
    """(product choices/s, floor choices/s, wrong answers) of one backend, in alternating repeats."""
    stack = Stack(games, tmp, database_url=url)
    await stack.start()
    assert stack.bot is not None and stack.floor is not None
    product, floor, bad, offset, window = [], [], 0, 0, 32
    try:
        for client in (stack.bot, stack.floor):  # warm-up both paths
            await closed_loop(stack, client, "modal", 100, window, offset)
            offset += 100
        await stack.settle()
        for _ in range(repeats):
            rate, wrong = await closed_loop(stack, stack.bot, "modal", count, window, offset)
            offset, bad = offset + count, bad + wrong
            product.append(rate)
            await stack.settle()
            rate, wrong = await closed_loop(stack, stack.floor, "modal", count, window, offset)
            offset, bad = offset + count, bad + wrong
            floor.append(rate)
    finally:
        await stack.stop()
    return product, floor, bad


async def _stack(quick: bool) -> list[Figure]:
    games, repeats, count = (20, 3, 300) if quick else (40, 5, 1000)
    with tempfile.TemporaryDirectory(prefix="bench-pg-stack-") as tmp:
        lite, lite_floor, lite_bad = await _stack_rates(Path(tmp) / "sqlite", None, games, repeats, count)
        (Path(tmp) / "pg").mkdir()  # the floor's SQLite file goes there (no store creates the folder on PostgreSQL)
        async with database() as url:
            pg, pg_floor, pg_bad = await _stack_rates(Path(tmp) / "pg", url, games, repeats, count)
    setup = {"games": games, "choices_per_repeat": count, "window": 32,
             "failed_or_wrong_answers": {"postgres": pg_bad, "sqlite": lite_bad}}
    return [
        Figure("pg_stack_choices_per_s", "PostgreSQL, one process: modal choices handled (gateway -> commit -> ack)",
               "choices/s", summary(pg), note=f"{games} games, 32 in flight, local server", extra=setup),
        Figure("pg_stack_sqlite_choices_per_s", "SQLite in the same run: modal choices handled", "choices/s",
               summary(lite)),
        Figure("pg_stack_cost_vs_floor", "PostgreSQL: cost per choice as a multiple of the discord.py floor", "x",
               summary([f / p for f, p in zip(pg_floor, pg, strict=True)])),
        Figure("pg_stack_sqlite_cost_vs_floor", "SQLite: cost per choice as a multiple of the floor", "x",
               summary([f / p for f, p in zip(lite_floor, lite, strict=True)])),
        Figure("pg_stack_vs_sqlite", "PostgreSQL / SQLite choices per second (one process)", "x",
               summary([p / s for p, s in zip(pg, lite, strict=True)])),
    ]


# Restart ----------------------------------------------------------------------------------------
async def _copy(db: Path, url: str) -> float:
    start = time.perf_counter()
    await copy_sqlite_to_postgres(db, url)
    return time.perf_counter() - start


def _migrate(db: Path, games: int) -> list[Figure]:
    """migrate-db's copy and verification of the generated games (the restart on PostgreSQL is measured through
    the real start-up path by bench.restart)."""

    async def go() -> float:
        async with database() as url:
            return await _copy(db, url)

    copied = asyncio.run(go())
    return [Figure(f"pg_migrate_db_seconds_{games}", f"migrate-db: copy and verify {games:,} running games", "s",
                   summary([copied]), note="one transaction, then counts and SHA-256 of every table on both sides")]


# Leaderboard ------------------------------------------------------------------------------------
FILL = [
    # Games: one server (every 50th game in another), finished over the last year, 2-5 seats.
    "INSERT INTO games (id, kind, guild_id, channel_id, host_id, status, options, phase, announced_phase,"
    " end_reason, created_at, updated_at, last_seq)"
    " SELECT g, 'thenumber', CASE WHEN g % 50 = 0 THEN 2 ELSE 1 END, 5000, 10001, 'finished',"
    " '{{\"turn_seconds\": 120}}', 10, 9, 'finished', f - 900, f, 11"
    " FROM (SELECT g, {now} - random() * {year} AS f FROM generate_series(1, {games}) g) x",
    # Seats: 3,000 players, one seat in ten an AI.
    "INSERT INTO seats (game_id, seat, user_id, name, ai_level, state, joined_at)"
    " SELECT g.id, s, CASE WHEN s > 0 AND random() < 0.1 THEN NULL ELSE 10001 + floor(random() * 3000)::bigint END,"
    " 'Player', NULL, 'seated', g.created_at"
    " FROM games g, LATERAL generate_series(0, 1 + g.id::int % 4) s",
    # The results cache, as the summariser would have filled it (one winner per game).
    "INSERT INTO game_results (game_id, seat, kind, guild_id, user_id, finished_at, final_score, won, extra)"
    " SELECT s.game_id, s.seat, g.kind, g.guild_id, s.user_id, g.updated_at, floor(random() * 60)::int,"
    " (s.seat = g.id % (2 + g.id % 4))::int, '{{}}' FROM seats s JOIN games g ON g.id = s.game_id",
]


async def _leaderboard(quick: bool) -> list[Figure]:
    games = 100_000 if quick else 1_000_000
    repeats = 3 if quick else 7
    async with database() as url:
        async with PostgresStore(url) as store:  # the schema, by the store's own migrations
            built = time.perf_counter()
            for statement in FILL:
                await store.pool.execute(statement.format(now=NOW, year=YEAR, games=games), timeout=3600)
            for table in ("games", "seats", "game_results"):
                await store.pool.execute(f"VACUUM ANALYZE {table}", timeout=3600)
            built = time.perf_counter() - built
        async with PostgresStats(url, summariser(GAMES), [g.key for g in GAMES]) as stats:
            start = time.perf_counter()
            await stats.refresh(GUILD, KIND)  # a first read after a start checks every game once
            first_check = time.perf_counter() - start
            boards, floors, ratios, players = [], [], [], 0
            since = period_start("all", NOW)
            for _ in range(repeats):
                start = time.perf_counter()
                page = await stats.leaderboard(GUILD, KIND, "wins", since, NOW + 1)
                boards.append((time.perf_counter() - start) * 1000)
                players = page.players
                start = time.perf_counter()
                await stats.pool.fetchval("SELECT COUNT(*) FROM game_results WHERE guild_id = $1 AND kind = $2"
                                          " AND finished_at >= $3 AND finished_at < $4", GUILD, KIND, since, NOW + 1)
                floors.append((time.perf_counter() - start) * 1000)
                ratios.append(boards[-1] / floors[-1])
            week = []
            for _ in range(repeats):
                start = time.perf_counter()
                await stats.leaderboard(GUILD, KIND, "rate", period_start("week", NOW), NOW + 1, min_games=3)
                week.append((time.perf_counter() - start) * 1000)
            plans = {period: [str(r[0]) for r in await stats.pool.fetch(
                f"EXPLAIN (ANALYZE, BUFFERS) {LEADERBOARD_SQL}", GUILD, KIND, period_start(period, NOW), NOW + 1, 1)]
                for period in ("month", "all")}
    # A period's board reads its range of the covering index; all time covers nearly every row, where the
    # planner rightly prefers a (parallel) sequential scan: both plans are kept in results.json.
    indexed = any("Index Only Scan using game_results_by_time" in line for line in plans["month"])
    extra = {"games": games, "players": players, "build_seconds": round(built, 1),
             "first_check_after_start_ms": round(first_check * 1000, 1), "explain": plans}
    return [
        Figure("pg_leaderboard_all_ms", f"PostgreSQL leaderboard, all time, {games:,} finished games", "ms",
               summary(boards), note=f"{players} players; all-time plan: {_scan(plans['all'])}", extra=extra),
        Figure("pg_leaderboard_vs_count_floor", "PostgreSQL leaderboard / COUNT(*) of the same index range", "x",
               summary(ratios)),
        Figure("pg_leaderboard_week_ms", "PostgreSQL leaderboard, this week, by win rate", "ms", summary(week)),
        Figure("pg_leaderboard_index_only", "EXPLAIN: a month's board is an index-only scan of game_results_by_time",
               "yes=1", summary([float(indexed)]), "1", indexed, f"month plan: {_scan(plans['month'])}"),
    ]


def _scan(plan: list[str]) -> str:
    """The plan's scan line, e.g. "Index Only Scan using game_results_by_time on game_results"."""
    line = next((line for line in plan if " Scan " in line or line.lstrip("-> ").startswith("Seq Scan")), "?")
    return line.strip().removeprefix("->").strip().split("  (")[0]


def run(db: Path, games: int, quick: bool = False) -> list[Figure]:
    """Every PostgreSQL figure; ``db`` is bench.dbgen's SQLite database of ``games`` running games."""
    figures = asyncio.run(_stack(quick))
    figures += _migrate(db, games)
    figures += asyncio.run(_leaderboard(quick))
    return figures
