"""A real ``python -m bot`` process against the fake Discord, for the kill -9 tests of the table games.

The harness starts the bot, kills it with SIGKILL at chosen moments and starts it again; every wait ends at
its event (a response, a message, a stored step, the gateway noticing), PATIENCE is only a safety net. It
reads the committed game from the bot's own SQLite file (what a restart would see), never from the bot.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from storage.base import GameRecord
from storage.sqlite import SQLiteStore
from tests.discord_world import PATIENCE
from tests.fakediscord import FakeDiscord, InteractionResult, Message
from tests.fakediscord.state import BOT_USER_ID
from tests.fakediscord.users import walk_components
from tests.test_bot_process import bot_env

STEP_ID = re.compile(r"play:(?P<game>[a-z]+):(?P<id>\d+):(?P<step>\d+):")
INTERACTION_PATHS = re.compile(r"/(interactions|webhooks)/")


class BotDown(Exception):
    """The bot was killed (or died) while the test waited for it."""


def steps_of(snapshot: Any) -> set[int]:
    """The steps whose inputs a message (or one version of it) carries."""
    components = snapshot.components if isinstance(snapshot, Message) else snapshot.get("components", [])
    found = set()
    for c in walk_components(components):  # V1 rows or a V2 layout
        match = STEP_ID.match(str(c.get("custom_id", "")))
        if match:
            found.add(int(match["step"]))
    return found


def all_versions(message: Message) -> list[Any]:
    return [*message.history, message]


class ProcessTable:
    def __init__(self, fake: FakeDiscord, tmp: Path, players: tuple[str, ...]) -> None:
        self.fake = fake
        self.players = players
        self.users = {n: fake.add_user(n, display_name=n.capitalize()) for n in (*players, "zed")}
        guild = fake.add_guild("Kill Night", members=list(self.users.values()))
        self.general = fake.add_channel(guild, "general")
        self.db = tmp / "bot.sqlite3"
        # A turn lasts an hour: no deadline falls during the test, every step is a player's or the dice's.
        self.env = bot_env(fake, self.db) | {"DM_REPLIES_PER_WINDOW": "1000", "TURN_SECONDS": "3600"}
        self.tmp = tmp
        self.proc: asyncio.subprocess.Process | None = None
        self.store: SQLiteStore | None = None
        self.kills = 0
        self.moments: list[str] = []  # the moments the kills happened at, as the test reached them

    # The process ------------------------------------------------------------------------------
    async def start(self) -> None:
        log = open(self.tmp / "bot.log", "ab")  # noqa: SIM115 - handed to the child
        self.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=self.tmp, env=self.env,
                                                         stdout=log, stderr=log)
        log.close()
        await self.until(lambda: self.fake.gateway.active, "the bot to connect")
        if self.store is None and self.db.exists():
            self.store = SQLiteStore(self.db)
            await self.store.open()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def kill(self) -> None:
        assert self.proc is not None
        if self.alive:
            os.kill(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        self.kills += 1
        await self.until(lambda: not self.fake.gateway.active, "the gateway to notice")

    async def restart(self) -> None:
        await self.kill()
        await self.start()

    async def close(self) -> None:
        if self.alive:
            assert self.proc is not None
            self.proc.kill()
            await self.proc.wait()
        if self.store is not None:
            await self.store.close()

    def log_text(self) -> str:
        return (self.tmp / "bot.log").read_text(errors="replace")

    # Waiting ----------------------------------------------------------------------------------
    async def until(self, predicate: Callable[[], Any], what: str, *, while_alive: bool = False) -> Any:
        """The predicate's value once true; with ``while_alive``, BotDown as soon as the bot is gone."""
        deadline = time.monotonic() + PATIENCE
        while True:
            value = predicate()
            if value:
                return value
            if while_alive and not self.alive:
                raise BotDown(what)
            if time.monotonic() > deadline:
                recent = [(r.method, r.path, r.status) for r in self.fake.requests[-8:]]
                raise AssertionError(f"timed out waiting for {what}; the last requests: {recent}")
            await asyncio.sleep(0.01)

    async def answered(self, result: InteractionResult, what: str = "the answer") -> InteractionResult:
        await self.until(lambda: result.response_type is not None, what, while_alive=True)
        return result

    async def record(self) -> GameRecord:
        if self.store is None:
            await self.until(self.db.exists, "the database")
            self.store = SQLiteStore(self.db)
            await self.store.open()
        return await self.store.load_game(1)

    # Reading the channel ----------------------------------------------------------------------
    def bot_messages(self) -> list[Message]:
        return [m for m in self.fake.messages(self.general) if m.author_id == BOT_USER_ID]

    def with_inputs_for(self, step: int) -> Message | None:
        """The channel message whose current buttons are step ``step``'s."""
        return next((m for m in reversed(self.bot_messages()) if step in steps_of(m)), None)

    def posts_per_step(self) -> dict[int, int]:
        """For each step, how many channel messages ever carried its inputs (posted, or edited in)."""
        counts: dict[int, int] = {}
        for message in self.bot_messages():
            for step in set().union(*(steps_of(v) for v in all_versions(message))):
                counts[step] = counts.get(step, 0) + 1
        return counts

    def failed(self, method: str, pattern: str) -> bool:
        """A request the fake failed on purpose has reached it (the bot is waiting to retry)."""
        return any(r.method == method and re.search(pattern, r.path) and r.status >= 500 for r in self.fake.requests)
