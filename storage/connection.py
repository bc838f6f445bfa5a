"""What every SQLite connection holder here shares: its life cycle and guarded access."""

from typing import Self

import aiosqlite


class ConnectionHolder:
    """Owns one aiosqlite connection, opened by the subclass's ``open`` and closed here."""

    what = "the database connection"  # for the error when used before ``open``

    def __init__(self) -> None:
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError(f"{self.what} is not open")
        return self._db
