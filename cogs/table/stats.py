"""stats, leaderboard, history, game and export for every game's group: figures from the stored games of this
server, of that group's game only.

One implementation: :func:`add_stats_commands` adds the five subcommands to a game's group (``/<game>``),
bound to that game's kind and its :class:`StatsPresenter` (the game's own lines: its figures in
``stats``, how ``game`` draws a finished game, what ``export`` attaches). The :class:`TableStats` cog behind
them owns the one statistics connection (every kind) and fills the results cache at start-up.

Leaderboard pages: Previous/Next buttons are DynamicItems whose custom_id carries everything a page needs
(the game, ranking, period, the period's start and the snapshot time, the page and who asked), so they work
after a restart and every page of one leaderboard counts the same games. The person who asked flips the
message in place; anyone else who presses a button gets that page privately, with buttons of their own, and
the asker's message stays as it was.
"""

import asyncio
import contextlib
import io
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.fold import envelope
from bot.core.game import Game
from bot.core.rating import (
    PROVISIONAL_GAMES,
    SEASON_META,
    SeasonLength,
    season_bounds,
    season_key,
    season_length,
    season_of,
)
from bot.core.stats import (
    MIN_GAMES_FOR_RATES,
    Period,
    PlayerStats,
    by_position,
    period_start,
    player_stats,
    summariser,
)
from bot.core.table import fold, seed_of, stored_steps
from bot.games import game_for
from bot.i18n import language_of, t
from cogs.table import ratings_render, stats_render
from cogs.table.language import cmd as loc
from storage.backend import Stats, make_stats
from storage.base import GameRecord, UnknownGame
from storage.ratings import GLOBAL_SCOPE, season_scope, server_scope
from storage.stats import RankBy

if TYPE_CHECKING:
    from bot.client import NumberBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
Command = app_commands.Command[Any, Any, Any]
SLOW_ANSWER_AFTER = 2.0  # Discord wants a first answer within 3 s: defer when the figures take longer
PER_PAGE = 10
HISTORY_LIMIT = 10
PODIUM_SEASONS = 12  # past seasons shown by /<game> leaderboard season: past (newest first)
COG_NAME = "TableStats"
BY_CODES: dict[str, str] = {"w": "wins", "r": "rate", "a": "average", "g": "rating"}
# "s": a rating season, the one whose [since, until) the button carries
PERIOD_CODES: dict[str, str] = {"a": "all", "m": "month", "w": "week", "s": "season"}


class StatsPresenter:
    """A game's own part of its stats commands. The defaults suit any game: no extra figures, the final
    standings for ``game``, the replay envelope (``python -m bot replay``) for ``export``."""

    title: str | None = None  # the game's name in titles (default: the game's title)
    button_prefix: str | None = None  # the custom_id prefix of leaderboard buttons (default: the kind)
    shows_stopped_games = False  # ``game`` also shows a cancelled game that had steps

    def player_fields(self, stats: PlayerStats, language: str) -> list[stats_render.Field]:
        """The game's own figures of a player (``stats.extras`` holds each game's ``extra``)."""
        return []

    async def game_message(self, record: GameRecord, game: Game[Any, Any, Any], language: str) -> dict[str, Any]:
        """The message fields of ``/<game> game`` for a finished game."""
        state, _ = fold(game, by_position(record))
        result = game.result(state)
        if result is None:
            raise Refusal(t("stats.error.not_finished", language, game=record.id))
        return {"embed": stats_render.standings_embed(record, result, len(stored_steps(record)), language)}

    def export_file(self, record: GameRecord) -> tuple[str, bytes]:
        """The attachment of ``/<game> export``: (file name, bytes)."""
        return f"{record.kind}-game-{record.id}.json", envelope_bytes(record)


def envelope_bytes(record: GameRecord) -> bytes:
    """A finished game as the replay envelope every game shares (as GameService.export gives it)."""
    positional = by_position(record)
    data = envelope(record.kind, [s.name for s in positional.seats], record.options, seed_of(record),
                    [p["step"] for p in stored_steps(positional)])
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode()


@dataclass(frozen=True, slots=True)
class Board:
    """One game group's stats commands."""

    kind: str
    command: str  # the group's name (/<command> ...)
    title: str
    presenter: StatsPresenter
    game: Game[Any, Any, Any]
    prefix: str


class Refusal(Exception):
    """A request these commands turn down with a private line (already translated)."""


async def lang(interaction: Interaction) -> str:
    """The language to answer ``interaction`` in: the server's forced language (kept by whichever cog holds
    the bot's Languages), else the user's own."""
    client = interaction.client
    languages = getattr(client, "languages", None)
    if languages is None:
        cogs = getattr(client, "cogs", {})
        languages = next((c.languages for c in cogs.values() if hasattr(c, "languages")), None)
    if languages is not None:
        return cast(str, await languages.for_user(interaction))
    return language_of(str(interaction.locale) if interaction.locale else None)


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"(?P<prefix>[a-z][a-z0-9_]*):lb:(?P<dir>[pn]):(?P<by>[wrag]):(?P<period>[amws]):"
                                 r"(?P<since>\d+):(?P<until>\d+):(?P<page>\d+):(?P<owner>\d+)"):
    def __init__(self, prefix: str, direction: str, by: str, period: str, since: int, until: int, page: int,
                 owner: int, language: str = "en", disabled: bool = False) -> None:
        label = t("stats.lb.previous" if direction == "p" else "stats.lb.next", language)
        custom_id = f"{prefix}:lb:{direction}:{by}:{period}:{since}:{until}:{page}:{owner}"
        super().__init__(discord.ui.Button(label=label, emoji="◀️" if direction == "p" else "▶️",
                                           style=discord.ButtonStyle.secondary, custom_id=custom_id,
                                           disabled=disabled))
        self.prefix = prefix
        self.by, self.period, self.since, self.until = BY_CODES[by], PERIOD_CODES[period], since, until
        self.page, self.owner = page, owner

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> "LeaderboardButton":
        return cls(match["prefix"], match["dir"], match["by"], match["period"], int(match["since"]),
                   int(match["until"]), int(match["page"]), int(match["owner"]))

    async def callback(self, interaction: Interaction) -> None:
        cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if cog is not None:
            await cog.flip(interaction, self)


def leaderboard_view(board: Board, by: str, period: str, since: int, until: int, page: int, pages: int,
                     owner: int, language: str) -> discord.ui.View | None:
    if pages <= 1:
        return None
    by_code = next(code for code, name in BY_CODES.items() if name == by)
    period_code = next(code for code, name in PERIOD_CODES.items() if name == period)
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardButton(board.prefix, "p", by_code, period_code, since, until, max(page - 1, 0), owner,
                                    language, disabled=page == 0))
    view.add_item(LeaderboardButton(board.prefix, "n", by_code, period_code, since, until,
                                    min(page + 1, pages - 1), owner, language, disabled=page >= pages - 1))
    return view


# The commands -----------------------------------------------------------------------------------------
def make_board(kind: str, command: str, presenter: StatsPresenter) -> Board:
    game = game_for(kind)
    return Board(kind, command, presenter.title or game.title, presenter, game, presenter.button_prefix or kind)


def stats_commands(board: Board) -> list[Command]:
    """The six subcommands of ``board``'s group (they find the cog when they are invoked)."""
    command = board.command

    def cog_of(interaction: Interaction) -> "TableStats":
        cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if cog is None:
            raise RuntimeError("the statistics cog is not loaded")
        return cast(TableStats, cog)

    @app_commands.rename(player=loc("player", "stats.opt.player"), public=loc("public", "stats.opt.public"))
    @app_commands.describe(player=loc("Whose figures (default: yours)", "stats.opt.player.desc"),
                           public=loc("Post them for everyone in the channel", "stats.opt.public.desc"))
    async def stats_cmd(interaction: Interaction, player: discord.User | None = None, public: bool = False) -> None:
        await cog_of(interaction).stats_cmd(board, interaction, player, public)

    @app_commands.rename(period=loc("period", "stats.opt.period"), by=loc("by", "stats.opt.by"),
                         public=loc("public", "stats.opt.public"), season=loc("season", "ratings.opt.season"))
    @app_commands.describe(period=loc("Which games count", "stats.opt.period.desc"),
                           by=loc("How players are ranked", "stats.opt.by.desc"),
                           public=loc("Post it for everyone in the channel", "stats.opt.public.desc"),
                           season=loc("Rating seasons: this season's board, or the podiums of past ones",
                                      "ratings.opt.season.desc"))
    @app_commands.choices(
        period=[app_commands.Choice(name=loc("All time", "stats.choice.all"), value="all"),
                app_commands.Choice(name=loc("This month", "stats.choice.month"), value="month"),
                app_commands.Choice(name=loc("This week", "stats.choice.week"), value="week")],
        by=[app_commands.Choice(name=loc("Wins", "stats.choice.wins"), value="wins"),
            app_commands.Choice(name=loc(f"Win rate (at least {MIN_GAMES_FOR_RATES} games)", "stats.choice.rate"),
                                value="rate"),
            app_commands.Choice(name=loc(f"Average score (at least {MIN_GAMES_FOR_RATES} games)",
                                         "stats.choice.average"), value="average"),
            app_commands.Choice(name=loc("Rating", "ratings.choice.rating"), value="rating")],
        season=[app_commands.Choice(name=loc("This season", "ratings.choice.current"), value="current"),
                app_commands.Choice(name=loc("Past seasons (podiums)", "ratings.choice.past"), value="past")])
    async def leaderboard_cmd(interaction: Interaction, period: str = "all", by: str = "wins",
                              public: bool = False, season: str | None = None) -> None:
        await cog_of(interaction).leaderboard_cmd(board, interaction, period, by,  # type: ignore[arg-type]
                                                  public, season)

    @app_commands.rename(public=loc("public", "stats.opt.public"))
    @app_commands.describe(public=loc("Post it for everyone in the channel", "stats.opt.public.desc"))
    async def history_cmd(interaction: Interaction, public: bool = False) -> None:
        await cog_of(interaction).history_cmd(board, interaction, public)

    id_hint = loc(f"The game's number (see /{command} history)", "stats.opt.id.desc")

    @app_commands.rename(game_id=loc("id", "stats.opt.id"), public=loc("public", "stats.opt.public"))
    @app_commands.describe(game_id=id_hint,
                           public=loc("Post it for everyone in the channel", "stats.opt.public.desc"))
    async def game_cmd(interaction: Interaction, game_id: app_commands.Range[int, 1, 2_147_483_647],
                       public: bool = False) -> None:
        await cog_of(interaction).game_cmd(board, interaction, game_id, public)

    @app_commands.rename(game_id=loc("id", "stats.opt.id"))
    @app_commands.describe(game_id=id_hint)
    async def export_cmd(interaction: Interaction, game_id: app_commands.Range[int, 1, 2_147_483_647]) -> None:
        await cog_of(interaction).export_cmd(board, interaction, game_id)

    @app_commands.rename(length=loc("length", "ratings.opt.length"))
    @app_commands.describe(length=loc("A month or a quarter (Manage Server); empty: show the current one",
                                      "ratings.opt.length.desc"))
    @app_commands.choices(length=[app_commands.Choice(name=loc("A month", "ratings.choice.month"), value="month"),
                                  app_commands.Choice(name=loc("A quarter", "ratings.choice.quarter"),
                                                      value="quarter")])
    async def seasons_cmd(interaction: Interaction, length: str | None = None) -> None:
        await cog_of(interaction).seasons_cmd(interaction, length)

    def command_of(name: str, description: str, callback: Any, area: str = "stats") -> Command:
        return app_commands.Command(name=loc(name, f"{area}.cmd.{name}"), callback=callback,
                                    description=loc(description, f"{area}.cmd.{name}.desc"))

    return [
        command_of("stats", "A player's figures on this server (default: yours)", stats_cmd),
        command_of("leaderboard", "The best players of this server", leaderboard_cmd),
        command_of("history", "The latest finished games of this server", history_cmd),
        command_of("game", "One finished game of this server, turn by turn", game_cmd),
        command_of("export", "A finished game as a replay file (python -m bot replay)", export_cmd),
        command_of("seasons", "How long a rating season lasts on this server (month or quarter)", seasons_cmd,
                   "ratings"),
    ]


async def add_stats_commands(bot: "NumberBot", group: app_commands.Group, kind: str,
                             presenter: StatsPresenter) -> None:
    """Add stats, leaderboard, history, game and export for ``kind`` games to ``group`` (loading the cog behind
    them the first time)."""
    cog = bot.get_cog(COG_NAME)
    if cog is None:
        cog = TableStats(bot)
        await bot.add_cog(cog)
    cast(TableStats, cog).add_group(group, kind, presenter)


class TableStats(commands.Cog, name=COG_NAME):
    def __init__(self, bot: "NumberBot") -> None:
        self.bot = bot
        self.stats: Stats | None = None
        self._backfill: asyncio.Task[None] | None = None
        self._groups: list[tuple[app_commands.Group, list[Command]]] = []
        self._boards: dict[str, Board] = {}  # by leaderboard button prefix

    # Life cycle ---------------------------------------------------------------------------------
    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardButton)
        games = tuple(self.bot.service.by_key.values())  # the bot's games (the tuple, unless handed others)
        self.stats = make_stats(self.bot.store, summariser(games), [g.key for g in games],
                                busy_timeout_ms=self.bot.settings.database_busy_timeout_ms)
        if self.stats is not None:
            await self.stats.open()
            self._backfill = asyncio.create_task(self._fill_cache(), name="statistics backfill")
        else:
            log.warning("statistics are off: they need a SQLite file or PostgreSQL (not :memory:)")

    def add_group(self, group: app_commands.Group, kind: str, presenter: StatsPresenter) -> None:
        board = make_board(kind, group.name, presenter)
        made = stats_commands(board)
        for command in made:
            group.add_command(command)
        self._groups.append((group, made))
        self._boards[board.prefix] = board

    async def cog_unload(self) -> None:
        for group, made in self._groups:
            for command in made:
                group.remove_command(command.name)
        self._groups.clear()
        self.bot.remove_dynamic_items(LeaderboardButton)
        if self._backfill is not None:
            self._backfill.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._backfill
        if self.stats is not None:
            await self.stats.close()

    async def _fill_cache(self) -> None:
        """Compute the results of finished games that have none (all of them after migration 0005, or a crash
        right after a game ended) in the background, so a first command finds them ready. Only once the
        start-up work is over (the restore of the open games and its sweep): after an upgrade it can take
        minutes of CPU, and its thread would slow the first answers and the restore (reads meanwhile fill
        the results they need themselves)."""
        assert self.stats is not None
        await self.bot.wait_until_ready()
        state = getattr(self.bot.get_cog("Table"), "state", None)
        settled = getattr(state, "settled", None)
        if isinstance(settled, asyncio.Event):
            await settled.wait()
        streaming = getattr(self.stats, "streaming", None)  # SQLite: a small page cache for the pass
        try:
            async with streaming() if streaming is not None else contextlib.nullcontext():
                filled = await self.stats.refresh(every_guild=True)
        except Exception:
            log.exception("could not fill the statistics cache (reads fill it as they need)")
            return
        if filled:
            log.info("statistics: computed the results of %d finished games", filled)

    # Commands -----------------------------------------------------------------------------------
    async def stats_cmd(self, board: Board, interaction: Interaction, player: discord.User | None,
                        public: bool) -> None:
        async def build(language: str) -> dict[str, Any]:
            stats, guild_id = self._ready(interaction, language)
            target = player or interaction.user
            figures = player_stats(await stats.player_games(guild_id, board.kind, target.id))
            fields = board.presenter.player_fields(figures, language) if figures.games else []
            if figures.games:
                fields = [*await self._rating_fields(stats, guild_id, board.kind, target.id, language), *fields]
            return {"embed": stats_render.stats_embed(board.title, target.display_name, figures, fields, language)}

        await self._answer(interaction, build, ephemeral=not public)

    async def leaderboard_cmd(self, board: Board, interaction: Interaction, period: Period, by: str,
                              public: bool, season: str | None = None) -> None:
        now = self.bot.clock.now()
        since, until = int(period_start(period, now)), int(now) + 1
        shown_period: str = period

        async def build(language: str) -> dict[str, Any]:
            nonlocal by, shown_period, since, until
            if season == "past":
                return await self._podiums(board, interaction, language)
            if season == "current":
                by, shown_period = "rating", "season"
                start, end = season_bounds(season_of(now, await self._season_length(interaction.guild_id)))
                since, until = int(start), int(end)
            return await self._leaderboard_page(board, interaction, by, shown_period, since, until, 0,
                                                interaction.user.id, language)

        await self._answer(interaction, build, ephemeral=not public)

    async def seasons_cmd(self, interaction: Interaction, length: str | None) -> None:
        """Show the server's season length, or set it (Manage Server)."""
        async def build(language: str) -> dict[str, Any]:
            if interaction.guild_id is None:
                raise Refusal(t("stats.error.guild_only", language))
            if length is None:
                current = await self._season_length(interaction.guild_id)
                return {"content": t("ratings.seasons.shown", language, length=t(f"ratings.length.{current}",
                                                                                 language))}
            if not interaction.permissions.manage_guild:  # the member's permissions in this channel
                raise Refusal(t("ratings.seasons.not_allowed", language))
            await self.bot.store.set_meta(SEASON_META.format(guild=interaction.guild_id), season_length(length))
            return {"content": t("ratings.seasons.set", language,
                                 length=t(f"ratings.length.{season_length(length)}", language))}

        await self._answer(interaction, build, ephemeral=True)

    async def history_cmd(self, board: Board, interaction: Interaction, public: bool) -> None:
        async def build(language: str) -> dict[str, Any]:
            stats, guild_id = self._ready(interaction, language)
            games = await stats.recent(guild_id, board.kind, HISTORY_LIMIT)
            return {"embed": stats_render.history_embed(board.title, board.command, games, language)}

        await self._answer(interaction, build, ephemeral=not public)

    async def game_cmd(self, board: Board, interaction: Interaction, game_id: int, public: bool) -> None:
        async def build(language: str) -> dict[str, Any]:
            record = await self._visible_game(board, interaction, game_id, language,
                                              allow_stopped=board.presenter.shows_stopped_games)
            return await board.presenter.game_message(record, board.game, language)

        await self._answer(interaction, build, ephemeral=not public)

    async def export_cmd(self, board: Board, interaction: Interaction, game_id: int) -> None:
        async def build(language: str) -> dict[str, Any]:
            record = await self._visible_game(board, interaction, game_id, language, allow_stopped=False)
            filename, data = board.presenter.export_file(record)
            return {"content": stats_render.export_text(record.id, filename, language),
                    "file": discord.File(io.BytesIO(data), filename=filename)}

        await self._answer(interaction, build, ephemeral=True)

    # Leaderboard pages --------------------------------------------------------------------------
    async def _leaderboard_page(self, board: Board, interaction: Interaction, by: str, period: str,
                                since: int, until: int, page: int, owner: int, language: str) -> dict[str, Any]:
        stats, guild_id = self._ready(interaction, language)
        if by == "rating":
            season = season_key(since, until) if period == "season" else None
            scope = server_scope(guild_id) if season is None else season_scope(guild_id, season)
            ranked = await stats.rating_board(guild_id, board.kind, scope, min_games=PROVISIONAL_GAMES, page=page,
                                              per_page=PER_PAGE)
            embed = ratings_render.board_embed(board.title, ranked, season, period not in ("all", "season"),
                                               language)
            view = leaderboard_view(board, by, period, since, until, ranked.page, ranked.pages, owner, language)
            return {"embed": embed, **({"view": view} if view is not None else {})}
        assert by in ("wins", "rate", "average") and period in ("all", "month", "week")
        min_games = 1 if by == "wins" else MIN_GAMES_FOR_RATES
        page_of = await stats.leaderboard(guild_id, board.kind, cast(RankBy, by), since, until, min_games=min_games,
                                          page=page, per_page=PER_PAGE)
        embed = stats_render.leaderboard_embed(board.title, page_of, cast(RankBy, by), period, min_games, language)
        view = leaderboard_view(board, by, period, since, until, page_of.page, page_of.pages, owner, language)
        return {"embed": embed, **({"view": view} if view is not None else {})}

    async def flip(self, interaction: Interaction, button: LeaderboardButton) -> None:
        language = await lang(interaction)
        board = self._boards.get(button.prefix)
        mine = interaction.user.id == button.owner
        try:
            if board is None:
                raise Refusal(t("stats.error.failed", language))
            owner = button.owner if mine else interaction.user.id
            fields = await self._leaderboard_page(board, interaction, button.by, button.period, button.since,
                                                  button.until, button.page, owner, language)
            if mine:
                fields.setdefault("view", None)
                await interaction.response.edit_message(**fields)
            else:
                await interaction.response.send_message(t("stats.error.not_owner", language), ephemeral=True,
                                                        **fields)
        except Refusal as refusal:
            await interaction.response.send_message(str(refusal), ephemeral=True)

    # Ratings ------------------------------------------------------------------------------------
    async def _season_length(self, guild_id: int | None) -> SeasonLength:
        return season_length(await self.bot.store.get_meta(SEASON_META.format(guild=guild_id)))

    async def _rating_fields(self, stats: Stats, guild_id: int, kind: str, user_id: int, language: str
                             ) -> list[stats_render.Field]:
        season = season_of(self.bot.clock.now(), await self._season_length(guild_id))
        scopes = [server_scope(guild_id), GLOBAL_SCOPE, season_scope(guild_id, season)]
        found = await stats.player_ratings(kind, user_id, scopes)
        return ratings_render.stats_fields(found, scopes[0], scopes[2], season, language)

    async def _podiums(self, board: Board, interaction: Interaction, language: str) -> dict[str, Any]:
        stats, guild_id = self._ready(interaction, language)
        length = await self._season_length(guild_id)
        current = season_of(self.bot.clock.now(), length)
        past = [s for s in await stats.seasons(guild_id, board.kind) if s != current][:PODIUM_SEASONS]
        podiums = [(s, await stats.rating_board(guild_id, board.kind, season_scope(guild_id, s),
                                                min_games=PROVISIONAL_GAMES, per_page=3)) for s in past]
        return {"embed": ratings_render.podium_embed(board.title, podiums, length, language)}

    # Helpers ------------------------------------------------------------------------------------
    def _ready(self, interaction: Interaction, language: str) -> tuple[Stats, int]:
        if interaction.guild_id is None:
            raise Refusal(t("stats.error.guild_only", language))
        if self.stats is None:
            raise Refusal(t("stats.error.failed", language))
        return self.stats, interaction.guild_id

    async def _visible_game(self, board: Board, interaction: Interaction, game_id: int, language: str, *,
                            allow_stopped: bool) -> GameRecord:
        """A game of this kind and server (any other is 'no such game': its existence stays private)."""
        self._ready(interaction, language)
        try:
            record = await self.bot.store.load_game(game_id)
        except UnknownGame:
            raise Refusal(t("stats.error.no_game", language, game=game_id)) from None
        if record.guild_id != interaction.guild_id or record.kind != board.kind:
            raise Refusal(t("stats.error.no_game", language, game=game_id))
        has_steps = any(a.kind == "resolve" for a in record.actions)
        if record.status == "finished" or (allow_stopped and record.status == "cancelled" and has_steps):
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
