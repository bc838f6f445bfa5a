"""Load: 200 concurrent games of 5 players through the full stack (fake Discord, real discord.py parsing,
real SQLite) finish with the right scores, and every interaction is answered within Discord's 3 s."""

import asyncio
import os
import random
import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import NumberBot
from bot.settings import Settings
from tests.conftest import FakeClock
from tests.fakediscord import Channel, FakeDiscord, InteractionResult, Message, SimUser
from tests.reference_scorer import score_game

GAMES = int(os.environ.get("LOAD_GAMES", "200"))
REVEAL = re.compile(r"Round \d · Turn \d: reveal")
TITLE = re.compile(r"Round (\d) of 2 · Turn (\d) of 5: choose")
SEATS = 5
THINK_SECONDS = 5.0  # each choice comes up to this long after the turn opens
OPENING_GAP = 0.05  # seconds between two tables opening: 200 tables open within 10 s, then all play at once


def number_for(seat: int, turn: int) -> str:
    """A digit the seat has not used this round (so always legal), written three times."""
    digit = (seat + 2 * (turn % 5)) % 10
    return str(digit) * 3


class Game:
    def __init__(self, fake: FakeDiscord, channel: Channel, users: list[SimUser]) -> None:
        self.fake, self.channel, self.users = fake, channel, users
        self.interactions: list[InteractionResult] = []
        self.rng = random.Random(channel.id)
        self.seen = 0
        self.reveal_texts: list[str] = []
        self.statuses: dict[int, Message] = {}

    def refresh(self) -> None:
        """Read only the channel's new messages (200 tables polling whole channels would starve the bot)."""
        fresh = self.fake.world.by_channel.get(self.channel.id, [])[self.seen:]
        self.seen += len(fresh)
        for message in fresh:
            if message.ephemeral:  # private answers to the players, not the channel's story
                continue
            text = self.fake.visible_text(message)
            if REVEAL.match(text):
                self.reveal_texts.append(text)
            found = TITLE.search(text)
            if found:
                self.statuses[(int(found[1]) - 1) * 5 + int(found[2]) - 1] = message

    def reveals(self) -> list[str]:
        self.refresh()
        return self.reveal_texts

    def status(self, turn: int) -> Message | None:
        self.refresh()
        return self.statuses.get(turn)

    async def wait(self, predicate: Callable[[], Any], what: str) -> Any:
        deadline = time.monotonic() + 120
        while not (value := predicate()):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.05)
        return value

    async def track(self, pending: InteractionResult) -> InteractionResult:
        self.interactions.append(pending)
        return await pending.wait(timeout=10)

    async def play(self, delay: float) -> None:
        await asyncio.sleep(delay)  # tables open over a few seconds, as they would on a real server
        host = self.users[0]
        opened = await self.track(await host.slash(self.channel, "thenumber start"))
        # On a busy machine the answer may be deferred first: the lobby replaces the "thinking" message.
        await self.wait(lambda: opened.message is not None and opened.message.components, "the lobby's buttons")
        for user in self.users[1:]:
            await self.track(await user.click(opened.message, "Join"))
        await self.track(await host.click(opened.message, "Start"))
        for turn in range(10):
            status = await self.wait(lambda t=turn: self.status(t), f"turn {turn} status")
            await asyncio.gather(*(self.choose(seat, turn, status) for seat in range(SEATS)))
            await self.wait(lambda t=turn: len(self.reveals()) > t, f"turn {turn} reveal")

    async def choose(self, seat: int, turn: int, status: Message) -> None:
        """Each player thinks a moment, as people do, then one per table uses the private form and the
        others DM the bot. (Everyone at the same millisecond would measure a queue, not the bot.)"""
        await asyncio.sleep(self.rng.uniform(0, THINK_SECONDS))
        user = self.users[seat]
        if seat == 0:
            form = await self.track(await user.click(status, "Choose secretly"))
            await self.track(await user.submit_modal(form, {"number": number_for(seat, turn)}))
        else:
            await user.send_dm(number_for(seat, turn))


@pytest.fixture
async def lean_fake() -> AsyncIterator[FakeDiscord]:
    """The fake without the OpenAPI layer: every other test validates bodies; here it would be most of the
    run time, and the same bodies are validated elsewhere."""
    async with FakeDiscord(spec_path=None) as fake:
        yield fake
    assert not fake.violations


async def test_two_hundred_concurrent_games(lean_fake: FakeDiscord, tmp_path: Path) -> None:
    fake = lean_fake
    users = [fake.add_user(f"p{i}", display_name=f"P{i}") for i in range(GAMES * SEATS)]
    guild = fake.add_guild("Load", members=users)
    games = [Game(fake, fake.add_channel(guild, f"table-{g}"), users[g * SEATS:(g + 1) * SEATS])
             for g in range(GAMES)]
    settings = Settings(_env_file=None, database_path=tmp_path / "load.sqlite3",  # type: ignore[call-arg]
                        turn_seconds=600, dm_replies_per_window=1000)
    bot = NumberBot(settings, clock=FakeClock())
    await bot.login(fake.token)
    await fake.attach(bot)
    try:
        await asyncio.gather(*(game.play(index * OPENING_GAP) for index, game in enumerate(games)))
    finally:
        await bot.close()

    names = [f"P{i}" for i in range(SEATS)]
    script = [{names[s]: number_for(s, t) for s in range(SEATS)} for t in range(10)]
    expected = score_game(names, [script[:5], script[5:]])
    latencies = []
    for game in games:
        reveals = game.reveals()
        assert len(reveals) == 10 and "Game over" in reveals[-1]
        for seat, name in enumerate(names):
            shown = game.users[seat].user.display_name if hasattr(game.users[seat], "user") else name
            assert f"{shown}: **" in reveals[-1]
        final = reveals[-1]
        for seat in range(SEATS):
            total = expected["final"][names[seat]]
            assert f"P{games.index(game) * SEATS + seat}: **{total}**" in final
        latencies += [i.latency for i in game.interactions]
        assert all(i.rejections == [] for i in game.interactions)
    assert len(latencies) == GAMES * (1 + (SEATS - 1) + 1 + 10 * 2)
    slowest = max(latency for latency in latencies if latency is not None)
    print(f"{len(latencies)} interactions, slowest first answer {slowest:.3f} s")
    assert slowest < 3.0
