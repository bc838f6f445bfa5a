"""The table's messages are Components V2 (issue 36, point 2): a container per table state in an accent colour
saying whose move it is, the board in a media gallery with its facts as alt text, within Discord's limits by
construction; and a message posted before the upgrade (embeds, action rows) still answers, edited into V2 the
way Discord requires (content and embeds cleared beside the flag)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.seats import seat_style
from cogs.table.components import choices_view, lobby_view, sealed_view
from cogs.table.layout import MAX_COMPONENTS, MAX_TEXT, Drawn, answer_fields, count, embeds_of, render, without_inputs
from cogs.table.presenter import Card, Choice, Picture
from tests.discord_world import World, buttons, eventually
from tests.fakediscord import Message, alt_texts, title_of
from tests.fakediscord.limits import check_message, walk
from tests.fakediscord.spec import SpecValidator
from tests.fakediscord.state import MESSAGE_FLAG_COMPONENTS_V2
from tests.numeri_discord import next_turn, start_numeri, turn_step, whose_turn

PLAYERS = ("ana", "ben")


def containers(message: Message) -> list[dict[str, Any]]:
    return [c for c in message.components if c.get("type") == 17]


def galleries(message: Message) -> list[dict[str, Any]]:
    return [c for c in walk(message.components) if c.get("type") == 12]


async def test_a_numeri_turn_message_is_a_v2_container_in_the_movers_colour_with_the_board_and_its_alt_text(
        world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=120)
    turn = await next_turn(world)
    assert turn is not None
    assert turn.flags & MESSAGE_FLAG_COMPONENTS_V2 and not turn.content and not turn.embeds
    (box,) = containers(turn)
    mover = whose_turn(world, turn, PLAYERS)
    seat = PLAYERS.index(mover)  # seats in the order the players sat down
    assert box["accent_color"] == seat_style(seat).colour.value  # whose move it is
    (gallery,) = galleries(turn)
    (item,) = gallery["items"]
    assert item["media"]["url"] == f"attachment://{turn.attachments[0].filename}"
    assert "Board:" in item["description"] and "Board:" in " ".join(alt_texts(turn))
    assert "Board:" not in world.fake.visible_text(turn)  # the board's facts are alt text, not a text copy
    assert buttons(turn) and len(walk(turn.components)) <= MAX_COMPONENTS
    assert not world.fake.violations


def make_old(message: Message, colour: int = 0x1ABC9C) -> None:
    """Turn ``message`` (in the fake's store) into the shape the bot posted before the upgrade: its title and
    text as an embed, its buttons (same custom_ids) in action rows, no V2 flag."""
    old_buttons = buttons(message)
    text = "\n".join(c["content"] for c in walk(message.components) if c.get("type") == 10)
    message.embeds = [{"type": "rich", "title": title_of(message), "description": text[:4000], "color": colour}]
    message.components = [{"type": 1, "components": old_buttons[i:i + 5]} for i in range(0, len(old_buttons), 5)]
    message.flags &= ~MESSAGE_FLAG_COMPONENTS_V2
    message.content = ""


async def test_a_numeri_message_posted_before_the_upgrade_still_moves_and_becomes_v2(world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=120)
    turn = await next_turn(world)
    assert turn is not None
    step = turn_step(turn)
    make_old(turn)
    assert turn.embeds and not turn.flags & MESSAGE_FLAG_COMPONENTS_V2
    mover = whose_turn(world, turn, PLAYERS)
    pressed = await (await world.users[mover].click(turn, buttons(turn)[0]["custom_id"])).wait()
    assert pressed.response_type in (6, 7) and not pressed.rejections, pressed.rejections
    after = await eventually(lambda: turn.flags & MESSAGE_FLAG_COMPONENTS_V2 or None, what="the message made V2")
    assert after and not turn.embeds and not turn.content and containers(turn)
    table = await world.bot.service.table(1)  # type: ignore[union-attr]
    assert table.step > (step or 0)  # the old message's button moved
    assert not world.fake.violations


async def test_a_the_number_turn_message_posted_before_the_upgrade_still_takes_a_number(world: World) -> None:
    status = await world.start_game(("ana", "ben"))
    make_old(status, colour=discord.Colour.blurple().value)
    opened = await (await world.users["ana"].click(status, buttons(status)[0]["custom_id"])).wait()
    assert opened.response_type == 9, opened.text()
    answer = await (await world.users["ana"].submit_modal(opened, {"number": "513"})).wait()
    assert not answer.rejections, answer.rejections
    # the submission's answer updates the old message (who has chosen): into V2, its embeds cleared
    await eventually(lambda: turn_is_v2(status), what="the old turn message updated into V2")
    assert not status.embeds and not status.content and buttons(status)
    await world.dm("ben", "240")
    reveal = await eventually(lambda: world.reveals(), what="the reveal")
    assert "`513` 🔺 Ana" in world.fake.visible_text(reveal[0])
    assert not world.fake.violations


def turn_is_v2(message: Message) -> bool:
    return bool(message.flags & MESSAGE_FLAG_COMPONENTS_V2)


async def test_the_fake_refuses_a_v2_edit_that_keeps_the_old_content(world: World) -> None:
    """Discord's rule the bot follows: legacy fields cannot stay beside the flag (and the flag stays)."""
    assert world.bot is not None
    channel = world.bot.get_partial_messageable(world.general.id)
    sent = await channel.send("an old message", embed=discord.Embed(title="old"))
    layout = render(Card(embeds=(discord.Embed(title="new", description="text"),)))
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(view=layout)  # content and embeds not cleared
    assert refused.value.status == 400
    assert world.fake.world.messages[sent.id].embeds  # a refused edit changes nothing
    await sent.edit(content=None, embeds=[], view=layout)
    stored = world.fake.world.messages[sent.id]
    assert stored.flags & MESSAGE_FLAG_COMPONENTS_V2 and title_of(stored) == "new"
    with pytest.raises(discord.HTTPException):
        await sent.edit(content="back to text")  # the flag stays: no content on a V2 message


def largest_card() -> Card:
    """More than any table state holds: ten embeds of 25 fields and long texts, pictures, a content line."""
    embeds = []
    for i in range(10):
        embed = discord.Embed(title=f"Title {i}", description="d" * 4000, colour=seat_style(i).colour)
        for j in range(25):
            embed.add_field(name=f"field {j}", value="v" * 1000)
        embed.set_footer(text=f"game {i}")
        embed.set_image(url=f"attachment://board{i}.png")
        embeds.append(embed)
    pictures = tuple(Picture(f"board{i}.png", b"png", "Board: " + "x" * 900) for i in range(10))
    return Card("⏰ 30 s left " * 100, tuple(embeds), pictures)


@pytest.mark.parametrize("inputs", ["choices", "lobby", "sealed", "none"])
def test_the_largest_table_state_fits_discords_limits_by_construction(inputs: str) -> None:
    view = {"choices": choices_view("numeri", 7, 3, tuple(Choice(f"move {i}", (i,)) for i in range(40))),
            "lobby": lobby_view("numeri", 7, ("easy", "normal", "hard"), "en", open_seats=True),
            "sealed": sealed_view("thenumber", 7, 3, "Choose secretly"), "none": None}[inputs]
    layout = render(largest_card(), view)
    assert count(layout) <= MAX_COMPONENTS and layout.content_length() <= MAX_TEXT
    body = {"flags": MESSAGE_FLAG_COMPONENTS_V2, "components": layout.to_components(),
            "attachments": [{"id": i, "filename": f"board{i}.png"} for i in range(10)]}
    check_message(body)  # the fake's Discord limits: raises on any
    validator = SpecValidator()
    if validator.available:
        assert validator.validate("post", "/channels/{channel_id}/messages", body) == []
    shown = {c["custom_id"] for c in walk(body["components"]) if c.get("custom_id")}
    assert view is None or shown == {getattr(i, "custom_id", None) or i.item.custom_id for i in view.children
                                     if isinstance(i, discord.ui.DynamicItem)}


async def test_a_v2_message_reads_back_as_the_embeds_it_was_drawn_from_and_closes_without_its_inputs(
        world: World) -> None:
    """What a restart and a close rely on: the message as discord.py receives it (posted, then fetched)."""
    assert world.bot is not None
    embed = discord.Embed(title="Numeri · turn 3 · Ana", description="Ana rolled 4.", colour=0x1ABC9C)
    embed.add_field(name="Players", value="🔺 Ana\n🔷 Ben")
    embed.set_footer(text="Numeri · game 7")
    channel = world.bot.get_partial_messageable(world.general.id)
    sent = await channel.send(view=render(Card("⏰ 30 s", (embed,)), sealed_view("numeri", 7, 3, "Choose")))
    message = await channel.fetch_message(sent.id)
    (back,) = embeds_of(message)
    assert (back.title, back.description, back.footer.text) == (embed.title, embed.description, embed.footer.text)
    assert [(f.name, f.value) for f in back.fields] == [("Players", "🔺 Ana\n🔷 Ben")]
    assert back.colour is not None and back.colour.value == 0x1ABC9C
    await message.edit(**without_inputs(message))
    stored = world.fake.world.messages[sent.id]
    assert not buttons(stored) and "Ana rolled 4." in world.fake.visible_text(stored)
    assert "⏰ 30 s" in world.fake.visible_text(stored) and not world.fake.violations


def test_a_picture_dropped_from_a_post_leaves_no_gallery_naming_it() -> None:
    """Without Attach Files the post goes without its pictures: no component may name the missing file."""
    embed = discord.Embed(title="Numeri · turn 2 · Ana", description="Ana rolled 3.")
    embed.set_image(url="attachment://numeri-board.png")
    with_picture = render(Card(embeds=(embed,), pictures=(Picture("numeri-board.png", b"png", "Board: …"),)))
    assert [c for c in walk(with_picture.to_components()) if c.get("type") == 12]
    without = render(Card(embeds=(embed,)))
    assert not [c for c in walk(without.to_components()) if c.get("type") == 12]


def drawn_cards() -> list[Card]:
    """Cards of every shape a turn message or a close takes: a line alone, one embed (with its footer, fields, an
    image), several in their seats' colours (one without a colour, one of colour 0), a picture no embed shows,
    nothing at all, and more than Discord holds (folded, merged, cut)."""
    status = discord.Embed(title="Round 1 · turn 2", description="To choose: Ana, Ben", colour=0x5865F2)
    status.set_footer(text="The Number · game 12")
    board = discord.Embed(title="Numeri · turn 3 · Ana", description="Ana rolled 4.", colour=seat_style(1).colour)
    board.add_field(name="Players", value="🔺 Ana\n🔷 Ben")
    board.set_image(url="attachment://numeri-board.png")
    plain = discord.Embed(description="no title, no colour")
    black = discord.Embed(title="black", colour=0)
    picture = Picture("numeri-board.png", b"png", "Board: 1 2 3")
    return [Card("⏰ 30 s left"), Card(embeds=(status,)), Card("⏰ 30 s left", (status,)),
            Card(embeds=(board, status), pictures=(picture,)), Card(embeds=(plain, black)),
            Card(embeds=(status,), pictures=(Picture("chart.png", b"png", "the race"),)), Card(), largest_card()]


@pytest.mark.parametrize("inputs", ["choices", "few", "select", "lobby", "sealed", "none"])
def test_a_drawn_layout_sends_exactly_what_the_rendered_one_sends(inputs: str) -> None:
    """An interaction's update sends the layout drawn straight as components (Drawn): the very components
    render's LayoutView sends, for every card and inputs, and the real layout when asked."""
    view = {"choices": choices_view("numeri", 7, 3, tuple(Choice(f"move {i}", (i,)) for i in range(40))),
            "few": choices_view("numeri", 7, 3, (Choice("roll", (0,), primary=True), Choice("stop", (1,)))),
            "select": choices_view("numeri", 7, 3, tuple(Choice(f"m{i}", (i,), select="pick") for i in range(3))),
            "lobby": lobby_view("numeri", 7, ("easy", "normal", "hard"), "en", open_seats=True),
            "sealed": sealed_view("thenumber", 7, 3, "Choose secretly"), "none": None}[inputs]
    for card in drawn_cards():
        drawn = answer_fields(card, view)["view"]
        assert isinstance(drawn, Drawn) and drawn.has_components_v2()
        assert drawn.to_components() == render(card, view).to_components()
        assert drawn.layout().to_components() == render(card, view).to_components()
