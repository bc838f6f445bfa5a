"""A table in a thread of its own (issue 36, point 1): ``start thread:True`` or ``/server threads``, played against
the fake Discord (which starts threads from a message, checks the bot's permissions and validates the body)."""

from __future__ import annotations

import asyncio
import time

from tests.discord_world import PATIENCE, World, eventually, open_lobby
from tests.fakediscord import title_of
from tests.fakediscord.state import BOT_USER_ID, CREATE_PUBLIC_THREADS, Channel, Message

CHOOSE = "Choose secretly"


def thread_of(world: World, lobby: Message) -> Channel:
    """The thread the bot started from ``lobby`` (the fake gives it the message's id, as Discord does)."""
    thread_id = world.fake.world.messages[lobby.id].thread_id
    assert thread_id is not None, "no thread was started from the lobby message"
    return world.fake.world.channels[thread_id]


def texts(world: World, channel: Channel) -> list[str]:
    return [world.fake.visible_text(m) for m in world.fake.messages(channel)]


def turn_message(world: World, channel: Channel) -> Message | None:
    return next((m for m in reversed(world.fake.messages(channel)) if CHOOSE in world.fake.visible_text(m)), None)


async def start_in_thread(world: World, players: tuple[str, ...], **options: object) -> tuple[Message, Channel]:
    lobby = await world.open_table(players, **options)
    started = await (await world.users[players[0]].click(lobby, "Start")).wait()
    assert started.response_type == 7, started.rejections
    thread = await eventually(lambda: world.fake.world.messages[lobby.id].thread_id and thread_of(world, lobby),
                              what="the table's thread")
    await eventually(lambda: turn_message(world, thread), what="the first turn message in the thread")
    return lobby, thread


async def a_legal_number(world: World, seat: int) -> str:
    assert world.bot is not None
    service = world.bot.service
    move = await service._ai_move(await service.table(1), seat, "easy")
    assert move is not None
    return str(move["number"])


async def next_step(world: World, step: int) -> None:
    """Until the game has gone past ``step`` (or ended) and told it."""
    assert world.bot is not None
    limit = time.monotonic() + PATIENCE
    while time.monotonic() < limit:
        stored = await world.bot.store.load_game(1)
        if (stored.status != "running" or stored.phase > step) and stored.announced_phase >= step:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"the game did not go past step {step}")


async def play_turn(world: World, names: tuple[str, ...]) -> None:
    """Every awaited player chooses a legal number by DM."""
    assert world.bot is not None
    table = await world.bot.service.table(1)
    step = table.step
    for seat in sorted(table.awaited()):
        await world.dm(names[seat], await a_legal_number(world, seat))
    await next_step(world, step)


async def test_a_game_in_a_thread_tells_its_turns_there_and_its_result_in_the_channel(world: World) -> None:
    players = ("ana", "ben")
    lobby, thread = await start_in_thread(world, players, thread=True)
    assert thread.name == "The Number · table 1" and thread.parent_id == world.general.id
    assert f"its turns are in the thread <#{thread.id}>" in world.fake.visible_text(lobby)  # the lobby says where
    assert (await world.bot.store.load_game(1)).thread_id == thread.id  # stored: a restart goes on in it
    # a command typed in the thread finds the table (the thread is the table's channel)
    score = await (await world.users["ben"].slash(thread, "score")).wait()
    assert score.ephemeral and "Ana" in score.text() and "no game" not in score.text().lower()
    busy = await (await world.users["cy"].slash(thread, "thenumber start")).wait()
    assert busy.ephemeral and busy.content.startswith("There is already")  # one table per channel and thread
    # the turn message's button works in the thread
    chosen = await world.modal("ana", await a_legal_number(world, 0), turn_message(world, thread))
    assert (await world.answer(chosen)).startswith("Locked in")
    acknowledged = await world.dm("ben", await a_legal_number(world, 1))
    assert f"<#{thread.id}>" in acknowledged  # the DM's answer points to where the game is played
    await next_step(world, 0)
    while (await world.bot.service.table(1)).running:
        await play_turn(world, players)
    channel = texts(world, world.general)
    final = await eventually(lambda: [m for m in world.fake.messages(world.general) if m.id != lobby.id],
                             what="the final result in the channel")
    assert len(final) == 1 and "Play again" in str(final[0].components), channel  # nothing else in the channel
    told = texts(world, thread)
    assert sum(" · reveal" in text for text in told) >= 9 and not any(CHOOSE in t for t in channel)
    assert told[-1] == f"The game is over: the result is in <#{world.general.id}>."
    # /score after the game, from the thread, finds it too
    after = await (await world.users["ana"].slash(thread, "score")).wait()
    assert "Ana" in after.text()


async def test_a_restart_mid_game_goes_on_in_the_thread(world: World) -> None:
    players = ("ana", "ben", "cy")
    lobby, thread = await start_in_thread(world, players, thread=True)
    await play_turn(world, players)
    await world.dm("ana", await a_legal_number(world, 0))
    in_thread = len(world.fake.messages(thread))
    await world.restart()  # killed while turn 2 waits for ben and cy
    await world.dm("ben", await a_legal_number(world, 1))
    await world.dm("cy", await a_legal_number(world, 2))
    await next_step(world, 1)
    await eventually(lambda: "turn 3 of" in world.fake.visible_text(turn_message(world, thread) or lobby),
                     what="turn 3 in the thread")
    assert len(world.fake.messages(thread)) > in_thread
    assert [m.id for m in world.fake.messages(world.general)] == [lobby.id]  # the channel keeps only the lobby
    # a deadline after the restart is told in the thread too
    await world.advance(61)
    await next_step(world, 2)
    await eventually(lambda: "turn 4 of" in world.fake.visible_text(turn_message(world, thread) or lobby),
                     what="turn 4 in the thread")
    assert [m.id for m in world.fake.messages(world.general)] == [lobby.id]


async def test_without_the_permission_it_says_so_once_and_plays_in_the_channel(world: World) -> None:
    world.general.overwrites.append({"id": str(BOT_USER_ID), "type": 1, "allow": "0",
                                     "deny": str(CREATE_PUBLIC_THREADS)})
    lobby = await world.open_table(("ana", "ben"), thread=True)
    await (await world.users["ana"].click(lobby, "Start")).wait()
    status = await eventually(lambda: turn_message(world, world.general), what="the turn message in the channel")
    assert world.fake.world.messages[lobby.id].thread_id is None
    said = [t for t in texts(world, world.general) if "thread" in t]
    assert said == ["I could not open a thread for this table (I need the **Create Public Threads** and **Send "
                    "Messages in Threads** permissions): the game is played here in the channel instead."]
    assert status.channel_id == world.general.id and (await world.bot.store.load_game(1)).thread_id is None


async def test_discord_refusing_the_thread_is_told_and_the_game_plays_in_the_channel(world: World) -> None:
    """The interaction said nothing against it, Discord refuses (403): the same line, the same game."""
    world.fake.fail_next("POST", r"/messages/\d+/threads$", 403, 50013)
    lobby = await world.open_table(("ana", "ben"), thread=True)
    await (await world.users["ana"].click(lobby, "Start")).wait()
    await eventually(lambda: turn_message(world, world.general), what="the turn message in the channel")
    assert sum("could not open a thread" in t for t in texts(world, world.general)) == 1


async def test_server_threads_is_the_default_of_start(world: World) -> None:
    refused = await (await world.users["ana"].slash(world.general, "server threads", on=True)).wait()
    assert "Only members with Manage Server" in refused.content
    assert "play in their channel" in (await (await world.users["ana"].slash(world.general, "server threads")
                                              ).wait()).content
    admin = world.fake.add_user("admin", display_name="Admin")
    world.fake.add_member(world.guild, admin, permissions=["manage_guild"])
    world.users["admin"] = admin
    turned_on = await (await admin.slash(world.general, "server threads", on=True)).wait()
    assert "play in a thread of their own" in turned_on.content and turned_on.ephemeral
    _, thread = await start_in_thread(world, ("ana", "ben"))  # no option: the server's default
    assert turn_message(world, thread) is not None and turn_message(world, world.general) is None


async def test_numeri_in_a_thread_edits_its_living_message_there_and_ends_in_the_channel(world: World) -> None:
    """A game told in one living message (not in reports): its turns in the thread, its final in the channel."""
    from tests.numeri_discord import TURN_TITLE, finals, press, turn_step

    lobby = await open_lobby(world, "numeri start", ("ana",), ai_players=1, thread=True)
    await (await world.users["ana"].click(lobby, "Start")).wait()
    thread = await eventually(lambda: world.fake.world.messages[lobby.id].thread_id and thread_of(world, lobby),
                              what="the table's thread")
    assert thread.name == "Numeri · table 1"

    def turn_in_thread(after: int) -> Message | bool | None:
        if finals(world):  # the final message, in the channel
            return True
        return next((m for m in reversed(world.fake.messages(thread))
                     if TURN_TITLE.match(title_of(m)) and (turn_step(m) or -1) > after), None)

    step = -1
    while (message := await eventually(lambda s=step: turn_in_thread(s), what="a turn or the end")) is not True:
        assert isinstance(message, Message)
        step = turn_step(message)  # type: ignore[assignment]
        assert (await (await press(world.users["ana"], message, -1)).wait()).response_type == 7
    assert [m.id for m in world.fake.messages(world.general)] == [lobby.id, finals(world)[0].id]
    over = f"The game is over: the result is in <#{world.general.id}>."
    await eventually(lambda: texts(world, thread)[-1] == over, what="the thread's closing line")
