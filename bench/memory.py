"""Memory: resident memory per running game held by the game service after load_open_games(warm=True).

Each size runs in a fresh subprocess: RSS (VmRSS) after the imports and an open store, then again after
load_open_games(warm=True) (the returned list dropped, gc run): the delta over the game count. A second
subprocess uses tracemalloc for the Python objects still allocated (the part RSS can't separate from
allocator slack and SQLite's page cache).
"""

import asyncio
import gc
import json
import subprocess
import sys
import time
from pathlib import Path

from .common import Figure, rss_kb, summary


def child(db: str, mode: str) -> None:
    import tracemalloc

    from bot.core.service import GameService
    from bot.games.thenumber.game import GAME
    from storage.sqlite import SQLiteStore

    async def main() -> dict[str, float]:
        async with SQLiteStore(db) as store:
            service = GameService(store, (GAME,))
            gc.collect()
            if mode == "tracemalloc":
                tracemalloc.start()
            before = rss_kb()
            start = time.perf_counter()
            records = await service.load_open_games(warm=True)  # every game rebuilt and cached
            seconds = time.perf_counter() - start
            count = len(records)
            del records
            gc.collect()
            after = rss_kb()
            traced = tracemalloc.get_traced_memory()[0] if mode == "tracemalloc" else 0
            assert len(service._tables) == count
            return {"games": count, "rss_before_kb": before, "rss_after_kb": after, "traced_bytes": traced,
                    "load_seconds": seconds}

    print(json.dumps(asyncio.run(main())))


def measure(db: Path, mode: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-m", "bench.memory", "--child", str(db), mode], check=True,
                         capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1], timeout=180)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(dbs: dict[int, Path], quick: bool = False) -> list[Figure]:
    repeats = 1 if quick else 3
    figures = []
    for games, db in sorted(dbs.items()):
        rss = [measure(db, "rss") for _ in range(repeats)]
        per_game = [(r["rss_after_kb"] - r["rss_before_kb"]) * 1024 / r["games"] / 1000 for r in rss]
        traced = measure(db, "tracemalloc") if games == min(dbs) else None  # 10x slower: the small size only
        stats = summary(per_game)
        figures.append(Figure(
            f"memory_kb_per_game_{games}", f"Memory: RSS per running game, {games:,} loaded", "KB/game", stats,
            "<= 50 KB", stats["median"] <= 50,
            "" if traced is None else
            f"Python objects retained (tracemalloc): {traced['traced_bytes'] / traced['games'] / 1000:.1f} KB/game",
            {"rss_runs": rss, "tracemalloc_run": traced}))
    return figures


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
