"""The shared Discord front end of the games run by ``bot.service`` (a GameService): lobby, inputs, timers.

Loaded after the game packages (each registers its presenter and its command group); see presenter.py for
what a game provides.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import NumberBot


async def setup(bot: "NumberBot") -> None:
    from .cog import TableCog
    from .components import DYNAMIC_ITEMS
    from .language import CatalogTranslator
    from .mygames import DailyCommands

    # The commands' names and descriptions in every language (here, so nothing in bot/ imports a cog).
    await bot.tree.set_translator(CatalogTranslator())
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    table = TableCog(bot)
    await bot.add_cog(table)
    # /mygames, /server timezone (daily tables) and /server threads (a thread per table)
    await bot.add_cog(DailyCommands(bot, table.poster, table.notify, table.timers.daily.zones,
                                    table.threads.servers))
