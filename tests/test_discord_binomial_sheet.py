"""Issue 36: Binomial's rolls on one private sheet per player. Once a player opened it (Place secretly), each next
roll edits that private message into the new roll's cells: one click per placement, no new private message."""

from __future__ import annotations

import pytest

from tests.binomial_discord import buttons, settled, start_binomial, table
from tests.discord_world import World, eventually

pytestmark = pytest.mark.dm_blocked()

PLAYERS = ("ana", "ben")


async def test_a_roll_edits_the_open_private_sheet_and_costs_one_click(world: World) -> None:
    await start_binomial(world, PLAYERS)
    message = await settled(world)
    assert message is not None
    opened = {name: await (await world.users[name].click(message, "Place secretly")).wait() for name in PLAYERS}
    sheets = {name: opened[name].message for name in PLAYERS}
    assert all(sheet is not None and sheet.ephemeral_user_id for sheet in sheets.values())
    private_before = {name: len(world.fake.ephemeral_for(world.users[name])) for name in PLAYERS}
    cells = {"ana": iter(["1a", "1b", "2a", "2b"]), "ben": iter(["8b", "8a", "7b", "7a"])}
    for roll in range(1, 5):
        current = await table(world)
        step = current.step
        for name in PLAYERS:
            sheet = world.fake.world.messages[sheets[name].id]
            ids = [b["custom_id"] for b in buttons(sheet)]
            assert ids and all(f":{step}:" in i for i in ids), (roll, ids)  # this roll's cells, on the same sheet
            pressed = await (await world.users[name].click(sheet, next(cells[name]))).wait()
            assert pressed.response_type == 7 and "goes in" in pressed.content  # the one click answers on the sheet
        await eventually(lambda s=step: world.bot.service._tables[1].step > s, what=f"roll {roll + 1}")
        await eventually(lambda s=step: all(
            any(f":{(world.bot.service._tables[1]).step}:" in b["custom_id"]
                for b in buttons(world.fake.world.messages[sheets[n].id])) for n in PLAYERS),
            what="the sheets edited into the next roll")
    for name in PLAYERS:  # four rolls placed, and not one private message more than the sheet itself
        assert len(world.fake.ephemeral_for(world.users[name])) == private_before[name]
    assert not world.fake.violations
