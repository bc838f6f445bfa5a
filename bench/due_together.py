"""10,000 deadlines due in the same second: how long the bot's event loop is held at a time, and how fast players
are answered meanwhile.

A generated database of 10,000 running games (bench/dbgen.py), each in a channel of the fake Discord, every turn's
deadline set to the same second, some 30 s after the bot starts: the bot (in this process, against the fake with
Discord's global limit, sliding) restores them and arms their timers, then they all fall due together. From a second
before that moment for ``WATCH`` seconds: a ticker that wakes every 5 ms notes the CPU time the loop's thread spent
between two of its turns (the longest time the loop was held by other work; the wall time between them is noted too,
but on a shared machine it also counts other processes holding the CPU), and a player opens a table in a fresh
channel every 0.25 s (dispatch -> answer). Not the whole backlog: 10,000 reveals at Discord's 50 requests a second
take minutes (bench.restart measures that pace); this is the moment they fall due.
"""

import asyncio
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.client import NumberBot
from bot.settings import Settings
from tests.fakediscord import FakeDiscord

from .common import Figure, summary
from .dbgen import generate
from .restart import answer_or_miss

GAMES = 10_000
GUILDS = 100
LEAD = 30.0  # seconds from the bot's start to the common deadline: the restore is long over by then
WATCH = 12.0  # seconds watched from a second before the deadline
TICK = 0.005
HOLD_TARGET = 0.050  # seconds the loop may be held at a time
ANSWER_TARGET = 3.0


def place(db: Path, channels: list[tuple[int, int]], deadline: float) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE status = 'running' ORDER BY id")]
        conn.execute("BEGIN")
        conn.executemany("UPDATE games SET guild_id = ?, channel_id = ?, deadline = ? WHERE id = ?",
                         [(g, c, deadline, i) for i, (g, c) in zip(ids, channels, strict=False)])
        conn.execute("DELETE FROM meta WHERE key = 'commands_hash'")
        conn.execute("COMMIT")
    finally:
        conn.close()


async def due_together(source: Path, games: int) -> dict[str, Any]:
    async with FakeDiscord(spec_path=None) as fake:
        fake.limit_globally(sliding=True)
        probes = [fake.add_user(f"probe{i}") for i in range(int(WATCH / 0.25) + 1)]
        guilds = [fake.add_guild(f"Due {n}", members=probes if n == 0 else []) for n in range(GUILDS)]
        rooms = [fake.add_channel(guilds[n % GUILDS], f"game{n}") for n in range(games)]
        deadline = time.time() + LEAD
        place(source, [(room.guild_id, room.id) for room in rooms], deadline)
        bot = NumberBot(Settings(_env_file=None, database_path=source, reminder_seconds=0))  # type: ignore[call-arg]
        await bot.login(fake.token)
        await fake.attach(bot)
        gaps: list[float] = []  # wall time between the ticker's turns, beyond its sleep
        cpu_gaps: list[float] = []  # the loop thread's CPU time between them: the work that held the loop
        try:
            await asyncio.sleep(max(0.0, deadline - 1.0 - time.time()))
            armed = sum(1 for key in bot.scheduler._timers if key[0] == "deadline")
            watch_until = time.monotonic() + WATCH

            async def ticker() -> None:
                before, cpu_before = time.monotonic(), time.thread_time()
                while before < watch_until:
                    await asyncio.sleep(TICK)
                    now, cpu = time.monotonic(), time.thread_time()
                    gaps.append(now - before - TICK)
                    cpu_gaps.append(cpu - cpu_before)
                    before, cpu_before = now, cpu
                    # the fake's logs (for tests to read) would grow the heap the collector walks: not the bot's
                    fake.requests.clear()
                    fake.events.clear()

            async def probe() -> list[float]:
                latencies = []
                for n, user in enumerate(probes):
                    if time.monotonic() >= watch_until:
                        break
                    latencies.append(await answer_or_miss(
                        await user.slash(fake.add_channel(guilds[0], f"probe{n}"), "thenumber start")))
                    await asyncio.sleep(0.25)
                return latencies

            _, latencies = await asyncio.gather(ticker(), probe())
            started = games - sum(1 for key in bot.scheduler._timers if key[0] == "deadline")
            return {"hold_max": max(gaps), "hold_p99": statistics.quantiles(gaps, n=100)[98], "armed": armed,
                    "cpu_hold_max": max(cpu_gaps), "cpu_hold_p99": statistics.quantiles(cpu_gaps, n=100)[98],
                    "started": started, "answer_max": max(latencies), "answer_median": statistics.median(latencies),
                    "probes": len(latencies)}
        finally:
            fake.detach(bot)
            await bot.close()


def run(quick: bool = False) -> list[Figure]:
    games = 2000 if quick else GAMES
    repeats = 1 if quick else 2
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-due-") as tmp:
        source = generate(Path(tmp) / "source.sqlite3", games)
        for n in range(repeats):
            copy = Path(tmp) / f"run{n}.sqlite3"
            src, dst = sqlite3.connect(source), sqlite3.connect(copy)
            src.backup(dst)
            src.close()
            dst.close()
            runs.append(asyncio.run(due_together(copy, games)))
    hold = summary([r["cpu_hold_max"] * 1000 for r in runs])
    wall = summary([r["hold_max"] * 1000 for r in runs])
    answer = summary([r["answer_max"] for r in runs])
    last = runs[-1]
    return [
        Figure("due_loop_hold_ms", f"Timers: {games:,} deadlines due in the same second, longest hold of the loop "
               "(its CPU time between two turns)", "ms", hold, f"<= {HOLD_TARGET * 1000:.0f} ms",
               hold["max"] <= HOLD_TARGET * 1000,
               note=f"p99 {last['cpu_hold_p99'] * 1000:.1f} ms; in wall time (which also counts the machine's other "
                    f"processes taking the CPU) longest {wall['median']:.0f} ms (median of the runs), p99 "
                    f"{last['hold_p99'] * 1000:.1f} ms; {last['armed']:,} deadlines armed a "
                    f"second before, {last['started']:,} started within {WATCH:.0f} s (their reveals then wait for "
                    f"the token's 50 requests/s)"),
        Figure("due_answer_max_s", "Timers: slowest answer to a player while they fall due", "s", answer,
               f"< {ANSWER_TARGET:.0f} s", answer["max"] < ANSWER_TARGET,
               note=f"{last['probes']} tables opened, one every 0.25 s; median {last['answer_median'] * 1000:.0f} ms"),
    ]


if __name__ == "__main__":
    from .__main__ import table

    print(table(run(quick=False)))
