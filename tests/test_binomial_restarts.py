"""Binomial restarts at the moments between telling the channel and recording that it was told."""

from __future__ import annotations

import asyncio

import pytest

from bot.client import NumberBot
from tests.binomial_discord import bot_messages, numerology_messages, settled, start_binomial, step_of, table, title
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
    recovery = bot.get_cog("Table").recovery  # type: ignore[union-attr]
    restore = recovery.restore

    async def held() -> None:
        await gate.wait()
        await restore()

    recovery.restore = held
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


@pytest.mark.parametrize("moment", ["between its reads", "while it reads the channel"])
async def test_a_choice_taken_while_the_restore_reads_the_game_gets_no_second_message(world: World, moment: str
                                                                                      ) -> None:
    """A player's DM is taken as soon as the bot is connected, the restore going on: here it is committed
    between the restore's read of the stored game and its read of the table, or while the restore looks for
    the turn message among the channel's messages. Either way the table moves a step past the record the
    catch-up read: the catch-up must tell the game as of one read (the turn message found is the current
    step's, not one over), and the DM's own announcement then edits that same message."""
    await start_binomial(world, PLAYERS)
    while (await table(world)).state.kind == "place":
        await place_all(world)
    message = await settled(world)
    assert message is not None and title(message).startswith("Binomial · round 1 of")
    await told(world, message.id)
    current = await table(world)
    (seat,) = current.awaited()
    name = next(n for n in PLAYERS if current.record.seat_of(world.users[n].id).seat == seat)  # type: ignore[union-attr]
    if moment == "while it reads the channel":  # the stop came before the turn message was recorded: it is looked for
        await world.bot.store.db.execute("UPDATE games SET status_message_id = NULL")
        await world.bot.store.db.commit()
    await world.stop_bot()
    bot = NumberBot(world.settings(), clock=world.clock, **world.bot_options)
    await bot.login(world.fake.token)
    recovery = bot.get_cog("Table").recovery  # type: ignore[union-attr]
    settle, armed, answers = recovery.service.catch_up, asyncio.Event(), []

    async def catch_up(game_id: int) -> object:
        reports = await settle(game_id)
        armed.set()  # the restore reads the game next
        return reports

    async def choose_first() -> None:
        if armed.is_set():
            armed.clear()
            answers.append(await world.dm(name, "pass"))  # committed and answered; its announcement waits

    if moment == "between its reads":
        load_game = bot.store.load_game

        async def load(game_id: int, *args: object, **kwargs: object) -> object:
            full = await load_game(game_id, *args, **kwargs)
            await choose_first()
            return full
        bot.store.load_game = load
    else:
        recent = recovery.poster.recent_message

        async def read_channel(*args: object) -> object:
            await choose_first()
            return await recent(*args)
        recovery.poster.recent_message = read_channel
    recovery.service.catch_up = catch_up
    await world.fake.attach(bot)
    world.bot = bot
    await world.tables_restored()
    assert answers and "pass" in answers[0].lower(), answers
    after = await eventually(lambda: step_of(world.fake.world.messages[message.id]) == current.step + 1,
                             what="the round's message edited into the next declaration")
    assert after
    rounds = [m for m in bot_messages(world) if title(m).startswith("Binomial · round 1 of")]
    assert [m.id for m in rounds] == [message.id]
