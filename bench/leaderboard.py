"""``python -m bench.leaderboard [--games 100000] [--db PATH]``: /thenumber leaderboard over 100,000 finished games.

Builds a database with the real schema (SQLiteStore's migrations) holding N finished games of one busy
server (2-5 seats from 3,000 players, one seat in ten an AI, finished over the last year) plus a few games of
another server; each game has its seats, a ``start`` and ten ``resolve`` actions, and its ``game_results``
rows. Rows are bulk-inserted with plain sqlite3: the games reuse 2,000 random legal scripts, and each
script's results come from the real summariser (``bot.core.stats.summarise``), so the cache
holds exactly what the bot would compute. ``choose`` actions are left out: no statistic reads them.

Then it times, through ``storage.stats.SQLiteStats`` as the bot calls it (the missing-results check included):
the leaderboard for each period and ranking (first page and a later one), one player's stats, the history,
and filling the cache for games that have no results yet (per game). Prints figures; asserts nothing.
"""

import argparse
import asyncio
import functools
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.core.stats import period_start, summarise, summariser
from bot.games import GAMES
from bot.games.thenumber import rules
from bot.games.thenumber.game import GAME, turn_payload
from storage.base import ActionRecord, GameRecord, SeatRecord
from storage.stats import LEADERBOARD_SQL, SQLiteStats

from .dbgen import insert_games, migrate
from .engine import random_game

GUILD, OTHER_GUILD = 1, 2
KIND = rules.GAME_KEY
PLAYERS = 3_000
SCRIPTS = 2_000
NOW = 1_800_000_000.0
YEAR = 365 * 86_400.0


def build(path: Path, games: int, seed: int = 11) -> None:
    asyncio.run(migrate(path))
    rng = random.Random(seed)
    scripts = []
    for _ in range(SCRIPTS):
        seats = rng.randint(rules.MIN_SEATS, rules.MAX_SEATS)
        turns = random_game(rng, tuple(str(s) for s in range(seats)))
        stored = [turn_payload(t, "all-chosen", ()) for t in turns]
        template = GameRecord(0, rules.GAME_KEY, None, 0, 0, "finished", {}, len(stored), None, None, None, -1,
                              "finished", 0.0, 0.0, tuple(SeatRecord(s, None, "x") for s in range(seats)),
                              tuple(ActionRecord(n + 1, n, "resolve", None, p, 0.0) for n, p in enumerate(stored)))
        scripts.append((seats, [json.dumps(p) for p in stored], summarise(GAME, template)))
    game_rows, seat_rows, action_rows, result_rows = [], [], [], []
    for g in range(1, games + 1):
        guild = OTHER_GUILD if g % 50 == 0 else GUILD
        seats, payloads, results = scripts[rng.randrange(SCRIPTS)]
        users = rng.sample(range(1, PLAYERS + 1), seats)
        ai = [rng.random() < 0.1 and s > 0 for s in range(seats)]
        finished = NOW - rng.random() * YEAR
        started = finished - 900
        game_rows.append((g, rules.GAME_KEY, guild, 5_000 + guild, users[0], "finished", '{"turn_seconds": 120}',
                          rules.TOTAL_TURNS, None, None, None, rules.TOTAL_TURNS - 1, "finished", started, finished))
        for s in range(seats):
            user_id = None if ai[s] else 10_000 + users[s]
            seat_rows.append((g, s, user_id, f"AI {s}" if ai[s] else f"Player {users[s]}", "normal" if ai[s] else None,
                              "seated", started))
            r = results[s]
            result_rows.append((g, s, rules.GAME_KEY, guild, user_id, finished, r.final_score, int(r.won),
                                json.dumps(dict(r.extra), sort_keys=True, separators=(",", ":"))))
        action_rows.append((g, 1, 0, "start", None, "{}", started))
        for phase, payload in enumerate(payloads):
            at = finished if phase == len(payloads) - 1 else started + 60 * (phase + 1)
            action_rows.append((g, phase + 2, phase, "resolve", None, payload, at))
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        insert_games(db, game_rows, seat_rows, action_rows)
        db.executemany("INSERT INTO game_results (game_id, seat, kind, guild_id, user_id, finished_at, final_score,"
                       " won, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", result_rows)
        db.execute("COMMIT")
        db.execute("ANALYZE")
    finally:
        db.close()


async def timed(call, repeats: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    values, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = await call()
        values.append(time.perf_counter() - start)
    return statistics.median(values), result


async def measure(path: Path, repeats: int) -> None:
    async with SQLiteStats(path, summariser(GAMES), [g.key for g in GAMES]) as stats:
        await stats.refresh(GUILD, KIND)  # nothing to do: every game has its results
        ms = 1000
        noop, _ = await timed(lambda: stats.refresh(GUILD, KIND), repeats)
        print(f"{'missing-results check (nothing to fill)':<44} {noop * ms:8.1f} ms")
        for period in ("all", "month", "week"):
            since = period_start(period, NOW)  # type: ignore[arg-type]
            for by in ("wins", "rate", "average"):
                board_of = functools.partial(stats.leaderboard, GUILD, KIND, by, since, NOW + 1,
                                             min_games=1 if by == "wins" else 3)
                first, board = await timed(board_of, repeats)
                later, _ = await timed(functools.partial(board_of, page=20), repeats)
                print(f"leaderboard {period:<5} by {by:<7} page 1 / page 21    {first * ms:8.1f} ms "
                      f"{later * ms:8.1f} ms   ({board.players} players)")  # type: ignore[attr-defined]
        heavy = 10_000 + 1
        player, rows = await timed(lambda: stats.player_games(GUILD, KIND, heavy), repeats)
        print(f"{'one player stats (' + str(len(rows)) + ' games)':<44} {player * ms:8.1f} ms")  # type: ignore[arg-type]
        recent, _ = await timed(lambda: stats.recent(GUILD, KIND, 10), repeats)
        print(f"{'history (10 latest games)':<44} {recent * ms:8.1f} ms")
        plan = await stats.explain(LEADERBOARD_SQL, (GUILD, KIND, 0, NOW + 1, 1))
        print("query plan:", " | ".join(plan))
        # Filling the cache: forget the results of 2,000 games and time the refill (engine included).
        await stats.db.execute("DELETE FROM game_results WHERE game_id IN (SELECT id FROM games WHERE guild_id = ?"
                               " ORDER BY id LIMIT 2000)", (GUILD,))
    for what in ("cache fill (first check after a start)", "first check after a start (nothing to fill)"):
        async with SQLiteStats(path, summariser(GAMES), [g.key for g in GAMES]) as fresh:
            start = time.perf_counter()
            filled = await fresh.refresh(GUILD, KIND)
            took = time.perf_counter() - start
            per_game = f"  ({took / filled * 1000:.2f} ms per game, {filled} games)" if filled else ""
            print(f"{what:<44} {took * 1000:8.1f} ms{per_game}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--db", type=Path, help="keep the database here (default: a temporary file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "leaderboard.sqlite3"
        if path.exists():
            path.unlink()
        start = time.perf_counter()
        build(path, args.games)
        print(f"built {args.games:,} finished games in {time.perf_counter() - start:.1f} s "
              f"({path.stat().st_size / 1e6:.0f} MB)")
        asyncio.run(measure(path, args.repeats))


if __name__ == "__main__":
    main()
