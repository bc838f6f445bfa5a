"""Full stack, in process: modal submissions (INTERACTION_CREATE type 5) go from the local fake Discord through
discord.py's parsers into the real NumberBot (cog -> service -> SQLite commit) and back to the fake as an
ephemeral interaction callback. The floor is a bare discord.py client (:class:`FloorBot`) that answers the
same payloads with a constant ephemeral line, against the same fake, in the same run.

Both figures include the fake's own work (it shares the event loop), so the product's cost is reported
as a multiple of the floor. The fake runs without OpenAPI body validation here (jsonschema on every
request is a test-only cost that would swamp both sides); bench.api_economy keeps it on.
"""

import asyncio
import gc
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord

from bot.client import NumberBot
from bot.settings import Settings
from tests.fakediscord import Channel, FakeDiscord, InteractionResult, Message, SimUser

from .common import Figure, percentile, summary

SEATS = 5
CHOOSERS = 4  # seats 0-3 choose again and again; seat 4 never does, so no turn ends mid-measurement
STATUS_EDIT_SETTLE = 2.5  # let the product's coalesced status edits (2 s) finish before measuring the floor


class FloorBot(discord.Client):
    """The least a discord.py bot can do: answer every modal submission with a constant ephemeral line."""

    def __init__(self) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.dm_messages = True
        super().__init__(intents=intents)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is discord.InteractionType.modal_submit:
            await interaction.response.send_message("Locked in.", ephemeral=True)


@dataclass
class Table:
    game_id: int
    channel: Channel
    status: Message
    players: list[SimUser]


class Stack:
    """A fake Discord with ``games`` running 5-seat tables of the real bot, plus the floor bot."""

    def __init__(self, games: int, tmp: Path, database_url: str | None = None) -> None:
        self.games = games
        self.tmp = tmp
        self.database_url = database_url  # PostgreSQL (bench.postgres) instead of a SQLite file
        self.fake = FakeDiscord(spec_path=None)
        self.tables: list[Table] = []
        self.bot: NumberBot | None = None
        self.floor: FloorBot | None = None
        self.rng = random.Random(5)

    async def start(self) -> None:
        await self.fake.start()
        users = [self.fake.add_user(f"u{i}") for i in range(self.games * SEATS)]
        guild = self.fake.add_guild("Bench", members=users)
        channels = [self.fake.add_channel(guild, f"t{g}") for g in range(self.games)]
        settings = Settings(_env_file=None, database_path=self.tmp / "bench.sqlite3",  # type: ignore[call-arg]
                            database_url=self.database_url, turn_seconds=3600, reminder_seconds=0)
        self.bot = NumberBot(settings)
        await self.bot.login(self.fake.token)
        await self.fake.attach(self.bot)
        cog: Any = self.bot.get_cog("TheNumber")
        await asyncio.wait_for(cog._restoring, 10)
        for g, channel in enumerate(channels):
            players = users[g * SEATS:(g + 1) * SEATS]
            self.tables.append(await self._open(channel, players))
        self.floor = FloorBot()
        await self.fake.attach(self.floor)
        self.use(self.bot)

    async def _open(self, channel: Channel, players: list[SimUser]) -> Table:
        opened = await (await players[0].slash(channel, "thenumber start")).wait(10)
        lobby = opened.message
        assert lobby is not None, opened.rejections
        for player in players[1:]:
            await (await player.click(lobby, "Join")).wait(10)
        started = await (await players[0].click(lobby, "Start")).wait(10)
        assert started.response_type == 7, started.rejections
        deadline = time.monotonic() + 10
        while True:
            status = next((m for m in reversed(self.fake.messages(channel))
                           if "Choose secretly" in self.fake.visible_text(m)), None)
            if status is not None:
                break
            assert time.monotonic() < deadline, "no status message"
            await asyncio.sleep(0.01)
        assert self.bot is not None
        record = await self.bot.store.open_game_in_channel(channel.id)
        assert record is not None and record.status == "running"
        return Table(record.id, channel, status, players)

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
            await asyncio.sleep(0.05)
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


def _check(results: list[InteractionResult], product: bool) -> int:
    """How many answers are not an accepted ephemeral reply (with the product's acknowledgement text)."""
    bad = 0
    for r in results:
        ok = r.response_type == 4 and r.ephemeral and not r.rejections
        if ok and product:
            ok = r.content.startswith(("Locked in", "Changed to"))
        bad += not ok
    return bad


async def saturate(stack: Stack, client: discord.Client, count: int, window: int, offset: int) -> tuple[float, int]:
    """Closed loop: keep ``window`` submissions in flight until ``count`` are answered; returns (choices/s, bad)."""
    stack.use(client)
    in_flight: list[InteractionResult] = []
    done: list[InteractionResult] = []
    sent = 0
    start = time.perf_counter()
    give_up = time.monotonic() + 60
    while sent < count or in_flight:
        still = []
        for r in in_flight:
            (done if r.response_type is not None or r.rejections else still).append(r)
        in_flight = still
        while sent < count and len(in_flight) < window:
            in_flight.append(await stack.submit(offset + sent))
            sent += 1
        if time.monotonic() > give_up:
            break
        await asyncio.sleep(0.0005)
    elapsed = time.perf_counter() - start
    bad = _check(done, client is stack.bot) + len(in_flight)
    return len(done) / elapsed, bad


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
            await asyncio.sleep(delay)
        sent.append((at, await stack.submit(offset + i)))
    give_up = time.monotonic() + 5
    while any(r.response_type is None and not r.rejections for _, r in sent) and time.monotonic() < give_up:
        await asyncio.sleep(0.01)
    latencies = [(r.dispatched_monotonic + r.latency - at) * 1000 for at, r in sent if r.latency is not None]
    bad = _check([r for _, r in sent], client is stack.bot)
    return latencies, bad


async def _run(quick: bool) -> list[Figure]:
    games = 20 if quick else 40
    repeats = 3 if quick else 5
    count = 300 if quick else 1000
    window = 32
    rate, seconds = 100.0, (3.0 if quick else 6.0)
    with tempfile.TemporaryDirectory(prefix="bench-stack-") as tmp:
        stack = Stack(games, Path(tmp))
        await stack.start()
        assert stack.bot is not None and stack.floor is not None
        try:
            offset = 0
            for client in (stack.bot, stack.floor):  # warm-up both paths
                await saturate(stack, client, 100, window, offset)
                offset += 100
            await stack.settle()
            product_rates, floor_rates, ratios = [], [], []
            bad = {"product": 0, "floor": 0}
            for _ in range(repeats):
                p, b = await saturate(stack, stack.bot, count, window, offset)
                offset += count
                bad["product"] += b
                await stack.settle()
                f, b = await saturate(stack, stack.floor, count, window, offset)
                offset += count
                bad["floor"] += b
                product_rates.append(p)
                floor_rates.append(f)
                ratios.append(f / p)
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
    ratio = summary(ratios)
    p99 = summary(p99s["product"])
    setup = {"games": games, "seats": SEATS, "window": window, "choices_per_repeat": count,
             "failed_or_wrong_answers": bad, "fake_violations": violations[:5]}
    loop = {"offered_per_s": rate, "seconds_per_repeat": seconds, "failed_or_wrong_answers": bad}
    return [
        Figure("stack_choices_per_s", "Full stack: modal choices handled (gateway -> SQLite -> ack)", "choices/s",
               summary(product_rates), note=f"{window} in flight, {games} games, WAL+FULL", extra=setup),
        Figure("stack_floor_per_s", "Floor: bare discord.py bot, constant ephemeral reply", "choices/s",
               summary(floor_rates), note="same fake, same payloads, same run"),
        Figure("stack_cost_vs_floor", "Full stack: cost per choice as a multiple of the floor", "x", ratio,
               "<= 2x", ratio["median"] <= 2.0),
        Figure("stack_latency_p50_ms", "Full stack: latency p50 at 100 choices/s offered (open loop)", "ms",
               summary(p50s["product"]), extra=loop),
        Figure("stack_latency_p99_ms", "Full stack: latency p99 at 100 choices/s offered (open loop)", "ms", p99,
               "< 50 ms", p99["median"] < 50),
        Figure("stack_floor_latency_p50_ms", "Floor: latency p50 at 100/s offered", "ms", summary(p50s["floor"])),
        Figure("stack_floor_latency_p99_ms", "Floor: latency p99 at 100/s offered", "ms", summary(p99s["floor"])),
    ]


def run(quick: bool = False) -> list[Figure]:
    return asyncio.run(_run(quick))
