"""Issue 36: reminders that always come (a DM, else a mention that pings only the awaited player; /notify), and
the words a player may DM during any game (help, rules, board, score, quit)."""

from __future__ import annotations

import pytest

from tests.discord_world import World, eventually
from tests.numeri_discord import start_numeri, turn_messages, turn_step, whose_turn

pytestmark = pytest.mark.dm_blocked("eve")


def reminders(world: World, name: str) -> list[str]:
    return [m.content for m in world.fake.dms(world.users[name]) if "⏰" in m.content]


def mentions_of(world: World) -> list[tuple[str, list[int]]]:
    """Channel posts that ping someone: (their text, whom they ping)."""
    return [(m.content, list(m.mention_ids)) for m in world.fake.messages(world.general) if m.mention_ids]


async def test_the_number_reminds_the_awaited_player_by_dm_even_when_someone_chose_by_dm(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    assert (await world.dm("ana", "513")).startswith("Locked in")  # a DM choice: the step's spare call is spent
    await world.modal("ben", "240")
    await world.advance(31)
    await eventually(lambda: reminders(world, "cy"), what="cy's reminder DM")
    assert "29 s left" in reminders(world, "cy")[0] and f"<#{world.general.id}>" in reminders(world, "cy")[0]
    assert reminders(world, "ana") == [] and reminders(world, "ben") == []  # only the awaited player
    await world.advance(5)
    assert len(reminders(world, "cy")) == 1  # once per step


async def test_closed_dms_get_a_mention_that_pings_only_them(world: World) -> None:
    await world.start_game(("ana", "ben", "eve"))
    await world.modal("ana", "513")
    await world.advance(31)
    pinged = await eventually(lambda: mentions_of(world), what="the mention for eve")
    assert pinged == [(pinged[0][0], [world.users["eve"].id])]  # one post, pinging eve alone
    assert f"<@{world.users['eve'].id}>" in pinged[0][0] and "29 s left" in pinged[0][0]
    assert reminders(world, "ben") and not reminders(world, "ana")


async def test_notify_turns_dm_reminders_and_mentions_off(world: World) -> None:
    shown = await (await world.users["cy"].slash(world.general, "notify")).wait()
    assert shown.ephemeral and "by DM **on**" in shown.content and "reaches you **on**" in shown.content
    off = await (await world.users["cy"].slash(world.general, "notify", dm=False)).wait()
    assert "by DM **off**" in off.content and "reaches you **on**" in off.content
    await world.start_game(("ana", "ben", "cy"))
    await world.modal("ana", "513")
    await world.modal("ben", "240")
    await world.advance(31)
    pinged = await eventually(lambda: mentions_of(world), what="the mention for cy (DMs turned off)")
    assert [ids for _, ids in pinged] == [[world.users["cy"].id]] and reminders(world, "cy") == []
    await (await world.users["cy"].slash(world.general, "notify", mention=False)).wait()
    await world.advance(31)  # the deadline: turn 2 starts
    await world.wait_status("turn 2 of 5")
    await world.modal("ana", "620")
    await world.modal("ben", "431")
    await world.advance(31)
    await eventually(lambda: "⏰" in world.fake.visible_text(world.status_message()), what="turn 2's reminder line")
    assert len(mentions_of(world)) == 1 and reminders(world, "cy") == []  # cy asked for nothing: nothing


async def test_dm_words_in_the_number(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    help_text = await world.dm("ana", "help")
    assert "You are playing The Number" in help_text and "`quit`" in help_text and "407" in help_text
    assert "three" in (await world.dm("ana", "?"))
    assert "how to play" in await world.dm("ana", "rules")
    board = await world.dm("ana", "board")
    assert "Ana" in board and "not a number" not in board
    score = await world.dm("ana", "score")
    assert "Ben" in score and "not a number" not in score
    refused = await world.dm("ana", "hello")
    assert "three digits" in refused and "`help`" in refused  # what may be sent now
    confirm = await world.dm("cy", "quit")
    assert "forfeits" in confirm and "`quit yes`" in confirm
    table = await world.bot.service.table(1)
    assert table.record.seat_of(world.users["cy"].id) is not None  # asking changed nothing
    left = await world.dm("cy", "quit yes")
    assert "You left the game" in left
    table = await world.bot.service.table(1)
    assert table.record.seat_of(world.users["cy"].id) is None or table.seat(2).state == "left"


async def test_dm_words_in_numeri(world: World) -> None:
    await start_numeri(world, ("ana", "ben"))
    message = await eventually(lambda: turn_messages(world) and turn_messages(world)[-1], what="a turn")
    assert turn_step(message) is not None
    name = whose_turn(world, message, ("ana", "ben"))
    help_text = await world.dm(name, "help")
    assert "You are playing Numeri" in help_text and "split" in help_text
    assert "Type the token" not in await world.dm(name, "score")
    assert "Type the token" not in await world.dm(name, "board")
    confirm = await world.dm(name, "leave")
    assert "`quit yes`" in confirm
