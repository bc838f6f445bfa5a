"""What every game's cog package does alike: translated command texts, the ``rules`` answer, and its setup
(the presenter registered, the cog added, the stats commands added to its group)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from .language import Languages, cmd
from .presenter import Presenter, register
from .stats import StatsPresenter, add_stats_commands

if TYPE_CHECKING:
    from bot.client import NumberBot

__all__ = ["add_game_cog", "cmd", "send_rules"]


async def send_rules(interaction: discord.Interaction[Any], languages: Languages, presenter: Presenter) -> None:
    """The game's rules card, privately, in the user's language."""
    lang = await languages.for_user(interaction)
    await interaction.response.send_message(embeds=list(presenter.rules(lang).embeds), ephemeral=True)


async def add_game_cog(bot: NumberBot, cog: commands.Cog, group_name: str, kind: str, presenter: Presenter,
                       stats: StatsPresenter) -> None:
    """A game's ``setup``: its presenter registered before ``cogs.table`` loads, then its cog, then the stats
    commands in the cog's ``/<group_name>`` group."""
    register(bot, presenter)
    await bot.add_cog(cog)
    group = bot.tree.get_command(group_name)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"{type(cog).__name__} did not register the /{group_name} group")
    await add_stats_commands(bot, group, kind, stats)
