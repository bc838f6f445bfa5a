"""/thenumber stats, leaderboard, history, game and export: figures from the stored games of this server.

The commands are subcommands of TheNumberCog's ``/thenumber`` group: discord.py binds a cog's commands to
that cog, so these are plain ``app_commands.Command`` objects bound to this cog's methods and added to the
live group (the one registered in the command tree) in :meth:`StatsCog.cog_load`.

Leaderboard pages: Previous/Next buttons are DynamicItems whose custom_id carries everything a page needs
(ranking, period, the period's start and the snapshot time, the page and who asked), so they work after a
restart and every page of one leaderboard counts the same games. The person who asked flips the message in
place; anyone else who presses a button gets that page privately, with buttons of their own, and the asker's
message stays as it was.
"""

import asyncio
import contextlib
import io
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.thenumber import rules
from bot.i18n import language_of, t
from bot.services.thenumber import TheNumberService, rebuild
from bot.services.thenumber_stats import MIN_GAMES_FOR_RATES, Period, period_start, player_stats, summarise
from storage.base import GameRecord, UnknownGame
from storage.stats import RankBy, SQLiteStats

from . import render_stats
from .chart import final_chart_file

if TYPE_CHECKING:
    from bot.client import NumberBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
SLOW_ANSWER_AFTER = 2.0  # Discord wants a first answer within 3 s: defer when the figures take longer
PER_PAGE = 10
HISTORY_LIMIT = 10
COG_NAME = "TheNumberStats"
BY_CODES: dict[str, RankBy] = {"w": "wins", "r": "rate", "a": "average"}
PERIOD_CODES: dict[str, Period] = {"a": "all", "m": "month", "w": "week"}


async def lang(interaction: Interaction) -> str:
    """The language to answer ``interaction`` in: the ONE place this cog decides it. The game cog's
    Languages knows the server's forced language (/thenumber language); without it, the user's own."""
    game_cog = interaction.client.get_cog("TheNumber")  # type: ignore[attr-defined]
    if game_cog is not None:
        return await game_cog.languages.for_user(interaction)  # type: ignore[no-any-return]
    return language_of(str(interaction.locale) if interaction.locale else None)


def loc(text: str, key: str) -> app_commands.locale_str:
    """A command, option or choice text, translated from the ``stats`` catalogs by the bot's translator."""
    return app_commands.locale_str(text, key=key)


class Refusal(Exception):
    """A request this cog turns down with a private line (already translated)."""


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"tn:lb:(?P<dir>[pn]):(?P<by>[wra]):(?P<period>[amw]):(?P<since>\d+):"
                                 r"(?P<until>\d+):(?P<page>\d+):(?P<owner>\d+)"):
    def __init__(self, direction: str, by: str, period: str, since: int, until: int, page: int, owner: int,
                 language: str = "en", disabled: bool = False) -> None:
        label = t("stats.lb.previous" if direction == "p" else "stats.lb.next", language)
        custom_id = f"tn:lb:{direction}:{by}:{period}:{since}:{until}:{page}:{owner}"
        super().__init__(discord.ui.Button(label=label, emoji="◀️" if direction == "p" else "▶️",
                                           style=discord.ButtonStyle.secondary, custom_id=custom_id,
                                           disabled=disabled))
        self.by, self.period, self.since, self.until = BY_CODES[by], PERIOD_CODES[period], since, until
        self.page, self.owner = page, owner

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> "LeaderboardButton":
        return cls(match["dir"], match["by"], match["period"], int(match["since"]), int(match["until"]),
                   int(match["page"]), int(match["owner"]))

    async def callback(self, interaction: Interaction) -> None:
        cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if cog is not None:
            await cog.flip(interaction, self)


def leaderboard_view(by: RankBy, period: Period, since: int, until: int, page: int, pages: int, owner: int,
                     language: str) -> discord.ui.View | None:
    if pages <= 1:
        return None
    by_code = next(code for code, name in BY_CODES.items() if name == by)
    period_code = next(code for code, name in PERIOD_CODES.items() if name == period)
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardButton("p", by_code, period_code, since, until, max(page - 1, 0), owner, language,
                                    disabled=page == 0))
    view.add_item(LeaderboardButton("n", by_code, period_code, since, until, min(page + 1, pages - 1), owner,
                                    language, disabled=page >= pages - 1))
    return view


class StatsCog(commands.Cog, name=COG_NAME):
    def __init__(self, bot: "NumberBot") -> None:
        self.bot = bot
        self.stats: SQLiteStats | None = None
        self._backfill: asyncio.Task[None] | None = None
        self._group: app_commands.Group | None = None
        self._commands = self._build_commands()

    # Life cycle ---------------------------------------------------------------------------------
    async def cog_load(self) -> None:
        path = getattr(self.bot.store, "path", None)
        if path is not None and path != ":memory:":
            self.stats = SQLiteStats(path, summarise, rules.GAME_KEY,
                                     busy_timeout_ms=self.bot.settings.database_busy_timeout_ms)
            await self.stats.open()
            self._backfill = asyncio.create_task(self._fill_cache(), name="statistics backfill")
        else:
            log.warning("statistics are off: they need the SQLite store on a file")
        group = self.bot.tree.get_command("thenumber")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("load TheNumberCog (the /thenumber group) before StatsCog")
        for command in self._commands:
            group.add_command(command)
        self._group = group

    async def cog_unload(self) -> None:
        if self._group is not None:
            for command in self._commands:
                self._group.remove_command(command.name)
        if self._backfill is not None:
            self._backfill.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._backfill
        if self.stats is not None:
            await self.stats.close()

    async def _fill_cache(self) -> None:
        """Compute the results of finished games that have none (games from before this feature, or from a
        crash right after a game ended) in the background, so a first /thenumber command finds them ready."""
        assert self.stats is not None
        try:
            filled = await self.stats.refresh(every_guild=True)
        except Exception:
            log.exception("could not fill the statistics cache (reads fill it as they need)")
            return
        if filled:
            log.info("statistics: computed the results of %d finished games", filled)

    def _build_commands(self) -> list[app_commands.Command[Any, Any, Any]]:
        def command(name: str, description: str, callback: Any) -> app_commands.Command[Any, Any, Any]:
            return app_commands.Command(name=loc(name, f"stats.cmd.{name}"), callback=callback,
                                        description=loc(description, f"stats.cmd.{name}.desc"))

        return [
            command("stats", "A player's figures on this server (default: yours)", self.stats_cmd),
            command("leaderboard", "The best players of this server", self.leaderboard_cmd),
            command("history", "The latest finished games of this server", self.history_cmd),
            command("game", "One finished game of this server, turn by turn", self.game_cmd),
            command("export", "A finished game as a replay file (python -m bot replay)", self.export_cmd),
        ]

    # Commands -----------------------------------------------------------------------------------
    @app_commands.rename(player=loc("player", "stats.opt.player"), public=loc("public", "stats.opt.public"))
    @app_commands.describe(player=loc("Whose figures (default: yours)", "stats.opt.player.desc"),
                           public=loc("Post them for everyone in the channel", "stats.opt.public.desc"))
    async def stats_cmd(self, interaction: Interaction, player: discord.User | None = None,
                        public: bool = False) -> None:
        async def build(language: str) -> dict[str, Any]:
            stats, guild_id = self._ready(interaction, language)
            target = player or interaction.user
            figures = player_stats(await stats.player_games(guild_id, target.id))
            return {"embed": render_stats.stats_embed(target.display_name, figures, language)}

        await self._answer(interaction, build, ephemeral=not public)

    @app_commands.rename(period=loc("period", "stats.opt.period"), by=loc("by", "stats.opt.by"),
                         public=loc("public", "stats.opt.public"))
    @app_commands.describe(period=loc("Which games count", "stats.opt.period.desc"),
                           by=loc("How players are ranked", "stats.opt.by.desc"),
                           public=loc("Post it for everyone in the channel", "stats.opt.public.desc"))
    @app_commands.choices(
        period=[app_commands.Choice(name=loc("All time", "stats.choice.all"), value="all"),
                app_commands.Choice(name=loc("This month", "stats.choice.month"), value="month"),
                app_commands.Choice(name=loc("This week", "stats.choice.week"), value="week")],
        by=[app_commands.Choice(name=loc("Wins", "stats.choice.wins"), value="wins"),
            app_commands.Choice(name=loc(f"Win rate (at least {MIN_GAMES_FOR_RATES} games)", "stats.choice.rate"),
                                value="rate"),
            app_commands.Choice(name=loc(f"Average score (at least {MIN_GAMES_FOR_RATES} games)",
                                         "stats.choice.average"), value="average")])
    async def leaderboard_cmd(self, interaction: Interaction, period: str = "all", by: str = "wins",
                              public: bool = False) -> None:
        now = self.bot.clock.now()
        since, until = int(period_start(period, now)), int(now) + 1  # type: ignore[arg-type]

        async def build(language: str) -> dict[str, Any]:
            return await self._leaderboard_page(interaction, by, period, since, until, 0,  # type: ignore[arg-type]
                                                interaction.user.id, language)

        await self._answer(interaction, build, ephemeral=not public)

    @app_commands.rename(public=loc("public", "stats.opt.public"))
    @app_commands.describe(public=loc("Post it for everyone in the channel", "stats.opt.public.desc"))
    async def history_cmd(self, interaction: Interaction, public: bool = False) -> None:
        async def build(language: str) -> dict[str, Any]:
            stats, guild_id = self._ready(interaction, language)
            games = await stats.recent(guild_id, HISTORY_LIMIT)
            return {"embed": render_stats.history_embed(games, language)}

        await self._answer(interaction, build, ephemeral=not public)

    @app_commands.rename(game_id=loc("id", "stats.opt.id"), public=loc("public", "stats.opt.public"))
    @app_commands.describe(game_id=loc("The game's number (see /thenumber history)", "stats.opt.id.desc"),
                           public=loc("Post it for everyone in the channel", "stats.opt.public.desc"))
    async def game_cmd(self, interaction: Interaction, game_id: app_commands.Range[int, 1, 2_147_483_647],
                       public: bool = False) -> None:
        async def build(language: str) -> dict[str, Any]:
            record = await self._visible_game(interaction, game_id, language, allow_cancelled=True)
            state = rebuild(record)
            chart = await final_chart_file(record, state, language)  # None if it cannot be drawn now
            embeds = render_stats.game_embeds(record, state, language, chart.filename if chart else None)
            return {"embeds": embeds, **({"file": chart} if chart else {})}

        await self._answer(interaction, build, ephemeral=not public)

    @app_commands.rename(game_id=loc("id", "stats.opt.id"))
    @app_commands.describe(game_id=loc("The game's number (see /thenumber history)", "stats.opt.id.desc"))
    async def export_cmd(self, interaction: Interaction, game_id: app_commands.Range[int, 1, 2_147_483_647]) -> None:
        async def build(language: str) -> dict[str, Any]:
            record = await self._visible_game(interaction, game_id, language, allow_cancelled=False)
            filename = f"thenumber-game-{record.id}.json"
            data = export_bytes(record)
            return {"content": render_stats.export_text(record.id, filename, language),
                    "file": discord.File(io.BytesIO(data), filename=filename)}

        await self._answer(interaction, build, ephemeral=True)

    # Leaderboard pages --------------------------------------------------------------------------
    async def _leaderboard_page(self, interaction: Interaction, by: RankBy, period: Period, since: int, until: int,
                                page: int, owner: int, language: str) -> dict[str, Any]:
        stats, guild_id = self._ready(interaction, language)
        min_games = 1 if by == "wins" else MIN_GAMES_FOR_RATES
        board = await stats.leaderboard(guild_id, by, since, until, min_games=min_games, page=page,
                                        per_page=PER_PAGE)
        embed = render_stats.leaderboard_embed(board, by, period, min_games, language)
        view = leaderboard_view(by, period, since, until, board.page, board.pages, owner, language)
        return {"embed": embed, **({"view": view} if view is not None else {})}

    async def flip(self, interaction: Interaction, button: LeaderboardButton) -> None:
        language = await lang(interaction)
        mine = interaction.user.id == button.owner
        try:
            owner = button.owner if mine else interaction.user.id
            fields = await self._leaderboard_page(interaction, button.by, button.period, button.since, button.until,
                                                  button.page, owner, language)
            if mine:
                fields.setdefault("view", None)
                await interaction.response.edit_message(**fields)
            else:
                await interaction.response.send_message(t("stats.error.not_owner", language), ephemeral=True,
                                                        **fields)
        except Refusal as refusal:
            await interaction.response.send_message(str(refusal), ephemeral=True)

    # Helpers ------------------------------------------------------------------------------------
    def _ready(self, interaction: Interaction, language: str) -> tuple[SQLiteStats, int]:
        if interaction.guild_id is None:
            raise Refusal(t("stats.error.guild_only", language))
        if self.stats is None:
            raise Refusal(t("stats.error.failed", language))
        return self.stats, interaction.guild_id

    async def _visible_game(self, interaction: Interaction, game_id: int, language: str, *,
                            allow_cancelled: bool) -> GameRecord:
        """A game of this server (any other server's game is 'no such game': its existence stays private)."""
        self._ready(interaction, language)
        try:
            record = await self.bot.store.load_game(game_id)
        except UnknownGame:
            raise Refusal(t("stats.error.no_game", language, game=game_id)) from None
        if record.guild_id != interaction.guild_id or record.kind != rules.GAME_KEY:
            raise Refusal(t("stats.error.no_game", language, game=game_id))
        has_turns = any(a.kind == "resolve" for a in record.actions)
        if record.status == "finished" or (allow_cancelled and record.status == "cancelled" and has_turns):
            return record
        if record.status == "cancelled":
            raise Refusal(t("stats.error.no_game", language, game=game_id))
        raise Refusal(t("stats.error.not_finished", language, game=game_id))

    async def _answer(self, interaction: Interaction, build: Callable[[str], Awaitable[dict[str, Any]]], *,
                      ephemeral: bool) -> None:
        """Build the answer; defer if that takes long; refusals and failures become a private line."""
        language = await lang(interaction)
        work = asyncio.ensure_future(build(language))
        done, _ = await asyncio.wait({work}, timeout=SLOW_ANSWER_AFTER)
        try:
            if not done:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            fields = await work
        except Refusal as refusal:
            await _send(interaction, {"content": str(refusal)}, ephemeral=True)
            return
        except discord.HTTPException:
            raise
        except Exception:
            log.exception("statistics command failed")
            await _send(interaction, {"content": t("stats.error.failed", language)}, ephemeral=True)
            return
        await _send(interaction, fields, ephemeral=ephemeral)


async def _send(interaction: Interaction, fields: dict[str, Any], *, ephemeral: bool) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **fields)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **fields)


def export_bytes(record: GameRecord) -> bytes:
    """The game as a ``python -m bot replay`` script, as the attachment's bytes."""
    return (json.dumps(TheNumberService.replay_script(record), ensure_ascii=False, indent=1) + "\n").encode()


DYNAMIC_ITEMS = (LeaderboardButton,)
