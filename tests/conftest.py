"""Shared fixtures."""

import os
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import discord.http
import pytest

from storage.base import GameStore
from tests.backends import BACKENDS, Backend, postgres_backend, run_database, sqlite_backend
from tests.fakediscord import FakeDiscord

# The local fake Discord's fixture (fake_discord), for every test.
pytest_plugins = ["tests.fakediscord.fixtures"]

# Every test world's bot loads its extensions anew, and discord.py executes their modules again from their
# files: with PYTHONDONTWRITEBYTECODE=1 (set on some machines) each of those loads compiled the cogs again,
# about a tenth of a Discord test's time. Their bytecode goes to a cache of this user's in the temporary
# directory instead (never beside the sources, which is what that setting asks for).
if sys.dont_write_bytecode and sys.pycache_prefix is None:
    sys.pycache_prefix = os.path.join(tempfile.gettempdir(), f"number-games-tests-pycache-{os.getuid()}")
    sys.dont_write_bytecode = False

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


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """The URL of one PostgreSQL database for the whole run (``test_<random>``, migrated once, dropped at the
    end); skipped with the reason when no server answers, unless REQUIRE_POSTGRES=1 (then the test fails)."""
    yield from run_database()


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Backend]:
    """Where a storage, service or stats test keeps its games: a SQLite file, or the run's PostgreSQL database
    (emptied before each test)."""
    if request.param == "sqlite":
        yield sqlite_backend(db_path)
    else:
        yield await postgres_backend(request.getfixturevalue("pg_database"))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[GameStore]:
    async with backend.store() as opened:
        yield opened


@pytest.fixture
def inspections(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every Ratelimit.is_inactive call (one per bucket looked at by a walk)."""
    count = [0]
    original = discord.http.Ratelimit.is_inactive

    def counted(self: discord.http.Ratelimit) -> bool:
        count[0] += 1
        return original(self)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counted)
    return count


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
