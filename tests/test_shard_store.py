"""Several processes on one store: a game lock across processes, no decision on a cache another process made
stale, a step resolved exactly once whoever races for it, and each process restoring only its own games."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.service import GameService
from bot.settings import Settings, Shards
from bot.shards import ShardScheduler, ShardScopedStore
from storage.lease import InstanceRunning, SQLiteLease
from storage.sqlite import SQLiteStore
from tests.conftest import FakeClock
from tests.test_instance_lease import dead_pid
from tests.toy_games import BIDS, RACE

GAMES = (RACE, BIDS)

HOLDER = """
import asyncio, sys
from storage.sqlite import SQLiteStore

async def main() -> None:
    async with SQLiteStore(sys.argv[1], shared=True) as store:
        async with store.game_lock(int(sys.argv[2])):
            print("HELD", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

asyncio.run(main())
"""


async def hold_in_another_process(db: Path, game_id: int) -> asyncio.subprocess.Process:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, str(db), str(game_id), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert child.stdout is not None
    assert (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"HELD"
    return child


async def lock_once(store: SQLiteStore, game_id: int) -> None:
    async with store.game_lock(game_id) as version:
        assert version is not None and version.phase == 0


async def started(service: GameService, kind: str, users: list[int]) -> int:
    record = await service.open_lobby(1, 4242, users[0], "u0", {}, kind=kind)
    for user in users[1:]:
        await service.join(record.id, user, f"u{user}")
    await service.start(record.id, users[0])
    return record.id


async def test_a_store_of_one_process_locks_nothing(store: SQLiteStore) -> None:
    async with store.game_lock(1) as version:
        assert version is None


async def test_a_game_lock_waits_for_another_process_until_it_lets_go_or_dies(db_path: Path) -> None:
    async with SQLiteStore(db_path, shared=True) as store:
        service = GameService(store, GAMES, FakeClock())
        first = await started(service, "bids", [1, 2])
        second = (await service.open_lobby(1, 4343, 3, "u3", {}, kind="bids")).id
        for release in ("let go", "killed"):
            child = await hold_in_another_process(db_path, first)
            waiting = asyncio.create_task(lock_once(store, first))
            await lock_once(store, second)  # another game is free meanwhile
            assert not waiting.done()
            if release == "let go":
                assert child.stdin is not None
                child.stdin.write(b"\n")
                await child.stdin.drain()
            else:
                os.kill(child.pid, signal.SIGKILL)  # the kernel drops a dead process's locks
            await asyncio.wait_for(waiting, 60)  # a safety net: the lock is the event
            await child.wait()


async def test_a_process_acts_on_what_another_committed_not_on_its_cache(db_path: Path) -> None:
    async with SQLiteStore(db_path, shared=True) as one_store, SQLiteStore(db_path, shared=True) as other_store:
        one, other = GameService(one_store, GAMES, FakeClock()), GameService(other_store, GAMES, FakeClock())
        game_id = await started(one, "bids", [11, 12])
        assert (await one.table(game_id)).step == 0  # cached here
        await other.act(game_id, 11, text="3")
        done = await other.act(game_id, 12, text="5")
        assert [r.step for r in done.reports] == [0]
        # the first process's cache says step 0: it must take the choice for step 1, not refuse it as over
        ack = (await one.act(game_id, 11, text="2")).ack
        assert ack is not None and ack.step == 1
        # and a draft stored by the other process is in the step this one resolves
        outcome = await one.act(game_id, 12, text="4")
        assert [r.step for r in outcome.reports] == [1]
        assert outcome.reports[0].event.bids == {0: 2, 1: 4}
        await other.act(game_id, 11, text="1")  # step 2 from the other process: its cache was stale as well
        record = await one_store.load_game(game_id)
        assert [a.payload["step"] for a in record.actions if a.kind == "resolve"] == [
            {"0": {"bid": 3}, "1": {"bid": 5}}, {"0": {"bid": 2}, "1": {"bid": 4}}]


async def test_two_processes_racing_for_one_deadline_resolve_it_once(db_path: Path) -> None:
    async with SQLiteStore(db_path, shared=True) as one_store, SQLiteStore(db_path, shared=True) as other_store:
        one, other = GameService(one_store, GAMES, FakeClock()), GameService(other_store, GAMES, FakeClock())
        game_id = await started(one, "bids", [21, 22, 23])
        await other.table(game_id)
        for step in range(3):
            await (one if step % 2 else other).act(game_id, 21, text="1")
            reports = await asyncio.gather(one.expire(game_id, step), other.expire(game_id, step),
                                           one.expire(game_id, step))
            assert sorted(len(r) for r in reports) == [0, 0, 1]
        record = await one_store.load_game(game_id)
        resolved = [a.phase for a in record.actions if a.kind == "resolve"]
        assert resolved == [0, 1, 2] and record.phase == 3
        assert all(a.payload["step"]["0"] == {"bid": 1} for a in record.actions if a.kind == "resolve")


async def test_each_process_restores_only_the_games_of_its_servers(store: SQLiteStore) -> None:
    service = GameService(store, GAMES, FakeClock())
    guilds = {s: ((1000 + s) << 22) if (1000 + s) % 2 == s else ((1001 + s) << 22) for s in (0, 1)}
    assert all((g >> 22) % 2 == s for s, g in guilds.items())
    on_zero = await service.open_lobby(guilds[0], 1, 31, "a", {}, kind="bids")
    on_one = await service.open_lobby(guilds[1], 2, 32, "b", {}, kind="bids")
    no_server = await service.open_lobby(None, 3, 33, "c", {}, kind="bids")
    seen = {}
    for shard in (0, 1):
        scoped = ShardScopedStore(store, Shards(2, (shard,)))
        seen[shard] = {r.id for r in await GameService(scoped, GAMES, FakeClock()).load_open_games()}  # type: ignore[arg-type]
        assert await scoped.get_meta("nothing") is None  # everything else goes through
    assert seen == {0: {on_zero.id, no_server.id}, 1: {on_one.id}}
    both = ShardScopedStore(store, Shards(2, (0, 1)))
    assert {r.id for r in await both.open_games()} == {on_zero.id, on_one.id, no_server.id}


@pytest.mark.parametrize(("env", "expected"), [
    ({}, None),
    ({"SHARD_COUNT": "2"}, Shards(2, (0, 1))),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "3,1"}, Shards(4, (1, 3))),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "[1]"}, Shards(2, (1,))),
])
def test_shard_settings(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: Shards | None) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert Settings.load(None).shards == expected


@pytest.mark.parametrize(("env", "message"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "not below SHARD_COUNT 2"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "each shard once"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "separated by commas"),
    ({"SHARD_COUNT": "0"}, "greater than or equal to 1"),
])
def test_wrong_shard_settings_are_refused(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=message):
        Settings.load(None)


async def test_a_lease_per_shard(db_path: Path) -> None:
    async with SQLiteStore(db_path), SQLiteLease(db_path, shard_count=2, shard_ids=[0]) as zero, \
            SQLiteLease(db_path, shard_count=2, shard_ids=[1]) as one, \
            SQLiteLease(db_path, shard_count=2, shard_ids=[1, 0]) as both, \
            SQLiteLease(db_path) as whole:
        await zero.acquire()
        await one.acquire()  # another shard of the same count: welcome
        with pytest.raises(InstanceRunning, match=r"runs shard 0 of 2 on the database .*other SHARD_IDS"):
            await both.acquire()
        with pytest.raises(InstanceRunning, match=r"as 2 shard\(s\), this one as 1: .* same SHARD_COUNT"):
            await whole.acquire()
        assert await zero.renew() and await one.renew()
        await zero.release()
        one.me = replace(one.me, pid=dead_pid())
        await one.acquire()  # its rows now name a dead pid (a kill -9: nothing released)
        await both.acquire()
        assert not await one.renew()
        await both.release()
        await whole.acquire()


async def test_a_process_times_only_its_own_games(store: SQLiteStore) -> None:
    service = GameService(store, GAMES, FakeClock())
    mine = await service.open_lobby(None, 5, 41, "a", {}, kind="bids")  # no server: shard 0's
    theirs = await service.open_lobby(1 << 22, 6, 42, "b", {}, kind="bids")  # shard 1 of 2
    scoped = ShardScopedStore(store, Shards(2, (0,)))
    await scoped.load_game(theirs.id)  # a DM brought it here
    await scoped.load_game(mine.id)
    scheduler = ShardScheduler(FakeClock(), scoped)

    async def nothing() -> None:
        return None

    try:
        for key in ("deadline", "reminder", "status"):
            scheduler.schedule((key, mine.id), 1e9, nothing)
            scheduler.schedule((key, theirs.id), 1e9, nothing)
        assert scheduler.is_scheduled(("deadline", mine.id)) and scheduler.is_scheduled(("reminder", mine.id))
        assert not scheduler.is_scheduled(("deadline", theirs.id))
        assert not scheduler.is_scheduled(("reminder", theirs.id))
        assert scheduler.is_scheduled(("status", theirs.id))  # posting what it did is still its own job
    finally:
        scheduler.cancel_all()
