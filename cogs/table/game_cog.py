"""What every game's cog package does alike: translated command texts, the ``rules`` answer, and its setup
(the presenter registered, the cog added, the stats commands added to its group)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from .language import Languages, cmd
from .presenter import Presenter, register
from .stats import StatsPresenter, add_stats_commands

if TYPE_CHECKING:
    from bot.client import NumberBot

__all__ = ["add_game_cog", "cmd", "send_rules", "start_options"]
F = TypeVar("F", bound=Callable[..., Any])
TURN_SECONDS = cmd("Seconds per turn (15-3600)", "commands.opt.turn_seconds.desc")


def start_options(*, ai_players: app_commands.locale_str,
                  turn_seconds: app_commands.locale_str = TURN_SECONDS) -> Callable[[F], F]:
    """The names and descriptions of the options every game's ``start`` has (turn_seconds, ai_players,
    ai_level); the game describes how many AI players it seats, and may describe its turns its own way."""
    def apply(callback: F) -> F:
        described = app_commands.describe(
            turn_seconds=turn_seconds, ai_players=ai_players,
            ai_level=cmd("How well the AI players play", "commands.opt.ai_level.desc"))(callback)
        renamed: F = app_commands.rename(turn_seconds=cmd("turn_seconds", "commands.opt.turn_seconds"),
                                         ai_players=cmd("ai_players", "commands.opt.ai_players"),
                                         ai_level=cmd("ai_level", "commands.opt.ai_level"))(described)
        return renamed
    return apply


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
