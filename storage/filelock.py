"""A lock per game shared by every process of one SQLite file: a one-byte POSIX lock at offset ``game_id``
of a side file (``<database>-games.lock``).

The kernel drops a process's locks when it dies, ``kill -9`` included, so a crash never leaves a game
locked. POSIX locks belong to the process, not the caller: an asyncio lock per game keeps two tasks of
this process from sharing one (the second would be let in, and the first unlock would free both).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no cross-process lock, compare-and-set still holds
    fcntl = None  # type: ignore[assignment]


class FileGameLocks:
    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._local: dict[int, asyncio.Lock] = {}

    def open(self) -> None:
        if fcntl is not None and self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # releases every lock this process still holds on the file
            self._fd = None

    @asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[None]:
        local = self._local.setdefault(game_id, asyncio.Lock())
        async with local:
            fd = self._fd
            if fd is None:
                yield
                return
            await _lock(fd, game_id)
            try:
                yield
            finally:
                fcntl.lockf(fd, fcntl.LOCK_UN, 1, game_id)


async def _lock(fd: int, offset: int) -> None:
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
        return
    except OSError:
        pass  # held by another process: wait for it in a thread (the event loop must not block)
    waiting = asyncio.get_running_loop().run_in_executor(None, fcntl.lockf, fd, fcntl.LOCK_EX, 1, offset)
    try:
        await asyncio.shield(waiting)
    except asyncio.CancelledError:
        # The thread still gets the lock later: give it back then, or every other process waits forever.
        waiting.add_done_callback(lambda f: f.cancelled() or f.exception() is not None
                                  or fcntl.lockf(fd, fcntl.LOCK_UN, 1, offset))
        raise
