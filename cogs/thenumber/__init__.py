"""The Number on Discord."""

from typing import TYPE_CHECKING

from discord import app_commands

from bot.games.thenumber import rules
from cogs.table.stats import add_stats_commands

from .cog import TheNumberCog
from .components import DYNAMIC_ITEMS
from .stats_presenter import TheNumberStats

if TYPE_CHECKING:
    from bot.client import NumberBot


async def setup(bot: "NumberBot") -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(TheNumberCog(bot))
    group = bot.tree.get_command("thenumber")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("TheNumberCog did not register the /thenumber group")
    # Until the shared front end adds them to every game's group, The Number's extension adds its own.
    await add_stats_commands(bot, group, rules.GAME_KEY, TheNumberStats())
