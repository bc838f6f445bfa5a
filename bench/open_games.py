"""Days-long tables: ``python -m bot`` restarted on 100,000 open games (spawn -> the
first interaction answered, the start-up work, resident memory), and the heap each open game costs: the resident
anonymous memory (RssAnon) of the same start-up on 100,000 and on 1,000 open games, the difference divided by
the 99,000 games between them (what the process holds per game, whatever it holds for itself).

``python -m bench.open_games [--open 100000] [--keep DIR]`` prints the figures (``--keep`` reuses the generated
databases there: 100,000 games take minutes to generate).
"""

import argparse
import asyncio
import math
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord
from tests.test_bot_process import bot_env

from .common import Figure, summary
from .restart import RESTORED, cpu_seconds, fresh_copy, generate_open, logged, memory_mb, until

OPEN = 100_000
BASE = 1_000
ANSWER_TARGET = 2.0
SETTLE_AT_MOST = 900.0  # seconds: the start-up over 100,000 games on a busy machine; the heap is read then
QUIET = 4.0
DAYS = 2 * 86_400.0


async def measure(source: Path, workdir: Path) -> dict[str, float]:
    """One start on a fresh copy of ``source`` (bench.restart's, with the wait for the start-up work bounded)."""
    db = fresh_copy(source, workdir)
    conn = sqlite3.connect(db, isolation_level=None)
    try:  # days-long tables: no deadline or reminder falls during the measurement
        conn.execute("UPDATE games SET deadline = ? WHERE status = 'running'", (time.time() + DAYS,))
    finally:
        conn.close()
    async with FakeDiscord(spec_path=None) as fake:
        probe = fake.add_user("probe")
        guild = fake.add_guild("Days", members=[probe])
        channel = fake.add_channel(guild, "probe")
        log_path = workdir / "bot.log"
        log_from = log_path.stat().st_size if log_path.exists() else 0
        with open(log_path, "ab") as log:
            spawned, spawned_wall = time.monotonic(), time.time()
            proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=workdir,
                                                        env=bot_env(fake, db), stdout=subprocess.DEVNULL, stderr=log)
        try:
            await until(lambda: fake.gateway.active and fake.requests_to("PUT", r"/commands$"), 300,
                        "the bot to connect and sync its commands")
            connected = time.monotonic() - spawned
            while True:
                result = await (await probe.slash(channel, "thenumber start")).wait(120)
                if result.message is not None and not result.rejections:
                    answered = result.dispatched_monotonic + (result.latency or 0) - spawned
                    break
                if time.monotonic() - spawned > 300:
                    raise AssertionError(f"no answer ({result.rejections})")
            # the heap once every open game is restored (its timers armed: the restore's log line), then once the
            # start-up work is over (the CPU quiet), within SETTLE_AT_MOST
            while time.monotonic() - spawned < SETTLE_AT_MOST and math.isnan(logged(log_path, RESTORED, log_from)):
                await asyncio.sleep(0.5)
            last, since = cpu_seconds(proc.pid), time.monotonic()
            while time.monotonic() - since < QUIET and time.monotonic() - spawned < SETTLE_AT_MOST:
                await asyncio.sleep(0.2)
                if (now := cpu_seconds(proc.pid)) - last > 0.02:
                    last, since = now, time.monotonic()
            memory = memory_mb(proc.pid)
            return {"connected": connected, "answered": answered, "latency": result.latency or 0.0,
                    "armed": logged(log_path, RESTORED, log_from) - spawned_wall,
                    "settled": time.monotonic() - spawned, "cpu": last, "anon_mb": memory["RssAnon"],
                    "rss_mb": memory["VmRSS"]}
        finally:
            proc.terminate()
            await proc.wait()


def run(quick: bool = False, keep: Path | None = None, open_games: int = OPEN) -> list[Figure]:
    open_games = 20_000 if quick else open_games
    with tempfile.TemporaryDirectory(prefix="bench-open-") as tmp:
        where = keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        big, small = generate_open(where, open_games), generate_open(where, BASE)
        runs: list[dict[str, Any]] = []
        for n in range(1):  # one start each: 100,000 games take minutes to start up
            work = Path(tmp) / f"run{n}"
            work.mkdir()
            runs.append({"big": asyncio.run(measure(big, work)), "small": asyncio.run(measure(small, work))})
    answered = summary([r["big"]["answered"] for r in runs])
    per_game = summary([(r["big"]["anon_mb"] - r["small"]["anon_mb"]) * 1024 / (open_games - BASE) for r in runs])
    last = runs[-1]["big"]
    return [
        Figure(f"open_games_restart_s_{open_games}", f"Restart on {open_games:,} open games: spawn -> first "
               "interaction answered", "s", answered, f"< {ANSWER_TARGET:.0f} s", answered["max"] < ANSWER_TARGET,
               note=f"python -m bot against the fake; connected {last['connected']:.2f} s; every deadline armed at "
                    f"{last['armed']:.2f} s; heap read at {last['settled']:.0f} s (the start-up work over, or "
                    f"{SETTLE_AT_MOST:.0f} s), {last['cpu']:.1f} s CPU by then"),
        Figure("open_games_heap_kib", "Heap per open game (RssAnon, 100,000 vs 1,000 open games)", "KiB",
               per_game, note=f"RssAnon {last['anon_mb']:.0f} MiB at {open_games:,} open games, "
                              f"{runs[-1]['small']['anon_mb']:.0f} MiB at {BASE:,}; VmRSS {last['rss_mb']:.0f} MiB"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.open_games", description=__doc__)
    parser.add_argument("--open", type=int, default=OPEN)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    from .__main__ import table

    print(table(run(keep=args.keep, open_games=args.open)))


if __name__ == "__main__":
    main()
