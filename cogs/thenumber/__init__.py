"""The Number on Discord: the ``/thenumber`` group (start and rules from the game's declaration), ``/digits`` (its
name for ``/board``), the presenter and the ``tn:`` ids of messages posted before the shared front end; the rest is
cogs/table's."""

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.thenumber.game import GAME
from cogs.table.game_cog import add_game_cog, cmd, game_group

from .components import DYNAMIC_ITEMS
from .presenter import KEY, PRESENTER
from .stats_presenter import TheNumberStats

if TYPE_CHECKING:
    from bot.client import NumberBot

Interaction = discord.Interaction[Any]


class TheNumberCog(commands.Cog, name="TheNumber"):
    # A game belongs to a server channel: the commands are not offered in DMs (and refused if forged).
    group = game_group(GAME, guild_only=True, allowed_contexts=app_commands.AppCommandContext(guild=True))

    def __init__(self, bot: "NumberBot") -> None:
        self.bot = bot

    @app_commands.command(name=cmd("digits", "commands.digits"),
                          description=cmd("A player's board: which digits are crossed off", "commands.digits.desc"))
    @app_commands.rename(player=cmd("player", "commands.opt.player"))
    @app_commands.describe(player=cmd("Whose board (default: yours)", "commands.opt.digits_player.desc"))
    async def digits(self, interaction: Interaction, player: discord.User | None = None) -> None:
        """The Number's name for ``/board`` (the rules card names it)."""
        table: Any = self.bot.get_cog("Table")
        await table.board_cmd(interaction, player)


async def setup(bot: "NumberBot") -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await add_game_cog(bot, TheNumberCog(bot), KEY, PRESENTER, TheNumberStats())
