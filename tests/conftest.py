"""Shared fixtures."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from storage.sqlite import SQLiteStore
from tests.fakediscord import FakeDiscord

# The local fake Discord's fixture (fake_discord), for every test.
pytest_plugins = ["tests.fakediscord.fixtures"]

if TYPE_CHECKING:
    from tests.discord_world import World


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


@pytest.fixture
async def world(fake_discord: FakeDiscord, db_path: Path, clock: FakeClock,
                request: pytest.FixtureRequest) -> AsyncIterator["World"]:
    """The real bot in process against the fake Discord, with users ana..eve in one server's #general.
    ``@pytest.mark.dm_blocked("cy")`` makes those users refuse DMs."""
    from tests.discord_world import make_world  # imported late: it imports this module

    marker = request.node.get_closest_marker("dm_blocked")
    started = await make_world(fake_discord, db_path, clock, blocked=tuple(marker.args) if marker else ())
    yield started
    await started.stop_bot()
