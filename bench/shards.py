"""Shard processes (``python -m bench --only shards``; skipped when no PostgreSQL answers at BENCH_POSTGRES_URL):
full-stack choices through real ``python -m bot`` processes against the local fake Discord with sharding, in
three configurations measured in one run, their repeats interleaved so that each ratio compares the same
minutes of the machine:

- (a) SQLite, one process (no sharding);
- (b) PostgreSQL, one process holding both shards of 2 (SHARD_COUNT=2, SHARD_IDS=0,1: two gateway sessions);
- (c) PostgreSQL, two processes, shard 0 and shard 1 of 2, on one database.

Each configuration has its own fake Discord (its own port, gateway and request log) and the same world:
tables of 5 seats spread over guilds of both shards (the fake routes a guild's events to its shard and every
DM to shard 0, as Discord does, so in (c) shard 0's process applies the DM choices of shard 1's games).
Configurations not being measured sit idle (heartbeats and the shard resync only).

Choices/s: ``WINDOW`` choices always in flight, each a coroutine awaiting the fake's own signal of its answer
(the interaction's callback, or the bot's message in the DM channel), never a poll. Four seats of each table
choose again and again in its first turn, the fifth never, so no turn ends while measuring. Latency is each
choice's time from its dispatch to its answer in that closed loop (p50/p99). CPU: each bot process's
utime+stime from /proc, this process's (the fakes and the driver), and the PostgreSQL backends serving the
configuration's database, over the timed windows; on a 2-core machine they all compete for the same cores.

REST calls per turn: whole turns on tables of their own (one table at a time in each configuration, the three
configurations at once: nothing is timed there), all five seats choosing by DM (or all by the modal: the
button, the modal, the submission). A turn's calls are the table's own requests in the fake's log (its
channel, its players' DM channels, their interactions) from the turn's first choice until the fake has been
quiet for ``QUIET`` s after the next turn's status message; interaction callbacks (and followups) are counted
apart from the other calls, which Discord's 50 requests/s limit counts. The turns of a shard-1 table by DM
are the split's test: in (c) shard 0's process applies them, and they are compared turn by turn with (b).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from tests.fakediscord import FakeDiscord, InteractionResult, Message, RequestRecord, SimUser
from tests.fakediscord.state import BOT_USER_ID, Channel, shard_of
from tests.test_bot_process import ROOT, bot_env

from .common import Figure, cpu_count, percentile, postgres_database, summary
from .load import number_for
from .stack import TITLE, BotMessages

SHARDS = 2
SEATS = 5
CHOOSERS = 4  # seats 0-3 choose again and again; seat 4 never does, so no turn ends mid-measurement
WINDOW = 32
GUILDS_PER_SHARD = 2
QUIET = 0.5  # REST turns: the fake heard nothing for this long after a turn (its last call has landed)
PATIENCE = 60.0  # a safety net on every wait (each ends at its event)
INTERACTION = re.compile(r"^/(interactions|webhooks)/")
ACK = ("Locked in", "Changed to")
CONFIGS = ("sqlite", "pg_one", "pg_two")
# REST turns: every seat by DM, every seat by the modal, or alternating (seat + turn even: a DM), so that in (c)
# a turn of a shard-1 game is ended by shard 0's process (a DM, turn 1) or by its own after shard 0's opened it.
REST_PATHS = ("dm", "modal", "mixed")
LABELS = {"sqlite": "(a) SQLite, 1 process", "pg_one": "(b) PostgreSQL, 1 process, shards 0+1 of 2",
          "pg_two": "(c) PostgreSQL, 2 processes (shard 0, shard 1)"}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
Json = dict[str, Any]


# PostgreSQL ------------------------------------------------------------------------------------------
# As bench/postgres.py does it, kept here so this section does not depend on that module's imports.
SERVER = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


async def _problem() -> str | None:
    try:
        conn = await asyncpg.connect(SERVER, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


def problem() -> str | None:
    """Why this section cannot run here (None: it can)."""
    return asyncio.run(_problem())


def database() -> contextlib.AbstractAsyncContextManager[str]:
    """A new database (``bench_<random>``, not migrated: the first bot process migrates it), dropped after."""
    return postgres_database(SERVER)


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of a process (None: it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class Requests(list[RequestRecord]):
    """The fake's request log, waking the bench on every request (to tell a quiet fake, for REST turns)."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = asyncio.Event()

    def append(self, record: RequestRecord) -> None:
        super().append(record)
        self.arrived.set()


class BotProcess:
    """One ``python -m bot`` process of a configuration, logging to its own file."""

    def __init__(self, name: str, cwd: Path, env: dict[str, str], ready: str,
                 args: tuple[str, ...] = ("-m", "bot"), stop_signal: int = signal.SIGTERM) -> None:
        self.name, self.cwd, self.env, self.ready = name, cwd, env, ready
        self.args = args  # the interpreter's arguments (bench.choice_cost: its floor bot, or the bot under cProfile)
        self.stop_signal = stop_signal  # SIGINT lets cProfile write its file as the bot exits
        self.log_path = cwd / f"{name}.log"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(sys.executable, *self.args, cwd=self.cwd,
                                                             env=self.env, stdout=log, stderr=log)
        # Start-up is not timed: the log's "ready" line (games restored, guilds received) is read every 50 ms.
        deadline = time.monotonic() + PATIENCE * 2
        while self.ready not in self.log():
            if self.proc.returncode is not None or time.monotonic() > deadline:
                raise RuntimeError(f"bot process {self.name} did not get ready: {self.log()[-2000:]}")
            await asyncio.sleep(0.05)

    def cpu(self) -> float:
        assert self.proc is not None
        return cpu_seconds(self.proc.pid) or 0.0

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(self.stop_signal)
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@dataclass
class Table:
    shard: int
    channel: Channel
    players: list[SimUser]
    status: Message | None = None
    modal: Json | None = None  # the "Choose secretly" modal of turn 1, as the bot opened it


def modal_answer(modal: Json, value: str) -> Json:
    """The data of a modal submission typing ``value`` into every text input, in the modal's own layout (as
    SimUser.submit_modal sends it)."""
    rows = []
    for comp in modal.get("components") or []:
        if comp.get("type") == 1:
            rows.append({"type": 1, "components": [{"type": 4, "custom_id": c["custom_id"], "value": value}
                                                   for c in comp.get("components") or [] if c.get("type") == 4]})
        elif comp.get("type") == 18 and (comp.get("component") or {}).get("type") == 4:
            rows.append({"type": 18, "component": {"type": 4, "custom_id": comp["component"]["custom_id"],
                                                   "value": value}})
    return {"custom_id": modal["custom_id"], "components": rows}


def answered(r: InteractionResult) -> bool:
    return r.response_type is not None or bool(r.rejections)


@dataclass
class Setup:
    """One configuration: its fake Discord, its bot process(es) and its tables."""

    key: str
    tmp: Path
    settings: dict[str, str]  # DATABASE_PATH or DATABASE_URL
    games: int
    fake: FakeDiscord = field(default_factory=lambda: FakeDiscord(spec_path=None))
    messages: BotMessages = field(default_factory=BotMessages)
    requests: Requests = field(default_factory=Requests)
    bots: list[BotProcess] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)  # choices/s
    turn_tables: dict[tuple[int, str], Table] = field(default_factory=dict)  # REST turns: (shard, path)
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    database: str | None = None  # the PostgreSQL database's name, for its backends' CPU
    backends: list[int] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)  # what each wrong answer was (its first words, or its error)

    async def build(self) -> None:
        """The world, before any bot connects (so every guild, channel and member comes with GUILD_CREATE)."""
        await self.fake.start()
        self.messages.install(self.fake)
        self.fake.requests = self.requests
        guilds = [self.fake.add_guild(f"{self.key} s{s} g{g}", shard=(s, SHARDS))
                  for g in range(GUILDS_PER_SHARD) for s in range(SHARDS)]
        made = 0

        def table(guild: Any) -> Table:
            nonlocal made
            players = [self.fake.add_user(f"p{made}-{s}") for s in range(SEATS)]
            for player in players:
                self.fake.add_member(guild, player)
            made += 1
            return Table(shard_of(guild.id, SHARDS), self.fake.add_channel(guild, f"t{made}"), players)

        for n in range(self.games):  # round robin over the guilds: half the tables on each shard
            self.tables.append(table(guilds[n % len(guilds)]))
        for shard in range(SHARDS):
            for path in REST_PATHS:
                self.turn_tables[(shard, path)] = table(guilds[shard])
        self.tmp.mkdir(parents=True, exist_ok=True)
        env = bot_env(self.fake, self.tmp / "bot.sqlite3") | {
            "TURN_SECONDS": "3600", "REMINDER_SECONDS": "0", "DM_REPLIES_PER_WINDOW": "1000000",
            # choices per second and CPU on a fake without the global limit: no pace (the capacity section's)
            "GLOBAL_REQUESTS_PER_WINDOW": "0", "PYTHONPATH": str(ROOT)} | self.settings
        if self.key == "sqlite":
            self.bots = [BotProcess("bot", self.tmp, env, "INFO bot.client: ready")]
        elif self.key == "pg_one":
            self.bots = [BotProcess("shards0+1", self.tmp, env | {"SHARD_COUNT": "2", "SHARD_IDS": "0,1"},
                                    "INFO bot.client: ready with shards 0,1 of 2")]
        else:
            self.bots = [BotProcess(f"shard{s}", self.tmp, env | {"SHARD_COUNT": "2", "SHARD_IDS": str(s)},
                                    f"INFO bot.client: ready with shards {s} of 2") for s in range(SHARDS)]

    async def start(self) -> None:
        for bot in self.bots:  # one after the other: the first migrates a new database
            await bot.start()

    async def open_all(self) -> None:
        limit = asyncio.Semaphore(4)

        async def one(table: Table) -> None:
            async with limit:
                await self.open(table)

        await asyncio.gather(*(one(t) for t in [*self.tables, *self.turn_tables.values()]))

    async def open(self, table: Table) -> None:
        """/thenumber start, Join, Start, through the real UI; then the turn's status message and its modal."""
        host, *others = table.players
        opened = await (await host.slash(table.channel, "thenumber start")).wait(PATIENCE)
        lobby = opened.message
        assert lobby is not None, opened.rejections
        for player in others:
            await (await player.click(lobby, "Join")).wait(PATIENCE)
        started = await (await host.click(lobby, "Start")).wait(PATIENCE)
        assert started.response_type == 7, started.rejections
        table.status = await self.status(table, 0)
        chose = await (await host.click(table.status, "Choose secretly")).wait(PATIENCE)
        assert chose.modal is not None, chose.text()
        table.modal = chose.modal

    def status_of(self, table: Table, turn: int) -> Message | None:
        """The status message of ``turn`` (0-9) in the table's channel, if posted."""
        for message in reversed(self.fake.world.by_channel.get(table.channel.id, [])):
            found = TITLE.search(self.fake.visible_text(message))
            if found and (int(found[1]) - 1) * 5 + int(found[2]) - 1 == turn:
                return message
        return None

    async def status(self, table: Table, turn: int) -> Message:
        found = await self.messages.until(table.channel.id, lambda: self.status_of(table, turn), PATIENCE)
        assert found is not None, f"{self.key}: no status message of turn {turn}"
        return found

    async def stop(self) -> None:
        for bot in self.bots:
            await bot.stop()
        await self.fake.stop()

    # Choices ------------------------------------------------------------------------------------
    def choice(self, index: int) -> tuple[Table, SimUser]:
        table = self.tables[index % len(self.tables)]
        return table, table.players[(index // len(self.tables)) % CHOOSERS]

    async def modal(self, table: Table, user: SimUser, number: str) -> bool:
        """One modal submission (the exact INTERACTION_CREATE SimUser.submit_modal sends), until answered."""
        assert table.modal is not None and table.status is not None
        result = await user._dispatch(5, table.channel, modal_answer(table.modal, number), table.status)
        await result.until(answered, PATIENCE, "an answer")
        if result.response_type in (6, 7):  # the turn message updated: the acknowledgement is a private followup
            await result.until(lambda r: bool(r.followups) or bool(r.rejections), PATIENCE, "the acknowledgement")
        private = result.followups[0] if result.response_type in (6, 7) and result.followups else None
        ok = not result.rejections and (
            (result.response_type == 4 and result.ephemeral and result.content.startswith(ACK))
            or (private is not None and private.ephemeral and private.content.startswith(ACK)))
        if not ok:  # e.g. Discord's 3 s rule (10062) when the machine is overloaded
            self.wrong.append(f"modal: {result.rejections[0]['code']} {result.rejections[0]['message']}"
                              if result.rejections else f"modal: {result.content[:80]}")
        return ok

    async def dm(self, user: SimUser, number: str) -> bool:
        """One DM choice, until the bot's answer to it is in the DM channel: the first of the bot's messages
        after the DM that names the number (one user may have two DMs in flight when a choice lags)."""
        channel = self.fake.world.dm_channel(user.user)
        before = len(self.fake.world.by_channel.get(channel.id, []))
        await user.send_dm(number)
        named = re.compile(rf"\b{number}\b")

        def replied() -> Message | None:
            mine = self.fake.world.by_channel.get(channel.id, [])[before + 1:]
            return next((m for m in mine if m.author_id == BOT_USER_ID and named.search(m.content)), None)

        reply = await self.messages.until(channel.id, replied, PATIENCE)
        ok = reply is not None and reply.content.startswith(ACK)
        if not ok:
            self.wrong.append(f"dm: {reply.content[:80]}" if reply is not None else "dm: no reply")
        return ok

    async def one(self, path: str, index: int) -> bool:
        table, user = self.choice(index)
        number = f"{self.rng.randrange(1000):03d}"  # any number is legal in the first turn
        return await (self.modal(table, user, number) if path == "modal" else self.dm(user, number))

    # CPU ------------------------------------------------------------------------------------------
    async def find_backends(self) -> None:
        """The PostgreSQL backends serving this configuration's database (its pools are open by now)."""
        if self.database is None:
            return
        conn = await asyncpg.connect(SERVER)
        try:
            rows = await conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", self.database)
        finally:
            await conn.close()
        self.backends = [r["pid"] for r in rows]

    def cpu(self) -> dict[str, float]:
        out = {bot.name: bot.cpu() for bot in self.bots}
        out["bench"] = time.process_time()  # this process: every fake and the driver
        if self.backends:
            out["postgres"] = sum(cpu_seconds(pid) or 0.0 for pid in self.backends)
        return out

    def tidy(self) -> None:
        """Drop the fake's logs of past measurements so its growing heap does not slow later ones."""
        world = self.fake.world
        for iid in [i for i, r in world.interactions.items() if answered(r)]:
            result = world.interactions.pop(iid)
            world.interactions_by_token.pop(result.token, None)
            for mid in (result.original_message_id, *result.followup_ids):
                message = world.messages.get(mid or 0)
                if message is not None and message.ephemeral:
                    del world.messages[message.id]
        self.requests.clear()
        self.fake.events.clear()


@dataclass
class Window:
    """One timed closed loop: choices/s, each choice's latency, wrong answers, CPU seconds by process."""

    rate: float
    latencies: list[float]
    bad: int
    cpu: dict[str, float]
    seconds: float
    calls: Counter[str] = field(default_factory=Counter)


async def closed_loop(setup: Setup, path: str, count: int, offset: int, window: int = WINDOW) -> Window:
    """``window`` choices always in flight (each worker awaits its answer, then sends the next) until ``count``
    are answered."""
    sent = 0
    bad = 0
    latencies: list[float] = []

    async def worker() -> None:
        nonlocal sent, bad
        while sent < count:
            index = offset + sent
            sent += 1
            began = time.perf_counter()
            ok = await setup.one(path, index)
            latencies.append((time.perf_counter() - began) * 1000)
            bad += not ok

    cpu = setup.cpu()
    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(window)))
    seconds = time.perf_counter() - start
    used = {k: v - cpu[k] for k, v in setup.cpu().items()}
    # The REST calls the bot made meanwhile (a status edit coalesced 2 s after a burst may land in the next
    # window of this configuration, so only their sum over the windows is meant).
    calls = Counter("interaction" if INTERACTION.match(r.path) else r.method for r in setup.requests)
    setup.tidy()
    return Window(count / seconds, latencies, bad, used, seconds, calls)


# REST calls per turn ------------------------------------------------------------------------------
async def quiet(setup: Setup) -> None:
    """Until the fake has heard no request for QUIET s (a turn's last call has landed)."""
    while True:
        setup.requests.arrived.clear()
        try:
            await asyncio.wait_for(setup.requests.arrived.wait(), QUIET)
        except TimeoutError:
            return


def of_table(setup: Setup, table: Table, record: RequestRecord) -> bool:
    """Whether a request is this table's: its channel, its players' DM channels, their interactions' answers."""
    if INTERACTION.match(record.path):
        inter = setup.fake.routes.interaction_for(record.path)
        return inter is not None and inter.channel_id == table.channel.id
    found = re.match(r"^/channels/(\d+)(/|$)", record.path)
    if found:
        players = [p.user.dm_channel_id for p in table.players]
        return int(found[1]) in (table.channel.id, *players)
    if record.path == "/users/@me/channels" and isinstance(record.json, dict):
        return int(record.json.get("recipient_id", 0)) in {p.id for p in table.players}
    return False


def template(path: str) -> str:
    return re.sub(r"[0-9]{6,}", "{id}", re.sub(r"fake-interaction-[0-9]+-[0-9a-f]+", "{token}", path))


async def rest_turns(setup: Setup, turns: int) -> list[Json]:
    """Whole turns, one table at a time: per turn, the table's requests from its first choice until the fake is
    quiet after the next turn's status message (interaction callbacks apart from the others). A request of
    no table of these (a status edit of a measured table, coalesced for 2 s) is counted apart, as elsewhere."""
    out = []
    for (shard, path), table in setup.turn_tables.items():
        assert table.status is not None
        for turn in range(turns):
            await quiet(setup)
            mark = len(setup.requests)
            for seat, user in enumerate(table.players):
                number = number_for(seat, turn)
                if path == "dm" or (path == "mixed" and (turn + seat) % 2 == 0):
                    ok = await setup.dm(user, number)
                else:  # the whole modal path: the button opens the modal, the submission chooses
                    opened = await (await user.click(table.status, "Choose secretly")).wait(PATIENCE)
                    done = await (await user.submit_modal(opened, {"number": number})).wait(PATIENCE)
                    if done.response_type in (6, 7):  # the turn message updated: a private acknowledgement follows
                        ok = (await done.wait_followups(1, PATIENCE))[0].content.startswith(ACK)
                    else:
                        ok = done.content.startswith(ACK)
                assert ok, f"{setup.key}: {path} choice of seat {seat} in turn {turn} not acknowledged"
            table.status = await setup.status(table, turn + 1)
            await quiet(setup)
            counts = {"interaction": 0, "other": 0, "modal_open": 0, "elsewhere": 0}
            calls: Counter[str] = Counter()
            for request in setup.requests[mark:]:
                if not of_table(setup, table, request):
                    counts["elsewhere"] += 1
                    continue
                counts["interaction" if INTERACTION.match(request.path) else "other"] += 1
                counts["modal_open"] += isinstance(request.json, dict) and request.json.get("type") == 9
                calls[f"{request.method} {template(request.path)}"] += 1
            out.append({"shard": shard, "path": path, "turn": turn, **counts,
                        "total": counts["interaction"] + counts["other"], "calls": dict(calls)})
    return out


# The run --------------------------------------------------------------------------------------------
@contextlib.asynccontextmanager
async def setups(tmp: Path, games: int, keys: Iterable[str] = CONFIGS) -> AsyncIterator[dict[str, Setup]]:
    """The configurations ``keys``, built, their processes ready and their tables open; stopped after."""
    async with contextlib.AsyncExitStack() as stack:
        made: dict[str, Setup] = {}
        for key in keys:
            if key == "sqlite":
                settings = {"DATABASE_PATH": str(tmp / key / "bot.sqlite3")}
                made[key] = Setup(key, tmp / key, settings, games)
            else:
                url = await stack.enter_async_context(database())
                made[key] = Setup(key, tmp / key, {"DATABASE_URL": url}, games, database=_name(url))
        try:
            for setup in made.values():
                await setup.build()
            await _each(made.values(), Setup.start)
            await _each(made.values(), Setup.open_all)
            yield made
        finally:
            for setup in reversed(made.values()):  # the fakes restore discord.py's globals in reverse order
                await setup.stop()


def _name(url: str) -> str:
    return url.rsplit("/", 1)[1]


async def _each(items: Iterable[Setup], step: Callable[[Setup], Awaitable[None]]) -> None:
    await asyncio.gather(*(step(s) for s in items))


async def measure(quick: bool, tmp: Path) -> dict[str, Any]:
    games, repeats, count, turns = (8, 2, 150, 2) if quick else (24, 5, 600, 4)
    windows: dict[tuple[str, str], list[Window]] = {(k, p): [] for k in CONFIGS for p in ("modal", "dm")}
    async with setups(tmp, games) as made:
        offset = 0
        for key in CONFIGS:  # warm-up every path of every configuration
            for path in ("modal", "dm"):
                await closed_loop(made[key], path, 2 * WINDOW, offset)
                offset += 2 * WINDOW
            await made[key].find_backends()
        for n in range(repeats):
            # interleaved, and in a rotating order, so each ratio compares the same minutes of the machine
            for key in CONFIGS[n % 3:] + CONFIGS[:n % 3]:
                for path in ("modal", "dm"):
                    windows[(key, path)].append(await closed_loop(made[key], path, count, offset))
                    offset += count
        rest = dict(zip(CONFIGS, await asyncio.gather(*(rest_turns(made[k], turns) for k in CONFIGS)),
                        strict=True))
        logs = {k: {b.name: b.log().count("Traceback") for b in s.bots} for k, s in made.items()}
        violations = {k: list(s.fake.violations)[:5] for k, s in made.items()}
        wrong = {k: s.wrong[:5] for k, s in made.items()}
    return {"games": games, "repeats": repeats, "count": count, "turns": turns, "windows": windows, "rest": rest,
            "tracebacks": logs, "fake_violations": violations, "wrong_answers": wrong}


def figures_of(data: dict[str, Any]) -> list[Figure]:
    windows: dict[tuple[str, str], list[Window]] = data["windows"]
    setup = {"games": data["games"], "seats": SEATS, "window": WINDOW, "choices_per_repeat": data["count"],
             "guilds": GUILDS_PER_SHARD * SHARDS, "tracebacks_in_bot_logs": data["tracebacks"],
             "fake_violations": data["fake_violations"], "wrong_answers": data["wrong_answers"]}
    figures: list[Figure] = []
    rates = {k: [w.rate for w in ws] for k, ws in windows.items()}
    for key in CONFIGS:
        for path in ("modal", "dm"):
            ws = windows[(key, path)]
            done = sum(data["count"] for _ in ws)
            cpu: dict[str, float] = {}
            for w in ws:
                for name, used in w.cpu.items():
                    cpu[name] = cpu.get(name, 0.0) + used
            wall = sum(w.seconds for w in ws)
            per_choice = ", ".join(f"{name} {used / done * 1000:.2f} ms ({used / wall:.0%})"
                                   for name, used in cpu.items())
            p50 = [percentile(w.latencies, 50) for w in ws]
            p99 = [percentile(w.latencies, 99) for w in ws]
            calls = sum((w.calls for w in ws), Counter())
            rest = ", ".join(f"{name} {n / done:.2f}" for name, n in sorted(calls.items()))
            bad = sum(w.bad for w in ws)
            extra = {"cpu_seconds": {k: round(v, 2) for k, v in cpu.items()}, "wall_seconds": round(wall, 2),
                     "failed_or_wrong_answers": bad, "p50_ms": summary(p50), "rest_calls": dict(calls)}
            if key == "sqlite" and path == "modal":
                extra |= setup
            what = "modal choices (submission -> answer and private acknowledgement)" if path == "modal" else \
                "DM choices (DM -> DM reply)"
            where = " (DMs all reach shard 0's process)" if key == "pg_two" and path == "dm" else ""
            figures += [
                Figure(f"shards_{key}_{path}_per_s", f"Shard processes {LABELS[key]}: {what}{where}", "choices/s",
                       summary(rates[(key, path)]),
                       note=f"{WINDOW} in flight over {data['games']} tables on 2 shards' guilds; CPU per choice "
                            f"(share of the wall time): {per_choice}; REST calls per choice: {rest}"
                            + (f"; {bad} WRONG OR MISSING ANSWERS, e.g. {data['wrong_answers'][key][:2]}"
                               if bad else ""), extra=extra),
                Figure(f"shards_{key}_{path}_p99_ms", f"Shard processes {LABELS[key]}: {path} latency p99", "ms",
                       summary(p99), note=f"p50 {summary(p50)['median']:.1f} ms; closed loop, {WINDOW} in flight"),
                Figure(f"shards_{key}_{path}_cpu_ms", f"Shard processes {LABELS[key]}: CPU per {path} choice, every "
                       "process", "ms", summary([sum(w.cpu.values()) / data["count"] * 1000 for w in ws]),
                       note="bot process(es) + this process (fake, driver) + the database's PostgreSQL backends"),
            ]
    cores = cpu_count()
    for path in ("modal", "dm"):
        split = ("the two shard processes, this process (fakes, driver) and PostgreSQL share "
                 f"{cores} cores: a second process adds no core here")
        if path == "dm":
            split += "; every DM reaches shard 0's process, so shard 1's idles"
        figures += [
            Figure(f"shards_pg_one_vs_sqlite_{path}", f"Shard processes (b)/(a) {path} choices per second", "x",
                   summary([b / a for a, b in zip(rates[("sqlite", path)], rates[("pg_one", path)], strict=True)]),
                   note=f"the PostgreSQL server runs on the same {cores} cores (its CPU is in the CPU figures)"),
            Figure(f"shards_pg_two_vs_pg_one_{path}", f"Shard processes (c)/(b) {path} choices per second", "x",
                   summary([c / b for b, c in zip(rates[("pg_one", path)], rates[("pg_two", path)], strict=True)]),
                   note=split),
        ]
    rest: dict[str, list[Json]] = data["rest"]
    for key in CONFIGS:
        for path in REST_PATHS:
            turns = [t for t in rest[key] if t["path"] == path]
            other = [t["other"] for t in turns]
            inter = [t["interaction"] for t in turns]
            by_shard = "; ".join(
                f"shard-{s} table: other {[t['other'] for t in turns if t['shard'] == s]}, interaction "
                f"{[t['interaction'] for t in turns if t['shard'] == s]}" for s in range(SHARDS))
            opens = sum(t["modal_open"] for t in turns)
            figures.append(Figure(
                f"shards_rest_{key}_{path}", f"Shard processes {LABELS[key]}: non-interaction REST calls per turn, "
                f"{path} choices" + (" (DM and modal by turns)" if path == "mixed" else ""), "calls", summary(other),
                note=f"interaction callbacks per turn {summary(inter)['median']:.0f} (median"
                     + (f"; {opens / len(turns):g} of them modal openings" if opens else "") + f"); {by_shard}",
                extra={"turns": turns}))
    # The split's test: the turns of a shard-1 game with DM choices (which shard 0's process applies in (c)),
    # against the same turns (same numbers) on one process holding both shards (b) and on SQLite (a).
    def shard1(key: str, path: str) -> list[int]:
        return [t["total"] for t in rest[key] if t["path"] == path and t["shard"] == 1]

    extra: dict[str, dict[str, list[int]]] = {
        path: {other: [c - b for b, c in zip(shard1(other, path), shard1("pg_two", path), strict=True)]
               for other in ("pg_one", "sqlite")} for path in ("dm", "mixed")}
    versus_b = extra["dm"]["pg_one"] + extra["mixed"]["pg_one"]
    figures.append(Figure(
        "shards_rest_split_extra_calls", "Shard processes: extra REST calls per turn of a shard-1 game with DM "
        "choices (applied by shard 0's process), (c) - (b)", "calls", summary([float(x) for x in versus_b]),
        "<= 1 (every turn)", max(versus_b) <= 1,
        "all calls, interaction callbacks included; shard 0's process, ending a turn by a DM, closes the turn"
        " message shard 1 posted as (b) does, after one read of it (the report shown above the turn); per turn,"
        " all by DM: vs (b) "
        f"{extra['dm']['pg_one']}, vs (a) {extra['dm']['sqlite']}; DM and modal by turns: vs (b) "
        f"{extra['mixed']['pg_one']}, vs (a) {extra['mixed']['sqlite']}", {"extra_calls": extra}))
    return figures


def run(quick: bool = False) -> list[Figure]:
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as tmp:
        data = asyncio.run(measure(quick, Path(tmp)))
    return figures_of(data)


if __name__ == "__main__":
    from .__main__ import table

    print(table(run("--quick" in sys.argv)))
