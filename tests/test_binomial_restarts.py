"""Binomial restarts at the moments between telling the channel and recording that it was told."""

from __future__ import annotations

import asyncio

from bot.client import NumberBot
from tests.binomial_discord import bot_messages, numerology_messages, settled, start_binomial, table
from tests.discord_world import World, eventually

PLAYERS = ("ana", "ben")


async def test_a_roll_edited_in_but_not_recorded_goes_on_in_the_same_message(world: World) -> None:
    await start_binomial(world, PLAYERS)
    message = await settled(world)
    assert message is not None
    await place_all(world)
    posted = await roll_2_told_but_not_recorded(world, message.id)
    await world.restart()
    await settled(world)
    assert len(bot_messages(world)) == posted and len(numerology_messages(world)) == 1


async def test_players_acting_before_the_restore_reaches_their_game_get_no_second_message(world: World) -> None:
    await start_binomial(world, PLAYERS)
    message = await settled(world)
    assert message is not None
    await place_all(world)
    posted = await roll_2_told_but_not_recorded(world, message.id)
    # The restore is held back: the players' DMs come in first (a real bot is connected before it is done).
    gate = asyncio.Event()
    await world.stop_bot()
    bot = NumberBot(world.settings(), clock=world.clock, **world.bot_options)
    await bot.login(world.fake.token)  # loads the cogs; the restore starts once the bot is ready
    talk = bot.get_cog("Table").talk  # type: ignore[union-attr]
    restore = talk.restore

    async def held() -> None:
        await gate.wait()
        await restore()

    talk.restore = held
    await world.fake.attach(bot)
    world.bot = bot
    await place_all(world)
    await eventually(lambda: "Roll 3 of 16" in world.fake.visible_text(world.fake.world.messages[message.id]),
                     what="roll 3 edited into the same numerology message")
    gate.set()
    await world.tables_restored()
    assert len(bot_messages(world)) == posted and len(numerology_messages(world)) == 1


async def place_all(world: World) -> None:
    for name in PLAYERS:
        current = await table(world)
        seat = current.record.seat_of(world.users[name].id).seat  # type: ignore[union-attr]
        answer = await world.dm(name, current.game.legal(current.state, seat)[0]["cell"])
        assert "goes in" in answer, answer


async def roll_2_told_but_not_recorded(world: World, message_id: int) -> int:
    """Roll 2 edited into the message and recorded, then the record undone: the bot died after the edit,
    before recording it (the step's message and its mark are not stored). Returns the bot's messages so far."""
    await eventually(lambda: "Roll 2 of 16" in world.fake.visible_text(world.fake.world.messages[message_id]),
                     what="roll 2 edited into the numerology message")
    await told(world, message_id)
    await world.bot.store.db.execute("UPDATE games SET status_message_id = NULL, announced_phase = 0")
    await world.bot.store.db.commit()
    return len(bot_messages(world))


async def told(world: World, message_id: int) -> None:
    """Until the step's message and its mark are recorded (the announcement is over)."""
    while True:
        record = await world.bot.store.load_game(1)
        if record.status_message_id == message_id and record.announced_phase == record.phase - 1:
            return
        await asyncio.sleep(0.01)
