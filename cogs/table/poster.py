"""What the bot says in a game's channel as its steps are committed: turn messages, edits, the end (the timers that
fire them are :mod:`cogs.table.timers`).

Order matters for durability: the service has committed a step before anything here tells anyone. Each turn
message is posted with a nonce derived from (game, step), so retries never show it twice; a turn message or
final message caught up after a restart is first looked for in the channel's recent messages. Each step is
told once: ``announced`` records the last step the channel has been told about; a step told in its own
message (a thread's, closed with ``done``) just before a stop that came before its mark is recognised in the
channel after the restart instead of being told again (the restart half is :mod:`cogs.table.recovery`).

REST budget per step: the interaction that made the move edits its own message; outside it, at most one edit
of the previous turn message (when no interaction could do it: a deadline, a DM, a private select) and one
post of the next turn message (or the final message).

A presenter that tells each step in a report (The Number) gets its report and the next turn message in ONE
post when they fit in one message; a modal submitted from the turn message is answered by updating that
message (who has chosen, or closed when it ended the step: interaction responses are not rate-limited); and
with a ``reminder_line`` hook the reminder is one edit of the turn message instead of a DM per awaited seat.
Such a step costs its post, the close of the previous message when no interaction closed it, and the
reminder edit while every choice came through the turn message: 2 calls when everyone uses the button,
N DM answers + 2 when N players choose by DM.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.core.game import Prompt
from bot.core.service import ABANDONED, GameService, Outcome, StepReport
from bot.core.table import Table
from bot.i18n import LANGUAGES, t
from storage.base import GameRecord

from . import lean
from .components import again_view, choices_view, sealed_view
from .daily import with_deadline
from .language import Languages
from .layout import (
    FINAL_COLOUR,
    Drawn,
    accented,
    answer_fields,
    custom_ids,
    embeds_of,
    send_fields,
    turn_colour,
    without_inputs,
)
from .layout import edit_fields as v2_edit
from .presenter import Card, Happened, Presenter, Presenters, SeatInfo
from .private_sheets import PrivateSheets
from .ratings_render import final_with_changes
from .table_state import TableState
from .turn_messages import (
    CATCH_UP,
    STATUS,
    TurnMessage,
    combined,
    ended_seats,
    footer,
    happened,
    seat_infos,
)

if TYPE_CHECKING:
    from bot.client import NumberBot

log = logging.getLogger(__name__)
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)  # on top of discord.py's own retries of 500/502/504
CATCH_UP_AFTER = 30.0  # a post that failed through every retry is tried again this much later
LOOKBACK = 50  # recent channel messages searched for a message already posted
SEALED_LABELS_KEPT = 4096  # sealed steps' button labels kept (a few per open table)
STATUS_EDIT_DELAY = 2.0  # coalesce "who has chosen" edits of a sealed step: one edit for a burst of choices
# The pressed message's own interaction, editing it as its answer (see ``announce``).
Editor = Callable[[Card, discord.ui.View], Awaitable[None]]
DEFAULT_NONCES = {"turn": "pt", "final": "pf", "report": "pr", "abandoned": "ab"}


def transient(exc: discord.HTTPException) -> bool:
    """Worth sending again: Discord's server errors, and a rate limit that outlasted discord.py's own five
    tries (a busy token under the global limit); any other refusal is final."""
    return isinstance(exc, discord.DiscordServerError) or exc.status == 429


class Poster:
    """Posts and edits a game's messages as its steps are committed (see the module's docstring). It arms the
    step's timers and schedules a catch-up of what it could not tell through the callables it is given:
    the :class:`~cogs.table.timers.Timers` and the :class:`~cogs.table.recovery.Recovery` are built on top
    of it (they tell through it), so the router hands it their methods."""

    def __init__(self, bot: NumberBot, service: GameService, presenters: Presenters, languages: Languages,
                 state: TableState, sheets: PrivateSheets, *, arm: Callable[[GameRecord], None],
                 cancel_timers: Callable[[int], None], catch_up: Callable[..., Awaitable[None]]) -> None:
        self.bot = bot
        self.service = service
        self.presenters = presenters
        self.languages = languages
        self.state = state
        self.store = bot.store
        self.sheets = sheets
        self.scheduler = bot.scheduler
        self.arm = arm
        self.cancel_timers = cancel_timers
        self.catch_up = catch_up
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        self.locks = state.locks
        self.turn_messages = state.turn_messages
        # Per game, how many more REST calls this step may spend on status edits and reminders. A step costs
        # N acknowledgements, its report and the next turn message; edits and reminders share the rest of a
        # budget of 2N + 3 calls, so a step never costs more however the choices are spread. A game reminded
        # in the channel (``reminder_line``) has one spare call: its reminder edit, or the close after a DM.
        self._spare_calls: dict[int, int] = {}
        # Finished games whose end the channel refused (no permission): how many retries so far.
        self._waiting_finals: dict[int, int] = {}
        # A sealed step's button label per (game, step, language, seat): drawn from the step's state, which no
        # choice changes, and asked on every update of the turn message (each choice made through it).
        self._sealed_labels: dict[tuple[int, int, str, int], str] = {}
        # Per game, the choice that updated its turn message in its answer in the last few seconds (step, when,
        # interaction), oldest first: a burst's refresh edits the message through its webhook (``gathered``).
        self._updaters: dict[int, tuple[int, float, discord.Interaction[Any]]] = {}

    def presenter(self, table: Table | GameRecord) -> Presenter:
        record = table.record if isinstance(table, Table) else table
        return self.presenters[record.kind]

    def thread_of(self, table: Table) -> str | None:
        """The presenter's thread key of the current step (None: one turn message per step)."""
        presenter = self.presenter(table)
        prompt = table.prompt
        if not presenter.threads or prompt is None or not table.running:
            return None
        key = presenter.thread(table.game.view(table.state, None), prompt)
        return str(key) if key is not None else None

    def continues(self, table: Table, step: int) -> bool:
        """True when the turn message of ``step`` is up and the current step goes on in it (same thread)."""
        up = self.turn_messages.get(table.id)
        return up is not None and up.step == step and up.thread is not None and up.thread == self.thread_of(table)

    def nonce(self, presenter: Presenter, what: str, game_id: int, step: int) -> str:
        """The nonce of a game's post: ``{prefix}{game}-{step}``, the prefix the presenter's if it has one."""
        prefix = presenter.nonces.get(what) or DEFAULT_NONCES[what]
        return f"{prefix}{game_id}-{step}"

    def spare_budget(self, table: Table | GameRecord) -> int:
        """A step's spare calls: N + 1 edits and DMs, or the one reminder edit of a game reminded in the channel."""
        record = table.record if isinstance(table, Table) else table
        return 1 if self.presenter(record).reminds_in_channel else len(record.seats) + 1

    def spend(self, table: Table, calls: int) -> bool:
        """Take ``calls`` from the step's spare budget; False when it is spent (the call is not made)."""
        spare = self._spare_calls.get(table.id, self.spare_budget(table))
        if spare < calls:
            return False
        self._spare_calls[table.id] = spare - calls
        return True

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    def where(self, record: GameRecord) -> int:
        """Where the game's turns are told: its thread (cogs/table/threads.py), else its channel. The lobby and
        the final result are always in the channel (``record.channel_id``)."""
        return self.state.threads.get(record.id) or record.thread_id or record.channel_id

    async def close_thread(self, record: GameRecord, lang: str) -> None:
        """The game ended (its result is in the channel): one closing line in its thread, if it has one."""
        thread = self.where(record)
        if thread == record.channel_id:
            return
        try:
            await self.send(self.channel(thread), nonce=f"tc{record.id}",
                            content=t("threads.over", lang, channel=f"<#{record.channel_id}>"))
        except discord.HTTPException as exc:
            log.info("game %s: could not close its thread: %s", record.id, exc)

    # Posting ------------------------------------------------------------------------------------
    async def send(self, target: discord.abc.Messageable, *, nonce: str | None, card: Card | None = None,
                   v2: bool = False, **fields: Any) -> discord.Message | discord.PartialMessage | None:
        """Send, retrying Discord's server errors and rate limits with the same nonce; None if they outlast
        every retry (the caller then catches up later: the message is never just dropped). ``v2``: the card and
        its ``view`` as one Components V2 layout (a table's message, see :mod:`cogs.table.layout`)."""
        inputs = fields.pop("view", None) if v2 and card is not None else None
        # a table's message sent as discord.py sends it, known by its id only (cogs/table/lean.py)
        lean_post = (v2 and card is not None and not fields and lean.AVAILABLE
                     and isinstance(target, discord.PartialMessageable))
        for delay in (*self.retry_delays, None):
            try:  # fresh files at each try
                if lean_post and card is not None:
                    return await lean.post(target, Drawn(card, inputs), [p.file() for p in card.pictures], nonce)
                extra = {} if card is None else send_fields(card, inputs) if v2 else card.fields()
                return await target.send(nonce=nonce, **extra, **fields)
            except discord.HTTPException as exc:
                if not transient(exc):
                    raise
                log.warning("Discord answered %s to a message; %s", exc.status,
                            "retrying" if delay is not None else "giving up for now")
                if delay is not None:
                    await asyncio.sleep(delay)
        return None

    async def post(self, record: GameRecord, *, nonce: str, card: Card, in_channel: bool = False,
                   **fields: Any) -> discord.Message | discord.PartialMessage | None:
        """A game's message, in its thread (``in_channel``: in its channel, the final result)."""
        target = record.channel_id if in_channel else self.where(record)
        try:
            message = await self.send(self.channel(target), nonce=nonce, card=card, v2=True, **fields)
        except discord.HTTPException as exc:
            if exc.status == 403 and card.pictures:
                # Attach Files was taken away: the message matters, its picture does not.
                log.warning("game %s: posting without the attached pictures (%s)", record.id, exc)
                return await self.post(record, nonce=nonce, card=replace(card, pictures=()), in_channel=in_channel,
                                       **fields)
            if exc.status in (403, 404):
                await self.channel_failed(record, exc)
            else:
                log.error("game %s: Discord refused a message: %s", record.id, exc)
            return None
        if message is None:
            game_id = record.id
            self.scheduler.schedule((CATCH_UP, game_id), self.bot.clock.now() + CATCH_UP_AFTER,
                                    lambda: self.catch_up(game_id))
        return message

    async def ping(self, record: GameRecord, user_ids: Sequence[int], text: str, nonce: str) -> None:
        """One line where the game is told (its thread, else its channel) that pings only ``user_ids``
        (``allowed_mentions``): the reminder of players a DM could not reach."""
        try:
            await self.send(self.channel(self.where(record)), nonce=nonce, content=text,
                            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                                                     users=[discord.Object(id=u) for u in user_ids]))
        except discord.HTTPException as exc:
            log.info("game %s: could not remind in the channel: %s", record.id, exc)

    async def send_dm(self, user_id: int, text: str, *, nonce: str | None = None) -> bool:
        """A DM; False (never an error) when the user does not accept DMs."""
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))  # cached after the first time
            return await self.send(channel, nonce=nonce, content=text) is not None
        except discord.HTTPException as exc:
            log.info("could not DM user %s: %s", user_id, exc)
            return False

    async def recent_message(self, record: GameRecord, wanted: Callable[[discord.Message], bool], *,
                             in_channel: bool = False) -> discord.Message | None:
        """A message of this bot among the recent ones of the game's thread (``in_channel``: its channel)."""
        me = self.bot.user.id if self.bot.user else 0
        target = record.channel_id if in_channel else self.where(record)
        try:
            async for message in self.channel(target).history(limit=LOOKBACK):
                if message.author.id == me and wanted(message):
                    log.info("game %s: found a message already posted (%s)", record.id, message.id)
                    return message
        except discord.HTTPException as exc:
            log.warning("game %s: could not read the channel's recent messages: %s", record.id, exc)
        return None

    async def channel_failed(self, record: GameRecord, exc: discord.HTTPException) -> None:
        """The channel is gone or the bot may not speak there: end the game cleanly, tell every player.
        A game already finished has nothing to stop: its end is tried again like any announcement."""
        log.warning("game %s: channel %s refused a message (%s %s)", record.id, record.channel_id,
                    exc.status, getattr(exc, "code", 0))
        if record.status == "finished":
            await self._final_waits(record, exc)
            return
        await self.stop_game(record, "core.stop.channel_deleted" if exc.status == 404 else "core.stop.no_permission",
                             everyone=True)

    async def stop_game(self, record: GameRecord, why_key: str, *, everyone: bool = False) -> None:
        """End a game that cannot go on; ``why_key`` is the catalogue key of the reason. The host is told, or
        with ``everyone`` every seated player (``record`` must then carry its seats)."""
        self.cancel_timers(record.id)
        if await self.service.abandon(record.id, t(why_key, "en")):
            self.turn_messages.pop(record.id, None)
            lang = await self.languages.for_game(record)
            title = self.presenter(record).title(lang)
            text = t("core.dm.stopped", lang, game=title, channel=f"<#{record.channel_id}>", why=t(why_key, lang))
            people = [s.user_id for s in record.seated if s.user_id is not None] if everyone else [record.host_id]
            for user_id in dict.fromkeys(people):
                await self.send_dm(user_id, text)

    async def _final_waits(self, record: GameRecord, exc: discord.HTTPException) -> None:
        """The end of a finished game could not be posted (the stop that a running game gets would change
        nothing: the result is stored). It is tried again on the backoff, then every minute, until the channel
        takes it (permission given back) or is gone; the host is told once why it waits."""
        game_id = record.id
        if exc.status == 404:  # the channel is gone: nothing will ever take it
            self._waiting_finals.pop(game_id, None)
            await self.service.announced(game_id, record.phase - 1)
            return
        attempt = self._waiting_finals.get(game_id)
        self._waiting_finals[game_id] = 0 if attempt is None else attempt + 1
        self.scheduler.schedule((CATCH_UP, game_id), self.bot.clock.now() + self.state.backoff(attempt or 0),
                                lambda: self.catch_up(game_id))
        if attempt is None:
            lang = await self.languages.for_game(record)
            await self.send_dm(record.host_id, t("core.dm.final_waits", lang, game=self.presenter(record).title(lang),
                                                 channel=f"<#{record.channel_id}>"))

    async def channel_deleted(self, channel_id: int) -> None:
        record = await self.store.open_game_in_channel(channel_id)
        if record is not None and record.kind in self.service.by_key:
            # every seated player hears it (as when the bot is removed from the server): their next DM would
            # otherwise only be answered "you are not in a game"
            await self.stop_game(record, "core.stop.channel_deleted", everyone=True)

    async def abandoned(self, record: GameRecord, status_message_id: int | None) -> None:
        """Fewer than two players are left: say in the channel that the game ended and counts for nobody."""
        async with self.locks(record.id):  # after a turn message being posted, which is then closed here
            status_message_id = self.state.turn_message_id(record.id) or status_message_id
            await self._abandoned(record, status_message_id)

    async def _abandoned(self, record: GameRecord, status_message_id: int | None) -> None:
        lang = await self.languages.for_game(record)
        presenter = self.presenter(record)
        if status_message_id:
            # the old turn's buttons would only answer "that game was cancelled"; a turn message that shows the
            # step live (who is awaited) would go on saying so: it says the game was abandoned instead. A game
            # told in reports keeps its message (the last report is at its top), without the buttons.
            partial = self.channel(self.where(record)).get_partial_message(status_message_id)
            try:
                if presenter.reports:
                    fields = without_inputs(await partial.fetch())
                else:
                    fields = v2_edit(Card(embeds=(discord.Embed(title=presenter.title(lang), description=t(
                        "core.game.abandoned", lang), colour=discord.Colour.dark_grey()),)))
                await partial.edit(**fields)
            except discord.HTTPException as exc:
                log.info("could not close the turn message of game %s: %s", record.id, exc)
        self.turn_messages.pop(record.id, None)
        # the end is told in the channel, like a result; a thread says where
        await self.post(record, nonce=f"{DEFAULT_NONCES['abandoned']}{record.id}", card=Card(t("core.game.abandoned",
                                                                                               lang)), in_channel=True)
        await self.close_thread(record, lang)

    async def after_removal(self, outcome: Outcome, status_message: int | None) -> None:
        """Tell what a player's leaving or removal did: the game abandoned, ended, or going on without them."""
        record = outcome.table.record
        if not outcome.table.running:
            self.cancel_timers(outcome.table.id)
            if record.end_reason == ABANDONED:
                await self.abandoned(record, status_message)
            if record.status != "finished":
                return
        if outcome.reports:
            await self.announce(outcome.table, outcome.reports)
        elif outcome.table.prompt is not None and outcome.table.prompt.sealed:
            self.choice_made(outcome.table)  # the turn message shows the seat gone

    def may_attach(self, channel_id: int) -> bool:
        """Whether the bot may attach files in the channel, as far as its cache knows (True if unknown)."""
        channel = self.bot.get_channel(channel_id)
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread) and channel.guild.me is not None:
            return channel.permissions_for(channel.guild.me).attach_files
        return True

    # Telling the steps --------------------------------------------------------------------------
    async def announce(self, table: Table, reports: Sequence[StepReport], *, shown: int | None = None,
                       attempt: int = 0, editor: Editor | None = None) -> None:
        """Tell the channel about ``reports`` (just committed): edit the turn message of the step that ended
        (unless the interaction did, ``shown``), then post the next turn message or the final message.
        ``editor``: the pressed turn message's own interaction, which edits it into the next step of the same
        thread as its answer (not a rate-limited call) instead of a REST edit."""
        game_id = table.id
        try:
            async with self.locks(game_id):
                await self.announce_steps(table, reports, shown, editor=editor)
                # the players' private sheets follow into the next sealed step (one click a step, no new message)
                await self.sheets.refresh(await self.service.table(game_id), self.presenter(table))
        except Exception as exc:  # the steps are stored: telling them is caught up later
            delay = self.state.backoff(attempt)
            log.warning("game %s: could not announce what was stored (%s); trying again in %.0f s",
                        game_id, exc, delay)
            self.scheduler.schedule((CATCH_UP, game_id), self.bot.clock.now() + delay,
                                    lambda: self.catch_up(game_id, attempt + 1))

    async def announce_steps(self, table: Table, reports: Sequence[StepReport], shown: int | None, *,
                        catching_up: bool = False, editor: Editor | None = None) -> None:
        record, presenter = table.record, self.presenter(table)
        lang = await self.languages.for_game(record)
        seats = seat_infos(table)
        self._take_stored_up(table, reports)
        if presenter.reports:
            await self.report_steps(table, [happened(table, r) for r in reports], lang, shown=shown,
                               catching_up=catching_up)
            return
        up = self.turn_messages.get(table.id)
        thread = self.thread_of(table)
        if up is not None and thread is not None and up.thread == thread and shown != up.step:
            # the same thread goes on: open_turn edits the message up into the current step, still telling
            # what it told before (a reveal the previous message could not show)
            await self.open_turn(table, [*up.since, *(happened(table, r) for r in reports)], lang=lang,
                                 catching_up=catching_up, editor=editor)
            return
        # ``shown``: an interaction closed the message up itself, telling the steps up to ``shown``
        closed = up is not None and shown is not None and shown >= up.step
        told: int | None = shown if closed else None
        if up is not None and not closed:
            run = self.thread_run(table, reports, up.step)
            if run:
                closed = await self._edit(record, up.message_id, self.closing_card(table, up, run, seats, lang))
                told = run[-1].step if closed else None
        if up is not None and any(r.step >= up.step for r in reports):
            self.turn_messages.pop(table.id, None)
        # The closed turn message tells its ended step (``done``: the move made) and the steps of its thread that
        # followed at once (an AI declaring last, and the reveal it made), whether an interaction closed it or
        # this edit did: the next turn message must not tell them again (each step is told once). Only when the
        # edit failed are they told at the top of the next one.
        if up is not None and told is not None and any(r.step == told for r in reports):
            await self.mark_told(table, told)  # told in its own message: a restart must not repeat it
        since = [happened(table, r) for r in reports
                 if r.step != shown and not (up is not None and told is not None and up.step <= r.step <= told)]
        await self.open_turn(table, since, lang=lang, catching_up=catching_up)

    def thread_run(self, table: Table, reports: Sequence[StepReport], step: int) -> list[StepReport]:
        """The report of ``step`` and those right after it in the same thread (the presenter's ``thread`` key of
        each step's own prompt): what the turn message of ``step`` shows once closed."""
        first = next((r for r in reports if r.step == step), None)
        presenter = self.presenter(table)
        hook = presenter.thread if presenter.threads else None
        if first is None or hook is None:
            return [first] if first is not None else []
        game = table.game

        def key(report: StepReport) -> Any:
            prompt = game.prompt(report.before)
            return hook(game.view(report.before, None), prompt) if prompt is not None else None

        run, thread = [first], key(first)
        for report in sorted(reports, key=lambda r: r.step):
            if thread is None or report.step <= step:
                continue
            if report.step != run[-1].step + 1 or key(report) != thread:
                break
            run.append(report)
        return run

    def closing_card(self, table: Table, up: TurnMessage, run: Sequence[StepReport], seats: Sequence[SeatInfo],
                     lang: str) -> Card:
        """The ``done`` card of the last step of ``run`` (the turn message's steps), after what it told before."""
        since = [*up.since, *(happened(table, r) for r in run[:-1])]
        return self.presenter(table).done(happened(table, run[-1]), seats, since, lang)

    def _take_stored_up(self, table: Table, reports: Sequence[StepReport]) -> None:
        """Make the turn message the store names for the first step reported the one up, when it is not this
        process's: the process of a game's own shard posted it and this one (taking the DM that ended the step)
        closes it, once, like its own; a message of this process for an older step was closed by whichever
        process reported that step, and is dropped, never closed again."""
        first = min(reports, key=lambda r: r.step, default=None)
        up = self.turn_messages.get(table.id)
        if first is None or first.message_id is None or (up is not None and up.step >= first.step):
            return  # nothing stored, or this process has that step's message: its own is the one up
        self.turn_messages[table.id] = self.stored_turn(table, first.step, first.message_id, first.before)

    def stored_turn(self, table: Table, step: int, message_id: int, before: Any) -> TurnMessage:
        """The turn message of ``step`` (``before``: its state) known from the store only: what it shows above
        its own card is learnt from an interaction's message or read once before the close."""
        prompt = table.game.prompt(before)
        presenter = self.presenter(table)
        key = (presenter.thread(table.game.view(before, None), prompt) if presenter.threads and prompt is not None
               else None)
        return TurnMessage(step, message_id, (), None if key is None else str(key), head=None)

    async def mark_told(self, table: Table, step: int) -> None:
        """Record that ``step`` was told in its own message (a thread's closed with ``done``). Not the last
        step of a finished game: that mark would also say its final message was posted, which is still to
        come (a restart would never post it); a restart recognises that step's message instead (``_find_up``)."""
        record = table.record
        if record.status == "running" or step < record.phase - 1:
            await self.service.announced(table.id, step)

    async def report_steps(self, table: Table, steps: Sequence[Happened], lang: str, *, catching_up: bool = False,
                      shown: int | None = None) -> None:
        """A presenter that tells each step in a message of its own: close the turn message of the step that
        ended (unless the interaction did, ``shown``), post each report (once: after a restart, one already
        posted is looked for first), the last one with the next turn message when they fit in one message."""
        record, presenter = table.record, self.presenter(table)
        seats = seat_infos(table)
        if steps:
            self.scheduler.cancel((STATUS, table.id))
        up = self.turn_messages.get(table.id)
        if up is not None and any(s.step >= up.step for s in steps):
            if shown != up.step:
                await self._close(table, up, next((s for s in steps if s.step == up.step), None), lang)
            self.turn_messages.pop(table.id, None)
        now = await self.service.table(table.id)  # the game as it is now: it may have ended meanwhile
        for index, step in enumerate(steps):
            found = await self.recent_message(record, lambda m, h=step: bool(
                presenter.reported(m, h)), in_channel=step.finished) if catching_up else None
            card = presenter.report(step, seats, lang)
            if step.finished:  # the game's last report is its final message: with the rating changes
                card = await final_with_changes(self.store, card, record, lang)
            both = self._with_turn(now, step, card, lang) if index == len(steps) - 1 else None
            if both is not None and (found is None or self.turn_of(found, record, now.step)):
                # one message: this report above the next turn message (found as such after a restart)
                await self.open_turn(now, (), lang=lang, catching_up=catching_up, head=card,
                                     drawn=None if catching_up else both)  # (catching up: after a read)
                return
            if found is None:
                if self.may_attach(self.where(record)):
                    card = replace(card, pictures=tuple(await presenter.report_pictures(step, record, lang)))
                # the report that tells the end is the final message: it offers a new game
                again = {"view": again_view(record.kind, table.id, lang)} if step.finished else {}
                if await self.post(record, nonce=self.nonce(presenter, "report", table.id, step.step), card=card,
                                   in_channel=step.finished, **again) is None:
                    return  # caught up later
                if step.finished:
                    await self.close_thread(record, lang)
            await self.service.announced(table.id, step.step)
        table = await self.service.table(table.id)  # the game as it is now: it may have ended meanwhile
        if table.running:
            await self.open_turn(table, (), lang=lang, catching_up=catching_up)
        elif record.status == "finished":
            self.cancel_timers(table.id)

    def _with_turn(self, now: Table, step: Happened, report: Card, lang: str) -> Card | None:
        """``report`` at the top of the next turn message, when it goes there: that step comes right after it,
        awaits someone, is not up yet, and both fit in one message (None otherwise)."""
        if not now.running or now.step != step.step + 1 or now.prompt is None or not now.awaited():
            return None
        up = self.turn_messages.get(now.id)
        if up is not None and up.step == now.step:
            return None
        return combined(report, self.status_card(now, now.prompt, seat_infos(now), (), lang))

    @staticmethod
    def turn_of(message: discord.Message, record: GameRecord, step: int) -> bool:
        """Whether ``message`` carries the inputs of ``step`` (a report posted with its turn message)."""
        prefix = f"play:{record.kind}:{record.id}:{step}:"
        return any(custom_id.startswith(prefix) for custom_id in custom_ids(message))

    async def _close(self, table: Table, up: TurnMessage, ended: Happened | None, lang: str) -> None:
        """The turn message of a step told in a report, once the step is over: closed (no buttons, nor the
        reminder) by one edit, when no interaction could do it (a deadline, a DM)."""
        partial = self.channel(self.where(table.record)).get_partial_message(up.message_id)
        head = up.head
        if head is None and ended is not None and self.presenter(table).closes_turn:
            # found after a restart: what is above the turn's own card (its last embed unless the current
            # step's card says otherwise) is read from the message, once
            try:
                embeds = embeds_of(await partial.fetch())
                own = (len(self.status_card(table, table.prompt, seat_infos(table), (), lang).embeds)
                       if table.prompt else 1)
                head = tuple(embeds[:max(0, len(embeds) - own)])
            except discord.HTTPException as exc:
                log.info("game %s: could not read the turn message %s: %s", table.id, up.message_id, exc)
        card = self.closed_card(table, up, ended, lang, head) if ended is not None else None
        try:
            if card is None:
                await partial.edit(**without_inputs(await partial.fetch()))
            else:
                await partial.edit(**v2_edit(card))
        except discord.HTTPException as exc:
            log.info("game %s: could not close the turn message %s: %s", table.id, up.message_id, exc)

    def status_card(self, table: Table, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
                lang: str) -> Card:
        """The turn message's card, with the "game N" footer unless the presenter wants none."""
        presenter = self.presenter(table)
        view = table.game.view(table.state, None)
        card = presenter.status_at(view, prompt, seats, since, table.record.deadline, lang)
        card = with_deadline(card, table.record, lang)  # a daily table's deadline as Discord timestamps
        card = accented(card, turn_colour(prompt))  # whose move it is
        if presenter.footer_on_turn:
            card = self._with_footer(card, presenter.title(lang), table.id, False, lang)
        return card

    async def open_turn(self, table: Table, since: Sequence[Happened], *, lang: str | None = None,
                        catching_up: bool = False, head: Card | None = None, editor: Editor | None = None,
                        drawn: Card | None = None) -> None:
        """Post what the current step asks (or the end) and arm the step's timers. ``head``: a report told at
        the top of the same message (the caller checked that it fits, see ``combined``); ``drawn``: that message
        as the caller drew it already (the same table, no ``since``)."""
        record, presenter = table.record, self.presenter(table)
        lang = lang or await self.languages.for_game(record)
        seats = seat_infos(table)
        game_id, step = record.id, record.phase
        view_public = table.game.view(table.state, None)
        if not table.running:
            if record.status != "finished":
                return
            self.cancel_timers(game_id)
            card = accented(presenter.final(view_public, seats, since, lang), FINAL_COLOUR)
            card = await final_with_changes(self.store, card, record, lang)
            card = self._with_footer(card, presenter.title(lang), game_id, True, lang)
            marker = {footer(presenter.title(lg), game_id, True, lg) for lg in LANGUAGES}
            message = await self.recent_message(record, lambda m: any(
                e.footer.text in marker for e in embeds_of(m)), in_channel=True) if catching_up else None
            if message is None:
                message = await self.post(record, nonce=self.nonce(presenter, "final", game_id, step), card=card,
                                          view=again_view(record.kind, game_id, lang), in_channel=True)
                if message is not None:
                    await self.close_thread(record, lang)
            if message is not None:
                self._waiting_finals.pop(game_id, None)
                await self.service.announced(game_id, step - 1)
            return
        prompt = table.prompt
        up = self.turn_messages.get(game_id)
        if prompt is None or not table.awaited():
            # nobody human to wait for: the service is still settling. A thread going on keeps what it has to
            # tell (the move just made) for the edit that shows the next human step.
            if up is not None and up.thread is not None and up.thread == self.thread_of(table):
                self.turn_messages[game_id] = replace(up, since=tuple(since))
            return
        if up is not None and up.step == step:
            return  # this step's turn message is up already
        self.arm(record)
        thread = self.thread_of(table)
        if up is not None and thread is not None and up.thread == thread:
            card = self.status_card(table, prompt, seats, since, lang)
            view = self.input_view(table, prompt, lang)
            if await self._through(editor, card, view) or await self._edit(record, up.message_id, card, view):
                self.turn_messages[game_id] = TurnMessage(step, up.message_id, tuple(since), thread)
                await self.store.set_message(game_id, "status", up.message_id)
                await self.service.announced(game_id, step - 1)
                return
        prefix = f"play:{record.kind}:{game_id}:{step}:"
        message = await self.recent_message(record, lambda m: any(
            custom_id.startswith(prefix) for custom_id in custom_ids(m))) if catching_up else None
        if message is None:
            if drawn is None or since:
                card = self.status_card(table, prompt, seats, since, lang)
                if head is not None:
                    card = combined(head, card) or card
            else:
                card = drawn
            message = await self.post(record, nonce=self.nonce(presenter, "turn", game_id, step), card=card,
                                      view=self.input_view(table, prompt, lang))
        if message is None:
            return
        self._spare_calls[game_id] = self.spare_budget(record)
        self.turn_messages[game_id] = TurnMessage(step, message.id, tuple(since), thread,
                                                  head=head.embeds if head is not None else ())
        await self.store.set_message(game_id, "status", message.id)
        await self.service.announced(game_id, step - 1)

    def input_view(self, table: Table, prompt: Prompt, lang: str) -> discord.ui.View:
        """The turn message's inputs: the current seat's choices (open), or the "Choose secretly" button."""
        presenter, kind, game_id, step = self.presenter(table), table.record.kind, table.id, table.step
        seat = min(prompt.seats)
        if prompt.sealed:  # the public label only: built from the table's view, no seat's own options
            key = (game_id, step, lang, seat)
            label = self._sealed_labels.get(key)
            if label is None:
                if len(self._sealed_labels) >= SEALED_LABELS_KEPT:
                    self._sealed_labels.clear()
                label = presenter.sealed_label(table.game.view(table.state, None), prompt, seat, lang)
                self._sealed_labels[key] = label
            return sealed_view(kind, game_id, step, label)
        legal = table.game.legal(table.state, seat)
        inputs = presenter.inputs(table.game.view(table.state, None), prompt, seat, legal, lang)
        return choices_view(kind, game_id, step, inputs.choices)

    @staticmethod
    def _with_footer(card: Card, title: str, game_id: int, final: bool, lang: str) -> Card:
        if not card.embeds:
            return card
        first = card.embeds[0].copy()
        first.set_footer(text=footer(title, game_id, final, lang))
        return Card(card.content, (first, *card.embeds[1:]), card.pictures)

    @staticmethod
    async def _through(editor: Editor | None, card: Card, view: discord.ui.View) -> bool:
        """Edit through the interaction's answer; False (the caller edits by REST) when there is none or it
        failed (the interaction token expired)."""
        if editor is None:
            return False
        try:
            await editor(card, view)
            return True
        except discord.HTTPException as exc:
            log.info("could not edit the turn message through its interaction: %s", exc)
            return False

    async def _edit(self, record: GameRecord, message_id: int, card: Card, view: discord.ui.View | None = None
                    ) -> bool:
        try:
            await self.channel(self.where(record)).get_partial_message(message_id).edit(**v2_edit(card, view))
            return True
        except discord.HTTPException as exc:
            log.info("game %s: could not edit message %s: %s", record.id, message_id, exc)
            return False

    def choice_made(self, table: Table, *, outside: bool = False) -> None:
        """A sealed draft came in: show who has chosen on the turn message soon (once for a burst).
        ``outside``: made outside the turn message (a DM). A game reminded in the channel then shows it only
        when the message is next updated or closed: its one spare call goes to that close, which no
        interaction will do for free."""
        if outside and self.presenter(table).reminds_in_channel:
            self._spare_calls[table.id] = 0
            return
        key = (STATUS, table.id)
        if self._spare_calls.get(table.id, 1) > 0 and not self.scheduler.is_scheduled(key):
            game_id, step = table.id, table.step
            self.scheduler.schedule(key, self.bot.clock.now() + STATUS_EDIT_DELAY,
                                    lambda: self.refresh_status(game_id, step))

    def gathered(self, table: Table, step: int, message_id: int) -> bool:
        """A choice made through the turn message of ``step`` (``message_id``) that does not end the step. False:
        its answer updates the message now (the moment is noted). True when a choice updated it less than
        STATUS_EDIT_DELAY ago: this one is answered by its private line alone, and the message shows it with any
        others in one refresh when that delay is over (or in the step's close, if the burst ends the step),
        through the webhook of the choice that updated it (``answered_through``: not a paid call). So a burst of
        choices changes the message once instead of once per choice, and costs one answer each."""
        up = self.turn_messages.get(table.id)
        if up is None or up.step != step or up.message_id != message_id:
            return False
        now, last = self.bot.clock.now(), up.updated
        if last is None or now - last >= STATUS_EDIT_DELAY:
            self.turn_messages[table.id] = replace(up, updated=now)
            return False
        key = (STATUS, table.id)
        if not self.scheduler.is_scheduled(key):
            game_id = table.id
            self.scheduler.schedule(key, last + STATUS_EDIT_DELAY, lambda: self.refresh_status(game_id, step))
        return True

    def answered_through(self, game_id: int, step: int, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` answered a choice by updating the turn message of ``step``: that message is its original
        response, which its webhook may edit again (a burst's refresh) for the next STATUS_EDIT_DELAY seconds."""
        now = self.bot.clock.now()
        self._updaters.pop(game_id, None)
        self._updaters[game_id] = (step, now, interaction)
        while self._updaters:  # oldest first: only those of the last few seconds are kept
            first = next(iter(self._updaters))
            if now - self._updaters[first][1] <= 2 * STATUS_EDIT_DELAY:
                break
            del self._updaters[first]

    async def refresh_status(self, game_id: int, step: int) -> None:
        # Under the game's lock, like announcing: a message that the next step goes on editing (one thread)
        # must never get this older status after the newer one.
        async with self.locks(game_id):
            table = await self.service.table(game_id)
            up = self.turn_messages.get(game_id)
            prompt = table.prompt
            if not table.running or table.step != step or up is None or up.step != step or prompt is None:
                return
            if up.head is None and self.presenter(table).reports:
                return  # found after a restart: the report above it is not known, an edit would drop it
            lang = await self.languages.for_game(table.record)
            card = self.turn_card(table, up, lang)
            via = self._updaters.pop(game_id, None)
            ref = lean.message_ref(via[2]) if via is not None and via[0] == step else None
            if ref is not None and ref[0] == up.message_id and lean.AVAILABLE:
                try:  # free: the webhook of the choice that last updated the message in its answer
                    await lean.edit_original(via[2], **answer_fields(card, self.input_view(table, prompt, lang)))
                    return
                except discord.HTTPException as exc:
                    log.info("game %s: could not refresh the turn message through a choice's answer: %s",
                             game_id, exc)
            if not self.spend(table, 1):
                return
            try:
                await self.channel(self.where(table.record)).get_partial_message(up.message_id).edit(
                    **v2_edit(card, self.input_view(table, prompt, lang)))
            except discord.HTTPException as exc:
                log.info("game %s: could not refresh the turn message: %s", game_id, exc)

    def reminder_text(self, table: Table, lang: str) -> str | None:
        """The turn message's reminder line (seconds left, who is awaited), from the presenter's hook."""
        presenter = self.presenter(table)
        deadline = table.record.deadline
        if not presenter.reminds_in_channel or deadline is None or not table.running:
            return None
        awaited = [s for s in seat_infos(table) if s.awaited and not s.is_ai]
        if not awaited:
            return None
        left = max(1, int(deadline - self.bot.clock.now()))
        return str(presenter.reminder_line(table.game.view(table.state, None), awaited, left, lang)) or None

    def turn_card(self, table: Table, up: TurnMessage, lang: str,
                  head: tuple[discord.Embed, ...] | None = None) -> Card:
        """The turn message that is up, as it should look now (who has chosen, the reminder once given)."""
        assert table.prompt is not None
        card = self.status_card(table, table.prompt, seat_infos(table), up.since, lang)
        line = self.reminder_text(table, lang) if up.reminded else None
        embeds = up.head if head is None else head
        return Card("\n".join(c for c in (line, card.content) if c) or None, (*(embeds or ()), *card.embeds),
                    card.pictures)

    def closed_card(self, table: Table, up: TurnMessage, ended: Happened, lang: str,
                    head: tuple[discord.Embed, ...] | None = None) -> Card | None:
        """What the turn message of a step told in a report becomes once the step is over: the presenter's
        ``closed`` card under the embeds above it; None when it cannot be drawn (only the buttons go)."""
        presenter = self.presenter(table)
        embeds = up.head if head is None else head
        if not presenter.closes_turn or embeds is None:
            return None
        card = presenter.closed(ended, ended_seats(seat_infos(table), ended), lang)
        return Card(card.content, (*embeds, *card.embeds), card.pictures)

    async def update_in_response(self, interaction: discord.Interaction[Any], game_id: int, step: int,
                                 reports: Sequence[StepReport], answer: Callable[..., Any]) -> bool:
        """A choice made through the turn message of ``step`` (a modal opened from its button): answer the
        interaction by updating that message (``answer(**fields)``: not rate-limited): who has chosen, or,
        when the choice ended the step, the message closed. A message of ``step`` this process does not hold
        (another process posted it, a restart lost track of it) becomes the one up: its buttons name the step.
        False when it is not that step's (an old one): then nothing was answered."""
        ref = lean.message_ref(interaction)  # the message itself is built only where it is read
        message_id = ref[0] if ref is not None else None
        async with self.locks(game_id):
            up = self.turn_messages.get(game_id)
            table = await self.service.table(game_id)
            if message_id is not None and (up is None or up.message_id != message_id) and self.turn_of(
                    interaction.message, table.record, step):
                # the turn message of this step, posted by another process (the one that took the DM ending the
                # step before): the interaction answers it like this process's own
                ended = next((r for r in reports if r.step == step), None)
                up = self.stored_turn(table, step, message_id, ended.before if ended is not None else table.state)
                self.turn_messages[game_id] = up
            if message_id is None or up is None or up.message_id != message_id or up.step != step:
                return False
            lang = await self.languages.for_game(table.record)
            head = up.head
            if head is None and table.prompt is not None and (shown := embeds_of(interaction.message)):
                # found after a restart: what is above the turn's own card is in the message itself
                own = len(self.status_card(table, table.prompt, seat_infos(table), up.since, lang).embeds)
                head = tuple(shown[:max(0, len(shown) - own)])
            ended = next((r for r in reports if r.step == step), None)
            if ended is not None and self.continues(table, step):
                return False  # the same thread goes on in this message: announcing edits it
            if ended is None:
                if not table.running or table.step != step or table.prompt is None:
                    return False
                await answer(**answer_fields(self.turn_card(table, up, lang, head),
                                             self.input_view(table, table.prompt, lang)))
                if head is not up.head:  # learnt from the message (found after a restart)
                    self.turn_messages[game_id] = replace(up, head=head)
                return True
            presenter = self.presenter(table)
            if presenter.reports:
                card = self.closed_card(table, up, happened(table, ended), lang, head)
                if card is None:
                    await answer(**without_inputs(interaction.message))
                    return True
            else:
                card = presenter.done(happened(table, ended), seat_infos(table), up.since, lang)
            await answer(**answer_fields(card))
            return True
