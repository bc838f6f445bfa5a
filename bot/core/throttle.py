"""Per-user reply throttling: a burst of messages gets a few answers, then one answer with the latest news.

Discord rate-limits every bot; a player hammering the DM box must not make the bot spend its budget (or
crash). Nothing is dropped from the game itself: only the replies are held back, and the newest one is
sent when the window frees, so the player always learns the final state.
"""

import time
from collections import deque
from collections.abc import Callable, Hashable


class ReplyThrottle:
    """Counts real seconds (Discord's limits run on wall time, not on a game's clock)."""

    def __init__(self, *, burst: int = 3, window: float = 5.0, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self.burst = burst
        self.window = window
        self._sent: dict[Hashable, deque[float]] = {}
        self._held: dict[Hashable, str] = {}

    def allow(self, key: Hashable) -> bool:
        """Record a reply for ``key`` now if the window has room; False means hold it back."""
        now = self.now()
        sent = self._sent.setdefault(key, deque())
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) < self.burst:
            sent.append(now)
            return True
        return False

    def hold(self, key: Hashable, text: str) -> float:
        """Keep ``text`` as the newest held reply; returns the seconds until the window frees for ``key``."""
        self._held[key] = text
        sent = self._sent[key]
        return max(0.0, sent[0] + self.window - self.now())

    def release(self, key: Hashable) -> str | None:
        """The newest held reply, if any (call when the window has freed)."""
        text = self._held.pop(key, None)
        if text is not None:
            self._sent.setdefault(key, deque()).append(self.now())
        return text
