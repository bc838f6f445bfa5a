"""A restart with many open games answers players at once: the restore of the open games (and its sweep)
runs in the background, and a game someone touches before the restore reached it is caught up first, once."""

import asyncio
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.client import NumberBot
from bot.core.service import GameService
from cogs.table.recovery import SWEEP_BATCH
from storage.sqlite import SQLiteStore
from storage.stats import SQLiteStats
from tests.discord_world import PATIENCE, World, eventually

CLONES = SWEEP_BATCH + 50  # more than one batch of the sweep


def clone_game(db_path: Path, game_id: int, copies: int) -> list[int]:
    """``copies`` more running games in the state of ``game_id``, each in a channel and with players of its own
    (written straight into the database, as a bot with many open games left it)."""
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        db.execute("BEGIN")
        columns = [r[1] for r in db.execute("PRAGMA table_info(games)")]
        row = dict(zip(columns, db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone(), strict=True))
        seats = db.execute("SELECT seat, user_id, name, ai_level, state, joined_at FROM seats WHERE game_id = ?",
                           (game_id,)).fetchall()
        actions = db.execute("SELECT seq, phase, kind, seat, payload, at FROM actions WHERE game_id = ?",
                             (game_id,)).fetchall()
        start = int(db.execute("SELECT MAX(id) FROM games").fetchone()[0]) + 1
        ids = list(range(start, start + copies))
        for new in ids:
            values = {**row, "id": new, "channel_id": 10**15 + new, "host_id": 10**12 + new * 10}
            db.execute(f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                       [values[c] for c in columns])
            db.executemany("INSERT INTO seats (game_id, seat, user_id, name, ai_level, state, joined_at)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [(new, s, 10**12 + new * 10 + s, f"P{new}-{s}", ai, state, at)
                            for s, _, _, ai, state, at in seats])
            db.executemany("INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)", [(new, *a) for a in actions])
        db.execute("COMMIT")
    finally:
        db.close()
    return ids


async def start_without_waiting(world: World) -> NumberBot:
    """The bot connected and ready, its restore started but not waited for (World.start_bot waits for it)."""
    bot = NumberBot(world.settings(), clock=world.clock, **world.bot_options)
    await bot.login(world.fake.token)
    await world.fake.attach(bot)
    world.bot = bot
    return bot


class HeldRestore:
    """The restore is held once it has read the open games, until :attr:`release` is set; counts the games
    caught up (the service's catch-up, which the front end's runs: the cogs are imported afresh at each start)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.held, self.release = asyncio.Event(), asyncio.Event()
        self.caught_up: Counter[int] = Counter()
        load_open_games, catch_up = GameService.load_open_games, GameService.catch_up

        async def held(service: GameService, **kwargs: Any) -> Any:
            records = await load_open_games(service, **kwargs)
            self.held.set()
            await self.release.wait()
            return records

        async def counted(service: GameService, game_id: int) -> Any:
            self.caught_up[game_id] += 1
            return await catch_up(service, game_id)

        monkeypatch.setattr(GameService, "load_open_games", held)
        monkeypatch.setattr(GameService, "catch_up", counted)


async def test_players_are_answered_while_the_restore_of_many_games_is_held(world: World,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    await world.start_game(("ana", "ben"))
    assert (await world.dm("ana", "513")).startswith("Locked in 513")
    await world.stop_bot()
    clones = clone_game(world.db_path, 1, CLONES)
    restore = HeldRestore(monkeypatch)
    bot = await start_without_waiting(world)
    await asyncio.wait_for(restore.held.wait(), PATIENCE)
    cog: Any = bot.get_cog("Table")
    state = cog.state
    # Held: nothing restored, no timer armed. A new table opens in another channel all the same...
    fresh = world.fake.add_channel(world.guild, "fresh")
    opened = await (await world.users["cy"].slash(fresh, "thenumber start")).wait()
    assert opened.message is not None and "Join" in world.fake.visible_text(opened.message) + str(
        opened.message.components), opened.rejections
    # ... and the game touched first is caught up before the player's number counts: it ends turn 1.
    assert (await world.dm("ben", "240")).startswith("Locked in 240")
    reveal = await eventually(lambda: world.reveals(), what="turn 1's reveal")
    assert "`513`" in world.fake.visible_text(reveal[0]) and "`240`" in world.fake.visible_text(reveal[0])
    await world.wait_status("turn 2 of 5")
    assert not state.restored and not bot.scheduler.is_scheduled(("deadline", clones[0]))
    assert restore.caught_up[1] == 1
    restore.release.set()
    await asyncio.wait_for(cog._restoring, PATIENCE)
    await asyncio.wait_for(state.settled.wait(), PATIENCE)
    # The restore went on without telling game 1 again, and armed every other game's deadline.
    assert restore.caught_up[1] == 1 and not any(restore.caught_up[i] for i in clones)
    assert len(world.reveals()) == 1
    assert len([m for m in world.fake.messages(world.general) if "turn 2 of 5" in world.fake.visible_text(m)]) == 1
    assert all(bot.scheduler.is_scheduled(("deadline", i)) for i in [1, *clones])


async def test_the_restart_sweep_reads_games_in_batches_and_leaves_them_uncached(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    await world.start_game(("ana", "ben"))
    await world.stop_bot()
    clones = clone_game(world.db_path, 1, CLONES)
    batches: list[int] = []
    single: Counter[int] = Counter()
    load_games, load_game = SQLiteStore.load_games, SQLiteStore.load_game

    async def counted_batch(store: SQLiteStore, game_ids: Any) -> Any:
        batches.append(len(game_ids))
        return await load_games(store, game_ids)

    async def counted_one(store: SQLiteStore, game_id: int) -> Any:
        single[game_id] += 1
        return await load_game(store, game_id)

    monkeypatch.setattr(SQLiteStore, "load_games", counted_batch)
    monkeypatch.setattr(SQLiteStore, "load_game", counted_one)
    bot = await world.start_bot()
    state = bot.get_cog("Table").state  # type: ignore[union-attr]
    await asyncio.wait_for(state.settled.wait(), PATIENCE)
    total = len(clones) + 1
    assert sum(batches) == total and max(batches) <= SWEEP_BATCH and len(batches) == -(-total // SWEEP_BATCH)
    assert not any(single[i] for i in clones)  # no read per game
    assert not any(i in bot.service._tables for i in clones)  # folded to look, cached only when played
    # The game is still played as usual, from the store, after the sweep.
    assert (await world.dm("ana", "513")).startswith("Locked in 513")


async def test_the_statistics_backfill_waits_for_the_restore(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    await world.start_game(("ana", "ben"))
    await world.stop_bot()
    backfills: list[bool] = []
    refresh = SQLiteStats.refresh

    async def noted(stats: SQLiteStats, *args: Any, every_guild: bool = False, **kwargs: Any) -> int:
        if every_guild:
            backfills.append(True)
        return await refresh(stats, *args, every_guild=every_guild, **kwargs)

    monkeypatch.setattr(SQLiteStats, "refresh", noted)
    restore = HeldRestore(monkeypatch)
    bot = await start_without_waiting(world)
    await asyncio.wait_for(restore.held.wait(), PATIENCE)
    # While the restore is held the bot answers, and the backfill (minutes of CPU after an upgrade) waits.
    opened = await (await world.users["cy"].slash(world.fake.add_channel(world.guild, "fresh"),
                                                  "thenumber start")).wait()
    assert opened.message is not None and not backfills
    restore.release.set()
    await asyncio.wait_for(bot.get_cog("Table")._restoring, PATIENCE)  # type: ignore[union-attr]
    await eventually(lambda: backfills, what="the statistics backfill after the restore")
