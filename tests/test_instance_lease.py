"""One bot process per database: a second one refuses to start; a dead holder is taken over at once."""

import asyncio
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from storage.base import GameStore
from storage.lease import InstanceRunning
from tests.backends import Backend
from tests.discord_world import eventually
from tests.fakediscord import FakeDiscord
from tests.test_bot_process import bot_env


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


async def test_a_live_holder_keeps_the_lease_and_a_dead_one_loses_it(store: GameStore, backend: Backend) -> None:
    async with backend.lease() as first, backend.lease() as second:
        await first.acquire()
        with pytest.raises(InstanceRunning, match=f"pid {os.getpid()} on"):
            await second.acquire()  # the holder (this very process) is alive
        first.me = replace(first.me, pid=dead_pid())  # the holder was killed (kill -9): nothing released
        await first.acquire()
        await second.acquire()  # taken over at once, no timeout to wait for
        assert not await first.renew()  # the old holder learns it lost the lease
        assert await second.renew()


async def test_a_holder_on_another_host_is_trusted_until_its_heartbeat_is_old(store: GameStore,
                                                                            backend: Backend) -> None:
    async with backend.lease(timeout=60) as first, backend.lease(timeout=60) as second:
        first.me = replace(first.me, hostname="elsewhere", pid=dead_pid())
        await first.acquire(now=1000.0)
        with pytest.raises(InstanceRunning, match="elsewhere"):
            await second.acquire(now=1059.0)  # its pid means nothing here: the heartbeat is recent
        await second.acquire(now=1061.0)


async def test_a_released_lease_is_free(store: GameStore, backend: Backend) -> None:
    async with backend.lease() as first, backend.lease() as second:
        await first.acquire()
        await first.release()
        await second.acquire()


async def test_a_second_bot_process_refuses_to_start_and_takes_over_after_a_kill(fake_discord: FakeDiscord,
                                                                               tmp_path: Path, backend: Backend
                                                                               ) -> None:
    env = bot_env(fake_discord, tmp_path / "bot.sqlite3")
    if backend.postgres:
        env["DATABASE_URL"] = backend.target
    where = backend.target.rsplit("/", 1)[-1] if backend.postgres else "bot.sqlite3"
    first = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        await eventually(lambda: fake_discord.gateway.active, timeout=30, what="the first bot to connect")
        second = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, err = await asyncio.wait_for(second.communicate(), 30)
        assert second.returncode == 2
        last = err.decode().strip().splitlines()[-1]
        assert last.startswith(f"another bot process (pid {first.pid} on ") and where in last, last
        assert len(fake_discord.gateway.active) == 1
        os.kill(first.pid, signal.SIGKILL)
        await first.wait()
        await eventually(lambda: not fake_discord.gateway.active, timeout=10, what="the gateway to notice")
        third = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            await eventually(lambda: fake_discord.gateway.active, timeout=30, what="the restarted bot to connect")
        finally:
            third.terminate()
            await asyncio.wait_for(third.wait(), 20)
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()
