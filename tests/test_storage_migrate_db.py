"""``python -m bot migrate-db``: a SQLite database written by the current code, copied into PostgreSQL, proved
equal, and played on there; a non-empty target is refused."""

import asyncio
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.service import GameService
from bot.core.stats import summariser
from bot.games import GAMES, game_for
from storage.postgres import PostgresStore
from storage.postgres_stats import PostgresStats
from storage.sqlite import SQLiteStore
from storage.stats import SQLiteStats
from tests.backends import create_database, drop_database, new_name, server_url
from tests.conftest import FakeClock
from tests.test_stats_every_game import KINDS, play

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.usefixtures("pg_database")  # skipped (or failed, REQUIRE_POSTGRES=1) without a server


FINISHED = 2 * len(KINDS)  # two finished games of every kind of the tuple


@pytest.fixture
async def target() -> AsyncIterator[str]:
    name = new_name("test_migrate")
    url = await create_database(server_url(), name, migrated=False)
    yield url
    await drop_database(server_url(), name)


async def written_by_the_bot(path: Path, clock: FakeClock) -> tuple[int, int]:
    """Finished games of every kind, a cancelled one, a lobby, a running game with a draft, server settings and
    the statistics cache; returns (the running game, its host)."""
    async with SQLiteStore(path) as store:
        service = GameService(store, GAMES, clock)
        for n, kind in enumerate(KINDS * 2):
            await play(service, 1 + n % 2, [3000 + 10 * n, 3001 + 10 * n], kind, seed=n, ais=("normal",) * (n % 2))
        await play(service, 1, [1, 2], "numeri", seed=9, stop_after=2)
        await service.open_lobby(1, 7001, 41, "lobby host", {}, kind="thenumber")
        running = await service.open_lobby(2, 7002, 51, "Zoë", {}, kind="thenumber")  # sealed: a draft
        await service.join(running.id, 52, "Ünal")
        table = (await service.start(running.id, 51)).table
        seat = min(table.awaited())
        game = game_for("thenumber")
        action = game.ai(game.view(table.state, seat), seat, game.ai_levels[0], random.Random(1))
        await service.act(running.id, table.seat(seat).user_id or 0, action=action, phase=table.step)
        await store.set_meta("language:1", "fr")
        async with SQLiteStats(path, summariser(GAMES), KINDS) as stats:
            assert await stats.refresh(every_guild=True) == FINISHED
        return running.id, 51


def migrate(source: Path, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "migrate-db", "--from", str(source), "--to", url],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


async def test_a_sqlite_database_is_copied_proved_and_played_on(tmp_path: Path, target: str) -> None:
    source = tmp_path / "bot.sqlite3"
    clock = FakeClock()
    running_id, host = await written_by_the_bot(source, clock)

    done = await asyncio.to_thread(migrate, source, target)
    assert done.returncode == 0, done.stderr
    games = FINISHED + 3  # and the cancelled game, the lobby and the running game
    assert "verified" in done.stdout and f"games: {games} rows" in done.stdout, done.stdout

    async with SQLiteStore(source) as old, PostgresStore(target) as new:
        ids = [r[0] for r in await old.db.execute_fetchall("SELECT id FROM games ORDER BY id")]
        for game_id in ids:  # every game, seat and action, value for value
            assert await new.load_game(game_id) == await old.load_game(game_id)
        assert await new.get_meta("language:1") == "fr"
        assert await new.get_meta("commands_hash") == await old.get_meta("commands_hash")
        async with SQLiteStats(source, summariser(GAMES), KINDS) as s1, \
                PostgresStats(target, summariser(GAMES), KINDS) as s2:
            assert await s2.all_results() == await s1.all_results()
            assert await s2.refresh(every_guild=True) == 0  # nothing missing: the cache came along

        # Played on: the running game goes on from its stored draft, and new games take new ids.
        service = GameService(new, GAMES, clock)
        stored = await new.load_game(running_id)
        assert [a.kind for a in stored.actions] == ["start", "choose"], [a.kind for a in stored.actions]
        table = await service.table(running_id)
        assert len(table.drafts) == 1
        rng = random.Random(2)
        game = game_for("thenumber")
        while table.running:
            seat = min(table.awaited())
            action = game.ai(game.view(table.state, seat), seat, game.ai_levels[0], rng)
            table = (await service.act(running_id, table.seat(seat).user_id or 0, action=action,
                                       phase=table.step)).table
        assert (await new.load_game(running_id)).status == "finished"
        lobby = await service.open_lobby(1, 7100, host, "Zoë", {}, kind="thenumber")
        assert lobby.id == max(ids) + 1

    again = await asyncio.to_thread(migrate, source, target)  # the target is no longer empty
    assert again.returncode == 2 and "not empty" in again.stderr and again.stderr.count("\n") == 1, again.stderr


def test_a_target_that_is_not_postgres_is_refused(tmp_path: Path) -> None:
    done = migrate(tmp_path / "none.sqlite3", "sqlite:///x")
    assert done.returncode == 2 and "postgresql://" in done.stderr
