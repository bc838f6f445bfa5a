"""One process of tests/test_shared_pace.py: the bot's own pace (bot/http_pacing.py) with the token's tickets
shared through a database (storage/pace.py), sending ``count`` channel posts at once to the fake Discord.

Usage: python -m tests.pace_child API_BASE TOKEN CHANNEL_ID DATABASE COUNT REQUESTS WINDOW
(DATABASE: a postgresql:// URL or a SQLite path). Prints one line: the statuses it got, e.g. "200:40".
"""

import asyncio
import collections
import sys
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord

from bot.http_pacing import GlobalPacer, pacing_trace
from storage.pace import shared_tickets
from storage.postgres import PostgresStore


async def main(base: str, token: str, channel: str, database: str, count: int, requests: int, window: float) -> str:
    discord.http.Route.BASE = base
    store = PostgresStore(database) if database.startswith("postgresql://") else SimpleNamespace(path=Path(database))
    shared = shared_tickets(store, token, requests, window)
    pacer = GlobalPacer(requests, window, shared=shared)
    statuses: collections.Counter[int] = collections.Counter()
    async with aiohttp.ClientSession(trace_configs=[pacing_trace(pacer)]) as session:

        async def post(n: int) -> None:
            async with session.post(f"{base}/channels/{channel}/messages", json={"content": f"post {n}"},
                                    headers={"Authorization": f"Bot {token}"}) as response:
                statuses[response.status] += 1

        await asyncio.gather(*(post(n) for n in range(count)))
    if shared is not None:
        await shared.close()
    return " ".join(f"{status}:{n}" for status, n in sorted(statuses.items()))


if __name__ == "__main__":
    base, token, channel, database, count, requests, window = sys.argv[1:8]
    print(asyncio.run(main(base, token, channel, database, int(count), int(requests), float(window))))
