"""The Number on Discord."""

from typing import TYPE_CHECKING

from .cog import TheNumberCog
from .components import DYNAMIC_ITEMS

if TYPE_CHECKING:
    from bot.client import NumberBot


async def setup(bot: "NumberBot") -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(TheNumberCog(bot))
