"""Two processes on one token share its global limit through their database (storage/pace.py): each posts as
fast as its own pace lets it, both at once, and the fake Discord, counting a sliding window as Discord does,
refuses none of their requests. Both backends: one SQLite file, and one PostgreSQL database.

Every wait is for the processes to finish; nothing is timed."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import ShardedNumberBot
from bot.settings import Settings
from storage.pace import SQLiteTickets
from tests.backends import BACKENDS, _problem, create_database, drop_database, new_name, server_url, unavailable
from tests.fakediscord import FakeDiscord
from tests.test_bot_process import ROOT

REQUESTS, WINDOW = 10, 0.5  # a compressed limit: the same sliding rule, a run of seconds, not minutes
POSTS = 40  # per process: each alone would want 4 windows' worth at once


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "bot.sqlite3")
        return
    server = server_url()
    problem = await _problem(server)
    if problem:
        unavailable(problem)
    name = new_name("pace")
    url = await create_database(server, name, migrated=False)
    try:
        yield url
    finally:
        await drop_database(server, name)


async def test_two_processes_saturating_one_token_draw_no_429(fake_discord: FakeDiscord, database: str) -> None:
    fake = fake_discord
    guild = fake.add_guild("Pace", members=[fake.add_user("ana")])
    channel = fake.add_channel(guild, "general")
    limit = fake.limit_globally(REQUESTS, WINDOW, sliding=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    children = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.pace_child", fake.api_base, fake.token, str(channel.id), database, str(POSTS),
        str(REQUESTS), str(WINDOW), cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE) for _ in range(2)]
    outputs = [await child.communicate() for child in children]
    assert all(child.returncode == 0 for child in children), [err.decode()[-2000:] for _, err in outputs]
    assert [out.decode().strip() for out, _ in outputs] == [f"200:{POSTS}"] * 2
    assert limit.limited == 0 and limit.accepted == 2 * POSTS
    assert limit.busiest == REQUESTS  # saturated: some window was full, none over
    assert len(fake.messages(channel)) == 2 * POSTS


@pytest.mark.parametrize(("shard_ids", "shared"), [("0", True), ("0,1", False)])
async def test_a_process_holding_some_shards_shares_the_pace_and_one_holding_all_keeps_its_own(
        tmp_path: Path, shard_ids: str, shared: bool) -> None:
    settings = Settings(_env_file=None, database_path=tmp_path / "b.sqlite3",  # type: ignore[call-arg]
                        shard_count=2, shard_ids=shard_ids)
    bot = ShardedNumberBot(settings)
    bot.http.token = "a token"  # as after login, when setup_hook shares the pace
    bot._share_the_pace()
    assert bot.pacer is not None
    assert isinstance(bot.pacer.shared, SQLiteTickets) is shared
