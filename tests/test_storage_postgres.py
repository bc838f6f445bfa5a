"""What only PostgreSQL has to prove: its migrations (an empty database, once only, a newer schema refused
untouched), exactly-once resolution between processes writing at the same moment, index use of the statistics
queries, and the start-up check of DATABASE_URL. Everything else runs on both backends (the ``backend``
fixture)."""

import asyncio
import hashlib
import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.core.stats import summariser
from bot.games import GAMES
from storage.base import SchemaTooNew, StalePhase, WrongStatus
from storage.lease import InstanceRunning
from storage.migrations import POSTGRES, latest_version
from storage.postgres import PostgresStore
from storage.postgres_lease import PostgresLease
from storage.postgres_stats import GUILD_MISSING, LEADERBOARD_SQL, MISSING_SQL, PLAYER_SQL, RECENT_SQL, PostgresStats
from storage.preflight import postgres_problem
from tests.backends import create_database, database_url, drop_database, new_name, postgres_backend, server_url

pytestmark = pytest.mark.usefixtures("pg_database")  # skipped (or failed, REQUIRE_POSTGRES=1) without a server


@pytest.fixture
async def pg_url(pg_database: str) -> str:
    """The run's database, emptied."""
    return (await postgres_backend(pg_database)).target


@pytest.fixture
async def empty_url() -> AsyncIterator[str]:
    """A database of its own, with no tables at all."""
    name = new_name("test_empty")
    url = await create_database(server_url(), name, migrated=False)
    yield url
    await drop_database(server_url(), name)


async def dump(url: str) -> str:
    """Every table's columns and rows, as a checksum: "left untouched" means this is equal."""
    conn = await asyncpg.connect(url)
    try:
        parts = []
        for (table,) in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                                         " ORDER BY tablename"):
            columns = await conn.fetch("SELECT column_name, data_type FROM information_schema.columns"
                                       " WHERE table_name = $1 ORDER BY ordinal_position", table)
            rows = await conn.fetch(f'SELECT * FROM "{table}" ORDER BY 1')
            parts.append(f"{table} {[tuple(c) for c in columns]} {[tuple(r) for r in rows]}")
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()
    finally:
        await conn.close()


async def test_migrates_an_empty_database_once(empty_url: str) -> None:
    async with PostgresStore(empty_url) as store:
        assert await store.schema_version() == latest_version(POSTGRES)
        await store.set_meta("k", "v")
    async with PostgresStore(empty_url) as store:  # reopening applies nothing twice and keeps the data
        rows = await store.pool.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in rows] == list(range(1, latest_version(POSTGRES) + 1))
        assert await store.get_meta("k") == "v"
        assert await store.get_notify(7) == (True, True)  # /notify: both on until the player turns one off
        await store.set_notify(7, True, False)
        await store.set_notify(7, False, False)
        assert await store.get_notify(7) == (False, False)


async def test_two_processes_migrating_an_empty_database_at_once_both_open(empty_url: str) -> None:
    stores = [PostgresStore(empty_url) for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        assert [await s.schema_version() for s in stores] == [latest_version(POSTGRES)] * 3
    finally:
        for s in stores:
            await s.close()


async def test_a_database_from_the_future_is_refused_and_left_untouched(empty_url: str) -> None:
    async with PostgresStore(empty_url) as store:
        await store.create_lobby("thenumber", 1, 2, 3, "ana", {}, 1.0)
        await store.pool.execute("INSERT INTO schema_migrations VALUES (99, '0099_future.sql', 0)")
    before = await dump(empty_url)
    with pytest.raises(SchemaTooNew, match="version 99"):
        await PostgresStore(empty_url).open()
    assert await dump(empty_url) == before
    problem = await asyncio.to_thread(postgres_problem, empty_url)  # as at start-up: no loop running
    assert problem is not None and "version 99" in problem and "untouched" in problem


async def test_processes_racing_choices_and_resolutions_resolve_each_phase_once(pg_url: str) -> None:
    """Three stores (three processes, say) on one database, all storing choices and all trying to resolve every
    phase at once: each phase is resolved exactly once, and every acknowledged choice of it is stored."""
    stores = [PostgresStore(pg_url, pool_size=4) for _ in range(3)]
    for s in stores:
        await s.open()
    try:
        games = [await stores[0].create_lobby("thenumber", 1, 9000 + g, 100 * g, "host", {}, 1.0) for g in range(6)]
        for g, game in enumerate(games):
            for seat in range(1, 4):
                await stores[seat % 3].seat_player(game.id, 100 * g + seat, f"p{seat}", 5, 2.0)
            await stores[g % 3].start_game(game.id, None, 3.0)
        rng = random.Random(3)
        acknowledged: dict[tuple[int, int], int] = {}

        async def choose(game_id: int, phase: int, seat: int) -> None:
            try:
                await rng.choice(stores).record_choice(game_id, phase, seat, {"n": seat}, 4.0)
            except (StalePhase, WrongStatus):
                return  # refused, and said so: not acknowledged
            acknowledged[(game_id, phase)] = acknowledged.get((game_id, phase), 0) + 1

        for phase in range(5):
            work = [choose(game.id, phase, seat) for game in games for seat in range(4)]
            work += [s.resolve_phase(game.id, phase, {"step": {}}, None, phase == 4, 5.0)
                     for game in games for s in stores]
            rng.shuffle(work)
            await asyncio.gather(*work)
        for game in games:
            loaded = await stores[1].load_game(game.id)
            assert loaded.status == "finished" and loaded.phase == 5
            assert [a.seq for a in loaded.actions] == list(range(1, len(loaded.actions) + 1))
            assert [a.phase for a in loaded.actions if a.kind == "resolve"] == list(range(5))
            for phase in range(5):
                # every acknowledged choice is there, each one before its phase's resolution
                kinds = [a.kind for a in loaded.actions if a.phase == phase and a.kind != "start"]
                assert kinds.count("choose") == acknowledged.get((game.id, phase), 0)
                assert kinds[-1] == "resolve"
    finally:
        for s in stores:
            await s.close()


async def test_a_resolution_counting_drafts_waits_for_a_draft_being_stored(pg_url: str) -> None:
    """The draft guard counts after the row lock: a draft committed by another process while a resolution
    waited is counted, so a step built without it is refused."""
    async with PostgresStore(pg_url) as one, PostgresStore(pg_url) as two:
        game = await one.create_lobby("thenumber", 1, 77, 1, "a", {}, 1.0)
        await one.seat_player(game.id, 2, "b", 5, 1.0)
        await one.start_game(game.id, None, 1.0)
        await one.record_choice(game.id, 0, 0, {"n": 1}, 2.0)
        async with two.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)  # another process's work
            await conn.execute("UPDATE games SET last_seq = last_seq + 1 WHERE id = $1", game.id)
            resolving = asyncio.ensure_future(one.resolve_phase(game.id, 0, {"step": {}}, None, False, 3.0,
                                                                choices=1))
            await waiting_for_a_lock(conn)
            assert not resolving.done()
            seq = await conn.fetchval("SELECT last_seq FROM games WHERE id = $1", game.id)
            await conn.execute("INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
                               " VALUES ($1, $2, 0, 'choose', 1, '{}', 2.5)", game.id, seq)
        assert await resolving is False
        assert (await one.load_game(game.id)).phase == 0


async def test_a_holder_knows_what_its_choices_left_the_game_at_and_reads_it_after_any_other_write(
        pg_url: str) -> None:
    """Shards: the version a choice returns under the game's lock (so its holder need not read it again before
    letting go) is the stored version; after any other write, or a refused choice, the holder reads it."""
    async with PostgresStore(pg_url, shared=True) as store, PostgresStore(pg_url) as other:
        game = await store.create_lobby("thenumber", 1, 78, 1, "a", {}, 1.0)
        await store.seat_player(game.id, 2, "b", 5, 1.0)
        await store.start_game(game.id, None, 1.0)
        async with store.game_lock(game.id) as version:
            assert version == await other.game_version(game.id)
            await store.record_choice(game.id, 0, 0, {"n": 1}, 2.0)
            await store.record_choice(game.id, 0, 1, {"n": 2}, 2.0)
            left = await store.game_version(game.id)
            assert left == await other.game_version(game.id)
            assert (left.choices, left.seated) == (version.choices + 2, 2)  # the game's counter moved by two
            assert await store.mark_announced(game.id, 0)
            assert await store.game_version(game.id) == await other.game_version(game.id) != left
            await store.record_choice(game.id, 0, 0, {"n": 3}, 2.0)
            assert await store.resolve_phase(game.id, 0, {"step": {}}, None, False, 3.0, choices=3)
            with pytest.raises(StalePhase):
                await store.record_choice(game.id, 0, 1, {"n": 4}, 4.0)
            assert await store.game_version(game.id) == await other.game_version(game.id)
        async with store.game_lock(game.id) as again:  # nobody changed it since: the version left is the stored one
            assert again == await other.game_version(game.id)


async def waiting_for_a_lock(conn: asyncpg.Connection) -> None:
    """Until another session of this database waits for a lock (the event itself, not a delay)."""
    waiting = 0

    async def look() -> None:
        nonlocal waiting
        while not waiting:
            waiting = await conn.fetchval("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                                          " AND wait_event_type = 'Lock'")
    await asyncio.wait_for(look(), 20)


async def test_statistics_queries_use_their_indexes(pg_url: str) -> None:
    async with PostgresStore(pg_url) as store:
        await store.pool.execute(
            "INSERT INTO games (id, kind, guild_id, channel_id, host_id, status, created_at, updated_at, phase)"
            " SELECT g, 'thenumber', g % 50, g, 1, 'finished', g, g, 10 FROM generate_series(1, 12000) g")
        await store.pool.execute(
            "INSERT INTO game_results (game_id, seat, kind, guild_id, user_id, finished_at, final_score, won)"
            " SELECT g, s, 'thenumber', g % 50, (g * 7 + s) % 3000, g, (g + s) % 40, (s = 0)::int"
            " FROM generate_series(1, 12000) g, generate_series(0, 3) s")
        for table in ("games", "game_results"):  # as autovacuum would: the statistics
            await store.pool.execute(f"VACUUM ANALYZE {table}")
        # the month's board is answered from the index alone (an index-only scan, once VACUUM has marked the pages
        # all-visible: not while another test's transaction holds the cluster's horizon back, so the plan's scan
        # kind is not asserted)
        covered = await store.pool.fetchval("SELECT indexdef FROM pg_indexes WHERE indexname = 'game_results_by_time'")
        assert "INCLUDE (user_id, won, final_score)" in covered, covered
    async with PostgresStats(pg_url, summariser(GAMES), [g.key for g in GAMES]) as stats:
        plan = " | ".join(await stats.explain(LEADERBOARD_SQL, (1, "thenumber", 6000.0, 12000.0, 1)))
        assert "game_results_by_time" in plan and "Seq Scan" not in plan, plan
        plan = " | ".join(await stats.explain(PLAYER_SQL, (1, "thenumber", 1000)))
        assert "game_results_by_player" in plan, plan
        plan = " | ".join(await stats.explain(RECENT_SQL, (1, "thenumber", 10)))
        assert "Index" in plan and "on game_results_by_" in plan, plan  # the server's rows only, by an index
        plan = " | ".join(await stats.explain(MISSING_SQL.format(where=GUILD_MISSING, limit=500),
                                              (1, 11000.0, "thenumber")))
        assert "games_by_guild_finished" in plan and "game_results_pkey" in plan, plan


@pytest.mark.parametrize("case", ["missing database", "future schema"])
def test_the_bot_refuses_to_start_on_an_unusable_postgres_database(case: str, tmp_path: Path) -> None:
    name = new_name("test_refused")
    if case == "future schema":
        asyncio.run(_future_database(name))
    try:
        env = {**os.environ, "DISCORD_TOKEN": "x.y.z", "DATABASE_URL": database_url(server_url(), name)}
        done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=60)
    finally:
        asyncio.run(drop_database(server_url(), name))
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert line.count("\n") == 0 and f"database {database_url(server_url(), name)}" in line, line
    assert ("does not exist" if case == "missing database" else "version 99") in line


async def _future_database(name: str) -> None:
    url = await create_database(server_url(), name)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("INSERT INTO schema_migrations VALUES (99, '0099_future.sql', 0)")
    finally:
        await conn.close()


async def test_leases_by_name_refuse_only_the_same_name(pg_url: str) -> None:
    """Shard processes on one database lease a name each (say one per shard): only a second holder of the same
    name is refused, and the message names what it covers."""
    async with PostgresStore(pg_url), PostgresLease(pg_url, name="shard 0 of 2") as zero, \
            PostgresLease(pg_url, name="shard 1 of 2") as one, PostgresLease(pg_url, name="shard 0 of 2") as again:
        await zero.acquire()
        await one.acquire()
        with pytest.raises(InstanceRunning, match="using shard 0 of 2 of the database postgresql://"):
            await again.acquire()
        await zero.release()
        await again.acquire()
        assert not await zero.renew() and await one.renew()
