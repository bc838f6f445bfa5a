"""A database file deleted or replaced under the running bot (issue 34, point 16): no choice is acknowledged
after it, one log line says it, the players are told in the channel, and the bot stops with exit status 3 so a
supervisor starts it again. The real bot against the local fake Discord."""

from __future__ import annotations

import logging
import os
import shutil

import pytest

from tests.discord_world import World, eventually
from tests.numeri_discord import next_turn, start_numeri, whose_turn

PLAYERS = ("ana", "ben")


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_database_file_gone_under_the_bot_stops_it_before_any_acknowledgement(
        world: World, caplog: pytest.LogCaptureFixture, how: str) -> None:
    await start_numeri(world, PLAYERS)
    message = await next_turn(world)
    assert message is not None
    mover = whose_turn(world, message, PLAYERS)
    table = await world.bot.service.table(1)
    moves = table.game.legal(table.state, table.state.current)[0]["moves"]
    if how == "deleted":
        os.remove(world.db_path)
    else:  # a cleanup script puts an old copy in its place
        shutil.copy(world.db_path, f"{world.db_path}.old")
        os.replace(f"{world.db_path}.old", world.db_path)
    bot = world.bot
    answer = await world.dm(mover, " ".join(map(str, moves)))
    assert answer != "Done." and "could not save" in answer, answer  # not acknowledged
    await eventually(lambda: bot.is_closed(), what="the bot stopping")
    assert bot.exit_code == 3  # type: ignore[attr-defined]
    said = [t for t in world.channel_text() if "database file was deleted or replaced" in t]
    assert len(said) == 1
    lines = [r for r in caplog.records if r.levelno >= logging.ERROR and "deleted or replaced" in r.getMessage()]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    world.bot = bot  # let the fixture's teardown close it again (a no-op)


async def test_the_watch_alone_notices_it_within_a_moment(world: World) -> None:
    await start_numeri(world, PLAYERS)
    await next_turn(world)
    bot = world.bot
    os.remove(world.db_path)
    await eventually(lambda: bot.is_closed(), what="the bot stopping without any request")
    assert bot.exit_code == 3  # type: ignore[attr-defined]
