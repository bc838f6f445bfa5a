"""Pace the token's REST requests under Discord's global limit, counted until Discord has seen them, by priority.

Discord lets a bot token make 50 requests per second across its API; interaction callbacks and webhook routes
(which interaction followups use) are exempt. discord.py only reacts to the limit: after a global 429 it holds
every request and retries the refused one. Discord bans for a while a client that makes 10,000 invalid
(401/403/429) requests in 10 minutes, so the bot must not rely on 429s: at most ``requests`` counted requests
reach Discord in any sliding ``window`` seconds (48 per 1 s by default, a margin below the limit).

Counted when they reach Discord. A request is admitted in aiohttp's ``on_request_start`` hook (discord.py's
``http_trace`` option), before it takes a connection; but after that it still awaits a connection and a busy
event loop's turns before its headers leave, and then the network, before Discord's counter sees it: requests
admitted a second apart can reach Discord together. Each admitted request therefore holds a slot from its
admission *until its answer is back and a window has passed since* (``on_request_end``, or
``on_request_exception`` if it failed): Discord counted it at some moment in between. A request is admitted
only while fewer than ``requests`` slots are in flight or answered within the last window. Then whatever the
delays, any ``requests + 1`` requests that Discord counts within one window would include one admitted last,
at a moment when each of the other ``requests`` was in flight or answered less than a window before (its
answer came after Discord counted it, inside that window): it could not have been admitted. The price is a
round trip per slot: a token sends at most ``requests`` per ``window`` plus one round trip. discord.py's
retries (after a 429 or a 5xx, inside ``HTTPClient.request``) are new aiohttp requests: each is admitted and
counted the same.
Interaction callbacks and followups use the same aiohttp session (discord.py's webhook adapter), so the hook
tells them apart by URL, as Discord does, and never delays them; the gateway and the CDN are not under the API's
base URL.

Priorities. Requests waiting for a slot leave in order of :data:`URGENT` before :data:`BACKGROUND`, then in
arrival order. What a player waits for (a turn message, a reveal, the answer to their own action) is urgent,
the default; join DMs, reminders and statistics say ``with background():`` around their sends (a context
variable: the tasks they start inherit it).

Several processes on one token (shards): each process also takes a ticket from a pool shared through the
database they share (storage/pace.py), so together they send at most ``requests`` per window with no setting to
split. A proxy that paces them all: GLOBAL_REQUESTS_PER_WINDOW=0.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Protocol, TypeVar

import aiohttp
import discord
import yarl

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")  # under the API's base URL; Discord's own exemptions
URGENT, BACKGROUND = 0, 1  # lower goes first
_priority: ContextVar[int] = ContextVar("rest_priority", default=URGENT)
T = TypeVar("T")
log = logging.getLogger(__name__)


@contextlib.contextmanager
def background() -> Iterator[None]:
    """The requests made inside (and by the tasks started inside) wait behind every urgent one."""
    token = _priority.set(BACKGROUND)
    try:
        yield
    finally:
        _priority.reset(token)


async def in_background(work: Awaitable[T]) -> T:
    """Await ``work`` with its requests in the background (a timer's callback: ``lambda: in_background(...)``)."""
    with background():
        return await work


def priority() -> int:
    return _priority.get()


def counted(url: yarl.URL) -> bool:
    """Whether Discord counts a request to ``url`` against the token's global limit."""
    base = discord.http.Route.BASE  # read each time: bot.run.point_discord_at and the test fake move it
    text = str(url)
    return text.startswith(base) and not text[len(base):].startswith(EXEMPT_PREFIXES)


class SharedTickets(Protocol):
    """The token's budget shared by several processes (storage/pace.py): ``requests`` tickets, each used at most
    once per window at the wire."""

    async def take(self) -> tuple[int | None, float]:
        """(a ticket, 0), or (None, seconds to wait before asking again)."""

    async def stamp(self, ticket: int) -> None:
        """The request holding ``ticket`` is answered now (or failed)."""

    async def close(self) -> None: ...


@dataclass(slots=True)
class Admission:
    ticket: int | None  # the shared ticket, when processes share the token


class GlobalPacer:
    """At most ``requests`` requests leave in any ``window`` seconds; waiting ones go by priority, then in order.

    ``window`` 0 lifts the pace (a harness that opens tables unpaced, then restores it)."""

    POLL = 0.01  # seconds between asks when every ticket is in flight in another process (it tells us nothing)

    def __init__(self, requests: int, window: float, clock: Callable[[], float] = time.monotonic,
                 shared: SharedTickets | None = None) -> None:
        if requests < 1 or window <= 0:
            raise ValueError("a global pace needs requests >= 1 and a window > 0")
        self.requests, self.window, self.clock, self.shared = requests, window, clock, shared
        # Background requests may use all but these slots of a window: an urgent one finds a slot at once even
        # while a backlog of DMs keeps the pace saturated (otherwise it could wait up to a window for one).
        self.reserve = requests // 6 if requests >= 6 else 0
        self._answered: deque[float] = deque()  # when the requests of the last window were answered, oldest first
        self._in_flight = 0  # admitted, not answered yet
        self._queue: list[tuple[int, int, asyncio.Future[Admission]]] = []
        self._seq = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()  # a request was answered: a slot may free sooner than the clock says
        self._stamping: set[asyncio.Task[None]] = set()
        self.waited = 0  # requests that had to queue (for tests)
        self.sent = 0  # requests answered
        self.busiest = 0  # the most requests answered within one window (sliding), as counted here
        self.longest_wait = {URGENT: 0.0, BACKGROUND: 0.0}  # the longest wait for a slot, per rank (seconds)

    def forget(self) -> None:
        """Start from an empty log, as if nothing had been sent (a harness that lifted the pace, then restores it)."""
        self._answered.clear()
        self._in_flight = 0

    def waiting(self, rank: int) -> int:
        """How many requests of ``rank`` wait for a slot."""
        return sum(1 for queued, _, future in self._queue if queued == rank and not future.done())

    def _local_wait(self, rank: int) -> float | None:
        """0 when a slot is free now for ``rank``; else seconds until one frees, or None when every slot it may
        use is in flight."""
        now = self.clock()
        while self._answered and self._answered[0] <= now - self.window:
            self._answered.popleft()
        usable = self.requests - (self.reserve if rank != URGENT else 0)
        used = self._in_flight + len(self._answered)
        if used < usable:
            return 0.0
        # the slot that frees next for this rank: the answered one that leaves the window after enough others
        index = used - usable
        return self._answered[index] + self.window - now if index < len(self._answered) else None

    async def admit(self, rank: int = URGENT) -> Admission | None:
        """Wait until one more request may leave; it holds a slot until :meth:`answered` (None: no pace now)."""
        if self.window <= 0:
            return None
        if not self._queue and self.shared is None and self._local_wait(rank) == 0:
            self._in_flight += 1  # the common case: nothing waiting, a slot free
            return Admission(None)
        self.waited += 1
        future: asyncio.Future[Admission] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (rank, next(self._seq), future))
        self._changed.set()  # a dispatcher waiting for a background slot looks again: this one may go sooner
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.get_running_loop().create_task(self._dispatch(), name="REST pace")
        asked = self.clock()
        try:
            admission = await future
            self.longest_wait[rank] = max(self.longest_wait.get(rank, 0.0), self.clock() - asked)
            return admission
        except asyncio.CancelledError:  # admitted, but cancelled before it could use the slot: give it back
            if future.done() and not future.cancelled():
                self._stamp(future.result(), later=True)
            raise

    async def _dispatch(self) -> None:
        while self._queue:
            if self._queue[0][2].done():  # cancelled while waiting (a shutdown)
                heapq.heappop(self._queue)
                continue
            wait = self._local_wait(self._queue[0][0]) if self.window > 0 else 0.0
            ticket = None
            if wait == 0 and self.shared is not None and self.window > 0:
                try:
                    ticket, wait = await self.shared.take()
                except Exception:  # the shared store failed: never strand the waiting requests; ask again soon
                    log.warning("the shared REST pace could not take a ticket; asking again", exc_info=True)
                    ticket, wait = None, self.POLL
                wait = (wait or self.POLL) if ticket is None else 0.0
            if wait != 0:
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), wait)
                continue
            future = heapq.heappop(self._queue)[2] if self._queue else None
            if future is None or future.done():
                if ticket is not None and self.shared is not None:
                    await self.shared.stamp(ticket)  # unused: as if answered now (the safe side)
                continue
            if self.window > 0:
                self._in_flight += 1
            future.set_result(Admission(ticket))

    async def answered(self, admission: Admission) -> None:
        """The admitted request is answered (or failed): Discord has counted it by now; its slot frees a window
        from now."""
        self._stamp(admission)
        if admission.ticket is not None and self.shared is not None:
            try:
                await self.shared.stamp(admission.ticket)
            except Exception:  # the ticket frees itself once stale; the request itself went through
                log.warning("the shared REST pace could not stamp a ticket", exc_info=True)

    def _stamp(self, admission: Admission, *, later: bool = False) -> None:
        if later and admission.ticket is not None and self.shared is not None:
            task = asyncio.get_running_loop().create_task(self.shared.stamp(admission.ticket))
            self._stamping.add(task)
            task.add_done_callback(self._stamping.discard)
        self._in_flight = max(0, self._in_flight - 1)
        now = self.clock()
        self._answered.append(now)
        self.sent += 1
        while self._answered and self._answered[0] <= now - self.window:
            self._answered.popleft()
        self.busiest = max(self.busiest, len(self._answered))
        self._changed.set()


def pacing_trace(pacer: GlobalPacer) -> aiohttp.TraceConfig:
    """An aiohttp trace that admits every counted request through ``pacer`` and stamps it when it is answered."""

    async def before_request(session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: aiohttp.TraceRequestStartParams) -> None:
        context.pace = await pacer.admit(priority()) if counted(params.url) else None

    async def gone(session: aiohttp.ClientSession, context: SimpleNamespace, params: object) -> None:
        admission = getattr(context, "pace", None)
        if admission is not None:
            context.pace = None  # once, whichever comes
            await pacer.answered(admission)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(before_request)
    trace.on_request_end.append(gone)  # the answer's headers are in: Discord has counted the request
    trace.on_request_exception.append(gone)
    return trace


def untraced_session(http: Any) -> aiohttp.ClientSession | None:
    """A second session on discord.py's connection pool (its connector), without the pace's trace, for the
    requests Discord does not count (interaction callbacks and followups, cogs/table/lean.py): aiohttp sends a
    traced session's signals on every request, which the pace only needs on counted ones. None when discord.py's
    session has no trace (no pace: nothing to spare) or no connector to share."""
    connector = getattr(http, "connector", None)
    if getattr(http, "http_trace", None) is None or not isinstance(connector, aiohttp.BaseConnector):
        return None
    return aiohttp.ClientSession(connector=connector, connector_owner=False, cookie_jar=aiohttp.DummyCookieJar())
