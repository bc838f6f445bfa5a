"""Messages posted before The Number moved onto the shared front end carry ``tn:`` custom_ids: their buttons,
select and modal keep answering after the upgrade (the contract of issue 12)."""

from typing import Any

import discord

from tests.discord_world import World, eventually


async def post_old_message(world: World, *items: discord.ui.Item[Any]) -> Any:
    """A message as the bot posted it before the upgrade, with its ``tn:`` components."""
    assert world.bot is not None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    sent = await world.bot.get_partial_messageable(world.general.id).send("an old message", view=view)
    return world.fake.world.messages[sent.id]


async def test_an_old_lobby_join_button_seats_the_player(world: World) -> None:
    lobby = await world.open_table(("ana",))
    old = await post_old_message(world, discord.ui.Button(label="Join", custom_id="tn:join:1"))
    joined = await (await world.users["ben"].click(old, "Join")).wait()
    assert joined.response_type == 7, joined.rejections
    record = await world.bot.store.load_game(1)  # type: ignore[union-attr]
    assert [s.name for s in record.seated] == ["Ana", "Ben"]
    assert lobby.id != old.id


async def test_an_old_ai_select_adds_an_ai_player(world: World) -> None:
    await world.open_table(("ana",))
    select = discord.ui.Select(custom_id="tn:ai:1", options=[discord.SelectOption(label="easy", value="easy")])
    old = await post_old_message(world, select)
    added = await (await world.users["ana"].select(old, "tn:ai:1", ["easy"])).wait()
    assert added.response_type == 7, added.rejections
    record = await world.bot.store.load_game(1)  # type: ignore[union-attr]
    assert [s.ai_level for s in record.seated] == [None, "easy"]


async def test_an_old_choose_button_opens_the_modal_and_the_number_counts(world: World) -> None:
    await world.start_game(("ana", "ben"))
    old = await post_old_message(world, discord.ui.Button(label="Choose secretly", custom_id="tn:choose:1:0"))
    opened = await (await world.users["ana"].click(old, "Choose secretly")).wait()
    assert opened.response_type == 9, opened.text()
    answer = await (await world.users["ana"].submit_modal(opened, {"number": "513"})).wait()
    assert answer.ephemeral and answer.content.startswith("Locked in 513"), answer.content
    await world.dm("ben", "240")
    reveal = await eventually(lambda: world.reveals(), what="the reveal")
    assert "`513` 🔺 Ana" in world.fake.visible_text(reveal[0])
    stale = await (await world.users["ana"].click(old, "Choose secretly")).wait()  # its turn is over now
    assert stale.ephemeral and "That turn is already over" in stale.content


async def test_an_old_modal_submitted_after_the_upgrade_counts_for_its_turn(world: World) -> None:
    status = await world.start_game(("ana", "ben"))
    # A modal opened from an old message, before the upgrade (custom_id tn:pick, text input "number"),
    # submitted now: sent as Discord sends a modal submission (the client keeps it open across the restart).
    data = {"custom_id": "tn:pick:1:0",
            "components": [{"type": 1, "components": [{"type": 4, "custom_id": "number", "value": "513"}]}]}
    answer = await (await world.users["ana"]._dispatch(5, world.general, data, status)).wait()
    assert (await world.answer(answer)).startswith("Locked in 513"), answer.text()
    table = await world.bot.service.table(1)  # type: ignore[union-attr]
    assert table.drafts == {0: {"number": "513"}}
