"""Daily tables on Discord (issue 38): their reminders, their deadline line, the servers' time zones.

The poster adds the deadline line (``with_deadline``), the timers plan the reminders through
:mod:`cogs.table.daily_reminders`; the times come from the pure :mod:`bot.core.deadlines`.

Each reminder of a step (half time, near the deadline) is sent **at most once**: it is claimed in the store
(``reminders_sent``) before its DMs go out, and a claim that finds the row already there sends nothing. A restart,
or a second shard process, therefore never repeats one; a kill in the few milliseconds between the claim and the
DMs loses that one reminder (the next one, and the deadline shown on the turn message, still come). The other
order (send, then record) would repeat a whole round of pings after such a kill, on every process that plans
it: a duplicate ping is what players complain about, a rare lost one is covered by the second reminder.
"""

from __future__ import annotations

import logging
from zoneinfo import ZoneInfo

from bot.core.deadlines import (
    UTC,
    discord_time,
    is_daily,
    zone_named,
)
from bot.i18n import t
from storage.base import GameRecord, GameStore

from .presenter import Card

log = logging.getLogger(__name__)
ZONE_META = "timezone:{guild}"


def jump_link(record: GameRecord, message_id: int | None, where: int | None = None) -> str:
    """The link that opens a game's message (its channel when the message is not known); ``where``: the channel
    or thread its turn messages are in, when not the record's channel."""
    guild = record.guild_id if record.guild_id is not None else "@me"
    base = f"https://discord.com/channels/{guild}/{where or record.channel_id}"
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
