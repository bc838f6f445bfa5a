"""The Number on Discord."""

from typing import TYPE_CHECKING

from .cog import TheNumberCog
from .components import DYNAMIC_ITEMS
from .stats_cog import DYNAMIC_ITEMS as STATS_ITEMS
from .stats_cog import StatsCog

if TYPE_CHECKING:
    from bot.client import NumberBot


async def setup(bot: "NumberBot") -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(TheNumberCog(bot))
    bot.add_dynamic_items(*STATS_ITEMS)
    await bot.add_cog(StatsCog(bot))  # after TheNumberCog: its commands join the /thenumber group
