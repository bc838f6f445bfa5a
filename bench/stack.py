"""Full stack, in process: modal submissions (INTERACTION_CREATE type 5) and DMs go from the local fake Discord
through discord.py's parsers into the real NumberBot (cog -> service -> SQLite commit) and back to the fake as an
ephemeral interaction callback or a DM reply. The floor is a bare discord.py client (:class:`FloorBot`) that does
the same durable work per choice (one WAL + synchronous=FULL commit of an ``actions`` row like the product's,
on its own SQLite file in the same folder) and answers with a constant line, against the same fake, in the
same run. Whole turns: five modal choices, then the reveal and the next turn's status message (the floor
posts two constant messages after the fifth commit).

The driver is event-driven: each in-flight choice is a coroutine awaiting the fake's own signal (the
interaction's answer, or the bot's new message in the DM channel), never a polling loop.

Both figures include the fake's own work (it shares the event loop), so the product's cost is reported
as a multiple of the floor. The fake runs without OpenAPI body validation here (jsonschema on every
request is a test-only cost that would swamp both sides); bench.api_economy keeps it on.
"""

import asyncio
import gc
import random
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from bot.client import NumberBot
from bot.settings import Settings
from tests.fakediscord import Channel, FakeDiscord, InteractionResult, Message, SimUser

from .common import Figure, percentile, summary
from .floor_bot import DurableFloor
from .load import number_for

SEATS = 5
CHOOSERS = 4  # seats 0-3 choose again and again; seat 4 never does, so no turn ends mid-measurement
STATUS_EDIT_SETTLE = 2.5  # let the product's coalesced status edits (2 s) finish before measuring the floor


TITLE = re.compile(r"^The Number · round (\d) of 2 · turn (\d) of 5$", re.M)  # a turn's, not its reveal's
FLOOR_TURN = re.compile(r"floor turn (\d+)")


class FloorBot(DurableFloor):
    """The least a discord.py bot can do with the same durable work: one WAL + FULL commit of a choose row per
    choice (modal or DM), then a constant answer; the fifth choice of a turn posts a reveal and a status."""

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: Any = interaction.data or {}
        _, _, game, phase = str(data.get("custom_id", "tn:pick:0:0")).split(":")
        number = data["components"][0]["components"][0]["value"]
        await self.record(int(game), int(phase), interaction.user.id % 5, number)
        await interaction.response.send_message("Locked in.", ephemeral=True)
        seats = self.turns.setdefault((int(game), int(phase)), set())
        seats.add(interaction.user.id)
        if len(seats) == SEATS and isinstance(interaction.channel, discord.abc.Messageable):
            await interaction.channel.send(f"reveal of floor turn {phase}")
            await interaction.channel.send(f"floor turn {int(phase) + 1}")

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None and message.author != self.user:
            await self.record(message.channel.id, 0, message.author.id % 5, message.content)
            await message.channel.send("Locked in.")


@dataclass
class Table:
    game_id: int
    channel: Channel
    status: Message
    players: list[SimUser]


@dataclass
class BotMessages:
    """Wakes the bench on every message the bot creates (a hook on the fake's message factory)."""

    changed: dict[int, asyncio.Event] = field(default_factory=dict)

    def install(self, fake: FakeDiscord) -> None:
        made = fake.routes.new_message

        def hooked(channel: Channel, body: Any, **kwargs: Any) -> Message:
            message = made(channel, body, **kwargs)
            event = self.changed.get(channel.id)
            if event is not None:
                event.set()
            return message

        fake.routes.new_message = hooked  # type: ignore[method-assign]

    async def until(self, channel_id: int, found: Callable[[], Any], timeout: float = 30) -> Any:
        event = self.changed.setdefault(channel_id, asyncio.Event())
        deadline = time.monotonic() + timeout
        while not (value := found()):
            event.clear()
            if (value := found()):
                break
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(event.wait(), left)
            except TimeoutError:
                return None
        return value


class Stack:
    """A fake Discord with ``games`` running 5-seat tables of the real bot (plus fresh tables for whole turns),
    and the floor bot."""

    def __init__(self, games: int, tmp: Path, database_url: str | None = None) -> None:
        self.games = games
        self.tmp = tmp
        self.database_url = database_url  # PostgreSQL (bench.postgres) instead of a SQLite file
        self.fake = FakeDiscord(spec_path=None)
        self.tables: list[Table] = []
        self.bot: NumberBot | None = None
        self.floor: FloorBot | None = None
        self.rng = random.Random(5)
        self.messages = BotMessages()
        self.guild: Any = None
        self.opened = 0

    async def start(self) -> None:
        await self.fake.start()
        self.messages.install(self.fake)
        users = [self.fake.add_user(f"u{i}") for i in range(self.games * SEATS)]
        self.guild = self.fake.add_guild("Bench", members=users)
        channels = [self.fake.add_channel(self.guild, f"t{g}") for g in range(self.games)]
        settings = Settings(_env_file=None, database_path=self.tmp / "bench.sqlite3",  # type: ignore[call-arg]
                            database_url=self.database_url, turn_seconds=3600, reminder_seconds=0,
                            dm_replies_per_window=1_000_000,
                            # the cost per choice against a floor that does not pace, on a fake without the
                            # global limit: the token's pace is the capacity section's, not this one's
                            global_requests_per_window=0)
        self.bot = NumberBot(settings)
        await self.bot.login(self.fake.token)
        await self.fake.attach(self.bot)
        cog: Any = self.bot.get_cog("Table")
        await asyncio.wait_for(cog._restoring, 10)
        for g, channel in enumerate(channels):
            players = users[g * SEATS:(g + 1) * SEATS]
            self.tables.append(await self._open(channel, players))
        self.floor = FloorBot(self.tmp / "floor.sqlite3")
        await self.fake.attach(self.floor)
        self.use(self.bot)

    async def fresh_tables(self, count: int) -> list[Table]:
        """New running tables (new players, new channels) for whole turns."""
        self.use_product()
        made = []
        for _ in range(count):
            self.opened += 1
            players = [self.fake.add_user(f"w{self.opened}-{s}") for s in range(SEATS)]
            for player in players:
                self.fake.add_member(self.guild, player)
            channel = self.fake.add_channel(self.guild, f"w{self.opened}")
            await self.fake.dispatch("CHANNEL_CREATE", channel.payload(self.fake.world))
            made.append(await self._open(channel, players))
        return made

    def use_product(self) -> None:
        assert self.bot is not None
        self.use(self.bot)

    async def _open(self, channel: Channel, players: list[SimUser]) -> Table:
        opened = await (await players[0].slash(channel, "thenumber start")).wait(10)
        lobby = opened.message
        assert lobby is not None, opened.rejections
        for player in players[1:]:
            await (await player.click(lobby, "Join")).wait(10)
        started = await (await players[0].click(lobby, "Start")).wait(10)
        assert started.response_type == 7, started.rejections
        status = await self.messages.until(channel.id, lambda: self.status_of(channel, 0), 10)
        assert status is not None, "no status message"
        assert self.bot is not None
        record = await self.bot.store.open_game_in_channel(channel.id)
        assert record is not None and record.status == "running"
        return Table(record.id, channel, status, players)

    def status_of(self, channel: Channel, turn: int) -> Message | None:
        """The product's status message of ``turn`` (0-9) in ``channel``, if posted."""
        for message in reversed(self.fake.world.by_channel.get(channel.id, [])):
            found = TITLE.search(self.fake.visible_text(message))
            if found and (int(found[1]) - 1) * 5 + int(found[2]) - 1 == turn:
                return message
        return None

    def use(self, client: discord.Client) -> None:
        """Deliver gateway events to ``client`` only (both stay logged in and attached to the fake)."""
        self.fake._clients[:] = [client]

    async def settle(self) -> None:
        """Wait until the product has no pending status edit (they would run during the next measurement)."""
        assert self.bot is not None
        deadline = time.monotonic() + 10
        while any(isinstance(k, tuple) and k[0] == "status" for k in self.bot.scheduler._timers):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)  # between measurements only: never inside a timed window
        await asyncio.sleep(0.05)
        self.tidy()

    def tidy(self) -> None:
        """Drop the fake's logs of past measurements (answered interactions, ephemerals, request and event logs)
        so its growing heap does not slow later measurements (or lengthen garbage-collector pauses)."""
        world = self.fake.world
        answered = [i for i, r in world.interactions.items() if r.response_type is not None or r.rejections]
        for iid in answered:
            result = world.interactions.pop(iid)
            for mid in (result.original_message_id, *result.followup_ids):
                message = world.messages.get(mid or 0)
                if message is not None and message.ephemeral:
                    del world.messages[message.id]
        self.fake.requests.clear()
        self.fake.events.clear()
        gc.collect()

    async def stop(self) -> None:
        if self.floor is not None:
            await self.floor.close()
        if self.bot is not None:
            await self.bot.close()
        await self.fake.stop()

    # Choices ------------------------------------------------------------------------------------
    def choice(self, index: int) -> tuple[Table, SimUser]:
        table = self.tables[index % len(self.tables)]
        return table, table.players[(index // len(self.tables)) % CHOOSERS]

    async def submit(self, index: int) -> InteractionResult:
        """One modal submission, exactly as SimUser.submit_modal sends it (the modal of turn 1)."""
        table, user = self.choice(index)
        number = f"{self.rng.randrange(1000):03d}"
        data = {"custom_id": f"tn:pick:{table.game_id}:0",
                "components": [{"type": 1, "components": [{"type": 4, "custom_id": "number", "value": number}]}]}
        return await user._dispatch(5, table.channel, data, table.status)

    async def modal(self, index: int, product: bool) -> bool:
        """One modal choice, awaited until the fake has its answer; True when the answer is right."""
        result = await self.submit(index)
        await result.until(lambda r: r.response_type is not None or bool(r.rejections), 30, "an answer")
        if result.response_type in (6, 7):  # the turn message updated: the acknowledgement is a followup
            await result.until(lambda r: bool(r.followup_ids) or bool(r.rejections), 30, "the acknowledgement")
        return _good(result, product)

    async def dm(self, index: int, product: bool) -> bool:
        """One choice by DM, awaited until the bot's reply lands in the DM channel."""
        _, user = self.choice(index)
        channel = self.fake.world.dm_channel(user.user)
        before = len(self.fake.world.by_channel.get(channel.id, []))
        await user.send_dm(f"{self.rng.randrange(1000):03d}")

        def replied() -> Message | None:
            mine = self.fake.world.by_channel.get(channel.id, [])[before + 1:]
            return mine[-1] if mine else None

        reply = await self.messages.until(channel.id, replied, 30)
        if reply is None:
            return False
        return not product or reply.content.startswith(("Locked in", "Changed to"))


def _good(r: InteractionResult, product: bool) -> bool:
    """An ephemeral answer (the floor's, a refusal), or the turn message updated and a private followup."""
    private = r.followups[0] if r.response_type in (6, 7) and r.followups else None
    ok = not r.rejections and ((r.response_type == 4 and r.ephemeral) or (private is not None and private.ephemeral))
    if ok and product:
        ok = (private.content if private is not None else r.content).startswith(("Locked in", "Changed to"))
    return ok


async def closed_loop(stack: Stack, client: discord.Client, path: str, count: int, window: int,
                      offset: int) -> tuple[float, int]:
    """``window`` choices always in flight (each worker awaits its answer, then sends the next) until ``count``
    are answered; returns (choices/s, wrong or missing answers)."""
    stack.use(client)
    product = client is stack.bot
    one = stack.modal if path == "modal" else stack.dm
    sent = 0
    bad = 0

    async def worker() -> None:
        nonlocal sent, bad
        while sent < count:
            index = offset + sent
            sent += 1
            bad += not await one(index, product)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(window)))
    return count / (time.perf_counter() - start), bad


async def open_loop(stack: Stack, client: discord.Client, rate: float, seconds: float,
                    offset: int) -> tuple[list[float], int]:
    """Open loop: a submission every 1/rate s whatever happens; latency from the scheduled moment to the ack."""
    stack.use(client)
    loop = asyncio.get_running_loop()
    count = int(rate * seconds)
    start = loop.time() + 0.02
    sent: list[tuple[float, InteractionResult]] = []
    for i in range(count):
        at = start + i / rate
        delay = at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)  # the schedule itself, not a poll
        sent.append((at, await stack.submit(offset + i)))
    for _, r in sent:
        await r.until(lambda x: x.response_type is not None or bool(x.rejections), 10, "an answer")
    latencies = [(r.dispatched_monotonic + r.latency - at) * 1000 for at, r in sent if r.latency is not None]
    bad = sum(not _good(r, client is stack.bot) for _, r in sent)
    return latencies, bad


async def whole_turns(stack: Stack, client: discord.Client, tables: list[Table], turns: int,
                      first_turn: int) -> tuple[float, int]:
    """Every table plays ``turns`` whole turns at once: five modal choices, then the reveal and the next turn's
    status message; returns (turns/s, turns that did not end)."""
    stack.use(client)
    product = client is stack.bot
    failed = 0

    async def play(table: Table) -> None:
        nonlocal failed
        status = table.status
        for turn in range(first_turn, first_turn + turns):
            submits = []
            for seat, user in enumerate(table.players):
                data = {"custom_id": f"tn:pick:{table.game_id}:{turn}", "components": [{"type": 1, "components": [
                    {"type": 4, "custom_id": "number", "value": number_for(seat, turn)}]}]}
                submits.append(await user._dispatch(5, table.channel, data, status))
            for r in submits:
                await r.until(lambda x: x.response_type is not None or bool(x.rejections), 30, "an answer")
            if product:
                found = await stack.messages.until(table.channel.id, lambda t=turn: stack.status_of(table.channel,
                                                                                                   t + 1), 30)
            else:
                found = await stack.messages.until(table.channel.id, lambda t=turn: any(
                    m.content == f"floor turn {t + 1}" for m in stack.fake.world.by_channel[table.channel.id][-3:]),
                    30)
            if not found:
                failed += 1
                return
            if product:
                status = found
        table.status = status

    start = time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    return len(tables) * turns / (time.perf_counter() - start), failed


async def _run(quick: bool) -> list[Figure]:
    games = 20 if quick else 40
    repeats = 3 if quick else 5
    count = 300 if quick else 1000
    window = 32
    turn_tables, turns = (4, 3) if quick else (8, 4)
    rate, seconds = 100.0, (3.0 if quick else 6.0)
    with tempfile.TemporaryDirectory(prefix="bench-stack-") as tmp:
        stack = Stack(games, Path(tmp))
        await stack.start()
        assert stack.bot is not None and stack.floor is not None
        try:
            offset = 0
            for client in (stack.bot, stack.floor):  # warm-up both paths
                for path in ("modal", "dm"):
                    await closed_loop(stack, client, path, 100, window, offset)
                    offset += 100
            await stack.settle()
            rates: dict[str, list[float]] = {k: [] for k in ("modal", "floor_modal", "dm", "floor_dm",
                                                              "ratio_modal", "ratio_dm", "turns", "floor_turns",
                                                              "ratio_turns")}
            bad = {"product": 0, "floor": 0}
            for n in range(repeats):
                for path in ("modal", "dm"):
                    p, b = await closed_loop(stack, stack.bot, path, count, window, offset)
                    offset += count
                    bad["product"] += b
                    await stack.settle()
                    f, b = await closed_loop(stack, stack.floor, path, count, window, offset)
                    offset += count
                    bad["floor"] += b
                    rates[path].append(p)
                    rates[f"floor_{path}"].append(f)
                    rates[f"ratio_{path}"].append(f / p)
                fresh = await stack.fresh_tables(turn_tables)
                await stack.settle()
                p, b = await whole_turns(stack, stack.bot, fresh, turns, 0)
                bad["product"] += b
                await stack.settle()
                floor_tables = [Table(10_000_000 + n * 100 + i, t.channel, t.status, t.players)
                                for i, t in enumerate(fresh)]
                f, b = await whole_turns(stack, stack.floor, floor_tables, turns, 0)
                bad["floor"] += b
                rates["turns"].append(p)
                rates["floor_turns"].append(f)
                rates["ratio_turns"].append(f / p)
                await stack.settle()
            p50s: dict[str, list[float]] = {"product": [], "floor": []}
            p99s: dict[str, list[float]] = {"product": [], "floor": []}
            for _ in range(1 if quick else 3):
                for name, client in (("product", stack.bot), ("floor", stack.floor)):
                    latencies, b = await open_loop(stack, client, rate, seconds, offset)
                    offset += int(rate * seconds)
                    bad[name] += b
                    p50s[name].append(percentile(latencies, 50))
                    p99s[name].append(percentile(latencies, 99))
                    await stack.settle()
            violations = list(stack.fake.violations)
        finally:
            await stack.stop()
    setup = {"games": games, "seats": SEATS, "window": window, "choices_per_repeat": count,
             "failed_or_wrong_answers": bad, "fake_violations": violations[:5]}
    loop = {"offered_per_s": rate, "seconds_per_repeat": seconds, "failed_or_wrong_answers": bad}
    where = f"{window} in flight, {games} games; floor: same fake, one WAL+FULL commit per choice"
    figures = []
    for path, label in (("modal", "modal choices (gateway -> SQLite -> ephemeral answer)"),
                        ("dm", "DM choices (gateway -> SQLite -> DM reply)")):
        ratio = summary(rates[f"ratio_{path}"])
        figures += [
            Figure(f"stack_{path}_per_s", f"Full stack: {label}", "choices/s", summary(rates[path]), note=where,
                   extra=setup),
            Figure(f"stack_floor_{path}_per_s", f"Floor: bare discord.py bot, {path} choices, durable", "choices/s",
                   summary(rates[f"floor_{path}"])),
            Figure(f"stack_{path}_cost_vs_floor", f"Full stack: cost per {path} choice as a multiple of the floor",
                   "x", ratio, "<= 1.5x", ratio["median"] <= 1.5),
        ]
    turn_ratio = summary(rates["ratio_turns"])
    p99 = summary(p99s["product"])
    figures += [
        Figure("stack_turns_per_s", f"Full stack: whole turns (5 modal choices, reveal, next status), "
               f"{turn_tables} tables at once", "turns/s", summary(rates["turns"])),
        Figure("stack_floor_turns_per_s", "Floor: whole turns (5 durable choices, 2 posts)", "turns/s",
               summary(rates["floor_turns"])),
        Figure("stack_turn_cost_vs_floor", "Full stack: cost per whole turn as a multiple of the floor", "x",
               turn_ratio),
        Figure("stack_latency_p50_ms", f"Full stack: modal latency p50 at {rate:.0f} choices/s offered (open loop)",
               "ms", summary(p50s["product"]), extra=loop),
        Figure("stack_latency_p99_ms", f"Full stack: modal latency p99 at {rate:.0f} choices/s offered", "ms", p99,
               "< 50 ms", p99["median"] < 50),
        Figure("stack_floor_latency_p50_ms", f"Floor: latency p50 at {rate:.0f}/s offered", "ms",
               summary(p50s["floor"])),
        Figure("stack_floor_latency_p99_ms", f"Floor: latency p99 at {rate:.0f}/s offered", "ms",
               summary(p99s["floor"])),
        Figure("stack_latency_p99_vs_floor", "Full stack: latency p99 as a multiple of the floor's", "x",
               summary([p / f for p, f in zip(p99s["product"], p99s["floor"], strict=True)])),
    ]
    return figures


def run(quick: bool = False) -> list[Figure]:
    return asyncio.run(_run(quick))
