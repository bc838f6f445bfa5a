"""Every game the shared front end serves has a presenter that implements the whole presenter interface."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

from bot.client import table_games
from cogs.table.presenter import Presenter

METHODS = [name for name, value in vars(Presenter).items() if inspect.isfunction(value) and not name.startswith("_")]


class StubBot:
    """Just enough of the bot for a game package's ``setup``."""

    store: Any = None
    presenters: Any = None

    async def add_cog(self, cog: Any) -> None:
        self.cog = cog


@pytest.mark.parametrize("key", [g.key for g in table_games()])
async def test_the_game_package_registers_a_full_presenter(key: str) -> None:
    bot = StubBot()
    await importlib.import_module(f"cogs.{key}").setup(bot)
    assert bot.presenters is not None and key in bot.presenters.by_key  # (a reloaded module: no isinstance)
    presenter = bot.presenters.by_key[key]
    assert presenter.key == key
    for name in METHODS:
        wanted = list(inspect.signature(getattr(Presenter, name)).parameters)[1:]
        assert list(inspect.signature(getattr(presenter, name)).parameters) == wanted, name
