"""Highest unique number on Discord: the ``/hun`` group (from the game's declaration) and the presenter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.games.hun.game import GAME
from cogs.table.game_cog import add_game_cog, game_group
from cogs.table.stats import StatsPresenter

from .presenter import PRESENTER

if TYPE_CHECKING:
    from bot.client import NumberBot


class HunCog(commands.Cog, name="Hun"):
    group = game_group(GAME)


async def setup(bot: NumberBot) -> None:
    await add_game_cog(bot, HunCog(), GAME.key, PRESENTER, StatsPresenter())
