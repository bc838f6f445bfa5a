"""Binomial on Discord: the ``/binomial`` group (start and rules from the game's declaration; ``sheet``, its own)
and the presenter; the rest is cogs/table's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.core.table import Table
from bot.games.binomial.game import GAME
from bot.i18n import t
from cogs.table.answers import SlowAnswer, send
from cogs.table.game_cog import add_game_cog, cmd, game_group
from cogs.table.language import Languages
from cogs.table.turn_messages import seat_infos

from .render import KEY, PRESENTER
from .stats import BinomialStats

if TYPE_CHECKING:
    from bot.client import NumberBot

Interaction = discord.Interaction[Any]


class BinomialCog(commands.Cog, name="Binomial"):
    group = game_group(GAME)

    def __init__(self, bot: NumberBot) -> None:
        self.bot = bot
        self.languages = Languages(bot.store, cache_forced=False)  # set by the shared cog's command

    @group.command(name=cmd("sheet", "binomial.cmd.sheet"),
                   description=cmd("Your own sheet, privately", "binomial.cmd.sheet.desc"))
    async def sheet_cmd(self, interaction: Interaction) -> None:
        guard = SlowAnswer(interaction, "ephemeral")
        try:
            lang = await self.languages.for_user(interaction)
            record = await self.bot.store.open_game_of_user(interaction.user.id, details=False)
            if record is None or record.kind != KEY or record.status != "running":
                await send(interaction, content=t("binomial.sheet.none", lang), ephemeral=True)
                return
            table: Table = await self.bot.service.table(record.id)
            seated = table.record.seat_of(interaction.user.id)
            if seated is None or not table.running:
                await send(interaction, content=t("binomial.sheet.none", lang), ephemeral=True)
                return
            card = PRESENTER.sheet(table.game.view(table.state, seated.seat), seat_infos(table), lang)
            await send(interaction, **card.fields(), ephemeral=True)
        finally:
            guard.stop()


async def setup(bot: NumberBot) -> None:
    await add_game_cog(bot, BinomialCog(bot), KEY, PRESENTER, BinomialStats())
