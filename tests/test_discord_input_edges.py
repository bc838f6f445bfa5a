"""Typed and forged input every game reads the same way (issue 34, points 10, 11, 12 and 15): full-width
digits, a DM far too long to quote, a select value or a custom_id the bot never offered, a button pressed by
someone not at the table. Driven through the real discord.py against the local fake Discord."""

from __future__ import annotations

import dataclasses

import pytest

from tests.binomial_discord import settled, start_binomial, step_of, table
from tests.discord_world import World, buttons, eventually
from tests.numeri_discord import next_turn, press, start_numeri, turn_step, whose_turn

PLAYERS = ("ana", "ben")


async def numeri_mover(world: World) -> tuple[str, int]:
    await start_numeri(world, PLAYERS)
    message = await next_turn(world)
    assert message is not None
    return whose_turn(world, message, PLAYERS), turn_step(message) or 0


async def test_numeri_reads_full_width_digits_as_every_game_does(world: World) -> None:
    name, step = await numeri_mover(world)
    current = await table(world)
    token = current.game.legal(current.state, current.state.current)[0]["moves"][0]
    wide = chr(ord("０") + token)  # "２": a Japanese keyboard's digit
    answer = await world.dm(name, wide)
    assert "Type the token" not in answer, answer
    await next_turn(world, step)
    assert (await table(world)).step > step


async def test_binomial_reads_a_full_width_cell(world: World) -> None:
    await start_binomial(world, PLAYERS)
    message = await settled(world)
    assert message is not None
    answer = await world.dm("ana", "３ｂ")  # full-width 3b
    assert "is not a cell" not in answer and "3b" in answer, answer
    current = await table(world)
    assert current.drafts[0] == {"cell": "3b"}


@pytest.mark.parametrize("game", ["numeri", "binomial"])
async def test_a_long_bad_dm_is_answered_with_a_short_quote(world: World, game: str) -> None:
    if game == "numeri":
        name, _ = await numeri_mover(world)
    else:
        await start_binomial(world, PLAYERS)
        await settled(world)
        name = "ana"
    for length in (1_950, 10_000):
        answer = await world.dm(name, "z" * length)
        assert len(answer) <= 2000
        assert "z" * 20 in answer and "z" * 100 not in answer, answer[:200]


async def test_a_forged_select_value_is_refused_as_never_offered(world: World) -> None:
    await start_binomial(world, PLAYERS)
    message = await settled(world)
    assert message is not None
    step = step_of(message)
    opened = await (await world.users["ana"].click(message, buttons(message)[0]["custom_id"])).wait()
    assert opened.message is not None and opened.ephemeral
    pick = f"play:binomial:1:{step}:pick"
    # a client that rewrote the private view into a select of its own (what a forged request carries)
    screen = dataclasses.replace(opened.message, components=[{"type": 1, "components": [
        {"type": 3, "custom_id": pick, "options": [{"label": "-", "value": "0"}]}]}])
    for value in ("²", "99", "-1", "1.0", "٣"):
        data = {"custom_id": pick, "component_type": 3, "values": [value]}
        refused = await (await world.users["ana"]._dispatch(3, world.general, data, screen)).wait()
        assert refused.ephemeral and "not one of the choices" in refused.content, (value, refused.text())
    assert (await table(world)).drafts == {}  # nothing was taken
    # a forged button index too (the turn is still running: not "That turn is over")
    forged = dataclasses.replace(message, components=[{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "x", "custom_id": f"play:binomial:1:{step}:{i}"}]} for i in ("40", "٣")])
    for custom_id in (f"play:binomial:1:{step}:40", f"play:binomial:1:{step}:٣"):
        data = {"custom_id": custom_id, "component_type": 2}
        refused = await (await world.users["ana"]._dispatch(3, world.general, data, forged)).wait()
        assert refused.ephemeral and "not one of the choices" in refused.content, (custom_id, refused.text())


async def test_someone_not_seated_is_told_they_are_not_at_this_table(world: World) -> None:
    await numeri_mover(world)
    message = await next_turn(world)
    assert message is not None
    refused = await (await press(world.users["cy"], message)).wait()
    assert refused.ephemeral and "You are not playing in this game" in refused.content, refused.text()
    assert "turn" not in refused.content


async def test_a_deleted_channel_tells_every_numeri_player(world: World) -> None:
    await numeri_mover(world)
    await world.fake.delete_channel(world.general)
    for name in PLAYERS:  # ben's DMs are open here: both hear it, not only the host
        note = await eventually(lambda n=name: [m for m in world.fake.dms(world.users[n])
                                                if "was stopped" in m.content])
        assert "channel was deleted" in note[0].content
