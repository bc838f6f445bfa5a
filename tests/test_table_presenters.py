"""Every game the shared front end serves has a presenter on the presenter contract: a subclass of
``cogs.table.presenter.Presenter`` that overrides every method without a default, each with the contract's
parameters, and whose declared capabilities come with their hooks."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest
from discord import app_commands

from bot.games import GAMES
from cogs.table.presenter import Presenter

METHODS = [name for name, value in vars(Presenter).items() if inspect.isfunction(value) and not name.startswith("_")]


class StubBot:
    """Just enough of the bot for a game package's ``setup`` (its group is a fresh one: the cog class's own
    group must not gain the stats commands a real bot adds to its copy)."""

    store: Any = None
    presenters: Any = None

    def __init__(self) -> None:
        self.cogs: dict[str, Any] = {}
        self.tree = self

    async def add_cog(self, cog: Any) -> None:
        self.cogs[cog.qualified_name] = cog

    def get_cog(self, name: str) -> Any:
        return self.cogs.get(name)

    def add_dynamic_items(self, *items: Any) -> None:  # a package's buttons of old messages
        pass

    def get_command(self, name: str) -> app_commands.Group:
        return app_commands.Group(name=name, description="-")


@pytest.mark.parametrize("key", [g.key for g in GAMES])
async def test_the_game_package_registers_a_full_presenter(key: str) -> None:
    bot = StubBot()
    await importlib.import_module(f"cogs.{key}").setup(bot)
    assert bot.presenters is not None and key in bot.presenters.by_key  # (a reloaded module: no isinstance)
    presenter = bot.presenters.by_key[key]
    assert presenter.key == key
    base = next(c for c in type(presenter).__mro__ if c.__name__ == "Presenter")  # (a reloaded module)
    for name in base.REQUIRED:
        assert getattr(type(presenter), name) is not getattr(base, name), f"{key} does not say {name}()"
    for name in METHODS:
        wanted = list(inspect.signature(getattr(Presenter, name)).parameters)[1:]
        assert list(inspect.signature(getattr(presenter, name)).parameters) == wanted, name
    hooks = {"threads": ("thread",), "reports": ("report", "reported"), "closes_turn": ("closed",),
             "reminds_in_channel": ("reminder_line",)}
    for capability, needed in hooks.items():
        for name in needed if getattr(presenter, capability) else ():
            assert getattr(type(presenter), name) is not getattr(base, name), f"{key}: {capability} without {name}()"


@pytest.mark.parametrize("key", [g.key for g in GAMES])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_rules_are_sections_short_enough_to_read(key: str, lang: str) -> None:
    """``/<game> rules`` (issue 36: Binomial's was 2,700 characters with a field named "…"): each section (an
    embed) reads in under 1,000 characters, and every section and field has a name of its own."""
    bot = StubBot()
    await importlib.import_module(f"cogs.{key}").setup(bot)
    sections = bot.presenters.by_key[key].rules(lang).embeds
    assert sections and all(len(e) < 1000 for e in sections), [len(e) for e in sections]
    names = [e.title for e in sections] + [f.name for e in sections for f in e.fields]
    assert all(name and name.strip(" .…") for name in names) and len(set(names)) == len(names), names
