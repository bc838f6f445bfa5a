"""Deadlines and reminders: one loop timer per key; its callback runs in a task of its own once it is due.

The moments come from the database (a turn's deadline is stored), so after a restart the timers are
simply scheduled again. A timer is a handle on the event loop's clock, not a sleeping task: a restart arms
tens of thousands of them, and a task each would cost a first step each, all in one turn of the loop, while
players' interactions wait behind them. Tests drive time with :meth:`Scheduler.fire_due` and a fake clock.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

from .clock import Clock, SystemClock

log = logging.getLogger(__name__)
Callback = Callable[[], Awaitable[None]]


@dataclass(slots=True)
class _Timer:
    when: float
    callback: Callback
    handle: asyncio.TimerHandle | None = None


class Scheduler:
    def __init__(self, clock: Clock | None = None) -> None:
        self.clock: Clock = clock or SystemClock()
        self._timers: dict[Hashable, _Timer] = {}
        self._running: set[asyncio.Task[None]] = set()  # callbacks under way (the loop keeps only weak refs)

    def schedule(self, key: Hashable, when: float, callback: Callback) -> None:
        """Run ``callback`` at ``when`` (clock seconds); replaces any timer with the same key."""
        self.cancel(key)
        loop = asyncio.get_running_loop()
        timer = _Timer(when, callback)
        timer.handle = loop.call_at(loop.time() + max(0.0, when - self.clock.now()), self._due, key, timer)
        self._timers[key] = timer

    def _due(self, key: Hashable, timer: _Timer) -> None:
        if self._timers.get(key) is timer:  # from here on the key is free: the callback may schedule it again
            del self._timers[key]
        task = asyncio.get_running_loop().create_task(self._run(key, timer.callback), name=f"timer {key!r}")
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    def is_scheduled(self, key: Hashable) -> bool:
        return key in self._timers

    def cancel(self, key: Hashable) -> None:
        timer = self._timers.pop(key, None)
        if timer is not None and timer.handle is not None:
            timer.handle.cancel()

    def cancel_all(self) -> None:
        for key in list(self._timers):
            self.cancel(key)

    async def fire_due(self) -> int:
        """Run now every timer whose moment has come by the clock (tests move a fake clock)."""
        due = sorted((t.when, str(k), k) for k, t in self._timers.items() if t.when <= self.clock.now())
        for _, _, key in due:
            timer = self._timers.pop(key, None)
            if timer is not None:
                if timer.handle is not None:
                    timer.handle.cancel()
                await self._run(key, timer.callback)
        return len(due)

    @staticmethod
    async def _run(key: Hashable, callback: Callback) -> None:
        try:
            await callback()
        except Exception:
            log.exception("timer %r failed", key)
