"""The shared front end's inputs on toy games: a private select behind one button, sealed private buttons."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import EXTENSIONS
from cogs.table.presenter import Inputs, TextInput
from tests.conftest import FakeClock
from tests.discord_world import World, buttons, eventually, make_world
from tests.fakediscord import FakeDiscord, Message, title_of
from tests.toy_games import BIDS, RACE


@pytest.fixture
async def toys(fake_discord: FakeDiscord, db_path: Path, clock: FakeClock) -> AsyncIterator[World]:
    """The bot with the toy games on the shared front end (their package loaded before cogs.table)."""
    options = {"games": (RACE, BIDS), "extensions": (*EXTENSIONS[:-1], "tests.toy_front", EXTENSIONS[-1])}
    world = await make_world(fake_discord, db_path, clock, bot_options=options)
    yield world
    await world.stop_bot()


async def open_toy(world: World, kind: str, players: tuple[str, ...]) -> None:
    opened = await (await world.users[players[0]].slash(world.general, f"{kind} start")).wait()
    lobby = opened.message
    assert lobby is not None, opened.text()
    for name in players[1:]:
        await (await world.users[name].click(lobby, "Join")).wait()
    started = await (await world.users[players[0]].click(lobby, "Start")).wait()
    assert started.response_type == 7, started.text()


def latest(world: World, title: str) -> Message | None:
    for message in reversed(world.fake.messages(world.general)):
        if title in title_of(message) and buttons(message):
            return message
    return None


async def test_a_group_button_opens_a_private_select_and_the_pick_moves(toys: World) -> None:
    await open_toy(toys, "race", ("ana", "ben"))
    for _ in range(5):  # the turn message read may be superseded by a newer one before the click lands
        turn = await eventually(lambda: latest(toys, "'s turn"), what="the race's turn message")
        mover = "ana" if "Ana's turn" in title_of(turn) else "ben"
        opened = await (await toys.users[mover].click(turn, "Move")).wait()
        if "How far?" in opened.text():
            break
    assert opened.ephemeral and "How far?" in opened.text()
    # A die of 1 moves at once (one legal move, no select), so the mover may have moved before: where it stands
    record = await toys.bot.store.open_game_in_channel(toys.general.id)
    assert record is not None
    state = (await toys.bot.service.table(record.id)).state
    private = opened.message or opened.followups[0]
    picked = await (await toys.users[mover].select(private, "How far?", ["0"])).wait()
    assert picked.response_type in (6, 7)
    done = await eventually(lambda: not buttons(toys.fake.world.messages[turn.id]) and
                            toys.fake.world.messages[turn.id], what="the turn message closed")
    assert f"moved 1 to {state.positions[state.turn] + 1}" in toys.fake.visible_text(done)


async def test_sealed_bids_are_chosen_privately_and_no_secret_reaches_the_channel(toys: World) -> None:
    await open_toy(toys, "bids", ("ana", "ben"))
    turn = await eventually(lambda: latest(toys, "round 1"), what="the first round's message")
    table = await toys.bot.service.table(1)
    luckies = [str(x) for x in table.state.lucky]
    for name, bid in (("ana", "3"), ("ben", "5")):
        opened = await (await toys.users[name].click(turn, "Bid secretly")).wait()
        assert opened.ephemeral and "Bid 10" in opened.text()
        private = opened.message or opened.followups[0]
        acked = await (await toys.users[name].click(private, f"Bid {bid}")).wait()
        assert acked.response_type == 7
        if name == "ana":
            assert f"Bid {bid}, secretly" in toys.fake.visible_text(toys.fake.world.messages[private.id])
    await eventually(lambda: latest(toys, "round 2"), what="the second round")
    # the round is told once, in its own closed message (issue 34: a step is not told again in the next one)
    assert "Ana bid 3, Ben bid 5" in toys.fake.visible_text(toys.fake.world.messages[turn.id])
    mine = await (await toys.users["ana"].slash(toys.general, "board")).wait()
    assert f"lucky {luckies[0]}" in mine.text()
    theirs = await (await toys.users["ana"].slash(toys.general, "board", player=toys.users["ben"])).wait()
    assert "no secret shown" in theirs.text()
    for message in toys.fake.messages(toys.general):
        text = toys.fake.visible_text(message)
        assert not any(re.search(rf"(?<!\d){lucky}(?!\d)", text) for lucky in luckies), text


async def test_who_has_bid_is_shown_and_free_text_opens_a_modal(toys: World) -> None:
    await open_toy(toys, "bids", ("ana", "ben"))
    turn = await eventually(lambda: latest(toys, "round 1"), what="the first round's message")
    assert "Ana: waiting" in toys.fake.visible_text(turn)
    # the presenter asks for free text: the private button opens a modal
    presenter = toys.bot.presenters["bids"]
    presenter.inputs = lambda *_: Inputs(private_label="Bid secretly", title="Your bid",  # type: ignore[method-assign]
                                         text=TextInput("Bid", "0 to 10", 1, 2))
    opened = await (await toys.users["ana"].click(turn, "Bid secretly")).wait()
    assert opened.response_type == 9, opened.text()
    refused = await (await toys.users["ana"].submit_modal(opened, {"Bid": "x"})).wait()
    assert refused.ephemeral and "is not a bid" in refused.content
    opened = await (await toys.users["ana"].click(turn, "Bid secretly")).wait()
    acked = await (await toys.users["ana"].submit_modal(opened, {"Bid": "4"})).wait()
    assert "Bid 4, secretly" in await toys.answer(acked)
    assert acked.response_type == 7  # submitted from the turn message: its answer updates who has bid
    shown = toys.fake.visible_text(toys.fake.world.messages[turn.id])
    assert "Ana: has bid" in shown and "Ben: waiting" in shown and "4" not in shown.replace("Toy bids · game #1", "")
