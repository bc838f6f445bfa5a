"""Abuse (outsiders, other games' buttons, spam, out-of-range options) and the secrecy of pending numbers."""

import logging
import re

import pytest

from tests.discord_world import World, eventually
from tests.fakediscord import SimulationError


async def test_outsiders_and_other_games_cannot_act(world: World) -> None:
    await world.start_game(("ana", "ben"))
    answer = await world.dm("cy", "123")
    assert "not in a game" in answer
    other = world.fake.add_channel(world.guild, "other")
    opened = await (await world.users["cy"].slash(other, "thenumber start")).wait()
    await (await world.users["dee"].click(opened.message, "Join")).wait()
    await (await world.users["cy"].click(opened.message, "Start")).wait()
    # ana clicks the other game's button; cy clicks ana's game's button
    other_status = await eventually(lambda: [m for m in world.fake.messages(other)
                                             if "Choose secretly" in world.fake.visible_text(m)])
    wrong = await (await world.users["ana"].click(other_status[-1], "Choose secretly")).wait()
    assert wrong.ephemeral and wrong.content == "You are not playing in this game."
    wrong = await (await world.users["cy"].click(world.status_message(), "Choose secretly")).wait()
    assert wrong.ephemeral and wrong.content == "You are not playing in this game."
    # a modal opened by ben cannot be submitted by ana (Discord's client would not let her)
    opened_modal = await (await world.users["ben"].click(world.status_message(), "Choose secretly")).wait()
    with pytest.raises(SimulationError):
        await world.users["ana"].submit_modal(opened_modal, {"number": "123"})
    # an outsider cannot use the host's controls on this game either
    kicked = await (await world.users["eve"].slash(world.general, "thenumber kick", player=world.users["ana"])).wait()
    assert kicked.ephemeral and "Only the host" in kicked.content


async def test_out_of_range_options_are_refused_by_discord_and_by_the_bot(world: World) -> None:
    with pytest.raises(SimulationError):
        await world.users["ana"].slash(world.general, "thenumber start", turn_seconds=5)
    with pytest.raises(SimulationError):
        await world.users["ana"].slash(world.general, "thenumber start", ai_players=9)
    # A client that ignores the declared range: the bot checks again.
    command = next(c for c in world.fake.world.commands[None] if c["name"] == "thenumber")
    data = {"id": command["id"], "name": "thenumber", "type": 1, "options": [
        {"name": "start", "type": 1, "options": [{"name": "turn_seconds", "type": 4, "value": 5}]}]}
    forged = await (await world.users["ana"]._dispatch(2, world.general, data)).wait()
    assert forged.ephemeral and "15-3600" in forged.content
    assert await world.bot.store.open_game_in_channel(world.general.id) is None


async def test_fifty_choices_in_a_second_are_throttled_and_the_last_valid_one_wins(world: World) -> None:
    await world.start_game(("ana", "ben"))
    cog = world.bot.get_cog("Table")
    # the product's throttle (3 answers per 5 s), which the other tests raise so fast play is not held back
    cog.inbox.throttle.burst, cog.inbox.throttle.window = 3, 5.0  # type: ignore[union-attr]
    numbers = [f"{n:03d}" for n in range(100, 150)]
    numbers[-1] = "12x"  # the very last one is not valid
    for text in numbers:
        await world.users["ana"].send_dm(text)
    await eventually(lambda: any("not a number" in m.content for m in world.fake.dms(world.users["ana"])),
                     what="the answer to the newest message, once the window frees")
    table = await world.bot.service.table(1)
    assert table.drafts[0] == {"number": "148"}  # the last valid choice wins
    await eventually(lambda: not cog.inbox.holding_answers(), what="the held answer sent")  # type: ignore[union-attr]
    answers = [m.content for m in world.fake.dms(world.users["ana"])
               if m.content.startswith(("Locked", "Changed", "That is not"))]
    assert len(answers) == 3 + 1  # the burst, then one answer about the newest message
    assert answers[-1].startswith("That is not a number you can play")


PENDING = {"ana": "468", "ben": "579", "cy": "802"}


async def test_no_pending_number_reaches_anyone_but_its_author(world: World,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    await world.start_game(("ana", "ben", "cy", "dee"))
    await world.dm("ana", PENDING["ana"])
    await world.modal("ben", PENDING["ben"])
    await world.dm("cy", "8O2")  # a typo first: the refusal echoes only to its author
    await world.dm("cy", PENDING["cy"])
    await world.advance(3)  # status refresh
    for name in ("ana", "ben", "cy", "dee"):
        for command, options in (("score", {}), ("score", {"public": True}), ("digits", {})):
            await (await world.users[name].slash(world.general, command, **options)).wait()
        await (await world.users[name].slash(world.general, "digits", player=world.users["ana"])).wait()
    # everything each person could see before the reveal
    public = "\n".join(world.fake.visible_text(m) for m in world.fake.messages(world.general))
    for author, number in PENDING.items():
        pattern = re.compile(rf"(?<!\d){number}(?!\d)")
        assert not pattern.search(public), f"{author}'s number is public"
        for name, user in world.users.items():
            if name == author:
                continue
            private = [world.fake.visible_text(m) for m in world.fake.ephemeral_for(user) + world.fake.dms(user)]
            assert not any(pattern.search(text) for text in private), f"{name} saw {author}'s number"
        logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
        assert not any(pattern.search(line) for line in logged), f"{author}'s number was logged"
    assert world.reveals() == []
