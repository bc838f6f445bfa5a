"""A database of N running 5-seat games of The Number, each stopped somewhere in its 10 turns.

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


def generate(path: Path, games: int, seed: int = 3) -> Path:
    asyncio.run(migrate(path))
    rng = random.Random(seed)
    now = time.time()
    game_rows, seat_rows, action_rows = [], [], []
    for g in range(1, games + 1):
        turns = random_game(rng, SEATS)
        phase = rng.randrange(10)  # turns already revealed
        base_user = 10_000_000 + g * 10
        game_rows.append((g, "thenumber", 1, 20_000_000 + g, base_user, "running", json.dumps({"turn_seconds": 120}),
                          phase, now + 3600, 30_000_000 + g, 40_000_000 + g, phase - 1, None, now, now))
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
        for s in rng.sample(range(5), rng.randrange(5)):  # pending choices of the current turn
            if SEATS[s] in turns[phase]:
                seq += 1
                action_rows.append((g, seq, phase, "choose", s, json.dumps({"number": turns[phase][SEATS[s]]}), now))
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        insert_games(db, game_rows, seat_rows, action_rows)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    asyncio.run(check(path, games))
    return path


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


async def check(path: Path, games: int) -> None:
    """The generated games load through the real store and rebuild to the stored phase."""
    async with SQLiteStore(path) as store:
        service = GameService(store, (GAME,))
        for game_id in (1, games // 2 + 1, games):
            table = await service.table(game_id)
            assert table.record.status == "running" and phase_of(table.state) == table.record.phase, game_id
