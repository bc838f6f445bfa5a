"""Two bot processes, shards 0 and 1 of 2, on one database, against the fake Discord: a game of The Number in
a server of each shard, played to the end with DM choices (which Discord sends to shard 0 only, whatever the
game) and modal choices (sent to the server's shard); each process is SIGKILLed once mid-turn and started
again. Every acknowledged choice is revealed, every turn once, and the scores are the reference's.

Both backends: one PostgreSQL database (created and dropped by the test; games locked across the processes by
advisory locks), and one SQLite file in WAL mode shared by the two processes (byte-range file locks)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.backends import BACKENDS, _problem, create_database, drop_database, new_name, server_url, unavailable
from tests.discord_world import PATIENCE, buttons, eventually
from tests.fakediscord import FakeDiscord, Message, SimUser
from tests.fakediscord.state import Channel
from tests.reference_scorer import score_game
from tests.test_bot_kills import SCRIPT, TITLE
from tests.test_bot_process import ROOT, bot_env

SHARDS = 2
NAMES = {0: ("ana", "ben", "cy"), 1: ("dan", "eve", "fay")}  # the players of the game on each shard
# (shard of the game, turn): the process SIGKILLed just after that turn's first choice was acknowledged. The
# first chooser of an even turn uses a DM, so shard 0's process took it, whichever shard the game is on.
KILLS = {(1, 2): 1, (0, 5): 0, (1, 8): 0}


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[dict[str, str]]:
    """The setting that points both processes at one database: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield {"DATABASE_PATH": str(tmp_path / "bot.sqlite3")}
        return
    server = server_url()
    problem = await _problem(server)
    if problem:
        unavailable(problem)
    name = new_name("shards")
    url = await create_database(server, name, migrated=False)
    try:
        yield {"DATABASE_URL": url}
    finally:
        await drop_database(server, name)


class BotProcess:
    def __init__(self, fake: FakeDiscord, tmp: Path, shard: int, **settings: str) -> None:
        self.fake, self.tmp, self.shard = fake, tmp, shard
        self.env = bot_env(fake, tmp / "bot.sqlite3") | {
            "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard), "DM_REPLIES_PER_WINDOW": "1000",
            "PYTHONPATH": str(ROOT)} | settings
        self.proc: asyncio.subprocess.Process | None = None
        self.kills = 0
        self.ready = f"INFO bot.client: ready with shards {shard} of {SHARDS}"

    def connected(self) -> bool:
        return bool(self.fake.gateway.sessions_of_shard(self.shard))

    async def start(self) -> None:
        readies = self.log().count(self.ready)
        with open(self.tmp / f"shard{self.shard}.log", "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=self.tmp, env=self.env,
                                                             stdout=log, stderr=log)
        # ready, not only connected: discord.py waits for the guilds first, then the bot restores its games
        await eventually(lambda: self.log().count(self.ready) > readies, PATIENCE, f"shard {self.shard} to be ready")

    async def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        self.kills += 1
        await eventually(lambda: not self.connected(), PATIENCE, f"the gateway to notice shard {self.shard} died")

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    def log(self) -> str:
        path = self.tmp / f"shard{self.shard}.log"
        return path.read_text(errors="replace") if path.exists() else ""


@dataclass
class Game:
    fake: FakeDiscord
    shard: int
    users: dict[str, SimUser]
    channel: Channel
    acked: dict[int, dict[str, str]] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES[self.shard]

    def script(self, turn: int) -> dict[str, str]:
        """SCRIPT's numbers, the reference players mapped onto this game's players."""
        return {mine: SCRIPT[turn][ref] for ref, mine in zip(NAMES[0], self.names, strict=True)}

    def texts(self) -> list[str]:
        return [self.fake.visible_text(m) for m in self.fake.messages(self.channel)]

    def reveals(self) -> list[str]:
        return [t for t in self.texts() if " · reveal" in t]

    def over(self) -> bool:
        return "The Number · game over" in "\n".join(self.reveals())

    def status(self) -> tuple[int, Message] | None:
        """The turn the channel asks for now (0-9) and its status message, once the reveals agree."""
        for message in reversed(self.fake.messages(self.channel)):
            found = TITLE.search(self.fake.visible_text(message))
            if found:
                turn = (int(found[1]) - 1) * 5 + int(found[2]) - 1
                return (turn, message) if len(self.reveals()) == turn else None
        return None

    def acks(self, user: SimUser, number: str) -> int:
        return sum(1 for m in self.fake.dms(user) if re.match(rf"(Locked in|Changed to) {number} ", m.content))

    async def choose(self, turn: int, name: str, number: str, status: Message, *, by_dm: bool | None = None) -> None:
        """DM or modal (alternating by player and turn unless told); returns once the bot acknowledged it."""
        user = self.users[name]
        if by_dm if by_dm is not None else (turn + self.names.index(name)) % 2 == 0:
            before = self.acks(user, number)
            await user.send_dm(number)
            await eventually(lambda: self.acks(user, number) > before, PATIENCE, f"{name}'s DM ack")
        else:
            opened = await (await user.click(status, "Choose secretly")).wait()
            assert opened.response_type == 9, opened.text()
            done = await (await user.submit_modal(opened, {"number": number})).wait()
            # the answer updates the turn message; the acknowledgement follows privately
            said = (await done.wait_followups(1))[0].content if done.response_type in (6, 7) else done.text()
            assert re.match(rf"(Locked in|Changed to) {number} ", said), done.text()
        self.acked.setdefault(turn, {})[name] = number


async def open_game(fake: FakeDiscord, shard: int) -> Game:
    users = {n: fake.add_user(n, display_name=n.capitalize()) for n in NAMES[shard]}
    guild = fake.add_guild(f"Shard {shard} night", members=list(users.values()), shard=(shard, SHARDS))
    return Game(fake, shard, users, fake.add_channel(guild, "general"))


async def start_game(game: Game) -> None:
    host, *others = game.names
    opened = await (await game.users[host].slash(game.channel, "thenumber start")).wait()
    assert opened.message is not None, opened.text()
    for name in others:
        await (await game.users[name].click(opened.message, "Join")).wait()
    started = await (await game.users[host].click(opened.message, "Start")).wait()
    assert started.response_type == 7, started.text()


async def play_turn(game: Game, bots: dict[int, BotProcess]) -> None:
    status = await eventually(game.status, PATIENCE, f"turn status on shard {game.shard}")
    turn, message = status
    for index, (name, number) in enumerate(game.script(turn).items()):
        if game.acked.get(turn, {}).get(name) is None:
            await game.choose(turn, name, number, message)
        victim = KILLS.get((game.shard, turn))
        if index == 0 and victim is not None:
            # mid-turn: one choice of this turn acknowledged, the others not made yet
            await bots[victim].kill()
            await bots[victim].start()
            message = (await eventually(game.status, PATIENCE, "the status after the restart"))[1]
    await eventually(lambda: len(game.reveals()) > turn, PATIENCE, f"turn {turn}'s reveal on shard {game.shard}")


async def test_two_shard_processes_with_a_kill_each_play_both_games_exactly(
        fake_discord: FakeDiscord, tmp_path: Path, database: dict[str, str]) -> None:
    fake = fake_discord
    games = [await open_game(fake, shard) for shard in range(SHARDS)]
    bots = {shard: BotProcess(fake, tmp_path, shard, **database) for shard in range(SHARDS)}
    try:
        for bot in bots.values():
            await bot.start()
        # a third process for a shard already running is refused, and says why
        third = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=bots[1].env,
                                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, err = await asyncio.wait_for(third.communicate(), 120)
        assert third.returncode == 2, err
        refusal = err.decode().strip().splitlines()[-1]
        assert refusal.startswith("another bot process (pid ") and "shard 1 of 2" in refusal, refusal
        assert "SHARD_IDS" in refusal, refusal
        for game in games:
            await start_game(game)
        while not all(g.over() for g in games):
            for game in games:  # the two games advance turn by turn, side by side
                if not game.over():
                    await play_turn(game, bots)
    finally:
        for bot in bots.values():
            await bot.stop()
    assert {s: b.kills for s, b in bots.items()} == {0: 2, 1: 1}

    for game in games:
        reveals = game.reveals()
        titles = [t.splitlines()[0] for t in reveals]
        assert titles == [f"The Number · round {i // 5 + 1} of 2 · turn {i % 5 + 1} of 5 · reveal"
                      for i in range(10)], titles
        for index, text in enumerate(reveals):  # every acknowledged number is the one revealed
            assert game.acked[index] == game.script(index)
            for name, number in game.script(index).items():
                assert f"`{number}` " in text and name.capitalize() in text, text
        expected = score_game(list(game.names), [[game.script(t) for t in range(5)],
                                                 [game.script(t) for t in range(5, 10)]])
        for name, total in expected["final"].items():
            assert f"{name.capitalize()}: **{total}**" in reveals[-1], reveals[-1]
    for bot in bots.values():
        assert "Traceback" not in bot.log(), bot.log()[-3000:]


async def test_a_turn_shard_0_committed_for_a_game_of_shard_1_but_never_told_is_told_once(
        fake_discord: FakeDiscord, tmp_path: Path, database: dict[str, str]) -> None:
    """Shard 0's process takes the last DM of a turn of a game on shard 1, commits the turn and dies before
    its reveal reaches Discord: shard 1's process notices the turn nobody told and tells it, once. Later,
    a turn opened by shard 0's process (a DM completed the one before) is timed by shard 1's process."""
    fake = fake_discord
    game = await open_game(fake, 1)
    bots = {shard: BotProcess(fake, tmp_path, shard, SHARD_RESYNC_SECONDS="0.3", TURN_SECONDS="15", **database)
            for shard in range(SHARDS)}
    try:
        for bot in bots.values():
            await bot.start()
        await start_game(game)
        turn, status = await eventually(game.status, PATIENCE, "the first turn")
        *first, (last, number) = game.script(turn).items()
        for name, chosen in first:
            await game.choose(turn, name, chosen, status, by_dm=True)
        hold = fake.hold_next("POST", rf"^/channels/{game.channel.id}/messages$")
        await game.users[last].send_dm(number)  # the turn is complete: shard 0's process commits and posts
        await asyncio.wait_for(hold.arrived.wait(), PATIENCE)  # a safety net: the post is the event
        await bots[0].kill()
        hold.release()  # answered 503 to a dead process: that reveal never reached Discord
        await eventually(lambda: len(game.reveals()) == 1, PATIENCE, "shard 1 to tell the turn")
        game.acked.setdefault(turn, {})[last] = number
        await bots[0].start()
        # turn 2, every choice by DM: shard 0's process reveals it and opens turn 3, and leaves its timing
        turn, status = await eventually(game.status, PATIENCE, "the second turn")
        for name, chosen in game.script(turn).items():
            await game.choose(turn, name, chosen, status, by_dm=True)
        await eventually(lambda: len(game.reveals()) == 2, PATIENCE, "turn 2's reveal")
        turn, status = await eventually(game.status, PATIENCE, "the third turn")
        name, chosen = next(iter(game.script(turn).items()))
        await game.choose(turn, name, chosen, status, by_dm=True)  # the others forget: the deadline reveals it
        await eventually(lambda: len(game.reveals()) == 3, 15 + PATIENCE, "turn 3's deadline")
    finally:
        for bot in bots.values():
            await bot.stop()
    reveals = game.reveals()
    assert [t.splitlines()[0] for t in reveals] == [f"The Number · round 1 of 2 · turn {n} of 5 · reveal"
                                                    for n in (1, 2, 3)]
    for index, text in enumerate(reveals):
        for name, chosen in game.acked[index].items():
            assert f"`{chosen}` " in text and name.capitalize() in text, text
    assert [game.acked[i] for i in (0, 1)] == [game.script(0), game.script(1)]
    assert [r.status for r in fake.requests if r is hold.caught] == [503]
    for bot in bots.values():
        assert "Traceback" not in bot.log(), bot.log()[-3000:]


async def test_a_turn_message_is_closed_once_by_the_process_that_ends_its_turn(
        fake_discord: FakeDiscord, tmp_path: Path, database: dict[str, str]) -> None:
    """A game on shard 1: its first turn message is posted by shard 1's process, and the turn is ended by a DM,
    which shard 0's process takes: shard 0's process closes that message (one edit, and at most one read to
    learn the report shown above it), and no process closes it again. The next turn message, posted by shard
    0's process, is ended by a modal submitted from it (shard 1's process): that message is closed once too,
    by the answer of the submission."""
    fake = fake_discord
    game = await open_game(fake, 1)
    bots = {shard: BotProcess(fake, tmp_path, shard, **database) for shard in range(SHARDS)}
    closes: dict[int, list[str]] = {}
    try:
        for bot in bots.values():
            await bot.start()
        await start_game(game)
        for turn, by_dm in ((0, True), (1, False), (2, True)):
            number, status = await eventually(game.status, PATIENCE, f"turn {turn}")
            assert number == turn
            mark = len(fake.requests)
            for name, chosen in game.script(turn).items():
                await game.choose(turn, name, chosen, status, by_dm=by_dm)
            await eventually(lambda t=turn: len(game.reveals()) > t, PATIENCE, f"turn {turn}'s reveal")
            await eventually(lambda t=turn + 1: (game.status() or (None,))[0] == t, PATIENCE, f"turn {turn + 1}")
            await eventually(lambda m=status: not buttons(fake.world.messages[m.id]), PATIENCE,
                             f"turn {turn}'s message closed")
            closes[status.id] = [f"{r.method} {r.status}" for r in fake.requests[mark:] if r.path.endswith(
                f"/messages/{status.id}")]
    finally:
        for bot in bots.values():
            await bot.stop()
    (first, second, third) = closes
    assert closes[first].count("PATCH 200") == 1 and closes[first].count("GET 200") <= 1, closes
    assert "PATCH 200" not in closes[second], closes  # closed by the modal's answer (an interaction callback)
    assert closes[third].count("PATCH 200") == 1 and closes[third].count("GET 200") <= 1, closes
    for message_id in closes:  # and never again
        assert [r.method for r in fake.requests if r.method == "PATCH" and r.path.endswith(
            f"/messages/{message_id}")].count("PATCH") == closes[message_id].count("PATCH 200"), closes
    for bot in bots.values():
        assert "Traceback" not in bot.log(), bot.log()[-3000:]
