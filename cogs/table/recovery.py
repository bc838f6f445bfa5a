"""The recovery of a start, on top of the :class:`~cogs.table.poster.Poster`: every open game is taken up
again - the steps a crash left undone are taken, what was committed but not told is told once (a message
already posted is looked for in the channel first), a missing turn message is posted, the timers re-armed."""

from __future__ import annotations

import asyncio
import gc
import logging
from array import array
from dataclasses import replace

import discord

from bot.core.clock import Clock
from bot.core.service import GameService
from bot.core.table import Table
from bot.core.timers import Scheduler
from bot.i18n import LANGUAGES
from storage.base import GameRecord, GameStore

from .language import Languages
from .layout import custom_ids
from .poster import Poster
from .presenter import Card, Presenters
from .table_state import TableState
from .timers import Timers
from .turn_messages import CATCH_UP, TurnMessage, happened, seat_infos, shows

log = logging.getLogger(__name__)
READ_BOTH_TRIES = 5  # a catch-up reading a game that players keep changing gives up and tries again later
# After a start the restore and the sweep go through every open game: they give the event loop back this
# often (interactions are answered in between, each wait a few ms at most), and the sweep reads this many
# games per query (one read per batch, not per game).
RESTORE_YIELD_EVERY = 25
# After a restart, how many of the newest steps not marked told are looked for as a closed thread message.
CLOSED_LOOKBACK = 4
SWEEP_BATCH = 100


def keep_out_of_full_collections() -> None:
    """Everything allocated so far stays out of the cyclic collector's full passes (``gc.freeze``).

    A start with thousands of open games builds a heap that lives as long as the process (modules, caches, a
    timer per game) while the restore and the sweep keep promoting batches of records to the oldest
    generation: every few batches a full pass would walk the whole heap again, holding the event loop
    ~100 ms each time for 10,000 games. Nothing in a record, a fold or a timer is cyclic, so reference
    counting still frees them; only cyclic garbage already made when this is called is never collected."""
    gc.freeze()


class Recovery:
    def __init__(self, poster: Poster, timers: Timers, service: GameService, store: GameStore,
                 presenters: Presenters, languages: Languages, state: TableState, scheduler: Scheduler,
                 clock: Clock) -> None:
        self.poster = poster
        self.timers = timers
        self.service = service
        self.store = store
        self.presenters = presenters
        self.languages = languages
        self.state = state
        self.scheduler = scheduler
        self.clock = clock
        self._sweeping: asyncio.Task[None] | None = None

    async def restore(self) -> None:
        """After a start: take the steps a crash left undone, tell what was committed but not told, re-post
        a missing turn message (looked for first among the channel's recent messages), re-arm the timers."""
        later: list[int] = []
        records = await self.service.load_open_games()
        if len(records) > SWEEP_BATCH:
            keep_out_of_full_collections()
        for n, record in enumerate(records, 1):
            if n % RESTORE_YIELD_EVERY == 0:
                await asyncio.sleep(0)  # players' interactions in between (a game they touch is caught up first)
            if record.status != "running" or record.kind not in self.presenters or record.id in self.state.caught_up:
                continue
            presenter = self.presenters[record.kind]
            if (record.announced_phase >= record.phase - 1 and record.status_message_id is not None
                    and not presenter.threads):
                # Told and its turn message up: the stored deadline is all the timers need, and the game is
                # folded on first use (thousands of games are ready at once); a step a crash left undone
                # (an AI draft, a step complete just before the stop) is taken by the sweep below.
                self.state.turn_messages.setdefault(record.id, TurnMessage(record.phase, record.status_message_id,
                                                                     head=None))
                self.timers.arm(record)
                later.append(record.id)
            else:
                await self.catch_up(record.id)
        for record in await self.service.unannounced_finished_games():
            if record.kind in self.presenters:
                await self.catch_up(record.id)
        self.state.restored = True
        log.info("restored %d open games: %d timed from the database, the others caught up", len(records),
                 len(later))
        if later:
            self._sweeping = asyncio.create_task(self.sweep(later), name="restart sweep")
            self._sweeping.add_done_callback(lambda _: self.state.settled.set())
        else:
            self.state.settled.set()

    async def sweep(self, game_ids: list[int]) -> None:
        """After a restart, in the background: take the steps nobody human has to take any more (the last
        draft came in just before the stop, an AI seat had not chosen), and tell them. The games are read
        a batch per query and folded one at a time without being cached (a game is cached when it is played),
        the event loop given back after each."""
        for start in range(0, len(game_ids), SWEEP_BATCH):
            batch = game_ids[start:start + SWEEP_BATCH]
            if len(game_ids) > SWEEP_BATCH:
                keep_out_of_full_collections()
            try:
                stored = {r.id: r for r in await self.service.stored_games(batch)}
            except Exception as exc:  # each game is then read on its own below
                log.warning("restart sweep: could not read a batch of games (%s)", exc)
                stored = {}
            for game_id in batch:
                try:
                    record = stored.pop(game_id, None)
                    table = (self.service.peek(record) if record is not None and record.kind in self.service.by_key
                             else await self.service.table(game_id))
                    if not table.running or any(not table.seat(s).is_ai for s in table.awaited()):
                        continue  # a person is awaited: nothing to take for them (the deadline will)
                    async with self.state.locks(game_id):
                        reports = await self.service.catch_up(game_id)
                    if reports:
                        await self.poster.announce(await self.service.table(game_id), reports)
                except Exception:
                    log.exception("restart sweep failed for game %s", game_id)
                finally:
                    await asyncio.sleep(0)  # let players' requests in between

    async def take_up(self, game_id: int) -> None:
        """Before a player's action soon after a start: catch this game up first if the restore has not yet.
        Players may act as soon as the bot is connected; without the message that is up (a thread's, or the
        turn message posted just before a crash) the action's announcement would post a second one."""
        if not self.state.restored and game_id not in self.state.caught_up:
            await self.catch_up(game_id)

    async def _read_both(self, game_id: int) -> tuple[GameRecord, Table]:
        """The stored game with its actions and a copy of the table, at one step. A player may act meanwhile
        (the restore does not hold the game: a DM that comes in as soon as the bot is connected is taken), and
        the service's table moves with each commit: read apart, or read once and used across the catch-up's
        requests, the table could be a step ahead of the record, and the turn message found for that step
        would be taken for a step over that the record does not have. So the two are read again until they
        agree, and the catch-up tells the game as of that read; the action's own announcement, which waits
        for the catch-up, then goes on from the message the catch-up left up."""
        for _ in range(READ_BOTH_TRIES):
            full = await self.store.load_game(game_id)
            table = await self.service.table(game_id)
            if full.phase == table.step and full.status == table.record.status:
                return full, replace(table, steps=list(table.steps), drafts=dict(table.drafts),
                                   openings=array("d", table.openings))
        raise RuntimeError(f"game {game_id} kept changing while it was read")

    async def catch_up(self, game_id: int, attempt: int = 0) -> None:
        try:
            async with self.state.locks(game_id):
                self.state.caught_up.add(game_id)
                await self.service.catch_up(game_id)
                full, table = await self._read_both(game_id)
                # A thread's one message is recorded once for all its steps: it shows this step only once this
                # step is marked (the mark follows its edit); else it is found and edited below.
                shown = not self.poster.presenter(table).threads or full.announced_phase >= table.step - 1
                if table.running and full.status_message_id is not None and full.phase == table.step and shown:
                    # this step's turn message is up (the stop came after recording it, or another process
                    # posted it): only the mark may lack; a message known here for an older step is over
                    up = self.state.turn_messages.get(game_id)
                    if up is None or up.step < table.step:
                        self.state.turn_messages[game_id] = TurnMessage(table.step, full.status_message_id,
                                                                  thread=self.poster.thread_of(table), head=None)
                    if full.announced_phase < table.step - 1:
                        await self.service.announced(game_id, table.step - 1)
                    self.timers.arm(table.record)
                    return
                if full.announced_phase >= full.phase - 1 and not table.running:
                    return
                reports = [self.service.report_for(full, s) for s in range(full.announced_phase + 1, full.phase)]
                if self.poster.presenter(table).reports:
                    if game_id not in self.state.turn_messages:
                        await self._find_up(table, full)  # the turn message the crash left open, to close
                    since = [happened(table, r) for r in reports]
                    await self.poster.report_steps(table, since, await self.languages.for_game(full), catching_up=True)
                    return
                if game_id not in self.state.turn_messages:
                    told = await self._find_up(table, full)
                    if told is not None:  # told in its own message just before the stop: not at the top of the next
                        await self.poster.mark_told(table, told)
                        reports = [r for r in reports if r.step > told]
                await self.poster.announce_steps(table, reports, None, catching_up=True)
        except Exception as exc:
            self.state.caught_up.discard(game_id)
            delay = self.state.backoff(attempt)
            log.warning("game %s: could not catch up (%s); trying again in %.0f s", game_id, exc, delay)
            self.scheduler.schedule((CATCH_UP, game_id), self.clock.now() + delay,
                                    lambda: self.catch_up(game_id, attempt + 1))

    async def _find_up(self, table: Table, full: GameRecord) -> int | None:
        """After a restart: the newest message of this game still showing the inputs of a step that is over.
        It becomes the message up, so the catch-up goes on in it (the same thread) or closes it like any
        ended step's, instead of leaving a stale message and losing what it would have told.

        Returns a step not marked told if the newest such message (found in the same read) is that step's
        thread message already closed with ``done``: the stop came between that edit (or the answer of the
        click that ended the step) and the mark, so that step, and every one before it, is told and must not
        be told again. Any unmarked step may be the one: a click on the message of a step whose own mark was
        still on its way (the click's answer closes the message without waiting for it) leaves two unmarked."""
        prefix = f"play:{full.kind}:{full.id}:"
        found: list[int] = []
        closed = self._closed_cards(table, full)
        told: list[int] = []

        def wanted(message: discord.Message) -> bool:
            for custom_id in custom_ids(message):  # V1 rows or V2 containers alike
                if custom_id.startswith(prefix) and custom_id[len(prefix):].split(":")[0].isdigit():
                    found.append(int(custom_id[len(prefix):].split(":")[0]))
                    return True
            if closed and message.id > (full.lobby_message_id or 0):
                step = next((step for step, cards in closed if any(shows(message, c) for c in cards)), None)
                if step is not None:
                    told.append(step)
                    return True
            return False

        message = await self.poster.recent_message(full, wanted)
        if told:
            return told[0]
        if message is None or not found or found[0] >= table.step:
            return None
        self.state.turn_messages[table.id] = self.poster.stored_turn(table, found[0], message.id,
                                                    self.service.report_for(full, found[0]).before)
        return None

    def _closed_cards(self, table: Table, full: GameRecord) -> list[tuple[int, list[Card]]]:
        """How the turn message of each resolved step not marked told reads once closed with ``done`` (every
        language; no ``since``, which ``done`` puts first), the newest step first. At most
        the newest CLOSED_LOOKBACK steps: a stop falls between one edit and its mark, and a step or two on."""
        presenter = self.poster.presenter(table)
        if presenter.reports:  # a step told in a report of its own is recognised by ``reported``
            return []
        seats = seat_infos(table)
        steps = range(full.phase - 1, max(-1, full.announced_phase, full.phase - 1 - CLOSED_LOOKBACK), -1)
        return [(step, [presenter.done(happened(table, self.service.report_for(full, step)), seats, (), lang)
                        for lang in LANGUAGES]) for step in steps]
