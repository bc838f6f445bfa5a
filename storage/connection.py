"""What every SQLite connection holder here shares: its life cycle and guarded access."""

import aiosqlite

from .holder import Holder


class ConnectionHolder(Holder):
    """Owns one aiosqlite connection, opened by the subclass's ``open`` and closed here."""

    what = "the database connection"  # for the error when used before ``open``

    def __init__(self) -> None:
        self._db: aiosqlite.Connection | None = None

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        return self._opened(self._db)
