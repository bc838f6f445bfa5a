"""One asyncio lock per game, so two coroutines never act on the same game at once (and, with a store
shared by processes, one lock across them: see GameLocks)."""

import asyncio
from collections.abc import Callable, Hashable
from contextlib import AbstractAsyncContextManager
from typing import Any


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


class GameLocks(KeyedLocks):
    """The lock of a game in this process and, inside it, the store's lock of the game across processes.

    A store shared by processes (shards) yields the game's stored version under its lock; when that is not
    the version this process left the game at, another process changed it and ``on_stale`` drops the
    cached game, so nothing is decided on a stale cache. A store of one process yields None: no check.
    """

    def __init__(self, store: Any, on_stale: Callable[[int], None]) -> None:
        super().__init__()
        self.store = store
        self.on_stale = on_stale
        self.seen: dict[Hashable, Any] = {}  # the stored version when this process last let go

    def __call__(self, key: Hashable) -> "HeldGame":  # type: ignore[override]
        return HeldGame(self, key, super().__call__(key))

    def forget(self, key: Hashable) -> None:
        super().forget(key)
        self.seen.pop(key, None)

    def store_lock(self) -> Callable[[int], AbstractAsyncContextManager[Any]] | None:
        """The store's lock of a game against other processes; None when it takes none (a store of one process,
        ``locks_games`` False, asked each time since a store knows once opened: its cache is the truth)."""
        store_lock = getattr(self.store, "game_lock", None)
        says = getattr(self.store, "locks_games", None)
        return None if store_lock is None or (callable(says) and not says()) else store_lock

    async def refresh(self, key: int) -> None:
        """Before a read outside the lock: drop the cached game if another process changed it since this
        one last looked (nothing to do for a store of one process, or while this process holds the game)."""
        store_lock = self.store_lock()
        if store_lock is None or super().__call__(key).locked():
            return
        async with store_lock(key) as version:
            if version is not None and self.seen.get(key) != version:
                self.on_stale(key)
                self.seen[key] = version  # any load from now on is at least this new


class HeldGame:
    """``async with locks(game_id)``: this process's lock, then the store's (see :class:`GameLocks`)."""

    def __init__(self, owner: GameLocks, key: Hashable, local: asyncio.Lock) -> None:
        self.owner, self.key, self.local = owner, key, local
        self._store: AbstractAsyncContextManager[Any] | None = None
        self._entered: Any = None  # the stored version when the lock was taken

    def locked(self) -> bool:
        return self.local.locked()

    async def __aenter__(self) -> None:
        await self.local.acquire()
        try:
            store_lock = self.owner.store_lock()
            if store_lock is None or not isinstance(self.key, int):
                return  # one process: its cache is the truth (as the store's lock would yield None)
            held = store_lock(self.key)
            version = await held.__aenter__()
            if version is None:  # one process: no lock was taken
                await held.__aexit__(None, None, None)
                return
            self._store = held
            self._entered = version
            if self.owner.seen.get(self.key) != version:
                self.owner.on_stale(self.key)  # type: ignore[arg-type]
                self.owner.seen[self.key] = version
        except BaseException:
            self.local.release()
            raise

    async def __aexit__(self, kind: Any, error: Any, trace: Any) -> None:
        try:
            held, self._store = self._store, None
            if held is not None:
                try:
                    self.owner.seen.pop(self.key, None)  # if the version cannot be read: check afresh next time
                    if kind is None:  # still under the lock: what this process leaves the game at
                        left = await self.owner.store.game_version(self.key)
                        # unless another process recorded its turn message meanwhile (that write takes no game
                        # lock): the cache lacks it, and the next lock must load it
                        if not _message_changed(self._entered, left):
                            self.owner.seen[self.key] = left
                finally:
                    await held.__aexit__(kind, error, trace)
        finally:
            self.local.release()


def _message_changed(entered: Any, left: Any) -> bool:
    """The turn message stored changed at one step: only another process's ``set_message`` does that (a step
    resolved here changes the step too)."""
    return (entered is not None and getattr(entered, "phase", None) == getattr(left, "phase", None)
            and getattr(entered, "status_message_id", None) != getattr(left, "status_message_id", None))
