"""A restart after a long downtime finds every open game's deadline past: the overdue timers are worked off
in a paced backlog behind the players, not all at once. A player who acts while ten thousand overdue
deadlines are due is answered before the backlog has drained; every overdue step is still told once."""

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from bot.client import NumberBot
from tests.discord_world import PATIENCE, World, eventually
from tests.test_restart_answers_early import clone_game, start_without_waiting

OVERDUE = 10_000  # games whose deadline passed while the bot was down (issue 15, point 5)
# Overdue turns that may be told while a player's request is answered: those under way when it came in (the
# backlog starts nothing new meanwhile), with a wide margin for a slow machine.
AHEAD = 50


def into_channels(db_path: Path, game_ids: list[int], channel_ids: list[int]) -> None:
    """Each cloned game in a channel the fake knows (so its reveal is posted, not refused with 404)."""
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        db.execute("BEGIN")
        db.executemany("UPDATE games SET channel_id = ? WHERE id = ?", zip(channel_ids, game_ids, strict=True))
        db.execute("COMMIT")
    finally:
        db.close()


def told(world: World, channels: list[Any]) -> int:
    """How many of ``channels`` the bot has posted in (one turn's reveal each, once told)."""
    return sum(1 for channel in channels if world.fake.messages(channel))


async def overdue_restart(world: World, copies: int) -> tuple[NumberBot, list[int], list[Any]]:
    """Game 1 and ``copies`` clones of it, each in a channel of its own, all past their deadline at the start."""
    await world.start_game(("ana", "ben"))
    assert (await world.dm("ana", "513")).startswith("Locked in 513")
    await world.stop_bot()
    clones = clone_game(world.db_path, 1, copies)
    channels = [world.fake.add_channel(world.guild, f"g{i}") for i in clones]
    into_channels(world.db_path, clones, [c.id for c in channels])
    world.clock.advance(3600)  # the bot was down for an hour: every turn's deadline is past
    return await start_without_waiting(world), clones, channels


async def test_a_player_is_answered_while_ten_thousand_overdue_deadlines_are_due(world: World) -> None:
    _, clones, channels = await overdue_restart(world, OVERDUE - 1)
    # The backlog has begun: an overdue turn was revealed in its channel.
    await eventually(lambda: world.reveals() or told(world, channels[:50]), what="the first overdue reveal")
    before = told(world, channels)
    at_answer: list[int] = []

    def answered(result: Any) -> bool:
        if result.response_type is None and not result.rejections:
            return False
        at_answer.append(told(world, channels))  # counted when the fake has the callback
        return True

    opened = await (await world.users["cy"].slash(world.fake.add_channel(world.guild, "fresh"), "thenumber start")
                    ).until(answered, PATIENCE, "an answer")
    # What the player saw: an answer (not Discord's "did not respond"), given ahead of the backlog: it had
    # not drained, and only the few overdue turns under way when the player asked were told meanwhile (all
    # at once, hundreds are told while the answer waits behind them, and it comes too late).
    assert at_answer[0] < len(clones) and at_answer[0] - before <= AHEAD, (before, at_answer[0])
    assert opened.response_type is not None and not opened.rejections, opened.rejections
    await opened.until(lambda r: r.message is not None, PATIENCE, "the lobby message")


async def test_every_overdue_step_is_told_once(world: World) -> None:
    world.settings_overrides["global_requests_per_window"] = 0  # the paces are not what this test is about:
    bot, clones, channels = await overdue_restart(world, 40)  # the token's (bot/http_pacing.py) and the backlog's
    bot.scheduler.overdue_rate = 1000.0
    await asyncio.wait_for(bot.get_cog("Table")._restoring, PATIENCE)  # type: ignore[union-attr]
    await eventually(lambda: told(world, channels) == len(channels) and world.reveals(), what="every reveal")
    await eventually(lambda: not bot.scheduler.overdue(), what="the backlog to drain")
    for channel in [world.general, *channels]:
        reveals = [m for m in world.fake.messages(channel) if " · reveal" in world.fake.visible_text(m)]
        assert len(reveals) == 1, channel.name  # turn 1 revealed by its deadline, once
    for game_id in [1, *clones]:
        record = await bot.store.load_game(game_id)
        assert record.phase == 1 and record.announced_phase == 0, game_id
