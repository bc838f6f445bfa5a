"""Binomial on Discord: the ``/binomial`` group (start, rules, sheet) and the presenter; the rest is cogs/table's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.table import Table
from bot.games.binomial.game import GAME
from bot.games.binomial.rules import MAX_SEATS, TURN_SECONDS
from bot.i18n import t
from cogs.table.answers import SlowAnswer, send
from cogs.table.game_cog import add_game_cog, cmd, send_rules, start_options
from cogs.table.language import Languages
from cogs.table.turn_messages import seat_infos

from .render import KEY, PRESENTER
from .stats import BinomialStats

if TYPE_CHECKING:
    from bot.client import NumberBot

Interaction = discord.Interaction[Any]
TURN = next(o for o in GAME.options if o.name == "turn_seconds")
LOW, HIGH = TURN.min or 15, TURN.max or 3600


class BinomialCog(commands.Cog, name="Binomial"):
    group = app_commands.Group(name=cmd("binomial", "binomial.cmd.binomial"),
                               description=cmd("Play Binomial, the game of secret two-digit numbers",
                                               "binomial.cmd.binomial.desc"))

    def __init__(self, bot: NumberBot) -> None:
        self.bot = bot
        self.languages = Languages(bot.store)

    @group.command(name=cmd("start", "commands.start"), description=cmd("Open a table of Binomial in this channel",
                                                                    "binomial.cmd.start.desc"))
    @start_options(turn_seconds=cmd("Seconds per roll and per declaration (15-3600, default 30)",
                                    "binomial.cmd.opt.turn_seconds.desc"),
                   ai_players=cmd("AI players to seat now (0-6)", "binomial.cmd.opt.ai_players.desc"))
    @app_commands.rename(dark=cmd("dark", "binomial.cmd.opt.dark"),
                         reward_for_fighting=cmd("reward_for_fighting", "binomial.cmd.opt.reward"),
                         openness=cmd("openness", "binomial.cmd.opt.openness"),
                         same_boat=cmd("same_boat", "binomial.cmd.opt.same_boat"),
                         match=cmd("match", "binomial.cmd.opt.match"))
    @app_commands.describe(dark=cmd("Playing in the dark: everybody declares at once, secretly",
                                    "binomial.cmd.opt.dark.desc"),
                           reward_for_fighting=cmd("With 3 or more fighters the winner gets 1 more point",
                                                   "binomial.cmd.opt.reward.desc"),
                           openness=cmd("Say in the channel when a player is down to one number",
                                        "binomial.cmd.opt.openness.desc"),
                           same_boat=cmd("In the same boat (6 or 7 players only)", "binomial.cmd.opt.same_boat.desc"),
                           match=cmd("A match of three games, points added up", "binomial.cmd.opt.match.desc"))
    @app_commands.guild_only()
    async def start(self, interaction: Interaction,
                    turn_seconds: app_commands.Range[int, LOW, HIGH] = TURN_SECONDS,
                    ai_players: app_commands.Range[int, 0, MAX_SEATS - 1] = 0,
                    ai_level: Literal["easy", "normal", "hard"] = "normal",
                    dark: bool = False, reward_for_fighting: bool = False, openness: bool = False,
                    same_boat: bool = False, match: bool = False) -> None:
        options = {"turn_seconds": turn_seconds, "dark": dark, "reward_for_fighting": reward_for_fighting,
                   "openness": openness, "same_boat": same_boat, "match": match}
        table = self.bot.get_cog("Table")
        await table.open_table(interaction, KEY, options, ai_players, ai_level)  # type: ignore[union-attr]

    @group.command(name=cmd("rules", "commands.rules"), description=cmd("How to play Binomial",
                                                                        "binomial.cmd.rules.desc"))
    async def rules_cmd(self, interaction: Interaction) -> None:
        await send_rules(interaction, self.languages, PRESENTER)

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
    await add_game_cog(bot, BinomialCog(bot), "binomial", KEY, PRESENTER, BinomialStats())
