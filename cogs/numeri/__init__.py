"""Numeri on Discord: the ``/numeri`` group (start, rules) and the presenter; the rest is cogs/table's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.numeri.game import TURN_SECONDS
from bot.games.numeri.rules import MAX_SEATS
from cogs.table.game_cog import add_game_cog, cmd, send_rules, start_options
from cogs.table.language import Languages

from .render import KEY, PRESENTER
from .stats import NumeriStats

if TYPE_CHECKING:
    from bot.client import NumberBot

Interaction = discord.Interaction[Any]
LOW, HIGH = TURN_SECONDS.min or 15, TURN_SECONDS.max or 3600


class NumeriCog(commands.Cog, name="Numeri"):
    group = app_commands.Group(name=cmd("numeri", "numeri.cmd.numeri"),
                               description=cmd("Play Numeri, the race of numbered tokens", "numeri.cmd.numeri.desc"))

    def __init__(self, bot: NumberBot) -> None:
        self.bot = bot
        self.languages = Languages(bot.store, cache_forced=False)  # set by another cog's command

    @group.command(name=cmd("start", "commands.start"), description=cmd("Open a table of Numeri in this channel",
                                                                    "numeri.cmd.start.desc"))
    @start_options(ai_players=cmd("AI players to seat now (0-3)", "numeri.cmd.opt.ai_players.desc"))
    @app_commands.guild_only()
    async def start(self, interaction: Interaction, turn_seconds: app_commands.Range[int, LOW, HIGH] | None = None,
                    ai_players: app_commands.Range[int, 0, MAX_SEATS - 1] = 0,
                    ai_level: Literal["easy", "normal", "hard"] = "normal") -> None:
        table = self.bot.get_cog("Table")
        seconds = turn_seconds or self.bot.settings.turn_seconds
        await table.open_table(interaction, KEY, {"turn_seconds": seconds}, ai_players,  # type: ignore[union-attr]
                               ai_level)

    @group.command(name=cmd("rules", "commands.rules"), description=cmd("How to play Numeri", "numeri.cmd.rules.desc"))
    async def rules_cmd(self, interaction: Interaction) -> None:
        await send_rules(interaction, self.languages, PRESENTER)


async def setup(bot: NumberBot) -> None:
    await add_game_cog(bot, NumeriCog(bot), "numeri", KEY, PRESENTER, NumeriStats())
