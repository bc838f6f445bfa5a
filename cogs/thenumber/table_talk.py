"""What the bot says in the channel and in DMs as a game goes on: turn status, reveals, reminders.

Order matters for durability: the service has already committed a turn before anything here tells
anyone about it. Reveals are posted with a nonce derived from (game, turn), which Discord uses to
refuse a duplicate, so a reveal re-sent after a crash or a retry still appears once.
"""

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.services.thenumber import Table, TurnReport, report_for
from storage.base import GameRecord

from . import render
from .components import turn_view

if TYPE_CHECKING:
    from bot.client import NumberBot

log = logging.getLogger(__name__)
STATUS_EDIT_DELAY = 2.0  # coalesce "who has chosen" edits: one edit for a burst of choices
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)  # on top of discord.py's own retries of 500/502/504
CATCH_UP_AFTER = 30.0  # a post that failed through every retry is tried again this much later


class TableTalk:
    def __init__(self, bot: "NumberBot") -> None:
        self.bot = bot
        self.games = bot.games
        self.store = bot.store
        self.scheduler = bot.scheduler
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    # Posting ------------------------------------------------------------------------------------
    async def post(self, record: GameRecord, *, nonce: str, **fields: Any) -> discord.Message | None:
        """Post in the game's channel (see :meth:`send`); a lost channel ends the game, and a post that
        outlasts every retry is caught up later."""
        try:
            message = await self.send(self.channel(record.channel_id), nonce=nonce, **fields)
        except discord.HTTPException as exc:
            if exc.status in (403, 404):
                await self.channel_failed(record, exc)
            else:
                log.error("game %s: Discord refused a message: %s", record.id, exc)
            return None
        if message is None:
            game_id = record.id
            self.scheduler.schedule(("catch-up", game_id), self.bot.clock.now() + CATCH_UP_AFTER,
                                    lambda: self.catch_up(game_id))
        return message

    async def send(self, target: discord.abc.Messageable, *, nonce: str | None, **fields: Any
                   ) -> discord.Message | None:
        """Send, retrying Discord's server errors with backoff; None if they outlast every retry.

        Every attempt carries the same nonce, which Discord uses to refuse a duplicate, so however many
        attempts it takes the message appears once. Other HTTP errors are raised.
        """
        for delay in (*self.retry_delays, None):
            try:
                return await target.send(nonce=nonce, **fields)
            except discord.DiscordServerError as exc:
                log.warning("Discord answered %s to a message; %s", exc.status,
                            "retrying" if delay is not None else "giving up for now")
                if delay is not None:
                    await asyncio.sleep(delay)
        return None

    # Turns --------------------------------------------------------------------------------------
    async def open_turn(self, table: Table) -> None:
        """Post the turn's status message (with its Choose button) and arm its timers."""
        record = table.record
        phase = record.phase
        self.arm_timers(table)  # first: the turn must end on time even if the post below fails
        message = await self.post(record, nonce=f"ts{record.id}-{phase}", embed=render.status_embed(table),
                                  view=turn_view(record.id, phase))
        if message is None:
            return
        await self.store.set_message(record.id, "status", message.id)
        if table.record.phase == phase:
            table.record = replace(table.record, status_message_id=message.id)

    def arm_timers(self, table: Table) -> None:
        record = table.record
        if record.deadline is None or record.status != "running":
            return
        game_id, phase = record.id, record.phase
        self.scheduler.schedule(("deadline", game_id), record.deadline, lambda: self.deadline(game_id, phase))
        remind_at = record.deadline - self.bot.settings.reminder_seconds
        if self.bot.settings.reminder_seconds and remind_at > self.bot.clock.now():
            self.scheduler.schedule(("reminder", game_id), remind_at, lambda: self.remind(game_id, phase))
        else:
            self.scheduler.cancel(("reminder", game_id))

    def choice_made(self, table: Table) -> None:
        """Someone chose: refresh the status message soon (once for a burst of choices)."""
        key = ("status", table.record.id)
        if not self.scheduler.is_scheduled(key):
            game_id, phase = table.record.id, table.record.phase
            self.scheduler.schedule(key, self.bot.clock.now() + STATUS_EDIT_DELAY,
                                    lambda: self.refresh_status(game_id, phase))

    async def refresh_status(self, game_id: int, phase: int) -> None:
        table = await self.games.table(game_id)
        if table.record.status != "running" or table.record.phase != phase or not table.record.status_message_id:
            return
        message = self.channel(table.record.channel_id).get_partial_message(table.record.status_message_id)
        try:
            await message.edit(embed=render.status_embed(table), view=turn_view(game_id, phase))
        except discord.HTTPException as exc:
            log.warning("could not refresh the status of game %s: %s", game_id, exc)

    async def deadline(self, game_id: int, phase: int) -> None:
        report = await self.games.expire(game_id, phase)
        if report is not None:
            await self.reveal(report)

    async def remind(self, game_id: int, phase: int) -> None:
        table = await self.games.table(game_id)
        if table.record.status != "running" or table.record.phase != phase or table.record.deadline is None:
            return
        left = max(1, int(table.record.deadline - self.bot.clock.now()))
        for seat in table.awaiting():
            if seat.user_id is not None:
                await self.send_dm(seat.user_id, render.reminder_text(table.record.channel_id, table.state, left))

    # Reveals ------------------------------------------------------------------------------------
    async def reveal(self, report: TurnReport) -> None:
        record = report.table.record
        game_id = record.id
        for key in ("status", "reminder", "deadline"):
            self.scheduler.cancel((key, game_id))
        message = await self.post(record, nonce=f"tn{game_id}-{report.phase}", embeds=render.reveal_embeds(report))
        if message is None:
            return
        await self.store.mark_announced(game_id, report.phase)
        if not report.finished:
            await self.open_turn(report.table)

    async def resolve_if_complete(self, table: Table, reason: str = "all-chosen") -> None:
        report = await self.games.resolve(table.record.id, table.record.phase, reason=reason)
        if report is not None:
            await self.reveal(report)
        else:
            self.choice_made(table)

    # Restart and catching up --------------------------------------------------------------------
    async def restore(self) -> None:
        """After a start: announce what was resolved but not told, re-post missing status, re-arm timers."""
        for record in await self.games.load_open_games():
            if record.status == "running":
                await self.catch_up(record.id)
        # A game whose final reveal was committed but never posted.
        for record in await self.store.unannounced_finished_games():
            await self.catch_up(record.id)

    async def catch_up(self, game_id: int) -> None:
        """Say what the database knows but the channel was not told yet, then make sure the timers run."""
        try:
            table = await self.games.table(game_id)
            record = table.record
            if record.announced_phase < record.phase - 1:
                await self.reveal(report_for(table, record.phase - 1))
            elif record.status == "running" and record.status_message_id is None:
                await self.open_turn(table)
            else:
                self.arm_timers(table)
        except Exception:
            log.exception("could not catch up game %s", game_id)

    # Failures -----------------------------------------------------------------------------------
    async def channel_failed(self, record: GameRecord, exc: discord.HTTPException) -> None:
        """The channel is gone or the bot may not speak there: end the game cleanly, tell the host."""
        log.warning("game %s: channel %s refused a message (%s %s)", record.id, record.channel_id,
                    exc.status, getattr(exc, "code", 0))
        why = "the channel was deleted" if exc.status == 404 else "I am no longer allowed to post in that channel"
        await self.stop_game(record, why)

    async def stop_game(self, record: GameRecord, why: str) -> None:
        for key in ("deadline", "reminder", "status", "catch-up"):
            self.scheduler.cancel((key, record.id))
        if await self.games.abandon(record.id, why):
            await self.send_dm(record.host_id, f"Your game of The Number in <#{record.channel_id}> was stopped: {why}. "
                                               "Everything played so far is saved.")

    async def channel_deleted(self, channel_id: int) -> None:
        record = await self.store.open_game_in_channel(channel_id)
        if record is not None:
            await self.stop_game(record, "the channel was deleted")

    async def send_dm(self, user_id: int, text: str) -> bool:
        """DM a user; False when they do not accept DMs from the bot (403 / 50007). Never raises."""
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))  # cached after the first time
            await channel.send(text)
        except discord.HTTPException as exc:
            log.info("could not DM user %s (%s)", user_id, getattr(exc, "code", exc.status))
            return False
        return True
