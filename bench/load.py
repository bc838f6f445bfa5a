"""Load: many concurrent games of 5 players through the full stack (the local fake Discord, real discord.py
parsing, real SQLite), every one checked against the reference scorer, and how long the slowest first answer
to an interaction took (Discord wants one within 3 s).

``python -m bench.load [--games 200]`` prints the figures; ``python -m bench --only load`` puts them in the
table. The default test suite plays a few tables with the same code (tests/test_load.py) for correctness
only: timings depend on the machine and are measured here, never asserted in tests.
"""

import argparse
import asyncio
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.client import NumberBot
from bot.settings import Settings
from tests.conftest import FakeClock
from tests.fakediscord import Channel, FakeDiscord, InteractionResult, Message, SimUser
from tests.reference_scorer import score_game

from .common import Figure, percentile, summary

REVEAL = re.compile(r"The Number · round \d of 2 · turn \d of 5 · reveal")
TITLE = re.compile(r"^The Number · round (\d) of 2 · turn (\d) of 5$", re.M)  # a turn's, not its reveal's
SEATS = 5
TURNS = 10
DISCORD_ANSWER_LIMIT = 3.0


def number_for(seat: int, turn: int) -> str:
    """A digit the seat has not used this round (so always legal), written three times."""
    digit = (seat + 2 * (turn % 5)) % 10
    return str(digit) * 3


class Unanswered(Exception):
    """An interaction the bot did not answer in time: its table stops there (counted as a problem)."""


class Table:
    """One channel's game, played by its five simulated players."""

    def __init__(self, fake: FakeDiscord, channel: Channel, users: list[SimUser], think_seconds: float) -> None:
        self.fake, self.channel, self.users = fake, channel, users
        self.think_seconds = think_seconds
        self.interactions: list[InteractionResult] = []
        self.rng = random.Random(channel.id)
        self.seen = 0
        self.reveal_texts: list[str] = []
        self.statuses: dict[int, Message] = {}

    def refresh(self) -> None:
        """Read only the channel's new messages (hundreds of tables polling whole channels would starve the bot)."""
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
        deadline = time.monotonic() + 600  # a safety net only: the wait ends at the event
        while not (value := predicate()):
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.channel.name}: timed out waiting for {what}")
            await asyncio.sleep(0.05)
        return value

    async def track(self, pending: InteractionResult) -> InteractionResult:
        self.interactions.append(pending)
        await pending.until(lambda r: r.response_type is not None or bool(r.rejections), 600, "an answer")
        if pending.rejections:  # e.g. answered after Discord's 3 s: this table cannot go on, the others do
            raise Unanswered(f"{self.channel.name}: Discord refused an answer: {pending.rejections[0]}")
        return pending

    async def play(self, delay: float) -> None:
        await asyncio.sleep(delay)  # tables open over a few seconds, as they would on a real server
        host = self.users[0]
        opened = await self.track(await host.slash(self.channel, "thenumber start"))
        # On a busy machine the answer may be deferred first: the lobby replaces the "thinking" message.
        await self.wait(lambda: opened.message is not None and opened.message.components, "the lobby's buttons")
        for user in self.users[1:]:
            await self.track(await user.click(opened.message, "Join"))
        await self.track(await host.click(opened.message, "Start"))
        for turn in range(TURNS):
            status = await self.wait(lambda t=turn: self.status(t), f"turn {turn} status")
            await asyncio.gather(*(self.choose(seat, turn, status) for seat in range(SEATS)))
            await self.wait(lambda t=turn: len(self.reveals()) > t, f"turn {turn} reveal")

    async def choose(self, seat: int, turn: int, status: Message) -> None:
        """Each player thinks a moment, as people do, then one per table uses the private form and the
        others DM the bot. (Everyone at the same millisecond would measure a queue, not the bot.)"""
        if self.think_seconds:
            await asyncio.sleep(self.rng.uniform(0, self.think_seconds))
        user = self.users[seat]
        if seat == 0:
            form = await self.track(await user.click(status, "Choose secretly"))
            await self.track(await user.submit_modal(form, {"number": number_for(seat, turn)}))
        else:
            await user.send_dm(number_for(seat, turn))

    def problems(self, expected_finals: dict[str, int], first_player: int) -> list[str]:
        """What is wrong with this table's game (nothing: an empty list)."""
        reveals = self.reveals()
        if len(reveals) != TURNS or "The Number · game over" not in reveals[-1]:
            return [f"{self.channel.name}: {len(reveals)} reveals, no final one"]
        wrong = [f"{self.channel.name}: P{first_player + seat} should have {expected_finals[f'P{seat}']}"
                 for seat in range(SEATS)
                 if f"P{first_player + seat}: **{expected_finals[f'P{seat}']}**" not in reveals[-1]]
        refused = [f"{self.channel.name}: Discord refused an answer: {i.rejections}"
                   for i in self.interactions if i.rejections]
        return wrong + refused


@dataclass
class LoadRun:
    tables: list[Table]
    seconds: float
    stopped: list[str]  # the tables that could not go on (an interaction left unanswered), and why

    @property
    def latencies(self) -> list[float]:
        return [i.latency for t in self.tables for i in t.interactions if i.latency is not None]

    def problems(self) -> list[str]:
        names = [f"P{i}" for i in range(SEATS)]
        script = [{names[s]: number_for(s, t) for s in range(SEATS)} for t in range(TURNS)]
        finals = score_game(names, [script[:5], script[5:]])["final"]
        found = list(self.stopped)
        found += [p for n, table in enumerate(self.tables) for p in table.problems(finals, n * SEATS)]
        expected = len(self.tables) * (1 + (SEATS - 1) + 1 + TURNS * 2)
        if len(self.latencies) != expected:
            found.append(f"{len(self.latencies)} interactions answered, {expected} expected")
        return found


async def play_tables(fake: FakeDiscord, database: Path, games: int, *, think_seconds: float,
                      opening_gap: float) -> LoadRun:
    """``games`` tables of five, all in one server, played to the end against one bot."""
    users = [fake.add_user(f"p{i}", display_name=f"P{i}") for i in range(games * SEATS)]
    guild = fake.add_guild("Load", members=users)
    tables = [Table(fake, fake.add_channel(guild, f"table-{g}"), users[g * SEATS:(g + 1) * SEATS], think_seconds)
              for g in range(games)]
    settings = Settings(_env_file=None, database_path=database,  # type: ignore[call-arg]
                        turn_seconds=600, dm_replies_per_window=1000)
    bot = NumberBot(settings, clock=FakeClock())
    await bot.login(fake.token)
    await fake.attach(bot)
    started = time.perf_counter()
    try:
        outcomes = await asyncio.gather(*(table.play(index * opening_gap) for index, table in enumerate(tables)),
                                        return_exceptions=True)
    finally:
        fake.detach(bot)  # no event may reach a closed client
        await bot.close()
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, Unanswered):
            raise outcome
    return LoadRun(tables, time.perf_counter() - started, [str(o) for o in outcomes if isinstance(o, Unanswered)])


async def _measure(games: int) -> LoadRun:
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        async with FakeDiscord(spec_path=None) as fake:  # the OpenAPI layer is checked by the test suite
            # 200 tables open within 10 s, then all play at once
            run = await play_tables(fake, Path(tmp) / "load.sqlite3", games, think_seconds=5.0,
                                    opening_gap=0.05)
        if fake.violations:
            raise AssertionError("\n".join(fake.violations))
    return run


def run(quick: bool = False, games: int | None = None) -> list[Figure]:
    games = games or (50 if quick else 200)
    result = asyncio.run(_measure(games))
    problems = result.problems()
    latencies = result.latencies
    slowest = max(latencies)
    note = f"{len(latencies)} interactions, {games} tables of {SEATS}, played in {result.seconds:.0f} s"
    if problems:  # a figure that says what went wrong, not a crash of the whole run
        note += f"; {len(problems)} PROBLEMS, e.g. {'; '.join(problems[:3])}"
    return [
        Figure("load.slowest_answer_s", f"slowest first answer, {games} concurrent games", "s",
               summary([slowest]), target=f"< {DISCORD_ANSWER_LIMIT:g}, every game right",
               met=slowest < DISCORD_ANSWER_LIMIT and not problems, note=note),
        Figure("load.p99_answer_ms", f"p99 first answer, {games} concurrent games", "ms",
               summary([percentile(latencies, 99) * 1000])),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="concurrent tables of five (default 200)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    for figure in run(games=args.games):
        print(f"{figure.label}: {figure.stats['median']:.3f} {figure.unit}"
              f"{f' (target {figure.target}: ' + ('met' if figure.met else 'MISSED') + ')' if figure.target else ''}")
        if figure.note:
            print(f"  {figure.note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
