"""What every holder of a database handle here shares (an aiosqlite connection or an asyncpg pool): opened
by ``open``, closed by ``close``, an async context manager doing both, and an error when used unopened."""

from typing import Self, TypeVar

T = TypeVar("T")


class Holder:
    what = "the database"  # for the error when used before ``open``

    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _opened(self, handle: T | None) -> T:
        if handle is None:
            raise RuntimeError(f"{self.what} is not open")
        return handle
