"""The AI levels say what they do (issue 17 point 5): under each level in the lobby's select, and in the README."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.i18n import LANGUAGES, catalog, t
from tests.discord_world import World, open_lobby
from tests.fakediscord import Message
from tests.fakediscord.users import walk_components

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
TITLES = {g.key: g.title for g in GAMES}


def ai_select(message: Message) -> dict[str, Any]:
    return next(c for c in walk_components(message.components)  # V1 rows or a V2 layout
                if c.get("type") == 3 and ":lobby:ai:" in c.get("custom_id", ""))


def test_every_level_of_every_game_has_a_line_in_every_language() -> None:
    for game in GAMES:
        for lang in LANGUAGES:
            lines = [catalog(lang)[f"{game.key}.ai.about.{level}"] for level in game.ai_levels]
            assert all(0 < len(line) <= 100 for line in lines), (game.key, lang)  # Discord's limit
            assert len(set(lines)) == len(lines)  # the levels are told apart


@pytest.mark.parametrize("game", [g.key for g in GAMES])
async def test_the_lobbys_ai_select_says_what_each_level_does(world: World, game: str) -> None:
    lobby = await open_lobby(world, f"{game} start", ("ana",))
    options = ai_select(lobby)["options"]
    assert [o["value"] for o in options] == list(next(g for g in GAMES if g.key == game).ai_levels)
    for option in options:
        assert option["description"] == t(f"{game}.ai.about.{option['value']}", "en")
    assert "past" in options[2]["description"] or game != "thenumber"  # hard remembers past games
    assert world.fake.violations == []


def test_the_readme_describes_every_level_of_every_game() -> None:
    """Each level's item says what it does in every game the section names; a game of the tuple it does not name
    yet (just added) is reported as a warning, not a failure (docs/adding-a-game.md asks for its lines)."""
    section = README.split("## AI players and the arena", 1)[1].split("\n## ", 1)[0]
    for game in GAMES:
        if f"in {TITLES[game.key]}" not in section:
            warnings.warn(f"README.md does not describe {game.title}'s AI levels yet", stacklevel=1)
            continue
        for level in game.ai_levels:
            assert f"- **{level}**" in section, level
            item = section.split(f"- **{level}**", 1)[1].split("\n- **", 1)[0]
            assert f"in {TITLES[game.key]}" in item, (level, game.title)
    assert "finished games" in section  # hard in The Number starts from the players' past games
