"""The capacity bench's bot: ``python -m bot`` (the product's own start-up, settings from the environment) in a
process of its own, so the bot has a core to itself while the fake Discord and the simulated players run in
the harness (bench/capacity.py).

Run as a script (``python bench/capacity_child.py``) with PYTHONPATH at the product tree to measure: this file
imports nothing of the bench or the tests, so it runs an older commit's bot too (the baseline). It adds only
instruments: each REST call's wait for the token (``TokenWaits``), the event loop's lag (a 10 ms ticker), the
process's CPU time and the warnings of the bot's loggers; with CAPACITY_FACTOR > 1 a compressed clock and
scheduler (the harness's, same epoch and origin); with CAPACITY_PROFILE a cProfile of the event loop's thread.
SIGUSR1 starts the measured window (and puts back the product's own pace, lifted while the tables are
opened, as the fake's limit is); SIGUSR2 writes what it measured as JSON to CAPACITY_REPORT (written to a
temporary name, then renamed: the harness waits for the name).
"""

from __future__ import annotations

import os
import sys

# The script's folder (bench/) is not the product's: nothing may be imported from it.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

import asyncio  # (after the path fix: nothing below may come from bench/)
import contextvars
import json
import logging
import signal
import time
from typing import Any

_ATTEMPTS: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar("capacity_attempts", default=None)


class TokenWaits:
    """How long each REST call of the bot waited for the token: from the call into discord.py's
    ``HTTPClient.request`` to the moment its last HTTP attempt asks for a connection (after discord.py's global
    lock, its sleeps after each 429, and the product's own pacing, which aiohttp's request-start trace runs just
    before that). The work around it (the bot's, the fake's, the disk's) is not in it, so this is what the limit
    costs, whatever else keeps the machine busy. Times are time.monotonic(): the same clock in every process."""

    def __init__(self) -> None:
        self.calls: list[tuple[int | None, float, float]] = []  # (channel id, called at, waited)

    def install(self, http: Any) -> None:
        request = http.request
        session = http._HTTPClient__session  # after login: discord.py makes its session there

        async def timed(route: Any, *args: Any, **kwargs: Any) -> Any:
            attempts: list[float] = []
            mark = _ATTEMPTS.set(attempts)
            called = time.monotonic()
            try:
                return await request(route, *args, **kwargs)
            finally:
                _ATTEMPTS.reset(mark)
                if attempts:
                    channel = route.channel_id
                    self.calls.append((int(channel) if channel is not None else None, called,
                                       attempts[-1] - called))

        connector = session.connector
        connect = connector.connect

        async def attempt(*args: Any, **kwargs: Any) -> Any:
            attempts = _ATTEMPTS.get()
            if attempts is not None:  # interaction answers use the same session, outside HTTPClient.request
                attempts.append(time.monotonic())
            return await connect(*args, **kwargs)

        http.request = timed
        connector.connect = attempt


class _Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class Instruments:
    def __init__(self, report: str, profile: str | None) -> None:
        self.report, self.profile_path = report, profile
        self.waits = TokenWaits()
        self.ticks: list[float] = []
        self.counter = _Count()
        self.started: tuple[float, float, int] | None = None  # (monotonic, process time, warnings so far)
        self.profiler: Any = None
        self.pacer: Any = None  # the product's own pace (bot/http_pacing.py; older trees have none)
        self.paced_window = 0.0

    def attach(self, bot: Any) -> None:
        """After login (discord.py's session exists; run_bot has configured logging)."""
        self.waits.install(bot.http)
        # Lifted while the tables are opened, as the fake's limit is (a window of 0 never holds a request).
        self.pacer = getattr(bot, "pacer", None)
        if self.pacer is not None:
            self.paced_window, self.pacer.window = self.pacer.window, 0.0
        logging.getLogger("discord.http").setLevel(logging.ERROR)  # a warning for every 429 it retries
        for name in ("bot", "cogs", "storage"):
            logging.getLogger(name).addHandler(self.counter)
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, self.start)
        loop.add_signal_handler(signal.SIGUSR2, self.dump)
        self.ticker = loop.create_task(self.tick())

    async def tick(self) -> None:
        loop = asyncio.get_running_loop()
        parent = os.getppid()
        while True:
            before = loop.time()
            await asyncio.sleep(0.01)
            if os.getppid() != parent:  # the harness is gone (killed): no bot may outlive it
                os._exit(1)
            if self.started is not None:
                self.ticks.append(loop.time() - before - 0.01)

    def start(self) -> None:
        self.started = (time.monotonic(), time.process_time(), self.counter.count)
        if self.pacer is not None:  # from a clean slate, as the fake's new limit counts
            self.pacer.forget()  # the opening's last sends, unpaced: they would hold the first second up
            self.pacer.window = self.paced_window
        if self.profile_path:
            import cProfile

            self.profiler = cProfile.Profile()
            self.profiler.enable()

    def dump(self) -> None:
        if self.profiler is not None:
            self.profiler.disable()
            self.profiler.dump_stats(self.profile_path)
        began, cpu, warned = self.started or (time.monotonic(), time.process_time(), self.counter.count)
        import bot

        data = {"bot": os.path.dirname(os.path.abspath(bot.__file__)),
                "wall": time.monotonic() - began, "cpu": time.process_time() - cpu,
                "warnings": self.counter.count - warned, "ticks": self.ticks,
                "calls": [c for c in self.waits.calls if c[1] >= began]}
        with open(self.report + ".tmp", "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.replace(self.report + ".tmp", self.report)


def compress(factor: float, epoch: float, origin: float) -> None:
    """The bot's clock runs ``factor`` times faster than the wall from (epoch, origin), its timers fire on it."""
    from bot import client
    from bot.core import timers

    class CompressedClock:
        def now(self) -> float:
            return epoch + (time.monotonic() - origin) * factor

    class CompressedScheduler(timers.Scheduler):
        # The scheduler arms loop timers (call_at) in the current product, sleeping tasks in older ones.
        if hasattr(timers.Scheduler, "_sleep_then_run"):
            async def _sleep_then_run(self, key: Any, when: float, callback: Any) -> None:
                await asyncio.sleep(max(0.0, (when - self.clock.now()) / factor))
                if self._timers.get(key) is not None and self._timers[key].callback is callback:
                    del self._timers[key]
                await self._run(key, callback)
        else:
            def schedule(self, key: Any, when: float, callback: Any) -> None:
                self.cancel(key)
                loop = asyncio.get_running_loop()
                timer = timers._Timer(when, callback)
                delay = max(0.0, (when - self.clock.now()) / factor)
                timer.handle = loop.call_at(loop.time() + delay, self._due, key, timer)
                self._timers[key] = timer

    made = client.NumberBot.__init__

    def init(self: Any, settings: Any, store: Any = None, **kwargs: Any) -> None:
        clock = CompressedClock()
        made(self, settings, store, **(kwargs | {"clock": clock}))
        self.scheduler = CompressedScheduler(clock)  # before login: the cogs take it in setup_hook

    client.NumberBot.__init__ = init  # type: ignore[method-assign]


def main() -> int:
    import discord

    from bot.__main__ import main as bot_main

    instruments = Instruments(os.environ["CAPACITY_REPORT"], os.environ.get("CAPACITY_PROFILE") or None)
    factor = float(os.environ.get("CAPACITY_FACTOR", "1"))
    if factor != 1.0:
        compress(factor, float(os.environ["CAPACITY_EPOCH"]), float(os.environ["CAPACITY_ORIGIN"]))
    login = discord.Client.login

    async def logged_in(self: Any, token: str) -> None:
        await login(self, token)
        instruments.attach(self)

    discord.Client.login = logged_in  # type: ignore[method-assign]
    return bot_main([])


if __name__ == "__main__":
    sys.exit(main())
