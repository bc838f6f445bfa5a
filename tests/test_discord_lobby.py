"""The lobby on Discord: start, join, leave, start, cancel, DMs, permissions, one game per channel."""


import pytest

from tests.discord_world import World, buttons, eventually

pytestmark = pytest.mark.dm_blocked("cy")


async def test_start_posts_a_lobby_with_buttons(world: World) -> None:
    opened = await (await world.users["ana"].slash(world.general, "thenumber start", turn_seconds=90)).wait()
    assert not opened.ephemeral
    text = opened.text()
    assert "join the table" in text and "Ana (host)" in text and "1 min 30 s per turn" in text
    labels = [c.get("label") for c in buttons(opened.message)]
    assert labels[:4] == ["Join", "Leave", "Start", "Cancel"]


async def test_join_dms_instructions_or_explains_the_button_when_dms_are_blocked(world: World) -> None:
    lobby = await world.open_table(("ana",))
    joined = await (await world.users["ben"].click(lobby, "Join")).wait()
    assert joined.response_type == 7 and "Ben" in world.fake.visible_text(joined.message)
    dm = await eventually(lambda: world.fake.dms(world.users["ben"]), what="ben's DM")
    assert "send me your three-digit number" in world.fake.visible_text(dm[0])

    blocked = await (await world.users["cy"].click(lobby, "Join")).wait()
    followups = await blocked.wait_followups(1)
    assert followups[0].ephemeral and "Choose secretly" in followups[0].content
    assert "Cy" in world.fake.visible_text(world.fake.world.messages[lobby.id])  # still seated


async def test_only_the_host_starts_and_two_players_are_needed(world: World) -> None:
    lobby = await world.open_table(("ana",))
    alone = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert alone.ephemeral and "At least 2 players" in alone.content
    await (await world.users["ben"].click(lobby, "Join")).wait()
    assert "3-5 play best" in world.fake.visible_text(world.fake.world.messages[lobby.id])
    not_host = await (await world.users["ben"].click(lobby, "Start")).wait()
    assert not_host.ephemeral and not_host.content == "Only the host can start the game."
    started = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert started.response_type == 7 and "has started" in started.text()
    status = await eventually(world._status_or_none, what="the first status message")
    assert "round 1 of 2 · turn 1 of 5" in world.fake.visible_text(status)


async def test_one_game_per_channel_and_one_game_per_player(world: World) -> None:
    await world.open_table(("ana", "ben"))
    busy = await (await world.users["dee"].slash(world.general, "thenumber start")).wait()
    assert busy.ephemeral and "already a game in this channel" in busy.content
    other = world.fake.add_channel(world.guild, "other")
    elsewhere = await (await world.users["ben"].slash(other, "thenumber start")).wait()
    assert elsewhere.ephemeral and f"You are already playing in <#{world.general.id}>" in elsewhere.content


async def test_leave_and_join_by_command(world: World) -> None:
    lobby = await world.open_table(("ana",))
    joined = await (await world.users["ben"].slash(world.general, "thenumber join")).wait()
    assert joined.ephemeral and "took a seat" in joined.content
    await eventually(lambda: "Ben" in world.fake.visible_text(world.fake.world.messages[lobby.id]))
    left = await (await world.users["ben"].slash(world.general, "thenumber leave")).wait()
    assert left.ephemeral and "left the table" in left.content
    await eventually(lambda: "Ben" not in world.fake.visible_text(world.fake.world.messages[lobby.id]))
    again = await (await world.users["ben"].click(lobby, "Leave")).wait()
    assert again.ephemeral and again.content == "You are not playing in this game."


async def test_cancel_by_host_or_manager_only(world: World) -> None:
    lobby = await world.open_table(("ana", "ben"))
    refused = await (await world.users["ben"].click(lobby, "Cancel")).wait()
    assert refused.ephemeral and "Only the host can cancel" in refused.content
    manager = world.fake.add_user("mod", display_name="Mod")
    world.fake.add_member(world.guild, manager, permissions=["manage_guild"])
    cancelled = await (await manager.click(lobby, "Cancel")).wait()
    assert cancelled.response_type == 7 and "Cancelled by Mod" in cancelled.text()
    assert buttons(world.fake.world.messages[lobby.id]) == []
    fresh = await (await world.users["ben"].slash(world.general, "thenumber start")).wait()
    assert not fresh.ephemeral  # the channel is free again


async def test_rules_are_the_products_own_words_with_the_bonus_table(world: World) -> None:
    shown = await (await world.users["eve"].slash(world.general, "thenumber rules")).wait()
    assert shown.ephemeral
    text = shown.text()
    assert "turn 1: +2 · turn 2: +3 · turn 3: +4 · turn 4: +6 · turn 5: +8" in text
    assert "eliminated" in text and "count" in text
