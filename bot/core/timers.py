"""Deadlines and reminders: one asyncio task per key, each sleeping until its moment.

The moments come from the database (a turn's deadline is stored), so after a restart the timers are
simply scheduled again. Tests drive time with :meth:`Scheduler.fire_due` and a fake clock.
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
    task: asyncio.Task[None]


class Scheduler:
    def __init__(self, clock: Clock | None = None) -> None:
        self.clock: Clock = clock or SystemClock()
        self._timers: dict[Hashable, _Timer] = {}

    def schedule(self, key: Hashable, when: float, callback: Callback) -> None:
        """Run ``callback`` at ``when`` (clock seconds); replaces any timer with the same key."""
        self.cancel(key)
        task = asyncio.create_task(self._sleep_then_run(key, when, callback), name=f"timer {key!r}")
        self._timers[key] = _Timer(when, callback, task)

    def is_scheduled(self, key: Hashable) -> bool:
        return key in self._timers

    def cancel(self, key: Hashable) -> None:
        timer = self._timers.pop(key, None)
        if timer is not None and timer.task is not asyncio.current_task():
            timer.task.cancel()

    def cancel_all(self) -> None:
        for key in list(self._timers):
            self.cancel(key)

    async def fire_due(self) -> int:
        """Run now every timer whose moment has come by the clock (tests move a fake clock)."""
        due = sorted((t.when, str(k), k) for k, t in self._timers.items() if t.when <= self.clock.now())
        for _, _, key in due:
            timer = self._timers.pop(key, None)
            if timer is not None:
                timer.task.cancel()
                await self._run(key, timer.callback)
        return len(due)

    async def _sleep_then_run(self, key: Hashable, when: float, callback: Callback) -> None:
        await asyncio.sleep(max(0.0, when - self.clock.now()))
        if self._timers.get(key) is not None and self._timers[key].callback is callback:
            del self._timers[key]
        await self._run(key, callback)

    @staticmethod
    async def _run(key: Hashable, callback: Callback) -> None:
        try:
            await callback()
        except Exception:
            log.exception("timer %r failed", key)
