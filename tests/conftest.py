"""Shared fixtures."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.sqlite import SQLiteStore
from tests.fakediscord.fixtures import fake_discord  # noqa: F401  (the local fake Discord, for every test)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SQLiteStore]:
    async with SQLiteStore(db_path) as opened:
        yield opened


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
