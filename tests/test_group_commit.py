"""Group commit in SQLiteStore: writes that arrive together, across games, share one transaction; each caller
is resumed only after the transaction holding its write committed; a write refused inside a batch is undone
alone; and a process killed with SIGKILL in the middle of batches has kept every write it acknowledged.

Run as ``python -m tests.test_group_commit child DB`` it is the child process of the kill test.
"""

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage.base import ChannelBusy, StalePhase, WrongStatus
from storage.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]
GAMES = 40
SEATS = 5
WORKERS = 64


async def running_games(store: SQLiteStore, games: int, first_user: int = 1000) -> list[int]:
    ids = []
    for g in range(games):
        base = first_user + g * 10
        record = await store.create_lobby("thenumber", 1, 500 + g, base, "host", {}, 0.0)
        for s in range(1, SEATS):
            await store.seat_player(record.id, base + s, f"p{s}", SEATS, 0.0)
        await store.start_game(record.id, 120.0, 0.0)
        ids.append(record.id)
    return ids


def stored_numbers(db: Path) -> set[str]:
    """The ``choose`` payloads another connection sees (that is: committed)."""
    other = sqlite3.connect(db)
    try:
        return {row[0] for row in other.execute("SELECT json_extract(payload, '$.number') FROM actions"
                                                " WHERE kind = 'choose'")}
    finally:
        other.close()


async def test_choices_of_many_games_share_commits_and_each_is_committed_when_acknowledged(db_path: Path) -> None:
    async with SQLiteStore(db_path) as store:
        ids = await running_games(store, GAMES)
        other = sqlite3.connect(db_path)
        not_visible: list[str] = []

        async def choose(i: int) -> None:
            number = f"n{i}"
            await store.record_choice(ids[i % GAMES], 0, i % SEATS, {"number": number}, float(i))
            # resumed: another connection must see the row now (it is committed, not merely written)
            if other.execute("SELECT 1 FROM actions WHERE json_extract(payload, '$.number') = ?",
                             (number,)).fetchone() is None:
                not_visible.append(number)

        commits, writes = store.commits, store.writes
        try:
            await asyncio.gather(*(choose(i) for i in range(400)))
        finally:
            other.close()
        assert not_visible == []
        assert store.writes - writes == 400
        assert store.commits - commits < 400 / 4  # grouped: far fewer transactions than writes
    assert {f"n{i}" for i in range(400)} <= stored_numbers(db_path)


async def test_a_write_refused_inside_a_batch_is_undone_alone(db_path: Path) -> None:
    async with SQLiteStore(db_path) as store:
        ids = await running_games(store, 3)
        await store.end_game(ids[2], "cancelled", "test", 1.0)

        def half_then_fail(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO meta (key, value) VALUES ('half', 'written')")
            raise ChannelBusy(1)  # as a refused write does after it began writing

        commits = store.commits
        results = await asyncio.gather(
            store.record_choice(ids[0], 0, 0, {"number": "a"}, 1.0),
            store._write(half_then_fail),
            store.record_choice(ids[1], 3, 0, {"number": "stale"}, 1.0),
            store.record_choice(ids[2], 0, 0, {"number": "ended"}, 1.0),
            store.create_lobby("thenumber", 1, 500, 99, "x", {}, 1.0),  # channel 500 has a running game
            store.record_choice(ids[1], 0, 1, {"number": "b"}, 1.0),
            return_exceptions=True,
        )
        assert store.commits - commits <= 2  # the first write alone, then the rest together
        assert results[0] is None and results[5] is None
        assert isinstance(results[1], ChannelBusy)
        assert isinstance(results[2], StalePhase)
        assert isinstance(results[3], WrongStatus)
        assert isinstance(results[4], ChannelBusy)
        assert await store.get_meta("half") is None
    assert stored_numbers(db_path) == {"a", "b"}


async def test_a_read_after_a_queued_write_sees_it(db_path: Path) -> None:
    async with SQLiteStore(db_path) as store:
        ids = await running_games(store, 1)
        writing = asyncio.ensure_future(store.set_message(ids[0], "status", 4242))
        await asyncio.sleep(0)  # the write is queued, its batch not begun
        assert (await store.load_game(ids[0])).status_message_id == 4242
        await writing


# The kill test --------------------------------------------------------------------------------------
async def child(db: str) -> None:
    """Keep WORKERS writers choosing in GAMES games; print each write once record_choice has returned."""
    async with SQLiteStore(db) as store:
        ids = await running_games(store, GAMES)
        print(f"READY {store.writes} {store.commits}", flush=True)

        async def worker(w: int) -> None:
            i = 0
            while True:
                await store.record_choice(ids[(w + i) % GAMES], 0, w % SEATS, {"number": f"{w}-{i}"}, float(i))
                sys.stdout.write(f"ACK {w}-{i}\n")
                sys.stdout.flush()
                if w == 0 and i % 20 == 0:
                    sys.stdout.write(f"GROUPS {store.writes} {store.commits}\n")
                i += 1

        await asyncio.gather(*(worker(w) for w in range(WORKERS)))


@pytest.mark.parametrize("kill_after", [300, 1700])
def test_kill_9_in_the_middle_of_batches_keeps_every_acknowledged_write(tmp_path: Path, kill_after: int) -> None:
    db = tmp_path / "batches.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "tests.test_group_commit", "child", str(db)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    acked: list[str] = []
    groups: list[tuple[int, int]] = []
    ready, setup = False, (0, 0)
    for line in proc.stdout:
        word, *rest = line.split()
        if word == "READY":
            ready, setup = True, (int(rest[0]), int(rest[1]))
        elif word == "ACK":
            acked.append(rest[0])
        elif word == "GROUPS":
            groups.append((int(rest[0]), int(rest[1])))
        if len(acked) >= kill_after:
            os.kill(proc.pid, signal.SIGKILL)  # while the other writers' batches are in flight
            break
    proc.wait(timeout=30)
    proc.stdout.close()
    assert ready and proc.returncode == -signal.SIGKILL
    writes, commits = groups[-1][0] - setup[0], groups[-1][1] - setup[1]
    assert writes > 1.5 * commits, (writes, commits)  # the child really wrote in groups
    stored = stored_numbers(db)
    missing = [a for a in acked if a not in stored]
    assert missing == [], f"{len(missing)} acknowledged writes lost, e.g. {missing[:5]}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        asyncio.run(child(sys.argv[2]))
