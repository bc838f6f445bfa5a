"""A choice's hot path sends its requests without building discord.py's message objects (cogs/table/lean.py),
and falls back to discord.py's public API where the library's internals differ (``lean.AVAILABLE`` False).
Both ways a player reads the same: the turn message updated with who has chosen, the private line naming the
number, a refusal in private, the reveal, the next turn message."""

from __future__ import annotations

import pytest

from cogs.table import lean
from tests.discord_world import World, eventually
from tests.fakediscord import Message


def seen(world: World, message: Message) -> str:
    return world.fake.visible_text(message)


@pytest.mark.parametrize("lean_requests", [True, False], ids=["lean", "public-api"])
async def test_a_turn_by_modal_reads_the_same_with_or_without_the_lean_requests(
        world: World, monkeypatch: pytest.MonkeyPatch, lean_requests: bool) -> None:
    monkeypatch.setattr(lean, "AVAILABLE", lean_requests)
    status = await world.start_game(("ana", "ben"))
    first = await world.modal("ana", "513", status)
    assert first.response_type == 7, first.text()  # the turn message updated as the submission's answer
    assert "513" in await world.answer(first)
    assert "To choose: 🔺 Ana, 🔷 Ben" not in seen(world, status)  # updated by that very answer
    assert "⏳ To choose: 🔷 Ben" in seen(world, status)
    assert "513" not in seen(world, status)  # the number stays private
    changed = await world.modal("ana", "514", status)
    assert "514" in await world.answer(changed)
    refused = await world.modal("ana", "5x4", status)
    refusal = await world.answer(refused)
    assert refusal and "5x4" not in seen(world, status)
    await world.dm("ben", "240")
    reveal = await eventually(lambda: world.reveals(), what="the reveal")
    assert "`514` 🔺 Ana" in seen(world, reveal[0])
    assert not world.fake.violations
