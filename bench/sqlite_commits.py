"""SQLite: durable choices per second through SQLiteStore.record_choice against the disk's own bare rates, measured
interleaved in the same run (this machine's fsync rate swings by an order of magnitude from minute to minute).

Floors, in the same directory: ``fsync`` (write 64 bytes, ``os.fsync``, again) and ``bare commit`` (plain
sqlite3, WAL + synchronous=FULL, one INSERT of an ``actions`` row like the product's and its COMMIT, again:
one commit per fsync, the most a store without group commit can do). The store: one caller at a time (each
write its own transaction), then many callers across many games at once (group commit shares transactions).
"""

import asyncio
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from storage.sqlite import SQLiteStore

from .common import Figure, summary

SEATS = 5


def fsync_rate(folder: Path, seconds: float) -> float:
    """Bare data syncs per second of the disk under ``folder``: 64 bytes rewritten in place and fdatasync'd (as
    SQLite syncs its reused WAL: no file growth, so no metadata journal commit in the figure)."""
    path = folder / "fsync.probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.pwrite(fd, b"x" * 4096, 0)
        os.fsync(fd)
        done, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            os.pwrite(fd, b"%063d" % done, 0)
            os.fdatasync(fd)
            done += 1
        return done / elapsed
    finally:
        os.close(fd)


class BareCommits:
    """Plain sqlite3, WAL + FULL, one connection kept open (its WAL reused, as the store's is): one INSERT of a
    choose row and its COMMIT at a time."""

    def __init__(self, db: Path) -> None:
        self.conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS actions (game_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
                          " phase INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER, payload TEXT NOT NULL,"
                          " at REAL NOT NULL, PRIMARY KEY (game_id, seq))")
        self.seq = 0

    def rate(self, seconds: float) -> float:
        done, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            self.seq += 1
            self.conn.execute("INSERT INTO actions VALUES (1, ?, 0, 'choose', ?, ?, ?)",
                              (self.seq, self.seq % SEATS, json.dumps({"number": f"{self.seq % 1000:03d}"}),
                               time.time()))
            done += 1
        return done / elapsed

    def close(self) -> None:
        self.conn.close()


async def _prepare(store: SQLiteStore, games: int) -> list[int]:
    ids = []
    for g in range(games):
        base = 1_000_000 + g * 10
        record = await store.create_lobby("thenumber", 1, 500 + g, base, "host", {"turn_seconds": 120}, 0.0)
        for s in range(1, SEATS):
            await store.seat_player(record.id, base + s, f"p{s}", SEATS, 0.0)
        await store.start_game(record.id, 120.0, 0.0)
        ids.append(record.id)
    return ids


async def sequential(store: SQLiteStore, ids: list[int], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        await store.record_choice(ids[done % len(ids)], 0, done % SEATS, {"number": f"{done % 1000:03d}"}, 0.0)
        done += 1
    return done / elapsed


async def concurrent(store: SQLiteStore, ids: list[int], per_caller: int) -> tuple[float, float]:
    """One caller per game, ``per_caller`` choices each; returns (choices/s, mean writes per commit)."""
    async def caller(game_id: int, w: int) -> None:
        for i in range(per_caller):
            await store.record_choice(game_id, 0, (w + i) % SEATS, {"number": f"{i % 1000:03d}"}, float(i))

    writes, commits = store.writes, store.commits
    start = time.perf_counter()
    await asyncio.gather(*(caller(game_id, w) for w, game_id in enumerate(ids)))
    elapsed = time.perf_counter() - start
    return len(ids) * per_caller / elapsed, (store.writes - writes) / max(1, store.commits - commits)


async def _run(quick: bool) -> list[Figure]:
    repeats = 3 if quick else 7
    window = 0.5 if quick else 1.0
    games = 200
    per_caller = 10 if quick else 25
    rates: dict[str, list[float]] = {k: [] for k in ("fsync", "bare", "seq", "conc", "group", "ratio", "seq_ratio")}
    with tempfile.TemporaryDirectory(prefix="bench-sqlite-", dir=os.environ.get("BENCH_DISK_DIR")) as tmp:
        folder = Path(tmp)
        bare_db = BareCommits(folder / "bare.sqlite3")
        async with SQLiteStore(folder / "store.sqlite3") as store:
            ids = await _prepare(store, games)
            await concurrent(store, ids, 2)  # warm-up
            await asyncio.to_thread(bare_db.rate, 0.2)
            for _ in range(repeats):
                fs = await asyncio.to_thread(fsync_rate, folder, window / 2)
                bare = await asyncio.to_thread(bare_db.rate, window)
                seq = await sequential(store, ids, window)
                conc, group = await concurrent(store, ids, per_caller)
                bare_after = await asyncio.to_thread(bare_db.rate, window)
                floor = (bare + bare_after) / 2  # around the measurement: the disk drifts within seconds
                for key, value in (("fsync", fs), ("bare", floor), ("seq", seq), ("conc", conc), ("group", group),
                                   ("ratio", conc / floor), ("seq_ratio", seq / floor)):
                    rates[key].append(value)
        bare_db.close()
    ratio = summary(rates["ratio"])
    fsyncs = summary(rates["fsync"])
    beside = f"bare fsync {fsyncs['median']:,.0f}/s, bare commit {summary(rates['bare'])['median']:,.0f}/s"
    return [
        Figure("disk_fsync_per_s", "Disk: bare fsync rate (write 64 B + fsync)", "fsyncs/s", fsyncs,
               note="printed beside every durable figure: the state of the disk during this run"),
        Figure("sqlite_bare_commits_per_s", "Floor: bare sqlite3 WAL+FULL, one INSERT + COMMIT at a time",
               "commits/s", summary(rates["bare"]), note="one commit per fsync: what a store without group "
               "commit can do at most; measured before and after each store measurement"),
        Figure("sqlite_store_sequential_per_s", "SQLite store: record_choice, one caller at a time", "choices/s",
               summary(rates["seq"]), note=f"{beside}; each write its own transaction"),
        Figure("sqlite_store_sequential_vs_bare", "SQLite store, one caller: as a multiple of the bare commit rate",
               "x", summary(rates["seq_ratio"]), note=beside),
        Figure("sqlite_store_grouped_per_s", f"SQLite store: record_choice, {games} games choosing at once",
               "choices/s", summary(rates["conc"]),
               note=f"{beside}; mean {summary(rates['group'])['median']:.0f} writes per commit (group commit)"),
        Figure("sqlite_group_commit_vs_bare", "SQLite store, many games at once: durable choices/s as a multiple "
               "of the bare commit rate", "x", ratio, ">= 5x", ratio["median"] >= 5.0, beside),
    ]


def run(quick: bool = False) -> list[Figure]:
    return asyncio.run(_run(quick))
