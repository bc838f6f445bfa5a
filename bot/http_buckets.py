"""Amortise discord.py's rate-limit bucket clean-up, which otherwise makes opening tables super-linear.

discord.py 2.x (``discord/http.py``; 2.7.1: ``HTTPClient.request`` l. 589 -> ``get_ratelimit`` l. 581)
creates a ``Ratelimit`` for every new bucket key and then calls ``_try_clear_expired_ratelimits`` (l. 573),
which, once 256 or more buckets are tracked, walks *all* of them to drop the ones idle for 5 minutes. A key
is a route and its major parameters (channel, guild, webhook id and token), so every new channel and DM
channel the bot writes to makes one: a bot opening thousands of tables within 5 minutes (when nothing is
idle yet) walks thousands of buckets per new one, and opening N tables costs O(N^2).
(Interaction responses and followups go through discord.py's webhook adapter, which keeps no such map.)

The replacement below keeps the same eviction rule (a bucket idle for 300 s with nothing in flight, as
``Ratelimit.is_inactive`` decides) but only walks the buckets when their number has doubled since the
last walk, so each new bucket costs O(1) amortised and the dict stays within twice its live size.
"""

from typing import Any

from discord.http import HTTPClient

FLOOR = 256  # discord.py's own threshold: below it nothing is ever walked


class AmortisedBucketSweep:
    """A drop-in ``_try_clear_expired_ratelimits`` for one ``HTTPClient``, counting its walks."""

    def __init__(self, http: HTTPClient) -> None:
        self.http = http
        self.next_walk = FLOOR
        self.walks = 0  # for tests: how many times every bucket was looked at

    def __call__(self) -> None:
        buckets: dict[str, Any] = self.http._buckets
        if len(buckets) < self.next_walk:
            return
        self.walks += 1
        for key in [key for key, bucket in buckets.items() if bucket.is_inactive()]:
            del buckets[key]
        self.next_walk = max(FLOOR, 2 * len(buckets))


def amortise_bucket_sweep(http: HTTPClient) -> AmortisedBucketSweep:
    """Install the amortised sweep on ``http`` (an instance attribute: the class and other clients are untouched)."""
    if not hasattr(http, "_buckets") or not callable(getattr(http, "_try_clear_expired_ratelimits", None)):
        raise RuntimeError("discord.py has no HTTPClient._try_clear_expired_ratelimits: review bot/http_buckets.py")
    sweep = AmortisedBucketSweep(http)
    http._try_clear_expired_ratelimits = sweep  # type: ignore[method-assign]
    return sweep
