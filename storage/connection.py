"""What every SQLite connection holder here shares: its life cycle and guarded access."""

import aiosqlite

from .holder import Holder


class ConnectionHolder(Holder):
    """Owns one aiosqlite connection, opened by the subclass's ``open`` and closed here."""

    what = "the database connection"  # for the error when used before ``open``

    def __init__(self) -> None:
        self._db: aiosqlite.Connection | None = None

    async def close(self) -> None:
        # taken first: a second close while this one waits (a bot closing itself while its runner closes it
        # too) finds nothing to close, instead of waiting forever on a connection thread already stopped
        db, self._db = self._db, None
        if db is not None:
            await db.close()

    @property
    def db(self) -> aiosqlite.Connection:
        return self._opened(self._db)
