"""``/mygames`` (every table waiting for you, in any server), ``/server timezone`` (the quiet hours' zone of a
server's daily tables) and ``/server threads`` (new tables in a thread of their own, cogs/table/threads.py),
beside the shared front end: its own cog, so the table cog's files stay as they are.

Both answer privately. ``/mygames`` lists the running tables whose current step awaits you, soonest deadline
first, each with a link to its turn message; the list is cut to Discord's 2,000 characters with a count of the
tables left out.

The daily summary (``/notify summary``, on by default) is the same list, by DM, once a day at 09:00 UTC, for each
player a daily table waits for: claimed per player and day in the store before it goes out (at most once, like
the reminders: a restart or a second process never sends a second one the same day).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.deadlines import discord_time, is_daily, next_summary, summary_day
from bot.core.table import Table
from bot.i18n import t

from .answers import MESSAGE_LIMIT, SlowAnswer, reply
from .daily import ServerZones, jump_link
from .language import cmd
from .notify import NotifySettings
from .poster import Poster
from .threads import ServerThreads

if TYPE_CHECKING:
    from bot.client import NumberBot


log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
SUMMARY = "daily-summary"  # the scheduler key of the next summary round


@dataclass(frozen=True, slots=True)
class Waiting:
    """A table waiting for the player: what ``/mygames`` shows of it."""

    game: str  # the game's title in the reader's language
    channel_id: int
    deadline: float | None
    daily: bool
    link: str


def waiting_text(tables: Sequence[Waiting], lang: str, limit: int = MESSAGE_LIMIT) -> str:
    """The ``/mygames`` answer: one line a table, cut before ``limit`` characters with a count of the rest."""
    if not tables:
        return t("daily.mygames.none", lang)
    head = t("daily.mygames.head", lang, count=len(tables))
    lines: list[str] = []
    for index, table in enumerate(tables):
        line = t("daily.mygames.line", lang, game=table.game, channel=f"<#{table.channel_id}>", link=table.link,
                 pace=t("daily.pace.daily" if table.daily else "daily.pace.live", lang),
                 left=discord_time(table.deadline, "R") if table.deadline else "—")
        more = t("daily.mygames.more", lang, count=len(tables) - index)
        # room for this line, and for the "and N more" line should a later one not fit
        if len("\n".join([head, *lines, line, more])) > limit:
            lines.append(more)
            break
        lines.append(line)
    return "\n".join([head, *lines])


class DailyCommands(commands.Cog, name="DailyTables"):
    def __init__(self, bot: NumberBot, poster: Poster, notify: NotifySettings, zones: ServerZones,
                 threads: ServerThreads) -> None:
        self.bot = bot
        self.poster = poster
        self.notify = notify
        self.zones = zones
        self.threads = threads

    async def cog_load(self) -> None:
        self.bot.tree.add_command(app_commands.Command(
            name=cmd("mygames", "daily.cmd.mygames"), callback=self.mygames_cmd,
            description=cmd("Every table waiting for you, in every server", "daily.cmd.mygames.desc")))
        server = app_commands.Group(name=cmd("server", "daily.cmd.server"), guild_only=True,
                                    description=cmd("This server's settings for the bot", "daily.cmd.server.desc"))
        server.add_command(app_commands.Command(
            name=cmd("timezone", "daily.cmd.timezone"), callback=self.timezone_cmd,
            description=cmd("The time zone of the daily tables' quiet hours (Manage Server)",
                            "daily.cmd.timezone.desc")))
        server.add_command(app_commands.Command(
            name=cmd("threads", "threads.cmd.threads"), callback=self.threads_cmd,
            description=cmd("Whether each new table plays in a thread of its own (Manage Server)",
                            "threads.cmd.threads.desc")))
        self.bot.tree.add_command(server)
        self._plan_summaries()

    async def cog_unload(self) -> None:
        self.poster.scheduler.cancel(SUMMARY)
        self.bot.tree.remove_command("mygames")
        self.bot.tree.remove_command("server")

    # The daily summary ----------------------------------------------------------------------------
    def _plan_summaries(self) -> None:
        self.poster.scheduler.schedule(SUMMARY, next_summary(self.bot.clock.now()), self.send_summaries)

    async def send_summaries(self) -> None:
        """Each player a daily table waits for, with the summary on: one DM listing those tables."""
        try:
            await self._send_summaries()
        except Exception:  # a busy database: this day's round is skipped, the next one comes tomorrow
            log.exception("the daily summaries failed")
        finally:
            self._plan_summaries()

    async def _send_summaries(self) -> None:
        poster, service = self.poster, self.poster.service
        now = self.bot.clock.now()
        day = summary_day(now)
        waiting: dict[int, list[Table]] = {}
        for record in await service.load_open_games():
            if record.status != "running" or not is_daily(record.options):
                continue
            table = await service.table(record.id)
            for seat in sorted(table.awaited()):
                user_id = table.seat(seat).user_id
                if user_id is not None and not table.seat(seat).is_ai:
                    waiting.setdefault(user_id, []).append(table)
        for user_id, tables in waiting.items():
            if not (await self.notify.of(user_id)).summary or not await poster.store.claim_summary(user_id, day, now):
                continue
            lang = await poster.languages.for_dm(user_id, tables[0].record)
            head = t("daily.summary", lang)
            shown = sorted((self._waiting(table, lang) for table in tables), key=lambda w: w.deadline or float("inf"))
            await poster.send_dm(user_id, head + "\n" + waiting_text(shown, lang, MESSAGE_LIMIT - len(head) - 1))

    def _waiting(self, table: Table, lang: str) -> Waiting:
        record = table.record
        message_id = self.poster.state.turn_message_id(table.id) or record.status_message_id
        return Waiting(self.poster.presenter(table).title(lang), record.channel_id, record.deadline,
                       is_daily(record.options), jump_link(record, message_id, self.poster.where(record)))

    async def _lang(self, interaction: Interaction) -> str:
        return await self.poster.languages.for_user(interaction)

    async def mygames_cmd(self, interaction: Interaction) -> None:
        guard = SlowAnswer(interaction, "ephemeral")
        try:
            lang = await self._lang(interaction)
            text = waiting_text(await self.waiting(interaction.user.id, lang), lang)
        except Exception:
            log.exception("/mygames failed")
            text = t("core.error.generic", await self._lang(interaction))
        finally:
            guard.stop()
        await reply(interaction, text)

    async def waiting(self, user_id: int, lang: str) -> list[Waiting]:
        """The running tables whose current step awaits ``user_id``, soonest deadline first."""
        poster, service = self.poster, self.poster.service
        found: list[Waiting] = []
        for record in await poster.store.running_games_of_user(user_id):
            if record.kind not in service.by_key:
                continue  # another service's game
            table = await service.table(record.id)
            seat = table.record.seat_of(user_id)
            if not table.running or seat is None or seat.seat not in table.awaited():
                continue
            found.append(self._waiting(table, lang))
        return sorted(found, key=lambda w: w.deadline or float("inf"))

    @app_commands.rename(zone=cmd("zone", "daily.cmd.timezone.zone"))
    @app_commands.describe(zone=cmd("An IANA time zone, such as Europe/Paris (empty: show the current one)",
                                    "daily.cmd.timezone.zone.desc"))
    async def timezone_cmd(self, interaction: Interaction, zone: str | None = None) -> None:
        lang = await self._lang(interaction)
        zones = self.zones
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply(interaction, t("core.error.guild_only", lang))
            return
        if zone is None:
            current = await zones.of(guild_id)
            await reply(interaction, t("daily.timezone.shown", lang, zone=current.key))
            return
        if not interaction.permissions.manage_guild:
            await reply(interaction, t("daily.timezone.not_allowed", lang))
            return
        try:
            chosen = await zones.set(guild_id, zone)
        except ValueError:
            await reply(interaction, t("daily.timezone.unknown", lang, zone=zone[:60]))
            return
        await reply(interaction, t("daily.timezone.set", lang, zone=chosen.key))

    @app_commands.rename(on=cmd("on", "threads.cmd.threads.on"))
    @app_commands.describe(on=cmd("True: a thread per table by default; False: in the channel (empty: show it)",
                                  "threads.cmd.threads.on.desc"))
    async def threads_cmd(self, interaction: Interaction, on: bool | None = None) -> None:
        """Show, or (Manage Server) set, whether new tables of this server play in a thread of their own."""
        lang = await self._lang(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply(interaction, t("core.error.guild_only", lang))
            return
        if on is not None:
            if not interaction.permissions.manage_guild:
                await reply(interaction, t("threads.not_allowed", lang))
                return
            await self.threads.set(guild_id, on)
        shown = await self.threads.of(guild_id)
        await reply(interaction, t("threads.shown.on" if shown else "threads.shown.off", lang))
