"""A game's timers: the step's deadline (the service acts for whoever has not chosen) and the reminder before it,
armed from the stored deadline alone (so a restart re-arms them from the database), and cancelled when the game
stops. What a deadline or a reminder tells goes through the :class:`~cogs.table.poster.Poster`."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.core.clock import Clock
from bot.core.service import GameService, StepReport
from bot.core.table import AWAY_AFTER_MISSES, Table
from bot.core.timers import Scheduler
from bot.http_pacing import in_background
from bot.i18n import t
from bot.settings import Settings
from storage.base import GameRecord

from .daily import away_key
from .daily_reminders import DailyReminders
from .language import Languages
from .layout import edit_fields as v2_edit
from .layout import embeds_of
from .notify import NotifySettings, remind_awaited
from .poster import Poster
from .table_state import TableState
from .turn_messages import DEADLINE, REMINDER, TIMER_KEYS, seat_infos

log = logging.getLogger(__name__)


class Timers:
    def __init__(self, poster: Poster, service: GameService, languages: Languages, notify: NotifySettings,
                 state: TableState, scheduler: Scheduler, clock: Clock, settings: Settings) -> None:
        self.poster = poster
        self.service = service
        self.languages = languages
        self.notify = notify
        self.state = state
        self.scheduler = scheduler
        self.clock = clock
        self.settings = settings
        self.daily = DailyReminders(poster, notify, clock)  # a daily table's reminders (issue 38)

    def cancel(self, game_id: int) -> None:
        for key in TIMER_KEYS:
            self.scheduler.cancel((key, game_id))


    def arm(self, record: GameRecord) -> None:
        """The step's deadline and reminder, from the stored deadline (nothing else needed)."""
        if record.deadline is None or record.status != "running":
            return
        game_id, step = record.id, record.phase
        self.scheduler.schedule((DEADLINE, game_id), record.deadline, lambda: self.deadline(game_id, step))
        if self.daily.arm(record):  # a daily table: its half-time and near reminders, sent once each
            return
        remind_at = record.deadline - self.settings.reminder_seconds
        if self.settings.reminder_seconds and remind_at > self.clock.now():
            self.scheduler.schedule((REMINDER, game_id), remind_at, lambda: in_background(self.remind(game_id, step)))
        else:
            self.scheduler.cancel((REMINDER, game_id))

    async def deadline(self, game_id: int, step: int, attempt: int = 0) -> None:
        try:
            reports = await self.service.expire(game_id, step)
            table = await self.service.table(game_id)
        except Exception as exc:
            delay = self.state.backoff(attempt)
            log.warning("game %s: the deadline of step %s failed (%s); trying again in %.0f s",
                        game_id, step, exc, delay)
            self.scheduler.schedule((DEADLINE, game_id), self.clock.now() + delay,
                                    lambda: self.deadline(game_id, step, attempt + 1))
            return
        await self.poster.announce(table, reports)
        await self.tell_timed_out(table, reports)

    async def remind(self, game_id: int, step: int) -> None:
        """Each awaited player once per step, whatever path the others used: a DM, else (DMs closed or turned
        off with /notify) a mention in the channel that pings only them. A game reminded in the channel also
        shows the line on its turn message (its one spare call, nobody pinged)."""
        table = await self.service.table(game_id)
        record = table.record
        if not table.running or table.step != step or record.deadline is None:
            return
        presenter = self.poster.presenter(table)
        if presenter.reminds_in_channel:
            await self._remind_in_channel(game_id, step)
            table = await self.service.table(game_id)
            if not table.running or table.step != step:
                return
        left = max(1, int(record.deadline - self.clock.now()))
        view = table.game.view(table.state, None)

        async def dm_of(seat: int, user_id: int) -> tuple[str, str]:
            if not presenter.reminds_in_channel:
                self.poster.spend(table, 1)
            lang = await self.languages.for_dm(user_id, record)
            return (presenter.reminder(view, seat, left, self.poster.where(record), lang),
                    f"remind{game_id % 10**9}.{step}.{seat}")

        mentions = await remind_awaited(table, self.notify, self.poster.send_dm, dm_of)
        if mentions:
            await self._remind_by_mention(table, mentions, left)

    async def _remind_by_mention(self, table: Table, user_ids: Sequence[int], seconds: int) -> None:
        """One channel line naming the players the DM could not reach; ``allowed_mentions`` pings only them."""
        record = table.record
        lang = await self.languages.for_game(record)
        text = t("core.remind.mention", lang, names=" ".join(f"<@{u}>" for u in user_ids), seconds=seconds,
                 game=self.poster.presenter(table).title(lang))
        await self.poster.ping(record, user_ids, text, nonce=f"remind{record.id % 10**9}.{table.step}")


    async def _remind_in_channel(self, game_id: int, step: int) -> None:
        """One edit of the turn message (drawn again with the line at its top: a V2 message has no content of
        its own to change), never a ping; it is the step's one spare call, which a choice made outside the
        message gave to the close."""
        poster = self.poster
        async with self.state.locks(game_id):
            table = await self.service.table(game_id)
            up = self.state.turn_messages.get(game_id)
            prompt = table.prompt
            if not table.running or table.step != step or up is None or up.step != step or prompt is None:
                return
            lang = await self.languages.for_game(table.record)
            if poster.reminder_text(table, lang) is None or not poster.spend(table, 1):
                return
            up = self.state.turn_messages[game_id] = replace(up, reminded=True)
            partial = poster.channel(poster.where(table.record)).get_partial_message(up.message_id)
            try:
                head = up.head
                if head is None:  # found after a restart: what is above the turn's own card is read once
                    shown = embeds_of(await partial.fetch())
                    own = len(poster.status_card(table, prompt, seat_infos(table), up.since, lang).embeds)
                    head = tuple(shown[:max(0, len(shown) - own)])
                    up = self.state.turn_messages[game_id] = replace(up, head=head)
                await partial.edit(**v2_edit(poster.turn_card(table, up, lang), poster.input_view(table, prompt, lang)),
                                   allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.info("game %s: could not remind on the turn message: %s", game_id, exc)


    async def tell_timed_out(self, table: Table, reports: Sequence[StepReport]) -> None:
        """DM each seat the deadline acted for what was done in its name (the presenter's optional hook), and
        once, to a seat this made away, that it is marked away (no more reminders) and how to come back."""
        if not any(report.timed_out for report in reports):
            return
        lang = await self.languages.for_game(table.record)
        presenter = self.poster.presenter(table)
        title = presenter.title(lang)
        for seat in sorted({s for report in reports for s in report.timed_out}):
            user_id = table.seat(seat).user_id
            if user_id is not None and table.misses_in_a_row(seat) == AWAY_AFTER_MISSES:
                await self.poster.send_dm(user_id, t(away_key(table.record), lang, game=title,
                                              channel=f"<#{table.record.channel_id}>", misses=AWAY_AFTER_MISSES))
        hook = presenter.timed_out
        game = table.game
        for report in reports:
            for seat in sorted(report.timed_out):
                user_id = table.seat(seat).user_id
                text = hook(game.view(report.before, seat), game.view(report.after, seat), seat, lang)
                if user_id is not None and text:
                    await self.poster.send_dm(user_id, text)
