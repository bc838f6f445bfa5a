"""``python -m bench.ratings [--games 100000] [--board-games 1000000] [--quick]``: what skill ratings cost.

1. **Rating one finished 5-seat game**: building its job (places from the scores) and rating it in its three
   scopes (``bot.core.rating``), then the same job applied inside a SQLite transaction against a ratings table
   of 3,000 players (``storage.ratings.apply_sqlite``: the reads, the model, the writes; the commit's fsync not
   included: it is the finishing transaction's, which the game pays anyway). Target: < 5 ms. The floor beside
   it, measured in the same run: folding the same game's log to its final scores (what finishing costs today).
2. **Recomputing N stored games** (default 100,000 of The Number, bench/leaderboard.py's database: 2-5 seats,
   3,000 players, one seat in ten an AI): they are first rated incrementally, in finish order, by the very
   write the bot makes at a game's end (``apply_sqlite``, one transaction for the lot), then
   ``bot.core.rating_check.recompute_from`` (``python -m bot ratings --recompute``) replays them and must find
   every value equal; its time is printed beside the plain fold of the same games (read + fold + result),
   run before and after it, in CPU seconds of the process (wall time beside: it counts the neighbours too).
3. **The leaderboard by rating over 1,000,000 finished games**: a ledger of that many rated games and the
   ratings they leave (30,000 players of one server, in the server, global and twelve season scopes), then
   ``rating_board`` (first page, a later page) timed, with EXPLAIN QUERY PLAN of its query: a range of the
   index ``ratings_board``, never a scan of the games. ``rating_changes`` are not generated for this one (10
   million rows the board never reads).

Prints figures; asserts nothing but the recompute's equality (a wrong rating is not a timing).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.core.rating import rating_job, season_of
from bot.core.rating_check import recompute_from
from bot.core.stats import summariser
from bot.core.table import by_position, fold
from bot.games import GAMES
from bot.games.thenumber.game import GAME
from storage.base import GameRecord, SeatRecord
from storage.ratings import BOARD_SQL, apply_sqlite, server_scope
from storage.stats import LEADERBOARD_SQL, SQLiteStats

from . import leaderboard
from .dbgen import migrate

GUILD = leaderboard.GUILD
INCREMENTAL_BATCH = 5_000
KIND = leaderboard.KIND


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


# 1. One game ------------------------------------------------------------------------------------
def one_game(path: Path, repeats: int) -> None:
    """Time the rating of one 5-seat game, against folding it."""
    db = sqlite3.connect(path, isolation_level=None)
    record = _five_seat_game(db)
    db.close()
    rng = random.Random(1)
    folds, jobs, applies = [], [], []
    conn = sqlite3.connect(path, isolation_level=None)
    for n in range(repeats):
        start = time.perf_counter()
        positional = by_position(record)
        state, _ = fold(GAME, positional)
        result = GAME.result(state)
        folds.append(time.perf_counter() - start)
        assert result is not None
        users = rng.sample(range(10_001, 13_001), 5)  # players with a rating history, as a busy server has
        seats = tuple(SeatRecord(s.seat, users[s.seat], s.name) for s in positional.seats)
        start = time.perf_counter()
        job = rating_job(GameRecord(**{**_fields(positional), "seats": seats}), result.scores,
                         season_of(leaderboard.NOW))
        assert job is not None
        for _ in job.scopes:
            job.rate([None] * len(job.players))
        jobs.append(time.perf_counter() - start)
        conn.execute("BEGIN IMMEDIATE")
        start = time.perf_counter()
        apply_sqlite(conn, 10_000_000 + n, job, leaderboard.NOW)
        applies.append(time.perf_counter() - start)
        conn.execute("ROLLBACK")
    conn.close()
    fold_ms = statistics.median(folds)
    print(f"{'fold one finished 5-seat game (floor)':<58} {ms(fold_ms)}")
    print(f"{'rating maths, 3 scopes (job + OpenSkill)':<58} {ms(statistics.median(jobs))}"
          f"   ({statistics.median(jobs) / fold_ms:.2f} x the fold)")
    print(f"{'rating written in a SQLite transaction (reads+maths+writes)':<58} {ms(statistics.median(applies))}"
          f"   ({statistics.median(applies) / fold_ms:.2f} x the fold)  target < 5 ms:"
          f" {'met' if statistics.median(applies) < 0.005 else 'MISSED'}")


def _fields(record: GameRecord) -> dict[str, object]:
    return {name: getattr(record, name) for name in GameRecord.__dataclass_fields__}


def _five_seat_game(db: sqlite3.Connection) -> GameRecord:
    """A finished 5-seat game of the benchmark's database, as the store loads it."""
    from storage.sqlite import _load

    db.row_factory = sqlite3.Row
    game_id = db.execute("SELECT game_id FROM game_results GROUP BY game_id HAVING COUNT(*) = 5 LIMIT 1").fetchone()[0]
    return _load(db, int(game_id))


# 2. Recompute -----------------------------------------------------------------------------------
def rate_incrementally(path: Path) -> int:
    """Rate every finished game in finish order, by the write the bot makes at a game's end."""
    db = sqlite3.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    seats: dict[int, list[SeatRecord]] = {}
    for r in db.execute("SELECT game_id, seat, user_id, name, ai_level FROM seats ORDER BY game_id, seat"):
        seats.setdefault(int(r[0]), []).append(SeatRecord(int(r[1]), r[2], r[3], r[4]))
    scores: dict[int, dict[int, int]] = {}
    for r in db.execute("SELECT game_id, seat, final_score FROM game_results"):
        scores.setdefault(int(r[0]), {})[int(r[1])] = int(r[2])
    games = db.execute("SELECT id, guild_id, updated_at FROM games WHERE status = 'finished'"
                       " ORDER BY updated_at, id").fetchall()
    rated = 0
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -262144")  # setup only: a large transaction's pages stay in memory
    db.execute("BEGIN")
    for n, (game_id, guild_id, finished) in enumerate(games, start=1):
        if n % INCREMENTAL_BATCH == 0:
            db.execute("COMMIT")
            db.execute("BEGIN")
        record = GameRecord(int(game_id), KIND, guild_id, 0, 0, "finished", {}, 0, None, None, None, 0, "finished",
                            0.0, float(finished), tuple(seats[int(game_id)]))
        job = rating_job(record, scores[int(game_id)], season_of(float(finished)))
        if job is not None:
            apply_sqlite(db, int(game_id), job, float(finished))
            rated += 1
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()
    return rated


async def recompute(path: Path) -> None:
    """The recompute beside the plain fold of the same games. CPU seconds of this process (its threads included)
    are the figures compared: on a shared machine, wall time measures the neighbours too (printed beside)."""
    async with SQLiteStats(path, summariser(GAMES), [g.key for g in GAMES]) as stats:
        ledger = await stats.rating_ledger()

        async def plain_fold() -> None:
            for at in range(0, len(ledger), 2_000):
                records = await stats.records([e.game_id for e in ledger[at:at + 2_000]])
                for record in records:
                    state, _ = fold(GAME, by_position(record))
                    GAME.result(state)

        plain = await _clocked(plain_fold)
        again = await _clocked(lambda: recompute_from(stats, GAMES))
        plain_after = await _clocked(plain_fold)  # the fold again: the recompute sits between two
        await stats.refresh(GUILD, KIND)  # the first read after a start checks every game once: not timed
        boards = [await _clocked(lambda: stats.rating_board(GUILD, KIND, server_scope(GUILD), min_games=5))
                  for _ in range(5)]
        wins = [await _clocked(lambda: stats.leaderboard(GUILD, KIND, "wins", 0, leaderboard.NOW + 1))
                for _ in range(5)]
        report = again[2]
    print("\n".join(report.lines()))
    assert report.equal, "the recompute differs from the incremental ratings"
    floor = min(plain[0], plain_after[0])
    print(f"{'plain fold of the same games (read + fold + result)':<58} {floor:8.2f} s CPU"
          f"   (wall {plain[1]:.1f} s and {plain_after[1]:.1f} s, before and after the recompute)")
    print(f"{'recompute (read + fold + places + rating + compare)':<58} {again[0]:8.2f} s CPU"
          f"   ({again[0] / floor:.2f} x the plain fold; wall {again[1]:.1f} s)")
    print(f"{'leaderboard by rating, page 1 (this server)':<58} {ms(statistics.median(b[1] for b in boards))}")
    print(f"{'leaderboard by wins, all time (today, same database)':<58} {ms(statistics.median(w[1] for w in wins))}")


async def _clocked(call):  # type: ignore[no-untyped-def]
    """(CPU seconds, wall seconds, result) of awaiting ``call()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = await call()
    return time.process_time() - cpu, time.perf_counter() - wall, result


# 3. The board over 1,000,000 rated games ---------------------------------------------------------
def build_board(path: Path, games: int, players: int, seed: int = 5) -> None:
    """A ledger of ``games`` rated games and the ratings they leave (no changes rows: the board never reads
    them). The ratings are drawn, not computed: their values change no plan."""
    asyncio.run(migrate(path))
    rng = random.Random(seed)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA foreign_keys = OFF")  # the ledger's games are not generated: only what the board reads
    db.execute("BEGIN")
    db.executemany("INSERT INTO rated_games (game_id, seq, kind, guild_id, season, rated_at) VALUES (?, ?, ?, ?, ?, ?)",
                   ((g, g, KIND, GUILD, season_of(leaderboard.NOW - (games - g) * 30.0), leaderboard.NOW)
                    for g in range(1, games + 1)))
    per_player = games * 4 // players
    scopes = [server_scope(GUILD), "global"] + [f"season:{GUILD}:2026-{m:02d}" for m in range(1, 13)]
    rows = []
    for scope in scopes:
        share = per_player if not scope.startswith("season") else max(1, per_player // 12)
        for user in range(1, players + 1):
            rows.append((KIND, scope, 10_000 + user, rng.gauss(25, 4), rng.uniform(0.8, 3), rng.randint(1, 2 * share),
                         rng.randint(1, games)))
    db.executemany("INSERT INTO ratings (kind, scope, user_id, mu, sigma, games, last_game)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()


async def time_board(stats: Any, repeats: int) -> tuple[Any, list[float], list[float]]:
    """The board's first page and its 201st, each asked ``repeats`` times: (the first page, their times)."""
    firsts, laters = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        page = await stats.rating_board(GUILD, KIND, server_scope(GUILD), min_games=5)
        firsts.append(time.perf_counter() - start)
        start = time.perf_counter()
        await stats.rating_board(GUILD, KIND, server_scope(GUILD), min_games=5, page=200)
        laters.append(time.perf_counter() - start)
    return page, firsts, laters


async def measure_board(path: Path, repeats: int) -> None:
    async with SQLiteStats(path, summariser(GAMES), [g.key for g in GAMES]) as stats:
        page, firsts, laters = await time_board(stats, repeats)
        plan = await stats.explain(BOARD_SQL, (KIND, server_scope(GUILD), 5, 10, 0))
        ledger = (await stats._fetch("SELECT COUNT(*) FROM rated_games", ()))[0][0]
        wins_plan = await stats.explain(LEADERBOARD_SQL, (GUILD, KIND, 0, leaderboard.NOW + 1, 1))
    print(f"{'leaderboard by rating, page 1 / page 201':<58} {ms(statistics.median(firsts))}"
          f" {ms(statistics.median(laters))}   ({page.players:,} players, {ledger:,} rated games)")
    print("query plan (by rating):", " | ".join(plan))
    print("query plan (by wins, for comparison):", " | ".join(wins_plan))


# The same board on PostgreSQL -------------------------------------------------------------------
PG_FILL = [
    # the ledger: games rated one after the other (the games themselves are not generated: the board never
    # reads them, and the ledger's foreign key is dropped for the fill)
    "ALTER TABLE rated_games DROP CONSTRAINT rated_games_game_id_fkey",
    "INSERT INTO rated_games (game_id, seq, kind, guild_id, season, rated_at)"
    " SELECT g, g, '{kind}', {guild}, '2026-' || lpad((1 + g % 12)::text, 2, '0'), {now}"
    " FROM generate_series(1, {games}) g",
    "INSERT INTO ratings (kind, scope, user_id, mu, sigma, games, last_game)"
    " SELECT '{kind}', sc, 10000 + u, 25 + 4 * (random() + random() + random() - 1.5) * 2, 0.8 + random() * 2,"
    " 1 + floor(random() * {per_player})::int, 1 + floor(random() * {games})::int"
    " FROM generate_series(1, {players}) u,"
    " unnest(ARRAY['server:{guild}', 'global'] || ARRAY(SELECT 'season:{guild}:2026-' || lpad(m::text, 2, '0')"
    " FROM generate_series(1, 12) m)) sc",
    "VACUUM ANALYZE ratings",
]


async def measure_board_postgres(games: int, players: int, repeats: int) -> None:
    from storage.postgres import PostgresStore
    from storage.postgres_stats import PostgresStats
    from storage.ratings import pg

    from .postgres import database

    async with database() as url:
        async with PostgresStore(url) as store:
            start = time.perf_counter()
            for statement in PG_FILL:
                await store.pool.execute(statement.format(kind=KIND, guild=GUILD, now=leaderboard.NOW, games=games,
                                                          players=players, per_player=2 * games * 4 // players),
                                         timeout=3600)
            built = time.perf_counter() - start
        async with PostgresStats(url, summariser(GAMES), [g.key for g in GAMES]) as stats:
            page, firsts, laters = await time_board(stats, repeats)
            plan = [str(r[0]) for r in await stats.pool.fetch(f"EXPLAIN ANALYZE {pg(BOARD_SQL)}", KIND,
                                                              server_scope(GUILD), 5, 10, 0)]
            ledger = await stats.pool.fetchval("SELECT COUNT(*) FROM rated_games")
    print(f"PostgreSQL: built a ledger of {ledger:,} rated games and {players:,} players' ratings in {built:.1f} s")
    print(f"{'PostgreSQL leaderboard by rating, page 1 / page 201':<58} {ms(statistics.median(firsts))}"
          f" {ms(statistics.median(laters))}   ({page.players:,} players)")
    print("PostgreSQL plan (by rating):\n  " + "\n  ".join(plan))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="stored games to recompute")
    parser.add_argument("--skip-board", action="store_true", help="no board over the big ledger")
    parser.add_argument("--board-games", type=int, default=1_000_000, help="rated games behind the board")
    parser.add_argument("--players", type=int, default=30_000, help="players of the board's server")
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--no-postgres", action="store_true", help="skip the board on PostgreSQL")
    parser.add_argument("--board-only", action="store_true", help="only the boards over the big ledger")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ratings.sqlite3"
        if not args.board_only:
            start = time.perf_counter()
            leaderboard.build(path, args.games)
            print(f"built {args.games:,} finished games in {time.perf_counter() - start:.1f} s")
            start = time.perf_counter()
            rated = rate_incrementally(path)
            took = time.perf_counter() - start
            print(f"rated {rated:,} of them incrementally (the bot's end-of-game write, batches of"
                  f" {INCREMENTAL_BATCH:,} games per transaction) in {took:.1f} s")
            one_game(path, args.repeats)
            asyncio.run(recompute(path))
        if args.skip_board:
            return
        board = Path(tmp) / "board.sqlite3"
        start = time.perf_counter()
        build_board(board, args.board_games, args.players)
        print(f"built a ledger of {args.board_games:,} rated games in {time.perf_counter() - start:.1f} s")
        asyncio.run(measure_board(board, 7))
    if not args.no_postgres:
        asyncio.run(measure_board_postgres(args.board_games, args.players, 7))


if __name__ == "__main__":
    main()
