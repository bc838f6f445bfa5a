"""Play one whole game in the project's test world, as bench/capture.py records it.

The real bot (discord.py's real code) runs in process against the local fake Discord with its journal on
(tests/fakediscord/journal.py): every post, edit, upload, DM, private answer, modal and click is kept in order.
Nothing here knows a game: the lobby is the shared one (``/<key> start``, Join, Start), whose turn it is comes
from the core's table (``Table.awaited``), the controls of a step are the ones whose custom_id is the shared
front end's ``play:<key>:<game id>:<step>:...``, and how a human picks among them is the game's strategy
(bench/capture_humans.py). Time is the fake clock: a human thinks a few seconds before each move (timers that
fall due meanwhile, reminders and deadlines, run), and when only time can move the game the clock jumps to the
next timer. Every wait is for an event (the bot quiet and the step told), never a fixed time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from types import SimpleNamespace
from typing import Any
from unittest import mock

import bot.core.service as service_module
from bot.core.table import Table
from bot.games import game_for
from tests.conftest import FakeClock
from tests.discord_world import World, make_world
from tests.fakediscord import FakeDiscord, InteractionResult, Message, SimulationError, SimUser
from tests.fakediscord.journal import note
from tests.fakediscord.limits import text_inputs
from tests.fakediscord.state import BOT_USER_ID
from tests.fakediscord.users import walk_components

from .capture_humans import Human, Turn, strategy

NAMES = ("ana", "ben", "cy", "dee", "eve", "fay", "gus")
PATIENCE = 60.0  # a safety net: every wait ends at its event
MOVES_PER_STEP = 6  # interactions one human may spend on one step before the timer is left to play for it
# Tasks that mean the bot is still at work: gateway event handlers, component and modal dispatches, app
# commands, timer callbacks, a deferral under way.
BUSY = ("discord.py: ", "discord-ui-", "CommandTree", "timer ", "defer a slow answer")


class CaptureError(RuntimeError):
    """The game could not be played to its end (what was waited for, and what was seen)."""


@dataclass
class Played:
    """A finished capture: the fake (its journal, requests and stored messages) and who played."""

    key: str
    seats: int
    humans: tuple[str, ...]
    seed: int
    fake: FakeDiscord
    world: World
    game_id: int
    channel_ids: set[int]
    record: Any  # the stored GameRecord at the end
    names: dict[int, str] = field(default_factory=dict)  # user id -> display name
    first_request: int = 0  # index in fake.requests of the first request of the game (the start command)


@contextmanager
def fixed_seed(seed: int) -> Iterator[None]:
    """The game's seed (drawn by the service with ``secrets``) fixed, so that one seed gives one game."""
    with mock.patch.object(service_module, "secrets", SimpleNamespace(randbits=lambda bits: seed)):
        yield


def enabled_controls(message: Message) -> list[dict[str, Any]]:
    """A message's buttons (not links) and selects that can be used, in the order shown."""
    found = []
    for comp in walk_components(message.components):
        if comp.get("disabled") or not comp.get("custom_id"):
            continue
        if (comp.get("type") == 2 and comp.get("style") not in (5, 6)) or comp.get("type") == 3:
            found.append(comp)
    return found


class Game:
    """One game being played: the world, the humans and their strategy, the clock."""

    def __init__(self, world: World, key: str, humans: tuple[str, ...], human: Human, seed: int,
                 think: float, late: float) -> None:
        self.world, self.key, self.humans, self.human = world, key, humans, human
        self.think, self.late = think, late
        self.rng = Random(seed)  # the humans' choices
        self.timing = Random(f"{seed}-timing")  # their thinking times, apart: a change of controls keeps them
        self.fake = world.fake
        self.game_id = 0
        self.started = False
        self.timers: list[str] = []  # the timers being run (see fire)
        self.awaited_then: list[int] = []  # the humans awaited when they fell due

    # Waiting ------------------------------------------------------------------------------------
    @property
    def bot(self) -> Any:
        assert self.world.bot is not None
        return self.world.bot

    def _busy(self) -> bool:
        if any(r.status == 0 for r in self.fake.requests[-64:]):
            return True  # a request the fake has not answered yet
        current = asyncio.current_task()
        for task in asyncio.all_tasks():
            if task is not current and not task.done() and task.get_name().startswith(BUSY):
                return True
        return False

    async def settle(self) -> None:
        """Until the bot is quiet and the game's committed steps are all told (the turn message of the current
        step, or the final message, is up): ``announced_phase`` is the core's own mark of that."""
        deadline = time.monotonic() + PATIENCE
        calm = 0
        while calm < 2:  # quiet twice in a row: a handler that ends may hand over to another
            told = True
            if self.game_id and not self._busy():
                version = await self.bot.store.game_version(self.game_id)
                told = version.status not in ("running", "finished") or version.announced_phase >= version.phase - 1
            calm = calm + 1 if told and not self._busy() else 0
            if time.monotonic() > deadline:
                raise CaptureError("the bot never went quiet with the current step told")
            await asyncio.sleep(0.005)

    async def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, running each timer at its own moment on the way (a reminder says
        the time left when it falls due, not when the human finally acts)."""
        target = self.world.clock.now() + seconds
        while (due := self.next_timer()) is not None and due <= target:
            await self.fire(due)
        await self.fire(target)

    async def fire(self, moment: float) -> None:
        """The clock to ``moment`` and the timers then due run, the journal told which ran (``timers``, their
        keys' names: "reminder", "deadline"...), as what the bot says then is their doing."""
        timers = getattr(self.bot.scheduler, "_timers", {})
        self.timers = sorted({str(key[0] if isinstance(key, tuple) else key) for key, timer in timers.items()
                              if timer.when <= moment})
        table = await self.table()
        self.awaited_then = sorted(u for n in self.humans if (u := self.world.users[n].id) and
                                   self.seat_of(table, n) in table.awaited())
        if self.timers:  # in the journal even when the bot then says nothing
            note(self.fake.world, "timer", from_request=False)
        try:
            await self.world.advance(max(0.0, moment - self.world.clock.now()))
            await self.settle()
        finally:
            self.timers, self.awaited_then = [], []

    def next_timer(self) -> float | None:
        timers = getattr(self.bot.scheduler, "_timers", {})  # the scheduler's armed timers (read only)
        return min((t.when for t in timers.values()), default=None)

    async def pass_time(self) -> None:
        """Nobody human is awaited and the bot is quiet: only time moves the game on (the next timer)."""
        due = self.next_timer()
        if due is None:
            raise CaptureError("the game is running, nobody human is awaited and no timer is armed")
        await self.advance(max(0.0, due - self.world.clock.now()))

    async def table(self) -> Table:
        return await self.bot.service.table(self.game_id)  # type: ignore[no-any-return]

    # The lobby ----------------------------------------------------------------------------------
    async def open(self, seats: int, turn_seconds: int) -> int:
        host = self.world.users[self.humans[0]]
        options: dict[str, Any] = {"ai_players": seats - len(self.humans), "turn_seconds": turn_seconds}
        opened = await (await host.slash(self.world.general, f"{self.key} start", **options)).wait()
        lobby = opened.message
        record = await self.bot.store.open_game_in_channel(self.world.general.id)
        if lobby is None or record is None:
            raise CaptureError(f"/{self.key} start showed no lobby: {opened.text()!r}")
        self.game_id = record.id
        for name in self.humans[1:]:
            await self._lobby(name, lobby.id, "join")
        await self._lobby(self.humans[0], lobby.id, "start")
        self.started = True
        record = await self.bot.store.open_game_in_channel(self.world.general.id)
        if record is None or record.status != "running":
            raise CaptureError("the game did not start")
        await self.settle()
        return record.id

    async def _lobby(self, name: str, message_id: int, action: str) -> None:
        message = self.fake.world.messages[message_id]
        control = next((c for c in enabled_controls(message) if f":lobby:{action}:" in c["custom_id"]), None)
        if control is None:
            raise CaptureError(f"no {action!r} button on the lobby")
        await (await self.world.users[name].click(message, control["custom_id"])).wait()
        await self.settle()

    # Playing ------------------------------------------------------------------------------------
    def seat_of(self, table: Table, name: str) -> int | None:
        seated = table.record.seat_of(self.world.users[name].id)
        return None if seated is None else seated.seat

    async def play(self) -> None:
        while True:
            await self.settle()
            table = await self.table()
            if not table.running:
                return
            awaited = table.awaited()
            waiting = [n for n in self.humans if self.seat_of(table, n) in awaited]
            if not waiting:
                await self.pass_time()
                continue
            # a sealed step waits for several: who gets to it first varies (seeded), as at a real table
            name, step = self.timing.choice(waiting) if len(waiting) > 1 else waiting[0], table.step
            await self.advance(self.thinking(table))  # reminders may fall due meanwhile
            table = await self.table()
            if table.step != step or self.seat_of(table, name) not in table.awaited():
                continue  # the deadline played for them while they thought
            if not await self.move(name, step):
                await self.pass_time()  # nothing worked: the step's deadline plays for them

    def thinking(self, table: Table) -> float:
        """How long the human takes over this move: ``think`` seconds give or take half; a ``late`` share of
        moves is made only after the step's reminder (to show it), never after the deadline."""
        now, deadline = self.world.clock.now(), table.record.deadline
        quick = self.think * self.timing.uniform(0.5, 1.5)
        if deadline is None:
            return quick
        remind = self.bot.settings.reminder_seconds
        if remind and self.timing.random() < self.late:
            quick = max(quick, deadline - remind + 2.0 - now)
        return max(0.0, min(quick, deadline - now - 1.0))

    def surfaces(self, user: SimUser) -> list[Message]:
        """What ``user`` sees that can carry controls: the user's own private answers and DMs first (a player
        whose private view of the step is open uses it, rather than opening another), then the server's
        channels; the most recently posted or edited first."""
        world = self.fake.world
        last: dict[int, int] = {}
        for entry in world.journal or []:
            if entry["kind"] in ("post", "edit") and entry.get("message"):
                last[entry["message"]] = entry["seq"]
        seen = []
        for message in world.messages.values():
            if message.deleted or message.author_id != BOT_USER_ID:
                continue
            channel = world.channels[message.channel_id]
            mine = (message.ephemeral_user_id == user.id if message.ephemeral else
                    channel.recipient_id == user.id if channel.is_dm else channel.guild_id == self.world.guild.id)
            if mine:
                seen.append(message)
        def private(message: Message) -> bool:
            return message.ephemeral or world.channels[message.channel_id].is_dm

        return sorted(seen, key=lambda m: (private(m), last.get(m.id, -1)), reverse=True)

    def controls(self, user: SimUser, step: int) -> tuple[Message, list[dict[str, Any]]] | None:
        prefix = f"play:{self.key}:{self.game_id}:{step}:"
        for message in self.surfaces(user):
            mine = [c for c in enabled_controls(message) if c["custom_id"].startswith(prefix)]
            if mine:
                return message, mine
        return None

    async def move(self, name: str, step: int) -> bool:
        """``name`` acts in ``step`` until the step no longer waits for them; False if they could not."""
        user = self.world.users[name]
        tried: set[str] = set()  # a control pressed in this step is not pressed again (it was refused)
        for _ in range(MOVES_PER_STEP):
            table = await self.table()
            seat = self.seat_of(table, name)
            if table.step != step or seat not in table.awaited():
                return True
            turn = Turn(table.game, seat, table.game.view(table.state, seat), table.game.legal(table.state, seat),
                        self.rng, self.humans.index(name))
            found = self.controls(user, step)
            if found is None or self.human.by_dm(turn):
                await user.send_dm(self.human.text({}, turn))  # nothing to press, or this player types by DM
            else:
                message, controls = found
                fresh = [c for c in controls if c["custom_id"] not in tried] or controls
                control = self.human.control(fresh, turn)
                tried.add(control["custom_id"])
                if control["type"] == 3:
                    result = await user.select(message, control["custom_id"], self.human.options(control, turn))
                else:
                    result = await user.click(message, control["custom_id"])
                await self.answer_modal(user, await result.wait(), turn)
            await self.settle()
        table = await self.table()
        return table.step != step or self.seat_of(table, name) not in table.awaited()

    async def answer_modal(self, user: SimUser, result: InteractionResult, turn: Turn) -> None:
        """Fill the form the bot opened: its selects picked (by the strategy), its text inputs typed unless they
        are optional beside selects (a player picks rather than types, as the form offers)."""
        if result.modal is None:
            return
        fields = result.modal.get("components") or []
        selects = [comp for comp in walk_components(fields) if comp.get("type") == 3 and comp.get("custom_id")]
        values: dict[str, Any] = {comp["custom_id"]: self.human.text(comp, turn) for comp, _ in text_inputs(fields)
                                  if not selects or comp.get("required", True)}
        values |= {comp["custom_id"]: self.human.options(comp, turn) for comp in selects}
        try:
            submitted = await user.submit_modal(result, values)
        except SimulationError as error:  # a form the simulated client cannot fill: say which
            raise CaptureError(f"could not submit the form {result.modal.get('title')!r}: {error}") from error
        await submitted.wait()


async def play_game(key: str, seats: int, humans: int, seed: int, db_dir: Path, *, think: float = 5.0,
                    late: float = 0.2, turn_seconds: int = 60, validate: bool = True) -> Played:
    """One whole game of ``key`` at ``seats`` seats, ``humans`` of them simulated humans, the rest AI."""
    game = game_for(key)
    if seats not in game.seats or not 1 <= humans <= seats or humans > len(NAMES):
        raise CaptureError(f"{key}: {seats} seats (allowed {game.seats.start}-{game.seats.stop - 1}) with "
                           f"{humans} humans (1-{min(seats, len(NAMES))})")
    fake = FakeDiscord() if validate else FakeDiscord(spec_path=None)  # None: no OpenAPI check (quicker)
    await fake.start()
    names = NAMES[:humans]
    try:
        with fixed_seed(seed):
            world = await make_world(fake, db_dir / f"capture-{key}-{seats}.sqlite3", FakeClock(), names=names)
            try:
                playing = Game(world, key, names, strategy(key), seed, think, late)
                fake.world.journal = []
                fake.world.journal_context = lambda: context(playing)
                first_request = len(fake.requests)
                game_id = await playing.open(seats, turn_seconds)
                await playing.play()
                await playing.settle()
                record = await world.bot.store.load_game(game_id)  # type: ignore[union-attr]
                fake.world.journal_context = None
            finally:
                await world.stop_bot()
    finally:
        await fake.stop()
    channel_ids = {c for c in world.guild.channel_ids}
    users = {u.id: u.display_name or u.name for u in fake.world.users.values()}
    return Played(key, seats, names, seed, fake, world, game_id, channel_ids, record, users, first_request)


def context(playing: Game) -> dict[str, Any]:
    """The game's step at a journal entry: its number, what it asks (the prompt's kind) and of whom."""
    tables = getattr(playing.bot.service, "_tables", {}) if playing.world.bot is not None else {}
    table = tables.get(playing.game_id)
    if table is None or table.state is None:  # not started yet, or over (a finished table leaves the cache)
        return {"kind": "end" if playing.started else "lobby"}
    prompt = table.prompt
    found: dict[str, Any] = {"step": table.step, "kind": prompt.kind if prompt is not None else "end",
                             "status": table.record.status}
    # What each seat knows and the table must not: its view's optional secrets(), and its draft of the sealed
    # step under way (kept beside the engine's state until the step resolves), values of 3 characters or more
    # (a shorter one, Binomial's cell `3b`, would be found in ordinary text), and not what the table's view
    # already shows (a number played again: its earlier reveal is public).
    secrets: dict[str, list[str]] = {}
    public = repr(table.game.view(table.state, None))
    for seat in range(len(table.record.seats)):
        shown = getattr(table.game.view(table.state, seat), "secrets", None)
        values = [*(shown() if shown is not None else ()),
                  *(str(v) for v in (table.drafts.get(seat) or {}).values())]
        values = [v for v in values if len(v) >= 3 and v not in public]
        if values:
            secrets[str(table.record.seats[seat].user_id or "")] = values
    if secrets:
        found["secrets"] = secrets  # by the seat's user id ("" for an AI seat)
    if playing.timers:
        found |= {"timers": playing.timers, "awaited": playing.awaited_then}
    return found
