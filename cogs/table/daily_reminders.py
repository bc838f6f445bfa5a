"""The reminders of the daily tables (issue 38): half time and near the deadline, each sent at most once (see
:mod:`cogs.table.daily` for why at most once), planned in the server's time zone outside its quiet hours."""

from __future__ import annotations

import asyncio
import logging
from zoneinfo import ZoneInfo

from bot.core.clock import Clock
from bot.core.deadlines import HALF, NEAR, UTC, discord_time, is_daily, next_reminder
from bot.core.table import Table
from bot.http_pacing import in_background
from bot.i18n import t
from storage.base import GameRecord

from .daily import ServerZones, jump_link
from .notify import NotifySettings, remind_awaited
from .poster import Poster
from .turn_messages import REMINDER

log = logging.getLogger(__name__)


class DailyReminders:
    """The reminders of the daily tables told through the :class:`Poster` (its scheduler, its DMs), as /notify says."""

    def __init__(self, poster: Poster, notify: NotifySettings, clock: Clock) -> None:
        self.poster = poster
        self.notify = notify
        self.clock = clock
        self.zones = ServerZones(poster.store)
        self._planning: set[asyncio.Task[None]] = set()

    def arm(self, record: GameRecord) -> bool:
        """Plan the step's next reminder; False for a live table (the timers keep today's one reminder)."""
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
        poster = self.poster
        key = (REMINDER, record.id)
        if record.deadline is None or record.status != "running":
            poster.scheduler.cancel(key)
            return
        opened = record.deadline - poster.service.turn_seconds(record)
        planned = next_reminder(opened, record.deadline, zone, self.clock.now(), sent)
        if planned is None:
            poster.scheduler.cancel(key)
            return
        game_id, step, slot = record.id, record.phase, planned.slot
        poster.scheduler.schedule(key, planned.at, lambda: in_background(self.fire(game_id, step, slot, zone)))

    async def fire(self, game_id: int, step: int, slot: str, zone: ZoneInfo) -> None:
        """The reminder ``slot`` of ``step`` is due: claim it (once across restarts and processes), send it, and
        plan the step's next one."""
        poster = self.poster
        table = await poster.service.table(game_id)
        record = table.record
        if not table.running or table.step != step or record.deadline is None:
            return
        if await poster.store.claim_reminder(game_id, step, slot, self.clock.now()):
            await self.send(table, slot)
        else:
            log.info("game %s: reminder %s of step %s was sent before; not again", game_id, slot, step)
        self._schedule(record, zone, frozenset({HALF, NEAR}) if slot == NEAR else frozenset({HALF}))

    async def send(self, table: Table, slot: str) -> None:
        """Each awaited player not away, as their /notify says: a DM, else (closed or turned off) a mention in
        the channel that pings only them; nothing for a player who turned both off."""
        poster, record = self.poster, table.record
        assert record.deadline is not None
        link = jump_link(record, poster.state.turn_message_id(table.id) or record.status_message_id,
                         poster.where(record))
        deadline = record.deadline

        async def dm_of(seat: int, user_id: int) -> tuple[str, str]:
            lang = await poster.languages.for_dm(user_id, record)
            text = t("daily.remind", lang, game=poster.presenter(record).title(lang), channel=f"<#{record.channel_id}>",
                     link=link, when=discord_time(deadline, "f"), left=discord_time(deadline, "R"))
            return text, f"dr{table.id % 10**9}.{table.step}.{seat}{slot[0]}"

        mentions = await remind_awaited(table, self.notify, poster.send_dm, dm_of)
        if mentions:
            await self._mention(table, mentions, slot)

    async def _mention(self, table: Table, user_ids: list[int], slot: str) -> None:
        poster, record = self.poster, table.record
        assert record.deadline is not None
        lang = await poster.languages.for_game(record)
        text = t("daily.mention", lang, names=" ".join(f"<@{u}>" for u in user_ids),
                 game=poster.presenter(record).title(lang), left=discord_time(record.deadline, "R"))
        await poster.ping(record, user_ids, text, nonce=f"dm{record.id % 10**9}.{table.step}{slot[0]}")
