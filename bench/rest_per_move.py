"""REST calls per move for the table games, counted from the fake Discord's request log.

Numeri (issue 13.3: a move costs at most 2 REST calls outside the interaction's own response): two players
press their moves on the turn messages; per move, the calls from the press to the next turn message (or the
final message) are counted, the interaction callbacks and webhooks apart.

Binomial: two players place by DM, the second one 3 s after the first (so the "who has placed" refresh of
the status message falls between); per roll, the channel calls and the DM acknowledgements are counted
from the first placement to the next roll shown in the same message. Per colloquium round likewise, the
declarations made by DM, until the next round's message (or the final one).

Driven like tests/test_discord_numeri.py (the World helper, a fake clock, ``scheduler.fire_due``); no
timing is measured, only counts, so the figures do not depend on the machine.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path
from typing import Any

from tests.binomial_discord import numerology_messages, settled
from tests.binomial_discord import start_binomial as start_binomial_game
from tests.binomial_discord import table as binomial_table
from tests.conftest import FakeClock
from tests.discord_world import World, eventually, make_world
from tests.fakediscord import FakeDiscord
from tests.numeri_discord import next_turn, press, start_numeri, turn_step, whose_turn

from .common import Figure, summary

PLAYERS = ("ana", "ben")
INTERACTION = re.compile(r"^/(interactions|webhooks)/")
NUMERI_LIMIT = 2


def _count(requests: list[Any], dm_channels: set[str]) -> dict[str, int]:
    counts = {"interaction": 0, "dm": 0, "channel": 0}
    for request in requests:
        if INTERACTION.match(request.path):
            counts["interaction"] += 1
        elif any(f"/channels/{c}/" in request.path for c in dm_channels) or request.path == "/users/@me/channels":
            counts["dm"] += 1
        else:
            counts["channel"] += 1
    return counts


async def _world(tmp: Path, name: str) -> tuple[FakeDiscord, World]:
    fake = FakeDiscord()
    await fake.start()
    world = await make_world(fake, tmp / f"{name}.sqlite3", FakeClock(), names=(*PLAYERS, "cy"))
    return fake, world


def _dm_ids(world: World) -> set[str]:
    return {str(world.fake.dm_channel(world.users[n]).id) for n in PLAYERS}


async def numeri_moves(tmp: Path, limit: int | None) -> list[dict[str, int]]:
    fake, world = await _world(tmp, "numeri")
    try:
        await start_numeri(world, PLAYERS, turn_seconds=120)
        step, moves = -1, []
        while (message := await next_turn(world, step)) is not None and (limit is None or len(moves) < limit):
            step = turn_step(message)  # type: ignore[assignment]
            name = whose_turn(world, message, PLAYERS)
            mark = len(fake.requests)
            await (await press(world.users[name], message)).wait()
            await next_turn(world, step)
            await asyncio.sleep(0.05)  # the last call of the move lands
            moves.append(_count(fake.requests[mark:], _dm_ids(world)))
        return moves
    finally:
        await world.stop_bot()
        await fake.stop()


async def binomial_steps(tmp: Path, rounds_limit: int | None) -> tuple[list[dict[str, int]], list[dict[str, int]]]:
    fake, world = await _world(tmp, "binomial")
    try:
        await start_binomial_game(world, PLAYERS, turn_seconds=120)
        rolls: list[dict[str, int]] = []
        rounds: list[dict[str, int]] = []
        while (current := await binomial_table(world)).state.kind == "place":
            await settled(world)
            mark, step = len(fake.requests), current.step
            for i, name in enumerate(PLAYERS):
                seat = current.record.seat_of(world.users[name].id).seat  # type: ignore[union-attr]
                await world.dm(name, current.game.legal(current.state, seat)[0]["cell"])
                if i == 0:
                    await world.advance(3)  # the second player is slower: the status refresh falls between
            await eventually(lambda s=step: world.bot.service._tables[1].step > s, what="the next roll")
            await settled(world)
            await asyncio.sleep(0.05)
            rolls.append(_count(fake.requests[mark:], _dm_ids(world)))
        assert len(numerology_messages(world)) == 1
        while (current := await binomial_table(world)).running and (rounds_limit is None or
                                                                      len(rounds) < rounds_limit):
            await settled(world)
            mark, done = len(fake.requests), len(current.state.history)
            while (now := await binomial_table(world)).running and len(now.state.history) == done:
                await settled(world)
                (seat,) = now.prompt.seats  # type: ignore[union-attr]
                name = next(n for n in PLAYERS if now.record.seat_of(world.users[n].id).seat == seat)  # type: ignore[union-attr]
                legal = now.game.legal(now.state, seat)
                await world.dm(name, "pass" if len(legal) < 2 or seat else str(legal[1]["number"]))
            await settled(world)
            await asyncio.sleep(0.05)
            rounds.append(_count(fake.requests[mark:], _dm_ids(world)))
        return rolls, rounds
    finally:
        await world.stop_bot()
        await fake.stop()


async def _run(quick: bool) -> list[Figure]:
    with tempfile.TemporaryDirectory(prefix="bench-rest-") as tmp:
        moves = await numeri_moves(Path(tmp), 12 if quick else None)
        rolls, rounds = await binomial_steps(Path(tmp), 3 if quick else None)
    outside = [m["channel"] + m["dm"] for m in moves]
    worst = max(outside)
    callbacks = summary([m["interaction"] for m in moves])["median"]
    figures = [Figure(
        "rest_numeri_per_move", "REST: calls per Numeri move outside the interaction's own response", "calls",
        summary(outside), f"<= {NUMERI_LIMIT} (max over moves)", worst <= NUMERI_LIMIT,
        f"{len(moves)} moves; worst {worst}; interaction callbacks {callbacks:.0f} per move (median)")]
    for key, label, per in (("roll", "roll (2 placements by DM)", rolls), ("round", "colloquium round", rounds)):
        channel = [r["channel"] for r in per]
        figures.append(Figure(
            f"rest_binomial_per_{key}", f"REST: channel calls per Binomial {label}", "calls", summary(channel),
            note=f"{len(per)} {key}s; worst {max(channel)}; DM answers {summary([r['dm'] for r in per])['median']:.0f}"
                 " per " + key + " (median), counted apart: each answers the player's own DM"))
    return figures


def run(quick: bool = False) -> list[Figure]:
    return asyncio.run(_run(quick))


if __name__ == "__main__":
    for figure in run(quick=True):
        print(figure.key, figure.stats["median"], figure.stats["max"], figure.met, figure.note)
