"""Numeri on Discord: the ``/numeri`` group (start and rules, from the game's declaration) and the presenter;
the rest is cogs/table's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.games.numeri.game import GAME
from cogs.table.game_cog import add_game_cog, game_group

from .render import KEY, PRESENTER
from .stats import NumeriStats

if TYPE_CHECKING:
    from bot.client import NumberBot


class NumeriCog(commands.Cog, name="Numeri"):
    group = game_group(GAME)


async def setup(bot: NumberBot) -> None:
    await add_game_cog(bot, NumeriCog(), KEY, PRESENTER, NumeriStats())
