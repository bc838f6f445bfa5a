"""Daily tables on Discord (issue 38): their reminders, their deadline line, the servers' time zones.

:class:`Talk` calls in here at three places only (``arm``, ``_status``, ``tell_timed_out``); the times come from
the pure :mod:`bot.core.deadlines`.

Each reminder of a step (half time, near the deadline) is sent **at most once**: it is claimed in the store
(``reminders_sent``) before its DMs go out, and a claim that finds the row already there sends nothing. A restart,
or a second shard process, therefore never repeats one; a kill in the few milliseconds between the claim and the
DMs loses that one reminder (the next one, and the deadline shown on the turn message, still come). The other
order (send, then record) would repeat a whole round of pings after such a kill, on every process that plans
it: a duplicate ping is what players complain about, a rare lost one is covered by the second reminder.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import discord

from bot.core.deadlines import (
    HALF,
    NEAR,
    UTC,
    discord_time,
    is_daily,
    next_reminder,
    zone_named,
)
from bot.core.table import Table
from bot.http_pacing import in_background
from bot.i18n import t
from storage.base import GameRecord, GameStore

from .presenter import Card
from .turn_messages import REMINDER

if TYPE_CHECKING:
    from .talk import Talk

log = logging.getLogger(__name__)
ZONE_META = "timezone:{guild}"


def jump_link(record: GameRecord, message_id: int | None) -> str:
    """The link that opens a game's message (its channel when the message is not known)."""
    guild = record.guild_id if record.guild_id is not None else "@me"
    base = f"https://discord.com/channels/{guild}/{record.channel_id}"
    return f"{base}/{message_id}" if message_id else base


class ServerZones:
    """Each server's time zone for the quiet hours (``/server timezone``), UTC until an admin sets one."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._cache: dict[int, ZoneInfo] = {}

    def cached(self, guild_id: int | None) -> ZoneInfo | None:
        return ZoneInfo(UTC) if guild_id is None else self._cache.get(guild_id)

    async def of(self, guild_id: int | None) -> ZoneInfo:
        zone = self.cached(guild_id)
        if zone is not None:
            return zone
        assert guild_id is not None
        name = await self.store.get_meta(ZONE_META.format(guild=guild_id))
        try:
            zone = zone_named(name) if name else ZoneInfo(UTC)
        except ValueError:  # a zone the installed tz database no longer knows: UTC rather than no reminder
            log.warning("server %s: stored time zone %r is unknown; using UTC", guild_id, name)
            zone = ZoneInfo(UTC)
        self._cache[guild_id] = zone
        return zone

    async def set(self, guild_id: int, name: str) -> ZoneInfo:
        """Store ``name`` for the server; ValueError (nothing stored) when the tz database does not know it."""
        zone = zone_named(name)
        await self.store.set_meta(ZONE_META.format(guild=guild_id), zone.key)
        self._cache[guild_id] = zone
        return zone


def deadline_line(record: GameRecord, lang: str) -> str | None:
    """A daily table's deadline, as Discord timestamps each reader sees in their own zone (None: a live table)."""
    if not is_daily(record.options) or record.deadline is None or record.status != "running":
        return None
    return t("daily.deadline", lang, when=discord_time(record.deadline, "f"),
             left=discord_time(record.deadline, "R"))


def with_deadline(card: Card, record: GameRecord, lang: str) -> Card:
    """``card`` with the daily table's deadline line above its content (the same card on a live table)."""
    line = deadline_line(record, lang)
    if line is None:
        return card
    return Card("\n".join(c for c in (line, card.content) if c), card.embeds, card.pictures)


def away_key(record: GameRecord) -> str:
    """The DM to a player who just missed two deadlines in a row: on a daily table, the AI plays for them."""
    return "daily.dm.away" if is_daily(record.options) else "core.dm.away"


class DailyReminders:
    """The reminders of the daily tables of one :class:`Talk` (its scheduler, its DMs, its /notify settings)."""

    def __init__(self, talk: Talk) -> None:
        self.talk = talk
        self.zones = ServerZones(talk.store)
        self._planning: set[asyncio.Task[None]] = set()

    def arm(self, record: GameRecord) -> bool:
        """Plan the step's next reminder; False for a live table (Talk keeps today's one reminder)."""
        if not is_daily(record.options):
            return False
        zone = self.zones.cached(record.guild_id)
        if zone is not None:
            self._schedule(record, zone, frozenset())
        else:  # the server's zone is read once, then cached: plan when it is known
            task = asyncio.get_running_loop().create_task(self._plan(record), name=f"plan reminders {record.id}")
            self._planning.add(task)
            task.add_done_callback(self._planning.discard)
        return True

    async def _plan(self, record: GameRecord) -> None:
        try:
            zone = await self.zones.of(record.guild_id)
        except Exception as exc:  # the database is busy: plan in UTC rather than not at all
            log.warning("game %s: could not read the server's time zone (%s); reminders in UTC", record.id, exc)
            zone = ZoneInfo(UTC)
        self._schedule(record, zone, frozenset())

    def _schedule(self, record: GameRecord, zone: ZoneInfo, sent: frozenset[str]) -> None:
        talk = self.talk
        key = (REMINDER, record.id)
        if record.deadline is None or record.status != "running":
            talk.scheduler.cancel(key)
            return
        opened = record.deadline - talk.service.turn_seconds(record)
        planned = next_reminder(opened, record.deadline, zone, talk.bot.clock.now(), sent)
        if planned is None:
            talk.scheduler.cancel(key)
            return
        game_id, step, slot = record.id, record.phase, planned.slot
        talk.scheduler.schedule(key, planned.at, lambda: in_background(self.fire(game_id, step, slot, zone)))

    async def fire(self, game_id: int, step: int, slot: str, zone: ZoneInfo) -> None:
        """The reminder ``slot`` of ``step`` is due: claim it (once across restarts and processes), send it, and
        plan the step's next one."""
        talk = self.talk
        table = await talk.service.table(game_id)
        record = table.record
        if not table.running or table.step != step or record.deadline is None:
            return
        if await talk.store.claim_reminder(game_id, step, slot, talk.bot.clock.now()):
            await self.send(table, slot)
        else:
            log.info("game %s: reminder %s of step %s was sent before; not again", game_id, slot, step)
        self._schedule(record, zone, frozenset({HALF, NEAR}) if slot == NEAR else frozenset({HALF}))

    async def send(self, table: Table, slot: str) -> None:
        """Each awaited player not away, as their /notify says: a DM, else (closed or turned off) a mention in
        the channel that pings only them; nothing for a player who turned both off."""
        talk, record = self.talk, table.record
        assert record.deadline is not None
        link = jump_link(record, talk.turn_message_id(table.id) or record.status_message_id)
        mentions: list[int] = []
        for seat in sorted(table.awaited()):
            user_id = table.seat(seat).user_id
            if user_id is None or table.seat(seat).is_ai or table.away(seat):
                continue
            reach = await talk.notify.of(user_id)
            if reach.dm:
                lang = await talk.languages.for_dm(user_id, record)
                game = talk.presenter(record).title(lang)
                text = t("daily.remind", lang, game=game, channel=f"<#{record.channel_id}>", link=link,
                         when=discord_time(record.deadline, "f"), left=discord_time(record.deadline, "R"))
                nonce = f"dr{table.id % 10**9}.{table.step}.{seat}{slot[0]}"
                if await talk.send_dm(user_id, text, nonce=nonce):
                    continue
            if reach.mention:
                mentions.append(user_id)
        if mentions:
            await self._mention(table, mentions, slot)

    async def _mention(self, table: Table, user_ids: list[int], slot: str) -> None:
        talk, record = self.talk, table.record
        assert record.deadline is not None
        lang = await talk.languages.for_game(record)
        text = t("daily.mention", lang, names=" ".join(f"<@{u}>" for u in user_ids),
                 game=talk.presenter(record).title(lang), left=discord_time(record.deadline, "R"))
        try:
            await talk.send(talk.channel(record.channel_id), nonce=f"dm{record.id % 10**9}.{table.step}{slot[0]}",
                            content=text, allowed_mentions=discord.AllowedMentions(
                                everyone=False, roles=False, replied_user=False,
                                users=[discord.Object(id=u) for u in user_ids]))
        except discord.HTTPException as exc:
            log.info("game %s: could not remind in the channel: %s", record.id, exc)
