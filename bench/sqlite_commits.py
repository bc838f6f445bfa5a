"""SQLite: committed choices per second through SQLiteStore.record_choice, durable (WAL + synchronous=FULL,
the project's settings) against synchronous=OFF (an upper bound), in the same run, interleaved."""

import asyncio
import tempfile
import time
from pathlib import Path

from storage.sqlite import SQLiteStore

from .common import Figure, summary

GAMES = 20
SEATS = 5


async def _prepare(store: SQLiteStore) -> list[int]:
    ids = []
    for g in range(GAMES):
        base = 1_000_000 + g * 10
        record = await store.create_lobby("thenumber", 1, 500 + g, base, "host", {"turn_seconds": 120}, 0.0)
        for s in range(1, SEATS):
            await store.seat_player(record.id, base + s, f"p{s}", SEATS, 0.0)
        await store.start_game(record.id, 120.0, 0.0)
        ids.append(record.id)
    return ids


async def _commits(store: SQLiteStore, ids: list[int], count: int) -> float:
    """``count`` sequential record_choice calls (each its own durable transaction); returns commits/s."""
    start = time.perf_counter()
    for i in range(count):
        await store.record_choice(ids[i % len(ids)], 0, i % SEATS, {"number": f"{i % 1000:03d}"}, float(i))
    return count / (time.perf_counter() - start)


async def _concurrent(store: SQLiteStore, ids: list[int], count: int, width: int = 20) -> float:
    """The same with ``width`` coroutines at once (as many games choosing at the same moment)."""
    async def worker(w: int) -> None:
        for i in range(w, count, width):
            await store.record_choice(ids[i % len(ids)], 0, i % SEATS, {"number": f"{i % 1000:03d}"}, float(i))

    start = time.perf_counter()
    await asyncio.gather(*(worker(w) for w in range(width)))
    return count / (time.perf_counter() - start)


async def _run(quick: bool) -> list[Figure]:
    repeats = 3 if quick else 7
    count = 200 if quick else 1000
    with tempfile.TemporaryDirectory(prefix="bench-sqlite-") as tmp:
        full = SQLiteStore(Path(tmp) / "full.sqlite3", synchronous="FULL")
        off = SQLiteStore(Path(tmp) / "off.sqlite3", synchronous="OFF")
        await full.open()
        await off.open()
        try:
            full_ids, off_ids = await _prepare(full), await _prepare(off)
            await _commits(full, full_ids, 50)
            await _commits(off, off_ids, 50)
            rates: dict[str, list[float]] = {"full": [], "off": [], "full_conc": [], "ratio": []}
            for _ in range(repeats):
                f = await _commits(full, full_ids, count)
                o = await _commits(off, off_ids, count)
                rates["full"].append(f)
                rates["off"].append(o)
                rates["ratio"].append(o / f)
                rates["full_conc"].append(await _concurrent(full, full_ids, count))
        finally:
            await full.close()
            await off.close()
    full_stats = summary(rates["full"])
    return [
        Figure("sqlite_commits_per_s_full", "SQLite: record_choice commits, WAL + synchronous=FULL", "commits/s",
               full_stats, note="one call at a time; each call is one BEGIN IMMEDIATE ... COMMIT"),
        Figure("sqlite_commits_per_s_full_concurrent", "SQLite: same, 20 callers at once", "commits/s",
               summary(rates["full_conc"]), note="the store's lock serialises them: no group commit"),
        Figure("sqlite_commits_per_s_off", "SQLite: record_choice commits, synchronous=OFF (upper bound)",
               "commits/s", summary(rates["off"])),
        Figure("sqlite_durability_cost_ratio", "SQLite: OFF / FULL commit rate (cost of durability)", "x",
               summary(rates["ratio"])),
    ]


def run(quick: bool = False) -> list[Figure]:
    return asyncio.run(_run(quick))
