"""Opening tables: ``/thenumber start`` in N fresh channels against the real bot (in process, REST over HTTP to the
local fake Discord), cost per table at N = 200 and N = 2,000 in the same run.

Every new channel and every interaction token is a new rate-limit bucket in discord.py's HTTP client, and
discord.py walks all its buckets for each new one once it has 256 (see bot/http_buckets.py): without the
bot's amortised walk, the cost per table grows with the number of tables opened within five minutes.
"""

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.client import NumberBot
from bot.settings import Settings
from tests.fakediscord import FakeDiscord

from .common import Figure, summary

IN_FLIGHT = 16


async def open_tables(count: int, tmp: Path) -> dict[str, Any]:
    async with FakeDiscord(spec_path=None) as fake:
        users = [fake.add_user(f"h{i}") for i in range(count)]
        guild = fake.add_guild("Opening", members=users)
        channels = [fake.add_channel(guild, f"c{i}") for i in range(count)]
        bot = NumberBot(Settings(_env_file=None, database_path=tmp / f"open-{count}.sqlite3"))  # type: ignore[call-arg]
        await bot.login(fake.token)
        await fake.attach(bot)
        bad = 0
        try:
            next_table = 0

            async def worker() -> None:
                nonlocal next_table, bad
                while next_table < count:
                    n = next_table
                    next_table += 1
                    answer = await (await users[n].slash(channels[n], "thenumber start")).until(
                        lambda r: r.response_type is not None or bool(r.rejections), 60, "an answer")
                    bad += answer.message is None or bool(answer.rejections)  # refused: answered too late

            start = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
            elapsed = time.perf_counter() - start
            return {"seconds": elapsed, "per_table_ms": elapsed / count * 1000, "bad": bad,
                    "buckets": len(bot.http._buckets), "walks": bot.bucket_sweep.walks}
        finally:
            fake.detach(bot)
            await bot.close()


def run(quick: bool = False) -> list[Figure]:
    small, large = (100, 1000) if quick else (200, 2000)
    runs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="bench-opening-") as tmp:
        for _ in range(1 if quick else 2):
            runs.append((asyncio.run(open_tables(small, Path(tmp))), asyncio.run(open_tables(large, Path(tmp)))))
            for path in Path(tmp).iterdir():
                path.unlink()
    bad = sum(a["bad"] + b["bad"] for a, b in runs)
    ratio = summary([b["per_table_ms"] / a["per_table_ms"] for a, b in runs])
    last = runs[-1][1]
    return [
        Figure("opening_per_table_ms_small", f"Opening tables: /thenumber start x {small}, cost per table", "ms",
               summary([a["per_table_ms"] for a, _ in runs]), note=f"{IN_FLIGHT} in flight; the floor of the ratio"),
        Figure("opening_per_table_ms_large", f"Opening tables: /thenumber start x {large:,}, cost per table", "ms",
               summary([b["per_table_ms"] for _, b in runs]),
               note=f"{last['buckets']:,} rate-limit buckets at the end, walked {last['walks']} times; "
                    f"{bad} wrong answers"),
        Figure("opening_large_vs_small", f"Opening tables: cost per table at {large:,} as a multiple of {small}",
               "x", ratio, "<= 1.5x", ratio["median"] <= 1.5 and bad == 0),
    ]
