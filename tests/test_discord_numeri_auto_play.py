"""Issue 36: with ``start auto_play:True`` a move that is the only legal one is played at once and told (Numeri);
without it (the default for now) the single move waits for its press."""

from __future__ import annotations

import pytest

from tests.discord_world import World
from tests.numeri_discord import buttons, next_turn, start_numeri, turn_step, whose_turn

pytestmark = pytest.mark.dm_blocked()
PLAYERS = ("ana", "ben")


async def whole_game(world: World, **options: object) -> list[int]:
    """Press the first move of every turn message; returns how many move buttons each one offered."""
    await start_numeri(world, PLAYERS, turn_seconds=120, **options)
    step, offered = -1, []
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message)
        assert step is not None
        moves = buttons(message)
        offered.append(len(moves))
        name = whose_turn(world, message, PLAYERS)
        await (await world.users[name].click(message, moves[0]["custom_id"])).wait()
    return offered


async def steps_by_reason(world: World) -> dict[str, int]:
    table = await world.bot.service.table(1)
    counts: dict[str, int] = {}
    for payload in table.steps:
        counts[payload["reason"]] = counts.get(payload["reason"], 0) + 1
    return counts


async def test_the_only_legal_move_is_played_at_once_and_told(world: World) -> None:
    offered = await whole_game(world, auto_play=True)
    reasons = await steps_by_reason(world)
    assert reasons.get("only", 0) >= 1, reasons  # some turns had a single move: nobody waited for it
    assert 1 not in offered, offered  # no turn message ever asked a press for the only move
    told = "\n".join(world.fake.visible_text(m) for m in world.fake.messages(world.general))
    assert "the only possible move, played at once" in told


async def test_auto_play_off_keeps_waiting_for_the_press(world: World) -> None:
    offered = await whole_game(world)
    assert "only" not in await steps_by_reason(world)
    assert 1 in offered, offered  # the single move waited for its button, as the host asked
