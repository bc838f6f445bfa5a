"""The statistics queries on 100,000 finished games use their indexes (query plans only; no timing asserts)."""

import random
import sqlite3
from collections import Counter
from pathlib import Path

from bot.core.stats import period_start, summariser
from bot.games import GAMES as GAME_TUPLE
from bot.games.thenumber import rules
from storage.sqlite import SQLiteStore
from storage.stats import GUILD_MISSING, LEADERBOARD_SQL, MISSING_SQL, PLAYER_SQL, RECENT_SQL, SQLiteStats

GAMES = 100_000
NOW = 1_800_000_000.0


def fill(path: Path) -> list[tuple[int, int, int, int]]:
    """100,000 finished games of guild 1 (3 seats each) with their cached results; returns (user, won, score,
    finished) of every human seat."""
    rng = random.Random(5)
    games, results, seen = [], [], []
    for g in range(1, GAMES + 1):
        finished = NOW - rng.random() * 365 * 86_400
        games.append((g, rules.GAME_KEY, 1, 7, 100, "finished", "{}", 10, finished, finished))
        winner = rng.randrange(3)
        for seat in range(3):
            user = None if seat == 2 and g % 10 == 0 else 1_000 + rng.randrange(800)
            score, won = rng.randrange(10, 60), int(seat == winner)
            results.append((g, seat, rules.GAME_KEY, 1, user, finished, score, won, "{}"))
            if user is not None:
                seen.append((user, won, score, int(finished)))
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        db.executemany("INSERT INTO games (id, kind, guild_id, channel_id, host_id, status, options, phase,"
                       " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", games)
        db.executemany("INSERT INTO game_results (game_id, seat, kind, guild_id, user_id, finished_at, final_score,"
                       " won, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", results)
        db.execute("COMMIT")
        db.execute("ANALYZE")
    finally:
        db.close()
    return seen


async def test_leaderboard_and_player_queries_use_covering_indexes(db_path: Path) -> None:
    async with SQLiteStore(db_path):
        pass  # migrations
    seen = fill(db_path)
    async with SQLiteStats(db_path, summariser(GAME_TUPLE), [g.key for g in GAME_TUPLE]) as stats:
        for period in ("all", "month", "week"):
            since = period_start(period, NOW)  # type: ignore[arg-type]
            plan = " | ".join(await stats.explain(LEADERBOARD_SQL, (1, rules.GAME_KEY, since, NOW + 1, 1)))
            assert "USING COVERING INDEX game_results_by_time" in plan, plan
        plan = " | ".join(await stats.explain(PLAYER_SQL, (1, rules.GAME_KEY, 1_000)))
        assert "USING INDEX game_results_by_player" in plan and "SCAN" not in plan, plan
        plan = " | ".join(await stats.explain(MISSING_SQL.format(where=GUILD_MISSING, limit=500),
                                              (1, NOW, rules.GAME_KEY)))
        assert "USING INDEX games_by_guild_finished" in plan and "SEARCH r USING PRIMARY KEY" in plan, plan
        plan = " | ".join(await stats.explain(RECENT_SQL, (1, rules.GAME_KEY, 10)))
        assert "INDEX game_results_by_time" in plan, plan
        # And the answer at that scale is right: the top of the all-time board by wins.
        board = await stats.leaderboard(1, rules.GAME_KEY, "wins", 0, NOW + 1)
        wins: Counter[int] = Counter()
        games: Counter[int] = Counter()
        for user, won, _, _ in seen:
            wins[user] += won
            games[user] += 1
        assert board.players == len(games)
        best = sorted(games, key=lambda u: (-wins[u], -games[u], u))[:10]
        assert [row.user_id for row in board.rows] == best
        assert [row.wins for row in board.rows] == [wins[u] for u in best]
