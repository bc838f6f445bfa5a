"""Issue 36: a move that is the only legal one is played at once and told (Numeri's ``auto_play``, on unless the
host starts with ``auto_play:False``): no turn message waits for it, it is stored before it is told, and it is
told once, also when the bot died between the two. The real discord.py against the local fake Discord."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.fold import step_rng
from bot.core.table import Table
from bot.games.numeri.game import GAME
from tests.discord_world import World, eventually
from tests.fakediscord.state import BOT_USER_ID
from tests.numeri_discord import finals, next_turn, offered, press, start_numeri, turn_step, whose_turn

pytestmark = pytest.mark.dm_blocked()
PLAYERS = ("ana", "ben")
TOLD = "the only possible move, played at once"


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixed game (its seed is drawn in secret): these tests need turns with a single legal move."""
    monkeypatch.setattr("bot.core.service.secrets.randbits", lambda bits: 7)


async def whole_game(world: World, **options: object) -> list[int]:
    """Play the first move of every turn message; returns how many moves each one offered."""
    await start_numeri(world, PLAYERS, turn_seconds=120, **options)
    step, counts = -1, []
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message)
        assert step is not None
        counts.append(len(offered(message)))
        await (await press(world.users[whose_turn(world, message, PLAYERS)], message)).wait()
    return counts


async def reasons(world: World) -> list[str]:
    return [payload["reason"] for payload in (await world.bot.service.table(1)).steps]


def forced_lines(world: World) -> list[str]:
    """Every line telling a forced move, in any version of any channel message (each version of the living
    message keeps the last moves, so a line shows in several versions: told once means one distinct line)."""
    lines: list[str] = []
    for message in world.fake.messages(world.general):
        for version in [*message.history, message]:
            for line in world.fake.visible_text(version).splitlines():
                if TOLD in line and line not in lines:
                    lines.append(line)
    return lines


async def test_by_default_a_forced_move_does_not_wait_and_is_told(world: World, seeded: None) -> None:
    counts = await whole_game(world)
    forced = (await reasons(world)).count("only")
    assert forced >= 1, "seed 7 meets no single legal move: pick another seed"
    assert 1 not in counts, counts  # no turn message ever asked a press for the only move
    assert len(forced_lines(world)) == forced, forced_lines(world)  # each one told, in a line of its own


async def test_auto_play_off_keeps_waiting_for_the_press(world: World, seeded: None) -> None:
    counts = await whole_game(world, auto_play=False)
    assert "only" not in await reasons(world)
    assert 1 in counts, counts  # the single move waited for its button, as the host asked
    assert not forced_lines(world)


def forced_after(table: Table, action: dict[str, Any]) -> int:
    """How many forced moves the service plays right after ``action``, its rolls drawn as the service draws
    them (fixed by the game's seed and the step)."""
    state, n, forced = GAME.apply(table.state, {table.state.current: action})[0], table.step + 1, 0
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            state = GAME.apply(state, {None: dict(GAME.chance(state, step_rng(table.seed, n)))})[0]
        else:
            legal = GAME.legal(state, state.current)
            if len(legal) != 1:
                break
            state, forced = GAME.apply(state, {state.current: legal[0]})[0], forced + 1
        n += 1
    return forced


async def test_a_forced_move_stored_but_never_told_is_told_once_after_restarts(world: World, seeded: None) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=120)
    step = -1
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message) or 0
        table = await world.bot.service.table(1)
        mover = whose_turn(world, message, PLAYERS)
        action = GAME.legal(table.state, table.state.current)[0]
        if forced_after(table, action) == 1 and not any(TOLD in text for text in world.channel_text()):
            break
        await (await press(world.users[mover], message)).wait()
    else:
        raise AssertionError("seed 7 meets no move followed by a single forced one: pick another seed")
    # The bot dies after storing the move and the forced move that follows it, before telling anyone.
    await world.bot.service.act(1, world.users[mover].id, action=action, phase=step)
    assert (await reasons(world))[step:].count("only") == 1  # stored: the move, a roll, the forced move, a roll
    posted = len([m for m in world.fake.messages(world.general) if m.author_id == BOT_USER_ID])
    await world.restart()
    await eventually(lambda: sum(text.count(TOLD) for text in world.channel_text()) == 1 and
                     (finals(world) or (turn_step(message_now(world, message)) or 0) > step),
                     what="the forced move told after the restart")
    await world.restart()
    assert sum(text.count(TOLD) for text in world.channel_text()) == 1, world.channel_text()
    after = [m for m in world.fake.messages(world.general) if m.author_id == BOT_USER_ID]
    assert len(after) == posted + len(finals(world))  # the living message edited: nothing posted but the end


def message_now(world: World, message: Any) -> Any:
    return world.fake.world.messages[message.id]
