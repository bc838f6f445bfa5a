"""A database of N running 5-seat games of The Number, each stopped somewhere in its 10 turns, and optionally
F finished games (all 10 turns played, the last one announced) stored before them.

The schema comes from SQLiteStore itself (its migrations); the rows are written with plain sqlite3 in one
transaction (seconds instead of minutes through the store's one-durable-transaction-per-call API), with
exactly the shapes the store writes: a ``start`` action, five ``choose`` and one ``resolve`` per played
turn, and 0-4 pending choices in the current turn. Every number comes from a legal random game, and
:func:`check` rebuilds a sample through the real store and service.
"""

import asyncio
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from bot.core.service import GameService
from bot.games.thenumber.game import GAME, phase_of, turn_payload
from storage.sqlite import SQLiteStore

from .engine import random_game

SEATS = ("0", "1", "2", "3", "4")


def generate(path: Path, games: int, seed: int = 3, finished: int = 0) -> Path:
    """``games`` running games (ids ``finished + 1 ..``) after ``finished`` finished ones (ids 1 ..)."""
    for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        stale.unlink(missing_ok=True)
    asyncio.run(migrate(path))
    rng = random.Random(seed)
    now = time.time()
    game_rows: list[tuple[Any, ...]] = []
    seat_rows: list[tuple[Any, ...]] = []
    action_rows: list[tuple[Any, ...]] = []
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    # Finished games replay a pool of random games: generating 100,000 legal games would take minutes.
    pool = [random_game(rng, SEATS) for _ in range(min(finished, 500))]
    for g in range(1, finished + games + 1):
        if len(game_rows) == 2000:  # written in slices: 100,000 games of rows would not fit in memory
            insert_games(db, game_rows, seat_rows, action_rows)
            game_rows, seat_rows, action_rows = [], [], []
        done = g <= finished
        turns = pool[g % len(pool)] if done else random_game(rng, SEATS)
        phase = len(turns) if done else rng.randrange(10)  # turns already revealed
        base_user = 10_000_000 + g * 10
        game_rows.append((g, "thenumber", 1, 20_000_000 + g, base_user, "finished" if done else "running",
                          json.dumps({"turn_seconds": 120}), phase, None if done else now + 3600, 30_000_000 + g,
                          None if done else 40_000_000 + g, phase - 1, "finished" if done else None,
                          now - (finished - g) if done else now, now - (finished - g) if done else now))
        for s in range(5):
            seat_rows.append((g, s, base_user + s, f"Player {g}-{s}", None, "seated", now))
        seq = 1
        action_rows.append((g, seq, 0, "start", None, "{}", now))
        for p in range(phase):
            for s, key in enumerate(SEATS):
                if key in turns[p]:
                    seq += 1
                    action_rows.append((g, seq, p, "choose", s, json.dumps({"number": turns[p][key]}), now))
            seq += 1
            action_rows.append((g, seq, p, "resolve", None, json.dumps(turn_payload(turns[p], "all-chosen", ())), now))
        if done:
            continue
        for s in rng.sample(range(5), rng.randrange(5)):  # pending choices of the current turn
            if SEATS[s] in turns[phase]:
                seq += 1
                action_rows.append((g, seq, phase, "choose", s, json.dumps({"number": turns[phase][SEATS[s]]}), now))
    try:
        insert_games(db, game_rows, seat_rows, action_rows)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    if finished:
        asyncio.run(fill_results(path, finished, len(pool)))
    asyncio.run(check(path, games, finished))
    return path


async def fill_results(path: Path, finished: int, pool: int) -> None:
    """The statistics cache of the finished games, as a bot that ran before has it (the start-up backfill of
    a database that never had it is a one-time upgrade cost, not a restart's): the real summariser folds
    each game of the pool once and its rows are copied to the games that replay it."""
    from bot.core.stats import summariser
    from bot.games import GAMES

    summarise = summariser(GAMES)
    async with SQLiteStore(path) as store:
        by_pool = {g % pool: summarise(await store.load_game(g)) for g in range(1, pool + 1)}
    rows = [(g, r.seat, r.kind, r.guild_id, 10_000_000 + g * 10 + r.seat, r.finished_at, r.final_score, int(r.won),
             json.dumps(dict(r.extra), sort_keys=True, separators=(",", ":")))
            for g in range(1, finished + 1) for r in by_pool[g % pool]]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        db.executemany("INSERT INTO game_results (game_id, seat, kind, guild_id, user_id, finished_at, final_score,"
                       " won, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        db.execute("COMMIT")
    finally:
        db.close()


def insert_games(db: sqlite3.Connection, game_rows: list[tuple[Any, ...]], seat_rows: list[tuple[Any, ...]],
                 action_rows: list[tuple[Any, ...]]) -> None:
    """Bulk-write games, seats and actions in the store's own row shapes (inside the caller's transaction)."""
    db.executemany("INSERT INTO games (id, kind, guild_id, channel_id, host_id, status, options, phase, deadline,"
                   " lobby_message_id, status_message_id, announced_phase, end_reason, created_at, updated_at)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", game_rows)
    db.executemany("INSERT INTO seats (game_id, seat, user_id, name, ai_level, state, joined_at)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)", seat_rows)
    db.executemany("INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)", action_rows)


async def migrate(path: Path) -> None:
    """An empty database with the project's schema, made by the store's own migrations."""
    async with SQLiteStore(path):
        pass


async def check(path: Path, games: int, finished: int = 0) -> None:
    """The generated games load through the real store and rebuild to the stored phase."""
    async with SQLiteStore(path) as store:
        service = GameService(store, (GAME,))
        if finished:
            record = await store.load_game(finished)
            assert record.status == "finished" and len([a for a in record.actions if a.kind == "resolve"]) == 10
        for game_id in (finished + 1, finished + games // 2 + 1, finished + games):
            table = await service.table(game_id)
            assert table.record.status == "running" and phase_of(table.state) == table.record.phase, game_id
