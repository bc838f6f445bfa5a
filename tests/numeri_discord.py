"""Helpers for playing Numeri through the shared front end in the Discord tests."""

from __future__ import annotations

import re
from typing import Any

from bot.core.table import fold
from bot.games.numeri.game import GAME
from tests.discord_world import World, eventually, open_lobby, start_lobby
from tests.discord_world import buttons as buttons  # the tests' own reading of a turn message's buttons
from tests.fakediscord import InteractionResult, Message, SimUser, title_of
from tests.fakediscord.users import walk_components

TURN_ID = re.compile(r"play:numeri:(?P<id>\d+):(?P<step>\d+):(?P<index>\d+|choose)")


def turn_step(message: Message) -> int | None:
    for item in walk_components(message.components):
        match = TURN_ID.fullmatch(item.get("custom_id", ""))
        if match:
            return int(match["step"])
    return None


def offered(message: Message) -> list[tuple[int, str]]:
    """Every move a turn message offers, by choice index (the legal list's order): a one-token move's button,
    or a split's option in the select under them; with its label."""
    found = []
    for item in walk_components(message.components):
        match = TURN_ID.fullmatch(item.get("custom_id", ""))
        if match and match["index"] != "choose":
            found.append((int(match["index"]), str(item.get("label"))))
        elif match:
            found.extend((int(o["value"]), str(o["label"])) for o in item.get("options") or [])
    return sorted(found)


async def press(user: SimUser, message: Message, n: int = 0) -> InteractionResult:
    """Play the ``n``-th move ``message`` offers (as ``offered`` lists them): its button, or its select option."""
    index, _ = offered(message)[n]
    target = next(item for item in walk_components(message.components)
                  if (match := TURN_ID.fullmatch(item.get("custom_id", ""))) is not None
                  and match["index"] in (str(index), "choose")
                  and (match["index"] != "choose" or str(index) in {o["value"] for o in item.get("options") or []}))
    if target.get("type") == 3:
        return await user.select(message, target["custom_id"], [str(index)])
    return await user.click(message, target["custom_id"])


TURN_TITLE = re.compile(r"Numeri · turn \d+ · ")


def turn_messages(world: World) -> list[Message]:
    """The bot's messages showing a turn (the living message, while it asks for a move)."""
    return [m for m in world.fake.messages(world.general)
            if TURN_TITLE.match(title_of(m))]


def finals(world: World) -> list[Message]:
    return [m for m in world.fake.messages(world.general)
            if "game over" in title_of(m)]


async def open_numeri(world: World, players: tuple[str, ...] = ("ana", "ben"), **options: Any) -> Message:
    return await open_lobby(world, "numeri start", players, **options)


async def start_numeri(world: World, players: tuple[str, ...] = ("ana", "ben"), **options: Any) -> None:
    await start_lobby(world, "numeri start", players, **options)


async def next_turn(world: World, after: int = -1) -> Message | None:
    """The newest turn message for a step after ``after`` (None once the final message is up)."""
    def find() -> Message | bool | None:
        if finals(world):
            return True
        for message in reversed(turn_messages(world)):
            step = turn_step(message)
            if step is not None and step > after:
                return message
        return None
    found = await eventually(find, timeout=10, what="the next turn message or the final message")
    return None if found is True else found  # type: ignore[return-value]


def whose_turn(world: World, message: Message, players: tuple[str, ...]) -> str:
    title = title_of(message)
    return next(name for name in players if world.users[name].user.display_name in title)


async def stored_result(world: World, game_id: int = 1) -> Any:
    assert world.bot is not None
    record = await world.bot.store.load_game(game_id)
    state, _ = fold(GAME, record)
    return GAME.result(state)
