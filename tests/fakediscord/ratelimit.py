"""Discord's global rate limit, as an option of the fake (``FakeDiscord.limit_globally``; off by default).

Discord lets one bot token make at most 50 requests per second over its whole API; interaction callbacks
(``/interactions/...``) and webhook routes, which interaction followups use (``/webhooks/...``), are exempt.
An excess request is refused with 429 and a body ``{"message", "retry_after", "global": true}``; discord.py
then holds every new request of the client (its global lock) and retries the refused one after
``retry_after`` (up to 5 tries in all, then it raises). It retries only a 429 that carries a ``Via`` header:
without one it takes the answer for a Cloudflare ban.

By default the limit is counted in fixed windows of ``window`` seconds per token, starting at the token's first
request (a fixed window lets a full burst through at each window's start, which is the kinder reading).
``sliding=True`` counts it as Discord is seen to: at most ``requests`` in *any* ``window`` seconds, so two
bunched bursts astride a fixed window's edge are refused too (the strict reading; the pace is checked against
it). Either way a refused request does not count, and ``busiest`` is the most requests let through in one
window (any sliding one in the sliding mode). ``requests`` and ``window`` are options so a
time-compressed simulation can scale the window with its clock (50 requests per 1/K s for K-times faster
turns).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

GLOBAL_REQUESTS = 50
GLOBAL_WINDOW = 1.0
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
MESSAGE = "You are being rate limited."


@dataclass
class GlobalRateLimit:
    """Fixed- or sliding-window counter per bot token (the Authorization header)."""

    requests: int = GLOBAL_REQUESTS
    window: float = GLOBAL_WINDOW
    clock: Callable[[], float] = time.monotonic
    sliding: bool = False
    busiest: int = 0  # the most requests let through in one window
    accepted: int = 0  # requests counted against the limit and let through
    limited: int = 0  # requests refused with a global 429
    windows: int = 0  # windows over (every token's, empty ones between its requests included)
    full_windows: int = 0  # of which this many reached the limit
    _windows: dict[str, tuple[float, int]] = field(default_factory=dict)
    _logs: dict[str, deque[float]] = field(default_factory=dict)  # sliding: the token's accepted times, last window

    def __post_init__(self) -> None:
        if self.requests < 1 or self.window <= 0:
            raise ValueError("a global rate limit needs requests >= 1 and a window > 0")

    @staticmethod
    def exempt(path: str) -> bool:
        return path.startswith(EXEMPT_PREFIXES)

    def check(self, token: str, path: str) -> float | None:
        """None when the request may go (it is counted); else the seconds until the token's window ends."""
        if self.exempt(path):
            return None
        now = self.clock()
        if self.sliding:
            return self._check_sliding(token, now)
        start, count = self._windows.get(token, (now, 0))
        if now >= start + self.window:  # a later window: move the start by whole windows
            passed = math.floor((now - start) / self.window)
            self.windows += passed
            self.full_windows += count >= self.requests
            start += passed * self.window
            count = 0
        if count >= self.requests:
            self.limited += 1
            self._windows[token] = (start, count)
            # Rounded up to the millisecond: a retry exactly at the boundary must land in the next window.
            return max(0.001, math.ceil((start + self.window - now) * 1000) / 1000)
        self._windows[token] = (start, count + 1)
        self.accepted += 1
        self.busiest = max(self.busiest, count + 1)
        return None

    def _check_sliding(self, token: str, now: float) -> float | None:
        log = self._logs.setdefault(token, deque())
        while log and log[0] <= now - self.window:
            log.popleft()
        if len(log) >= self.requests:
            self.limited += 1
            # when the oldest of the window leaves it, rounded up to the millisecond as above
            return max(0.001, math.ceil((log[0] + self.window - now) * 1000) / 1000)
        log.append(now)
        self.accepted += 1
        self.busiest = max(self.busiest, len(log))
        return None

    @staticmethod
    def refusal(retry_after: float) -> tuple[dict[str, Any], dict[str, str]]:
        """Discord's answer to a request over the global limit: (JSON body, headers)."""
        body = {"message": MESSAGE, "retry_after": retry_after, "global": True}
        headers = {"Retry-After": str(max(1, math.ceil(retry_after))), "X-RateLimit-Global": "true",
                   "X-RateLimit-Scope": "global", "Via": "1.1 google"}
        return body, headers
