"""The Number on Discord: the ``/thenumber`` group (start, rules), ``/digits`` (its name for ``/board``), the
presenter and the ``tn:`` ids of messages posted before the shared front end; the rest is cogs/table's."""

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import GameError
from bot.games.thenumber import rules
from bot.games.thenumber.game import TURN_SECONDS
from cogs.table.game_cog import add_game_cog, cmd, send_rules, start_options
from cogs.table.language import Languages

from .components import DYNAMIC_ITEMS, on_legacy_modal
from .presenter import KEY, PRESENTER
from .stats_presenter import TheNumberStats

if TYPE_CHECKING:
    from bot.client import NumberBot

Interaction = discord.Interaction[Any]
LOW, HIGH = TURN_SECONDS.min or 15, TURN_SECONDS.max or 3600


class TheNumberCog(commands.Cog, name="TheNumber"):
    # A game belongs to a server channel: the commands are not offered in DMs (and refused if forged).
    group = app_commands.Group(name=cmd("thenumber", "commands.thenumber"),
                               description=cmd("Play The Number, the secret three-digit numbers game",
                                               "commands.thenumber.desc"),
                               guild_only=True, allowed_contexts=app_commands.AppCommandContext(guild=True))

    def __init__(self, bot: "NumberBot") -> None:
        self.bot = bot
        self.languages = Languages(bot.store, cache_forced=False)  # set by the shared cog's command

    @group.command(name=cmd("start", "commands.start"), description=cmd("Open a table of The Number in this channel",
                                                                    "commands.start.desc"))
    @start_options(ai_players=cmd("AI players to seat now (0-4)", "commands.opt.ai_players.desc"))
    @app_commands.guild_only()
    async def start(self, interaction: Interaction, turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
                    ai_players: app_commands.Range[int, 0, 4] = 0,
                    ai_level: Literal["easy", "normal", "hard"] = "normal") -> None:
        table: Any = self.bot.get_cog("Table")
        seconds = turn_seconds or self.bot.settings.turn_seconds
        if not LOW <= seconds <= HIGH or not 0 <= ai_players <= rules.MAX_SEATS - 1:
            # Discord checks the ranges too; a forged request does not
            async with table.answering(interaction, "public"):
                raise GameError("thenumber.error.options")
        await table.open_table(interaction, KEY, {"turn_seconds": seconds}, ai_players, ai_level)

    @group.command(name=cmd("rules", "commands.rules"), description=cmd("How to play The Number",
                                                                        "commands.rules.desc"))
    async def rules_cmd(self, interaction: Interaction) -> None:
        await send_rules(interaction, self.languages, PRESENTER)

    @app_commands.command(name=cmd("digits", "commands.digits"),
                          description=cmd("A player's board: which digits are crossed off", "commands.digits.desc"))
    @app_commands.rename(player=cmd("player", "commands.opt.player"))
    @app_commands.describe(player=cmd("Whose board (default: yours)", "commands.opt.digits_player.desc"))
    async def digits(self, interaction: Interaction, player: discord.User | None = None) -> None:
        """The Number's name for ``/board`` (the rules card names it)."""
        table: Any = self.bot.get_cog("Table")
        await table.board_cmd(interaction, player)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        await on_legacy_modal(interaction)


async def setup(bot: "NumberBot") -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await add_game_cog(bot, TheNumberCog(bot), "thenumber", KEY, PRESENTER, TheNumberStats())
