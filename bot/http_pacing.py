"""Pace the bot token's requests under Discord's global rate limit instead of collecting 429s.

Discord lets a bot token make 50 requests per second across its API; interaction callbacks and webhook routes
(which interaction followups use) are exempt. discord.py only reacts to the limit: after a global 429 it holds
every request and retries the refused one. Discord bans for a while a client that makes 10,000 invalid
(401/403/429) requests in 10 minutes, so the bot must not rely on 429s: it sends at most ``requests`` counted
requests in any ``window`` seconds (48 per 1 s by default: a margin for the skew between our clock and
Discord's, and for requests that reach Discord's counter unevenly late). A sliding log of the last
``requests`` send times guarantees that for every sliding window, hence for every fixed window too, whichever
of the two Discord counts in. Each request looks at the log's oldest entry only, and the requests that must
wait queue in arrival order.

The pacer sits in aiohttp's ``on_request_start`` trace hook (discord.py's ``http_trace`` option), which aiohttp
awaits before each HTTP attempt takes a connection. A wrapper around ``HTTPClient.request`` would count a
request when it is made, but discord.py may then hold it behind its route's bucket and send it later, together
with requests counted after it, and it retries after a 429 or a 5xx inside ``request``, unseen: the hook counts
every attempt at the moment it leaves. Interaction callbacks and followups use the same aiohttp session
(discord.py's webhook adapter), so the hook tells them apart by URL, as Discord does, and never delays them.
The gateway's websocket and the CDN are not under the API's base URL, so they are not counted either. The wait
uses up part of aiohttp's 5-minute total timeout of the request (discord.py sets none of its own): only a
backlog of some 14,000 requests would leave a request too little of it.

Several processes on one token (shards) share Discord's limit: each must get its share of it, or none at all
behind a rate-limit proxy that paces them together (GLOBAL_REQUESTS_PER_WINDOW, bot/settings.py).
"""

import asyncio
import time
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp
import discord
import yarl

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")  # under the API's base URL; Discord's own exemptions


def counted(url: yarl.URL) -> bool:
    """Whether Discord counts a request to ``url`` against the token's global limit."""
    base = discord.http.Route.BASE  # read each time: bot.run.point_discord_at and the test fake move it
    text = str(url)
    return text.startswith(base) and not text[len(base):].startswith(EXEMPT_PREFIXES)


class GlobalPacer:
    """At most ``requests`` sends in any ``window`` seconds, in the order they asked."""

    def __init__(self, requests: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        if requests < 1 or window <= 0:
            raise ValueError("a global pace needs requests >= 1 and a window > 0")
        self.requests, self.window, self.clock = requests, window, clock
        self._sent: deque[float] = deque(maxlen=requests)  # the last ``requests`` send times, oldest first
        self._turn = asyncio.Lock()  # FIFO: a request that finds it taken queues behind the ones waiting
        self.waited = 0  # sends that had to wait for the window (for tests)

    def forget(self) -> None:
        """Start from an empty log, as if nothing had been sent (a harness that lifted the pace, then restores it)."""
        self._sent.clear()

    async def send(self) -> None:
        """Return when one more request may leave now; it is then counted as sent."""
        async with self._turn:
            if len(self._sent) == self.requests and self._sent[0] + self.window > self.clock():
                self.waited += 1
                # The oldest of the last R sends must be a window old; asyncio may wake a hair early: check again.
                while (delay := self._sent[0] + self.window - self.clock()) > 0:
                    await asyncio.sleep(delay)
            self._sent.append(self.clock())


def pacing_trace(pacer: GlobalPacer) -> aiohttp.TraceConfig:
    """An aiohttp trace that makes every counted request wait for ``pacer`` before it leaves."""

    async def before_request(session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: aiohttp.TraceRequestStartParams) -> None:
        if counted(params.url):
            await pacer.send()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(before_request)
    return trace
