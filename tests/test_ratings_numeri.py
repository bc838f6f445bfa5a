"""A game whose end is told by its presenter's final card (Numeri, on the shared front end) carries its rating
changes too: a whole game of two humans by buttons on the local fake Discord."""

from __future__ import annotations

import re

from tests.discord_world import World
from tests.numeri_discord import finals, next_turn, press, start_numeri, stored_result, turn_step, whose_turn

PLAYERS = ("ana", "ben")


async def test_the_final_message_of_numeri_shows_the_rating_changes(world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=120)
    step = -1
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message)
        assert step is not None
        name = whose_turn(world, message, PLAYERS)
        await (await press(world.users[name], message)).wait()
        await next_turn(world, step)
    result = await stored_result(world)
    final = world.fake.visible_text(finals(world)[0])
    assert "Ratings on this server" in final and "AI players are not rated" in final
    changes = {}
    for seat, name in enumerate(PLAYERS):
        display = world.users[name].user.display_name
        found = re.search(rf"{display}: ([+−])(\d+) → \*\*(\d),(\d\d\d)\?\*\*", final)
        assert found, final
        sign, delta, after = found[1], int(found[2]), int(found[3] + found[4])
        changes[seat] = delta if sign == "+" else -delta
        assert after == 1500 + changes[seat]  # a first game: from 1,500
    if len(result.winners) == 1:
        (winner,) = result.winners
        assert changes[winner] > 0 > changes[1 - winner] and changes[winner] == -changes[1 - winner]
    else:
        assert changes == {0: 0, 1: 0}
