"""Table rules on Discord: the host role passes on, a game left with one player is abandoned, no game
outside a server, forged options, the bot removed from a server, channel permissions, a clock set back."""

import random

import pytest

from tests.discord_world import World, buttons, eventually
from tests.fakediscord import Message, SimulationError
from tests.fakediscord.users import walk_components


def lobby_text(world: World, lobby: Message) -> str:
    return world.fake.visible_text(world.fake.world.messages[lobby.id])


# The host leaves -----------------------------------------------------------------------------------
async def test_the_host_leaving_the_lobby_passes_the_role_to_the_next_player(world: World) -> None:
    lobby = await world.open_table(("ana", "ben", "cy"))
    left = await (await world.users["ana"].click(lobby, "Leave")).wait()
    assert left.response_type == 7
    text = lobby_text(world, lobby)
    assert "Ana left the table: Ben is the host now." in text and "Ben (host)" in text
    assert "Seats (2/5)" in text
    refused = await (await world.users["ana"].click(lobby, "Start")).wait()  # she is not even playing
    assert refused.ephemeral and refused.content == "Only the host can start the game."
    not_host = await (await world.users["cy"].click(lobby, "Start")).wait()
    assert not_host.ephemeral and not_host.content == "Only the host can start the game."
    started = await (await world.users["ben"].click(lobby, "Start")).wait()
    assert started.response_type == 7 and "has started" in started.text()


async def test_the_host_leaving_by_command_and_the_last_one_closes_the_lobby(world: World) -> None:
    lobby = await world.open_table(("ana", "ben"))
    left = await (await world.users["ana"].slash(world.general, "thenumber leave")).wait()
    assert left.ephemeral and "left the table" in left.content
    await eventually(lambda: "Ben is the host now" in lobby_text(world, lobby), what="the new host named")
    assert (await world.bot.store.open_game_in_channel(world.general.id)).host_id == world.users["ben"].id
    await (await world.users["ben"].slash(world.general, "thenumber leave")).wait()
    await eventually(lambda: "Everyone left; the table is closed." in lobby_text(world, lobby),
                     what="the closed lobby")
    assert buttons(world.fake.world.messages[lobby.id]) == []
    assert await world.bot.store.open_game_in_channel(world.general.id) is None


async def test_a_host_leaving_a_running_game_passes_the_role_on(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    await (await world.users["ana"].slash(world.general, "thenumber leave")).wait()
    record = await world.bot.store.open_game_in_channel(world.general.id)
    assert record.status == "running" and record.host_id == world.users["ben"].id
    kicked = await (await world.users["ben"].slash(world.general, "thenumber kick", player=world.users["cy"])).wait()
    assert kicked.ephemeral and "Cy no longer plays" in kicked.content


# Fewer than two seats ------------------------------------------------------------------------------
async def test_a_game_left_with_one_player_is_abandoned_and_counts_in_no_statistic(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.play_turn({"ana": "513", "ben": "222"})
    left = await (await world.users["ben"].slash(world.general, "thenumber leave")).wait()
    assert left.ephemeral and "abandoned" in left.content
    notice = await eventually(lambda: [t for t in world.channel_text() if "The game is abandoned" in t],
                              what="the abandoned notice")
    assert "counts in no statistic" in notice[0]
    record = await world.bot.store.load_game(1)
    assert record.status == "cancelled" and record.end_reason.startswith("abandoned")
    assert buttons(world.status_message()) == []  # no Choose button left on the last turn
    assert (await world.dm("ana", "406")).startswith("You are not in a game")
    stats = world.bot.get_cog("TableStats").stats  # type: ignore[union-attr]
    await stats.refresh(every_guild=True)
    assert await stats.all_results() == []
    fresh = await (await world.users["ana"].slash(world.general, "thenumber start")).wait()
    assert not fresh.ephemeral  # the channel is free again


async def test_kicking_down_to_one_player_abandons_but_three_minus_one_goes_on(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    await (await world.users["cy"].slash(world.general, "thenumber leave")).wait()
    assert (await world.bot.store.load_game(1)).status == "running"
    kicked = await (await world.users["ana"].slash(world.general, "thenumber kick", player=world.users["ben"])).wait()
    assert kicked.ephemeral and "abandoned" in kicked.content
    assert (await world.bot.store.load_game(1)).end_reason.startswith("abandoned")


async def test_a_person_left_alone_with_one_ai_plays_on_but_an_ai_alone_does_not(world: World) -> None:
    await world.start_game(("ana", "ben"), ai_players=1)
    await (await world.users["ben"].slash(world.general, "thenumber leave")).wait()
    assert (await world.bot.store.load_game(1)).status == "running"  # Ana and the AI: two seats
    await (await world.users["ana"].slash(world.general, "thenumber leave")).wait()
    assert (await world.bot.store.load_game(1)).end_reason.startswith("abandoned")


# No game outside a server --------------------------------------------------------------------------
async def test_the_commands_are_not_offered_in_dms_and_refused_if_forged(world: World) -> None:
    synced = next(c for c in world.fake.world.commands[None] if c["name"] == "thenumber")
    assert synced["contexts"] == [0] and synced["dm_permission"] is False
    with pytest.raises(SimulationError):
        await world.users["ana"].slash(None, "thenumber start")
    forged = await (await world.users["ana"].slash(None, "thenumber start", forged=True)).wait()
    assert forged.ephemeral and "played in a server" in forged.content
    assert await world.bot.store.open_game_of_user(world.users["ana"].id) is None
    joined = await (await world.users["ana"].slash(None, "thenumber join", forged=True)).wait()
    assert joined.ephemeral and "played in a server" in joined.content


# Forged AI levels ----------------------------------------------------------------------------------
async def test_a_forged_ai_level_is_refused_in_the_command_and_in_the_select(world: World) -> None:
    forged = await (await world.users["ana"].slash(world.general, "thenumber start", ai_players=2,
                                                   ai_level="godlike", forged=True)).wait()
    assert forged.ephemeral and "That AI level does not exist; choose one of: easy, normal, hard." in forged.content
    assert await world.bot.store.open_game_in_channel(world.general.id) is None
    lobby = await world.open_table(("ana", "ben"))
    select = next(c for c in walk_components(lobby.components) if c["type"] == 3)
    data = {"custom_id": select["custom_id"], "component_type": 3, "values": ["godlike"]}
    refused = await (await world.users["ana"]._dispatch(3, world.general, data, lobby)).wait()
    assert refused.ephemeral and "does not exist" in refused.content
    assert len((await world.bot.store.load_game(1)).seats) == 2
    started = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert started.response_type == 7


# The bot removed from the server -------------------------------------------------------------------
async def test_removing_the_bot_from_the_server_ends_its_games_and_tells_every_player(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.dm("ana", "513")
    other = world.fake.add_channel(world.guild, "other")
    await (await world.users["cy"].slash(other, "thenumber start")).wait()
    await world.fake.remove_bot(world.guild)
    for name in ("ana", "ben", "cy"):
        await eventually(lambda n=name: [m for m in world.fake.dms(world.users[n])
                                         if "the bot was removed from that server" in m.content],
                         what=f"{name}'s notice")
    assert [g.status for g in (await world.bot.store.load_game(1), await world.bot.store.load_game(2))] == [
        "cancelled", "cancelled"]
    assert (await world.dm("ben", "222")).startswith("You are not in a game")
    assert not world.bot.scheduler.is_scheduled(("deadline", 1))


# Channel permissions -------------------------------------------------------------------------------
@pytest.mark.parametrize(("permission", "named"), [("send_messages", "Send Messages"),
                                                   ("embed_links", "Embed Links"),
                                                   ("attach_files", "Attach Files")])
async def test_start_names_a_missing_channel_permission(world: World, permission: str, named: str) -> None:
    await world.fake.set_bot_permission(world.general, False, permission)
    refused = await (await world.users["ana"].slash(world.general, "thenumber start")).wait()
    assert refused.ephemeral and f"**{named}**" in refused.content
    assert await world.bot.store.open_game_in_channel(world.general.id) is None


async def test_start_is_refused_while_a_permission_is_missing_and_the_lobby_stays(world: World) -> None:
    lobby = await world.open_table(("ana", "ben"))
    await world.fake.set_bot_permission(world.general, False, "send_messages", "attach_files")
    refused = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert refused.ephemeral and "**Send Messages**, **Attach Files**" in refused.content
    assert (await world.bot.store.load_game(1)).status == "lobby"
    await world.fake.set_bot_permission(world.general, True, "send_messages", "attach_files")
    started = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert started.response_type == 7
    await eventually(world._status_or_none, what="the first status message")


async def play_to_the_end(world: World) -> Message:
    rng = random.Random(3)
    for _ in range(10):
        table = await world.bot.service.table(1)
        numbers = {name: "".join(str(rng.choice(sorted(table.state.available(str(seat))))) for _ in range(3))
                   for seat, name in enumerate(("ana", "ben")) if table.state.available(str(seat))}
        await world.play_turn(numbers)
    final = await eventually(lambda: [m for m in world.reveals()
                                      if "The Number · game over" in world.fake.visible_text(m)],
                             what="the final reveal")
    return final[0]


@pytest.mark.parametrize("cache_knows", [True, False])
async def test_the_final_reveal_is_posted_without_the_chart_when_attach_files_is_gone(
        world: World, cache_knows: bool) -> None:
    await world.start_game(("ana", "ben"))
    await world.fake.set_bot_permission(world.general, False, "attach_files")
    if not cache_knows:  # the permission changed but the bot's cache has not heard of it: Discord says 403
        world.bot.get_cog("Table").poster.may_attach = lambda channel_id: True  # type: ignore[union-attr]
    final = await play_to_the_end(world)
    assert final.attachments == [] and "Scores" in world.fake.visible_text(final)
    assert (await world.bot.store.load_game(1)).status == "finished"
    assert not [m for m in world.fake.dms(world.users["ana"]) if "was stopped" in m.content]


# A clock set back ----------------------------------------------------------------------------------
async def test_a_deadline_further_ahead_than_a_turn_is_capped_after_a_restart(world: World) -> None:
    await world.start_game(("ana", "ben"))  # 60 s per turn
    await world.dm("ana", "513")
    await world.stop_bot()
    world.clock.advance(-3600)  # the machine's clock was an hour fast and is set right while the bot is down
    await world.start_bot()
    record = await world.bot.store.load_game(1)
    assert record.deadline == pytest.approx(world.clock.now() + 60)
    await world.advance(61)
    reveal = await eventually(lambda: world.reveals(), what="the reveal one turn length after the restart")
    assert "Ben ⌛ missing" in world.fake.visible_text(reveal[0])
