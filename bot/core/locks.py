"""One asyncio lock per game, so two coroutines never act on the same game at once."""

import asyncio
from collections.abc import Hashable


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}

    def __call__(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def forget(self, key: Hashable) -> None:
        lock = self._locks.get(key)
        if lock is not None and not lock.locked():
            del self._locks[key]
