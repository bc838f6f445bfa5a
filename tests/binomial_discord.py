"""Helpers for playing Binomial through the shared front end in the Discord tests."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.core.table import Table, fold
from bot.games.binomial.game import GAME
from bot.games.binomial.rules import show
from tests.discord_world import World, buttons, eventually, open_lobby, start_lobby
from tests.fakediscord import Message, title_of
from tests.fakediscord.state import BOT_USER_ID

STEP_ID = re.compile(r"play:binomial:(?P<id>\d+):(?P<step>\d+):")
NUMEROLOGY = re.compile(r"Binomial(?: · game \d+ of \d+)? · numerology")  # a match's titles name the game


def bot_messages(world: World) -> list[Message]:
    return [m for m in world.fake.messages(world.general) if m.author_id == BOT_USER_ID]


def title(message: Message) -> str:
    return title_of(message)


def step_of(message: Message) -> int | None:
    for button in buttons(message):
        match = STEP_ID.match(button.get("custom_id", ""))
        if match:
            return int(match["step"])
    return None


def finals(world: World) -> list[Message]:
    return [m for m in bot_messages(world) if title(m).startswith("Binomial · game over")]


def shows_reveal(text: str, rnd: int) -> bool:
    """Whether ``text`` shows round ``rnd``'s reveal: as the round's closed message, titled with it
    ("Binomial · round 3 of 16 · reveal"), or told inside another message ("**Reveal of round 3**: ...")."""
    return f"round {rnd} of 16 · reveal" in text or f"Reveal of round {rnd}**" in text


def reveal_in_body(rnd: int) -> str:
    """Round ``rnd``'s reveal title as it reads in a request's JSON body (for ``hold_next(body_has=...)``)."""
    return json.dumps(f"round {rnd} of 16 · reveal")[1:-1]


def numerology_messages(world: World) -> list[Message]:
    return [m for m in bot_messages(world) if NUMEROLOGY.match(title(m))]


async def open_binomial(world: World, players: tuple[str, ...] = ("ana", "ben"), **options: Any) -> Message:
    return await open_lobby(world, "binomial start", players, **options)


async def start_binomial(world: World, players: tuple[str, ...] = ("ana", "ben"), **options: Any) -> None:
    await start_lobby(world, "binomial start", players, **options)


async def table(world: World, game_id: int = 1) -> Table:
    assert world.bot is not None
    return await world.bot.service.table(game_id)


async def settled(world: World, game_id: int = 1) -> Message | None:
    """Once the channel shows the current step: its turn message (None once the final message is up)."""
    current = await table(world, game_id)
    if not current.running:
        await eventually(lambda: finals(world), what="the final message")
        return None

    def find() -> Message | None:
        # The step is read at every look: a chance step (a roll) is drawn right after the step before it,
        # so a step read once may be one that never gets a message of its own.
        now = world.bot.service._tables.get(game_id, current)
        return next((m for m in reversed(bot_messages(world)) if step_of(m) == now.step), None)
    return await eventually(find, what="the turn message of the current step")  # type: ignore[no-any-return]


async def through_numerology(world: World, kind: str) -> Table:
    """Let the timers play the 16 rolls until the colloquium asks for ``kind`` ("declare", or "pick" in the
    dark variant); the table then."""
    for _ in range(40):
        if (await table(world)).state.kind == kind:
            break
        await world.advance(31)
    current = await table(world)
    assert current.state.kind == kind, current.state.kind
    return current


def seat_of(world: World, current: Table, name: str) -> int:
    seated = current.record.seat_of(world.users[name].id)
    assert seated is not None
    return seated.seat


def unused_numbers(current: Table) -> dict[int, set[str]]:
    """Per seat, its unused numbers as every message writes them (`37`), minus the ones already public."""
    public = {show(n) for f in current.state.history for _, n in f.fighters}
    return {seat: {f"`{show(n)}`" for n in sheet.unused if show(n) not in public}
            for seat, sheet in enumerate(current.state.sheets)}


def every_version(message: Message) -> list[str]:
    """The text of each version a message had (posts and edits)."""
    from tests.fakediscord.visible import visible_text

    return [visible_text(snapshot) for snapshot in message.history] + [visible_text(message)]


async def stored_result(world: World, game_id: int = 1) -> Any:
    assert world.bot is not None
    record = await world.bot.store.load_game(game_id)
    state, _ = fold(GAME, record)
    return GAME.result(state)
