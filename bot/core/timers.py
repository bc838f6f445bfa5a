"""Deadlines and reminders: one loop timer per key; its callback runs in a task of its own once it is due.

The moments come from the database (a turn's deadline is stored), so after a restart the timers are
simply scheduled again. A timer is a handle on the event loop's clock, not a sleeping task: a restart arms
tens of thousands of them, and a task each would cost a first step each, all in one turn of the loop, while
players' interactions wait behind them. Tests drive time with :meth:`Scheduler.fire_due` and a fake clock.

Timers that fall due together (ten thousand games opened in the same second, so with the same deadlines) do
not start together either: a due timer joins the ready queue, whose callbacks start in order, at most
``due_at_once`` under way at a time, so one turn of the loop runs only a handful of them and players'
interactions get their turns in between (a task each, started together, would hold the loop for seconds).

A timer whose moment has already passed when it is armed (a restart after a long downtime finds every
deadline past) is overdue: it joins the backlog, which runs oldest first, a few callbacks at a time and at
most ``overdue_rate`` started a second, each start after the loop has had a turn and after the players'
interactions under way (:meth:`Scheduler.foreground`). Ten thousand deadlines all due at once would
otherwise start together: the loop blocked for seconds, the database's queue ten thousand steps deep ahead
of every interaction, and their posts dumped on Discord's global limit (50 requests a second) so that
discord.py holds every other request of the bot behind the 429s.
"""

import asyncio
import contextlib
import gc
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable, Iterator
from dataclasses import dataclass

from .clock import Clock, SystemClock

log = logging.getLogger(__name__)
Callback = Callable[[], Awaitable[None]]
# An overdue deadline after a restart costs three REST calls (reading the turn message found in the channel,
# closing it, posting the next): 12 a second keep the backlog at 36 of Discord's 50 requests a second, the
# rest for the players' own calls (measured by bench.restart: 20 a second drew 429s).
OVERDUE_RATE = 12.0
# Overdue callbacks under way at once: enough to overlap one's database round trips with another's
# posts, few enough that an interaction's query never waits behind more than a handful of them.
OVERDUE_AT_ONCE = 4
# Due callbacks under way at once: a turn of the loop runs at most this many of their steps.
DUE_AT_ONCE = 16
# During a burst of due timers, every this many starts the heap built so far leaves the cyclic collector's full
# passes (gc.freeze): each callback loads a game that stays cached, and ten thousand of them would otherwise be
# walked by every full pass, which holds the loop for hundreds of milliseconds at a time. The young generations
# are collected first, so only cyclic garbage already old is kept (games, folds and timers hold no cycles).
FREEZE_EVERY = 256
# The backlog waits for interactions under way at most this long (seconds), so a steady stream of them
# cannot starve it.
FOREGROUND_WAIT = 1.0


@dataclass(slots=True)
class _Timer:
    when: float
    callback: Callback
    handle: asyncio.TimerHandle | None = None


class Scheduler:
    def __init__(self, clock: Clock | None = None, *, overdue_rate: float = OVERDUE_RATE,
                 overdue_at_once: int = OVERDUE_AT_ONCE, due_at_once: int = DUE_AT_ONCE) -> None:
        self.clock: Clock = clock or SystemClock()
        self.due_at_once = due_at_once
        self._ready: dict[Hashable, _Timer] = {}  # due, not started yet, in the order they fell due
        self._starting: asyncio.Task[None] | None = None
        self.overdue_rate = overdue_rate
        self.overdue_at_once = overdue_at_once
        self._timers: dict[Hashable, _Timer] = {}
        self._running: set[asyncio.Task[None]] = set()  # callbacks under way (the loop keeps only weak refs)
        # Overdue timers not yet started: the dict says which are still wanted (a cancel or a new schedule
        # replaces them), the heap orders them oldest first (its stale entries are skipped when popped).
        self._backlog: dict[Hashable, _Timer] = {}
        self._order: list[tuple[float, int, Hashable, _Timer]] = []
        self._seq = itertools.count()
        self._draining: asyncio.Task[None] | None = None
        self._foreground = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def schedule(self, key: Hashable, when: float, callback: Callback) -> None:
        """Run ``callback`` at ``when`` (clock seconds); replaces any timer with the same key."""
        self.cancel(key)
        timer = _Timer(when, callback)
        delay = when - self.clock.now()
        if delay <= 0:
            self._overdue(key, timer)
            return
        loop = asyncio.get_running_loop()
        timer.handle = loop.call_at(loop.time() + delay, self._due, key, timer)
        self._timers[key] = timer

    def _due(self, key: Hashable, timer: _Timer) -> None:
        if self._timers.get(key) is timer:  # from here on the key is free: the callback may schedule it again
            del self._timers[key]
        self._ready[key] = timer
        if self._starting is None or self._starting.done():
            self._starting = asyncio.get_running_loop().create_task(self._start_ready(), name="due timers")

    async def _start_ready(self) -> None:
        """Start the due callbacks in order, at most ``due_at_once`` under way (the loop runs others between)."""
        slots = asyncio.Semaphore(self.due_at_once)
        started = 0
        while self._ready:
            await slots.acquire()
            if not self._ready:  # cancelled meanwhile
                slots.release()
                break
            started += 1
            if started % FREEZE_EVERY == 0:
                gc.collect(1)
                gc.freeze()
            key = next(iter(self._ready))
            self._start(key, self._ready.pop(key)).add_done_callback(lambda _: slots.release())

    def _start(self, key: Hashable, timer: _Timer) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(self._run(key, timer.callback), name=f"timer {key!r}")
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return task

    def _overdue(self, key: Hashable, timer: _Timer) -> None:
        self._backlog[key] = timer
        heapq.heappush(self._order, (timer.when, next(self._seq), key, timer))
        if self._draining is None or self._draining.done():
            self._draining = asyncio.get_running_loop().create_task(self._drain(), name="overdue timers")

    def _next_overdue(self) -> tuple[Hashable, _Timer] | None:
        while self._order:
            _, _, key, timer = heapq.heappop(self._order)
            if self._backlog.get(key) is timer:
                del self._backlog[key]
                return key, timer
        return None

    async def _drain(self) -> None:
        """Start the backlog's callbacks oldest first: a few at once, paced, each after the loop had a turn."""
        loop = asyncio.get_running_loop()
        slots = asyncio.Semaphore(self.overdue_at_once)
        start_at = loop.time()
        while self._backlog:
            await slots.acquire()
            # the pace, and a turn of the loop before each start (the players' requests in between)
            await asyncio.sleep(max(0.0, start_at - loop.time()))
            if not self._idle.is_set():  # behind the interactions under way (bounded: no starvation)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._idle.wait(), FOREGROUND_WAIT)
            found = self._next_overdue()
            if found is None:
                slots.release()
                break
            start_at = max(start_at, loop.time()) + 1.0 / self.overdue_rate
            self._start(*found).add_done_callback(lambda _: slots.release())

    def overdue(self) -> int:
        """How many overdue timers wait for their turn (not yet started)."""
        return len(self._backlog)

    @contextlib.contextmanager
    def foreground(self) -> Iterator[None]:
        """Work a person waits for (an interaction): while any is under way the backlog starts nothing new."""
        self._foreground += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._foreground -= 1
            if not self._foreground:
                self._idle.set()

    def is_scheduled(self, key: Hashable) -> bool:
        return key in self._timers or key in self._backlog or key in self._ready

    def cancel(self, key: Hashable) -> None:
        self._ready.pop(key, None)
        if self._backlog.pop(key, None) is not None and len(self._order) > 2 * len(self._backlog) + 64:
            # mostly cancelled entries (games that ended meanwhile): keep only the live ones
            self._order = [entry for entry in self._order if self._backlog.get(entry[2]) is entry[3]]
            heapq.heapify(self._order)
        timer = self._timers.pop(key, None)
        if timer is not None and timer.handle is not None:
            timer.handle.cancel()

    def cancel_all(self) -> None:
        for key in list(self._timers):
            self.cancel(key)
        self._backlog.clear()
        self._order.clear()
        self._ready.clear()
        for task in (self._draining, self._starting):
            if task is not None:
                task.cancel()

    async def fire_due(self) -> int:
        """Run now every timer whose moment has come by the clock, the backlog's included (tests move a fake
        clock)."""
        now = self.clock.now()
        due = sorted((t.when, str(k), k) for k, t in [*self._timers.items(), *self._backlog.items(),
                                                      *self._ready.items()] if t.when <= now)
        for _, _, key in due:
            timer = self._timers.pop(key, None) or self._backlog.pop(key, None) or self._ready.pop(key, None)
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
