"""The bot process is killed with SIGKILL at 20 moments of a scripted two-round game and started again
each time: the game ends with the scores it would have had, every acknowledged choice is kept, and
every turn is revealed exactly once in the channel."""

import asyncio
import os
import random
import re
import signal
import sys
import time
from pathlib import Path

from tests.discord_world import PATIENCE
from tests.fakediscord import FakeDiscord, SimUser
from tests.reference_scorer import score_game
from tests.test_bot_process import bot_env

PLAYERS = ("ana", "ben", "cy")
# Every number is legal for its board and nobody runs out of digits (the test checks it with the
# reference scorer), so each turn waits for all three players.
SCRIPT = [
    {"ana": "761", "ben": "513", "cy": "444"}, {"ana": "890", "ben": "207", "cy": "123"},
    {"ana": "234", "ben": "468", "cy": "905"}, {"ana": "555", "ben": "999", "cy": "666"},
    {"ana": "999", "ben": "666", "cy": "777"}, {"ana": "102", "ben": "345", "cy": "678"},
    {"ana": "789", "ben": "012", "cy": "333"}, {"ana": "333", "ben": "666", "cy": "012"},
    {"ana": "666", "ben": "999", "cy": "555"}, {"ana": "555", "ben": "777", "cy": "999"},
]
TITLE = re.compile(r"^The Number · round (\d) of 2 · turn (\d) of 5$", re.M)  # a turn's, not its reveal's
KILLS = 20


class Table:
    def __init__(self, fake: FakeDiscord, tmp: Path) -> None:
        self.fake = fake
        self.users = {n: fake.add_user(n, display_name=n.capitalize()) for n in PLAYERS}
        guild = fake.add_guild("Kill Night", members=list(self.users.values()))
        self.general = fake.add_channel(guild, "general")
        self.env = bot_env(fake, tmp / "bot.sqlite3") | {"DM_REPLIES_PER_WINDOW": "1000"}
        self.tmp = tmp
        self.proc: asyncio.subprocess.Process | None = None
        self.acked: dict[int, dict[str, str]] = {}

    async def start(self) -> None:
        log = open(self.tmp / "bot.log", "ab")  # noqa: SIM115 - handed to the child
        self.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=self.tmp, env=self.env,
                                                         stdout=log, stderr=log)
        log.close()
        await self.until(lambda: self.fake.gateway.active, PATIENCE, "the bot to connect")
        await self.settle()

    async def open_game(self) -> None:
        ana = self.users["ana"]
        opened = await (await ana.slash(self.general, "thenumber start")).wait()
        for name in PLAYERS[1:]:
            await (await self.users[name].click(opened.message, "Join")).wait()
        await (await ana.click(opened.message, "Start")).wait()

    async def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        await self.until(lambda: not self.fake.gateway.active, PATIENCE, "the gateway to notice")

    async def settle(self, quiet: float = 0.3) -> None:
        """Wait until the bot has been silent for ``quiet`` seconds (caught up after a start)."""
        count, since = len(self.fake.requests), time.monotonic()
        while time.monotonic() - since < quiet:
            await asyncio.sleep(0.02)
            if len(self.fake.requests) != count:
                count, since = len(self.fake.requests), time.monotonic()

    @staticmethod
    async def until(predicate, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

    def texts(self) -> list[str]:
        return [self.fake.visible_text(m) for m in self.fake.messages(self.general)]

    def reveals(self) -> list[str]:
        return [t for t in self.texts() if " · reveal" in t]

    def current_turn(self) -> int | None:
        """The turn the channel asks for now (0-9), if its status message is up and the reveals agree."""
        statuses = [TITLE.search(t) for t in self.texts()]
        found = [m for m in statuses if m]
        if not found:
            return None
        index = (int(found[-1][1]) - 1) * 5 + int(found[-1][2]) - 1
        return index if len(self.reveals()) == index else None

    def acks_for(self, user: SimUser, number: str) -> int:
        return sum(1 for m in self.fake.dms(user) if re.match(rf"(Locked in|Changed to) {number} ", m.content))

    async def play_until(self, stop_after_requests: int | None) -> bool:
        """Drive the script; returns True when the game is over, False when it is time to kill."""
        target = None if stop_after_requests is None else len(self.fake.requests) + stop_after_requests
        while "The Number · game over" not in "\n".join(self.reveals()):
            if target is not None and len(self.fake.requests) >= target:
                return False
            turn = self.current_turn()
            if turn is None:
                await asyncio.sleep(0.01)
                continue
            for name, number in SCRIPT[turn].items():
                user = self.users[name]
                if self.acked.get(turn, {}).get(name) is None:
                    before = self.acks_for(user, number)
                    await user.send_dm(number)
                    try:
                        await self.until(lambda u=user, n=number, b=before: self.acks_for(u, n) > b, PATIENCE,
                                     "an ack")
                    except AssertionError:
                        return False  # no answer: the bot is down or dying
                    self.acked.setdefault(turn, {})[name] = number
                if target is not None and len(self.fake.requests) >= target:
                    return False
            await self.until(lambda t=turn: len(self.reveals()) > t
                             or "The Number · game over" in "\n".join(self.reveals()), PATIENCE, "the reveal")
        return True


async def test_twenty_kills_change_nothing(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    table = Table(fake_discord, tmp_path)
    rng = random.Random(20)
    await table.start()
    await table.open_game()
    kill_points: list[tuple[int, int]] = []
    try:
        while len(kill_points) < KILLS:
            if await table.play_until(rng.randint(1, 2)):
                break
            kill_points.append((len(table.reveals()), len(fake_discord.requests)))
            await table.kill()
            await table.start()
        assert await table.play_until(None)
    finally:
        if table.proc is not None and table.proc.returncode is None:
            table.proc.kill()
            await table.proc.wait()
    assert len(set(kill_points)) == KILLS, f"only {len(kill_points)} kills happened before the game ended"

    expected = score_game(list(PLAYERS), [SCRIPT[:5], SCRIPT[5:]])
    assert all(r["status"] in ("approved", "eliminated") for t in expected["turns"] for r in t["results"].values())
    reveals = table.reveals()
    titles = [t.splitlines()[0] for t in reveals]
    assert titles == [f"The Number · round {i // 5 + 1} of 2 · turn {i % 5 + 1} of 5 · reveal"
                      for i in range(10)], titles
    for index, text in enumerate(reveals):  # every acknowledged number is the one revealed
        for name, number in SCRIPT[index].items():
            assert f"`{number}` " in text and name.capitalize() in text
    final = reveals[-1]
    for name, total in expected["final"].items():
        assert f"{name.capitalize()}: **{total}**" in final
    log = (tmp_path / "bot.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
