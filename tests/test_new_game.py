"""A new game costs its two packages and its entry in the tuple, nothing else (issue 35).

``tests/newgame`` holds two small games written as a contributor would, from docs/adding-a-game.md, each as its
two packages: a secret-choice game, Highest unique number (``games/hun``, ``cogs/hun``), and a public-turn game,
Nim (``games/nim``, ``cogs/nim``, with an option of its own). The fixture does what a contributor's commit does:
the packages become ``bot.games.<key>`` and ``cogs.<key>`` (found by the key) and the games join the tuple. Then
the checks that walk the tuple run on them too, and each is played on the fake Discord through the shared front
end: commands built from its declaration, private picks or turn buttons, the reveal, the end, /score.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

import bot.games
import cogs
from bot.core.game import Game
from bot.i18n import LANGUAGES, catalog
from tests.conftest import FakeClock
from tests.discord_world import World, eventually, make_world, open_lobby
from tests.fakediscord import FakeDiscord, Message

NEWGAME = Path(__file__).resolve().parent / "newgame"
KEYS = ("hun", "nim")


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Game[Any, Any, Any], ...]]:
    """The tuple with the new game in it, its packages where their key says."""
    monkeypatch.setattr(bot.games, "__path__", [*bot.games.__path__, str(NEWGAME / "games")])
    monkeypatch.setattr(cogs, "__path__", [*cogs.__path__, str(NEWGAME / "cogs")])
    added = tuple(importlib.import_module(f"bot.games.{key}.game").GAME for key in KEYS)
    games = (*bot.games.GAMES, *added)
    monkeypatch.setattr(bot.games, "GAMES", games)  # the tuple entries
    catalog.cache_clear()
    yield games
    catalog.cache_clear()
    ours = tuple(f"{package}.{key}" for package in ("bot.games", "cogs") for key in KEYS)
    for name in [m for m in sys.modules if m.startswith(ours)]:
        del sys.modules[name]


def test_the_checks_over_the_tuple_take_the_new_game(registered: tuple[Game[Any, Any, Any], ...]) -> None:
    from tests import test_engine_purity, test_game_conformance, test_i18n

    for language in LANGUAGES:  # its words: in every language, with the same placeholders, under its key
        test_i18n.test_every_key_exists_in_every_language(language)
        test_i18n.test_every_key_starts_with_its_area(language)
        test_i18n.test_no_core_sentence_names_a_game(language)
    test_i18n.test_placeholders_match_across_languages()
    for game in registered[-len(KEYS):]:
        test_game_conformance.test_the_game_declares_itself(game)
        for seats in test_game_conformance.seat_counts(game):
            for level in range(len(game.ai_levels)):
                test_game_conformance.test_the_ai_plays_every_game_to_the_end((game, seats), level)
            test_game_conformance.test_random_legal_choices_play_to_the_end((game, seats), 1)
        for module in test_engine_purity.package_modules(f"bot.games.{game.key}"):
            assert not [m for m in test_engine_purity.walk(module, set())
                        if m.split(".")[0] in test_engine_purity.FORBIDDEN], module


@pytest.fixture
async def world_of_new(registered: tuple[Game[Any, Any, Any], ...], tmp_path: Path) -> AsyncIterator[World]:
    fake = FakeDiscord()
    await fake.start()
    world = await make_world(fake, tmp_path / "bot.sqlite3", FakeClock(), bot_options={"games": registered})
    try:
        yield world
    finally:
        await world.stop_bot()
        await fake.stop()


def revealed(world: World, round_no: int) -> bool:
    """Whether round ``round_no``'s picks were told in the channel (its reveal line)."""
    return any(line.startswith(f"Round {round_no}: ") and "scores" in line
               for text in world.channel_text() for line in text.splitlines())


def latest(world: World, text: str) -> Message | None:
    found = [m for m in world.fake.messages(world.general) if text in world.fake.visible_text(m)]
    return found[-1] if found else None


async def test_a_secret_choice_game_plays_on_discord_through_the_shared_front_end(world_of_new: World) -> None:
    world = world_of_new
    assert world.bot is not None and {f"cogs.{key}" for key in KEYS} <= set(world.bot.extensions)  # by their keys
    lobby = await open_lobby(world, "hun start", ("ana", "ben", "cy"), turn_seconds=120)
    assert "120 s per round" in world.fake.visible_text(lobby)
    started = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert started.response_type == 7, started.text()
    rng = Random(3)
    for round_no in range(1, 6):
        turn = await eventually(lambda r=round_no: latest(world, f"Round {r}: pick secretly"), what="the round")
        picks = {"ana": 7, "ben": 7, "cy": rng.choice((1, 2, 3))}
        for name, number in picks.items():
            opened = await (await world.users[name].click(turn, "Choose secretly")).wait()
            assert opened.ephemeral, opened.text()
            private = opened.message or opened.followups[0]
            chosen = await (await world.users[name].click(private, str(number))).wait()
            assert not chosen.rejections, chosen.rejections
            if name != "cy":  # not everyone has picked: nothing of the round reaches the channel
                assert not revealed(world, round_no)
                assert chosen.ephemeral or chosen.response_type == 7
        await eventually(lambda r=round_no: revealed(world, r), what="the reveal")
    final = await eventually(lambda: latest(world, "game over"), what="the end")
    text = world.fake.visible_text(final)
    assert "Winner: " in text and "Cy" in text.split("Winner: ")[1]  # 7 and 7 cancel out: the lower unique wins
    score = await (await world.users["ben"].slash(world.general, "score")).wait()
    assert "Scores" in score.text() or "game over" in score.text()
    assert world.fake.violations == []


async def test_a_public_turn_game_plays_on_discord_with_its_own_option(world_of_new: World) -> None:
    world = world_of_new
    lobby = await open_lobby(world, "nim start", ("ana", "ben"), pile=6)  # an option of the game's declaration
    assert "a pile of 6" in world.fake.visible_text(lobby)
    started = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert started.response_type == 7, started.text()
    names = {"Ana": "ana", "Ben": "ben"}
    for pile in (6, 3):  # each takes 3: the second player takes the last counter
        turn = await eventually(lambda p=pile: latest(world, f"'s turn: {p} left"), what="the turn message")
        title = next(line for line in world.fake.visible_text(turn).splitlines() if "'s turn: " in line)
        mover = next(user for name, user in names.items() if name in title.split("'s turn")[0])
        other = next(user for user in names.values() if user != mover)
        refused = await (await world.users[other].click(turn, "Take 3")).wait()
        assert refused.ephemeral and refused.rejections == [], refused.text()  # not their turn: a private line
        took = await (await world.users[mover].click(turn, "Take 3")).wait()
        assert not took.rejections and not took.ephemeral, took.text()
        last = mover
    final = await eventually(lambda: latest(world, "game over"), what="the end")
    assert f"{last.capitalize()} took the last counter and wins." in world.fake.visible_text(final)
    assert world.fake.violations == []
