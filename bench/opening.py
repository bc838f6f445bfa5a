"""Opening tables: ``/thenumber start`` in N fresh channels against the real bot (in process, REST over HTTP to the
local fake Discord), cost per table at N = 200 and N = 2,000 (quick: 100 and 1,000) in the same run.

Every new channel and every DM channel is a new rate-limit bucket in discord.py's HTTP client, and discord.py
walks all its buckets for each new one once it has 256 (see bot/http_buckets.py): without the bot's amortised
walk, the cost per table grows with the number of tables opened within five minutes.

What is measured, and why so:
- An opening is done when its handler is: the public answer, then the opener's explanatory DM, which the
  handler sends after answering. The timed part ends when every handler has finished (discord.py runs each
  in a task named "CommandTree-invoker"), and only then is the bot stopped: nothing is cut off in flight.
  (Timing only the answers left about half the DMs of a 2,000 run still queued when the clock stopped.)
- The cost is the process's CPU time over the timed part (the bot, its database thread and the in-process
  fake): on a shared machine wall time mostly says how busy the other processes were. Wall time is shown too.
- Each run opens a few tables before its clock starts (imports, first-use caches, the start-up's restore of
  open games), then collects garbage, and the sizes alternate order between repeats: neither size carries
  first-use costs or the other's garbage, and a drift of the machine's load is shared.
- The fake keeps a log of every request and event for tests to read; the bench empties it as it goes, so the
  fake's own heap, which Python's garbage collector walks, does not grow with N. The fake's world (channels,
  messages, interactions) stays; the garbage collector's time is shown.
"""

import asyncio
import gc
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.client import NumberBot
from bot.settings import Settings
from tests.fakediscord import FakeDiscord

from .common import Figure, summary

IN_FLIGHT = 16
WARM_UP = 32  # tables opened before the clock starts, in every run
TARGET = 1.5


async def handlers_done(patience: float = 120.0) -> None:
    """Wait for every interaction handler still running (discord.py names their tasks 'CommandTree-invoker');
    ``patience`` is only a safety net against a handler that never ends."""
    while running := [task for task in asyncio.all_tasks() if task.get_name() == "CommandTree-invoker"]:
        _, pending = await asyncio.wait(running, timeout=patience)
        if pending:
            raise RuntimeError(f"{len(pending)} interaction handlers still running after {patience:.0f} s")


class GcClock:
    """CPU time spent in Python's garbage collector while installed (gc.callbacks)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.thread_time()
        else:
            self.seconds += time.thread_time() - self._started

    def __enter__(self) -> "GcClock":
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


class Opening:
    """A server with ``count`` members and as many empty channels, the bot in it; ``open(first, last)`` has the
    members ``first..last-1`` each run ``/thenumber start`` in their own channel, ``IN_FLIGHT`` at a time.
    ``keep_logs=False`` empties the fake's request and event logs (for tests to read) as it goes."""

    def __init__(self, fake: FakeDiscord, count: int, *, keep_logs: bool = True) -> None:
        self.fake = fake
        self.keep_logs = keep_logs
        self.users = [fake.add_user(f"h{i}") for i in range(count)]
        guild = fake.add_guild("Opening", members=self.users)
        self.channels = [fake.add_channel(guild, f"c{i}") for i in range(count)]
        self.bad = 0  # answers refused (too late) or missing

    async def open(self, first: int, last: int) -> None:
        """Returns when every one of these openings is done: answered, and its handler (the DM) finished."""
        next_table = first

        async def worker() -> None:
            nonlocal next_table
            while next_table < last:
                n = next_table
                next_table += 1
                answer = await (await self.users[n].slash(self.channels[n], "thenumber start")).until(
                    lambda r: r.response_type is not None or bool(r.rejections), 60, "an answer")
                self.bad += answer.message is None or bool(answer.rejections)
                if not self.keep_logs:
                    self.fake.requests.clear()
                    self.fake.events.clear()

        await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
        await handlers_done()  # the DMs sent after the answers are part of opening a table


async def open_tables(count: int, tmp: Path) -> dict[str, Any]:
    async with FakeDiscord(spec_path=None) as fake:
        world = Opening(fake, WARM_UP + count, keep_logs=False)
        # The CPU's cost, not the token's: paced (bot/http_pacing.py), opening takes at least 2 requests / 48 per
        # s each (the opener's DM channel and DM), 83 s for 2,000 tables, whatever the CPU does meanwhile.
        bot = NumberBot(Settings(_env_file=None, database_path=tmp / f"open-{count}.sqlite3",  # type: ignore[call-arg]
                                 global_requests_per_window=0))
        await bot.login(fake.token)
        await fake.attach(bot)
        try:
            # First uses (imports, caches, the start-up's restore) out of the timed part, and the same
            # collector state at both sizes.
            await world.open(0, WARM_UP)
            gc.collect()
            with GcClock() as collector:
                cpu, start = time.process_time(), time.perf_counter()
                await world.open(WARM_UP, WARM_UP + count)
                cpu, elapsed = time.process_time() - cpu, time.perf_counter() - start
            return {"cpu_ms": cpu / count * 1000, "wall_ms": elapsed / count * 1000,
                    "gc_ms": collector.seconds / count * 1000, "bad": world.bad,
                    "buckets": len(bot.http._buckets), "walks": bot.bucket_sweep.walks}
        finally:
            fake.detach(bot)
            await bot.close()


def run(quick: bool = False) -> list[Figure]:
    small, large = (100, 1000) if quick else (200, 2000)
    repeats = 1 if quick else 3
    runs: list[dict[int, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="bench-opening-") as tmp:

        def measure(count: int) -> dict[str, Any]:
            result = asyncio.run(open_tables(count, Path(tmp)))
            for path in Path(tmp).iterdir():
                path.unlink()
            return result

        for repeat in range(repeats):
            sizes = (small, large) if repeat % 2 == 0 else (large, small)
            runs.append({size: measure(size) for size in sizes})
    bad = sum(r[small]["bad"] + r[large]["bad"] for r in runs)

    def stat(size: int, key: str) -> dict[str, Any]:
        return summary([r[size][key] for r in runs])

    def ratio(key: str) -> dict[str, Any]:
        return summary([r[large][key] / r[small][key] for r in runs])

    def median(size: int, key: str) -> float:
        return float(stat(size, key)["median"])

    cpu_ratio, wall_ratio = ratio("cpu_ms"), ratio("wall_ms")
    without_gc = summary([(r[large]["cpu_ms"] - r[large]["gc_ms"]) / (r[small]["cpu_ms"] - r[small]["gc_ms"])
                          for r in runs])
    last = runs[-1][large]
    return [
        Figure("opening_per_table_ms_small", f"Opening tables: /thenumber start x {small}, CPU per table", "ms",
               stat(small, "cpu_ms"),
               note=f"{IN_FLIGHT} in flight, each opening timed to the end of its handler (answer and DM); wall "
                    f"{median(small, 'wall_ms'):.2f} ms, garbage collector {median(small, 'gc_ms'):.2f} ms"),
        Figure("opening_per_table_ms_large", f"Opening tables: /thenumber start x {large:,}, CPU per table", "ms",
               stat(large, "cpu_ms"),
               note=f"wall {median(large, 'wall_ms'):.2f} ms, garbage collector {median(large, 'gc_ms'):.2f} ms; "
                    f"{last['buckets']:,} rate-limit buckets at the end, walked {last['walks']} times; "
                    f"{bad} wrong answers"),
        Figure("opening_large_vs_small", f"Opening tables: CPU per table at {large:,} as a multiple of {small}",
               "x", cpu_ratio, f"<= {TARGET}x", cpu_ratio["median"] <= TARGET and bad == 0,
               note=f"without the garbage collector {without_gc['median']:.2f}x: its time follows the process's "
                    f"heap, mostly the in-process fake's world"),
        Figure("opening_large_vs_small_wall", f"Opening tables: wall time per table at {large:,} as a multiple "
               f"of {small}", "x", wall_ratio,
               note="wall time follows the machine's load (see the load average of the run); the target is on CPU"),
    ]
