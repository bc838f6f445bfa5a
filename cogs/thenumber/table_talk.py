"""What the bot says in the channel and in DMs as a game goes on: turn status, reveals, reminders.

Order matters for durability: the service has already committed a turn before anything here tells
anyone about it. Reveals are posted with a nonce derived from (game, turn), which Discord uses to
refuse a duplicate for a few minutes; a reveal caught up later (after a crash or a long outage) is first
looked for in the channel's recent messages, so it still appears once.

Work driven by timers (deadlines, catching up, a complete turn) that fails, for example on a locked or
full database, is logged and tried again with backoff until it succeeds.
"""

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import LANGUAGES, t
from bot.services.thenumber import Table, TurnReport, report_for
from storage.base import GameRecord

from . import render
from .chart import final_chart_file
from .components import turn_view
from .language import Languages

if TYPE_CHECKING:
    from bot.client import NumberBot

log = logging.getLogger(__name__)
STATUS_EDIT_DELAY = 2.0  # coalesce "who has chosen" edits: one edit for a burst of choices
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)  # on top of discord.py's own retries of 500/502/504
CATCH_UP_AFTER = 30.0  # a post that failed through every retry is tried again this much later
BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)  # failed timer work (database errors), then every minute
LOOKBACK = 50  # recent channel messages searched for a reveal already posted


class TableTalk:
    def __init__(self, bot: "NumberBot", languages: Languages) -> None:
        self.bot = bot
        self.languages = languages
        self.games = bot.games
        self.store = bot.store
        self.scheduler = bot.scheduler
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        self.backoff_delays: tuple[float, ...] = BACKOFF
        # Per game, how many more REST calls this turn may spend on status edits. A turn costs N
        # acknowledgements, the reveal and the next status message; edits and reminders share the rest of
        # a budget of 2N + 3 calls, so a turn never costs more however the choices are spread.
        self._spare_calls: dict[int, int] = {}

    def backoff(self, attempt: int) -> float:
        return self.backoff_delays[min(attempt, len(self.backoff_delays) - 1)]

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    # Posting ------------------------------------------------------------------------------------
    async def post(self, record: GameRecord, *, nonce: str, **fields: Any) -> discord.Message | None:
        """Post in the game's channel (see :meth:`send`); a lost channel ends the game, and a post that
        outlasts every retry is caught up later."""
        try:
            message = await self.send(self.channel(record.channel_id), nonce=nonce, **fields)
        except discord.HTTPException as exc:
            if exc.status == 403 and "file" in fields:
                # Attach Files was taken away: the final reveal matters, the score-race picture does not.
                log.warning("game %s: posting without the attached file (%s)", record.id, exc)
                return await self.post(record, nonce=nonce, **{k: v for k, v in fields.items() if k != "file"})
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
    async def open_turn(self, table: Table, *, catching_up: bool = False) -> None:
        """Post the turn's status message (with its Choose button) and arm its timers. ``catching_up``
        (after a restart or an outage): first look whether the channel already shows it."""
        record = table.record
        phase = record.phase
        self.arm_timers(record)  # first: the turn must end on time even if the post below fails
        lang = await self.languages.for_game(record)
        choose_id = f"tn:choose:{record.id}:{phase}"
        message = await self.recent_message(record, lambda m: any(
            getattr(c, "custom_id", None) == choose_id for row in m.components
            for c in getattr(row, "children", ()))) if catching_up else None
        if message is None:
            message = await self.post(record, nonce=f"ts{record.id}-{phase}", embed=render.status_embed(table, lang),
                                      view=turn_view(record.id, phase, lang))
        if message is None:
            return
        await self.store.set_message(record.id, "status", message.id)
        self._spare_calls[record.id] = len(record.seats) + 1
        if table.record.phase == phase:
            table.record = replace(table.record, status_message_id=message.id)

    def arm_timers(self, record: GameRecord) -> None:
        """Schedule the turn's reveal and reminder from the stored deadline (no game state needed)."""
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
        spare = self._spare_calls.get(table.record.id, len(table.record.seats) + 1)
        if spare > 0 and not self.scheduler.is_scheduled(key):
            game_id, phase = table.record.id, table.record.phase
            self.scheduler.schedule(key, self.bot.clock.now() + STATUS_EDIT_DELAY,
                                    lambda: self.refresh_status(game_id, phase))

    async def refresh_status(self, game_id: int, phase: int) -> None:
        table = await self.games.table(game_id)
        if table.record.status != "running" or table.record.phase != phase or not table.record.status_message_id:
            return
        message = self.channel(table.record.channel_id).get_partial_message(table.record.status_message_id)
        lang = await self.languages.for_game(table.record)
        self._spend(table, 1)
        try:
            await message.edit(embed=render.status_embed(table, lang), view=turn_view(game_id, phase, lang))
        except discord.HTTPException as exc:
            log.warning("could not refresh the status of game %s: %s", game_id, exc)

    def _spend(self, table: Table, calls: int) -> None:
        game_id = table.record.id
        self._spare_calls[game_id] = self._spare_calls.get(game_id, len(table.record.seats) + 1) - calls

    async def deadline(self, game_id: int, phase: int, attempt: int = 0) -> None:
        try:
            report = await self.games.expire(game_id, phase)
        except Exception as exc:
            delay = self.backoff(attempt)
            log.warning("game %s: the deadline of turn %s failed (%s); trying again in %.0f s",
                        game_id, phase, exc, delay)
            self.scheduler.schedule(("deadline", game_id), self.bot.clock.now() + delay,
                                    lambda: self.deadline(game_id, phase, attempt + 1))
            return
        if report is not None:
            await self.reveal(report)

    def retry_catch_up(self, game_id: int, attempt: int, exc: Exception) -> None:
        delay = self.backoff(attempt)
        log.warning("game %s: could not announce what was stored (%s); trying again in %.0f s", game_id, exc, delay)
        self.scheduler.schedule(("catch-up", game_id), self.bot.clock.now() + delay,
                                lambda: self.catch_up(game_id, attempt + 1))

    async def remind(self, game_id: int, phase: int) -> None:
        table = await self.games.table(game_id)
        if table.record.status != "running" or table.record.phase != phase or table.record.deadline is None:
            return
        left = max(1, int(table.record.deadline - self.bot.clock.now()))
        lang = await self.languages.for_game(table.record)
        for seat in table.awaiting():
            if seat.user_id is not None:
                self._spend(table, 1)
                await self.send_dm(seat.user_id, render.reminder_text(table.record.channel_id, table.state, left, lang))

    # Reveals ------------------------------------------------------------------------------------
    async def reveal(self, report: TurnReport, attempt: int = 0) -> None:
        record = report.table.record
        game_id = record.id
        for key in ("status", "reminder", "deadline", "resolve"):
            self.scheduler.cancel((key, game_id))
        try:
            lang = await self.languages.for_game(record)
            # Caught up after a restart or an outage: the post may have reached Discord before the stop.
            message = await self.posted_reveal(record, report) if report.reason == "restart" else None
            if message is None:
                chart = (await final_chart_file(record, report.table.state, lang)
                         if report.finished and self.may_attach(record.channel_id) else None)
                message = await self.post(record, nonce=f"tn{game_id}-{report.phase}",
                                          embeds=render.reveal_embeds(report, lang),
                                          **({"file": chart} if chart else {}))
            if message is None:
                return
            await self.store.mark_announced(game_id, report.phase)
            current = report.table.record
            if report.finished:
                return
            if report.reason == "restart" and current.status_message_id is not None:
                self.arm_timers(current)  # the next turn's status message is up already
            else:
                await self.open_turn(report.table, catching_up=report.reason == "restart")
        except Exception as exc:  # the turn is stored: announcing it is caught up later
            self.retry_catch_up(game_id, attempt, exc)

    async def posted_reveal(self, record: GameRecord, report: TurnReport) -> discord.Message | None:
        """This turn's reveal if the bot already posted it among the channel's recent messages."""
        outcome = report.outcome
        titles = {t("reveal.title", lang, round=outcome.round, turn=outcome.turn) for lang in LANGUAGES}
        footers = {render.reveal_footer(record, lang) for lang in LANGUAGES}
        return await self.recent_message(record, lambda m: any(e.title in titles and e.footer.text in footers
                                                               for e in m.embeds))

    async def recent_message(self, record: GameRecord, wanted: Callable[[discord.Message], bool]
                             ) -> discord.Message | None:
        """The newest of the bot's recent messages in the game's channel that is ``wanted`` (a post that
        reached Discord although the bot never heard back, or stopped before recording it)."""
        me = self.bot.user.id if self.bot.user else 0
        try:
            async for message in self.channel(record.channel_id).history(limit=LOOKBACK):
                if message.author.id == me and wanted(message):
                    log.info("game %s: found a message already posted (%s)", record.id, message.id)
                    return message
        except discord.HTTPException as exc:
            log.warning("game %s: could not read the channel's recent messages: %s", record.id, exc)
        return None

    async def resolve_if_complete(self, table: Table, reason: str = "all-chosen", attempt: int = 0) -> None:
        game_id, phase = table.record.id, table.record.phase
        try:
            report = await self.games.resolve(game_id, phase, reason=reason)
        except Exception as exc:
            delay = self.backoff(attempt)
            log.warning("game %s: revealing turn %s failed (%s); trying again in %.0f s", game_id, phase, exc, delay)
            self.scheduler.schedule(("resolve", game_id), self.bot.clock.now() + delay,
                                    lambda: self.resolve_if_complete(table, reason, attempt + 1))
            return
        if report is not None:
            await self.reveal(report)
        else:
            self.choice_made(table)

    # Restart and catching up --------------------------------------------------------------------
    async def restore(self) -> None:
        """After a start: re-arm every deadline from the database; announce what was resolved but not told
        and re-post missing status messages (those games only are rebuilt now; the rest on first use)."""
        running = [r for r in await self.games.load_open_games() if r.status == "running"]
        for record in running:
            if record.announced_phase < record.phase - 1 or record.status_message_id is None:
                await self.catch_up(record.id)
            else:
                self.arm_timers(record)
        # A game whose final reveal was committed but never posted.
        for record in await self.store.unannounced_finished_games():
            if record.kind == self.games.spec.kind:  # other kinds are caught up by their own front end
                await self.catch_up(record.id)
        self._sweeping = asyncio.create_task(self.sweep([r.id for r in running]), name="restart sweep")

    async def sweep(self, game_ids: list[int]) -> None:
        """After a restart, in the background: reveal every turn whose last number arrived just before the
        stop (nobody would choose again, and the deadline may be far)."""
        for game_id in game_ids:
            try:
                table = await self.games.table(game_id)
                if table.record.status == "running" and not table.awaiting():
                    await self.resolve_if_complete(table, reason="all-chosen")
            except Exception:
                log.exception("restart sweep failed for game %s", game_id)
            await asyncio.sleep(0)  # let players' requests in between

    async def catch_up(self, game_id: int, attempt: int = 0) -> None:
        """Say what the database knows but the channel was not told yet, then make sure the timers run."""
        try:
            table = await self.games.table(game_id)
            record = table.record
            if record.announced_phase < record.phase - 1:
                await self.reveal(report_for(table, record.phase - 1), attempt)
            elif record.status == "running" and record.status_message_id is None:
                await self.open_turn(table, catching_up=True)
            else:
                self.arm_timers(record)
        except Exception as exc:
            self.retry_catch_up(game_id, attempt, exc)

    # Failures -----------------------------------------------------------------------------------
    async def channel_failed(self, record: GameRecord, exc: discord.HTTPException) -> None:
        """The channel is gone or the bot may not speak there: end the game cleanly, tell the host."""
        log.warning("game %s: channel %s refused a message (%s %s)", record.id, record.channel_id,
                    exc.status, getattr(exc, "code", 0))
        await self.stop_game(record, "stop.channel_deleted" if exc.status == 404 else "stop.no_permission")

    async def stop_game(self, record: GameRecord, why_key: str, *, everyone: bool = False) -> None:
        """End a game that cannot go on; ``why_key`` is the catalog key of the reason. The host is told, or
        with ``everyone`` every seated player (``record`` must then carry its seats)."""
        for key in ("deadline", "reminder", "status", "catch-up", "resolve"):
            self.scheduler.cancel((key, record.id))
        if await self.games.abandon(record.id, t(why_key, "en")):
            lang = await self.languages.for_game(record)
            text = t("dm.stopped", lang, channel=f"<#{record.channel_id}>", why=t(why_key, lang))
            people = [s.user_id for s in record.seated if s.user_id is not None] if everyone else [record.host_id]
            for user_id in dict.fromkeys(people):
                await self.send_dm(user_id, text)

    async def abandoned(self, record: GameRecord) -> None:
        """Fewer than two players are left: say in the channel that the game ended and counts for nobody."""
        lang = await self.languages.for_game(record)
        if record.status_message_id:
            try:  # the old turn's Choose button would only answer "that game was cancelled"
                await self.channel(record.channel_id).get_partial_message(record.status_message_id).edit(view=None)
            except discord.HTTPException as exc:
                log.info("could not close the status message of game %s: %s", record.id, exc)
        await self.post(record, nonce=f"ab{record.id}", content=t("game.abandoned", lang))

    def may_attach(self, channel_id: int) -> bool:
        """Whether the bot may attach files in the channel, as far as its cache knows (True if unknown)."""
        channel = self.bot.get_channel(channel_id)
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread) and channel.guild.me is not None:
            return channel.permissions_for(channel.guild.me).attach_files
        return True

    async def channel_deleted(self, channel_id: int) -> None:
        record = await self.store.open_game_in_channel(channel_id)
        if record is not None:
            await self.stop_game(record, "stop.channel_deleted")

    async def send_dm(self, user_id: int, text: str) -> bool:
        """DM a user; False when they do not accept DMs from the bot (403 / 50007). Never raises."""
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))  # cached after the first time
            await channel.send(text)
        except discord.HTTPException as exc:
            log.info("could not DM user %s (%s)", user_id, getattr(exc, "code", exc.status))
            return False
        return True
