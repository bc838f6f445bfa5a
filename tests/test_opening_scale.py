"""Opening a table costs the same work whether few or many tables were opened before (issue 15, point 4).

Opening 2,000 tables once took 12 times as long as 200: discord.py walked every rate-limit bucket for each
new one (see bot/http_buckets.py). The same batch of openings is counted twice in one run, after a few tables
and after many, in work rather than time: lines run in the bot's code and in discord.py (any walk over the
tables, buckets, channels or views opened so far shows up there), SQLite virtual-machine steps (a query
without its index scans rows) and rate-limit bucket inspections.
"""

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import discord
import discord.http

from bench.opening import Opening
from bot.client import NumberBot
from bot.settings import Settings
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
COUNTED = tuple(str(path) + "/" for path in (ROOT / "bot", ROOT / "cogs", ROOT / "storage",
                                               Path(discord.__file__).parent))
BATCH = 48  # openings counted, each time
EARLY, LATE = 16, 400  # tables opened before each counted batch (late: past discord.py's 256 buckets)
SQLITE_STEPS = 100  # the progress handler's granularity (virtual-machine instructions per call)


class Work:
    def __init__(self) -> None:
        self.lines = 0
        self.sqlite_steps = 0
        self.inspections = 0

    def per_opening(self) -> dict[str, float]:
        return {"lines": self.lines / BATCH, "sqlite_steps": self.sqlite_steps / BATCH,
                "inspections": self.inspections / BATCH}


@contextmanager
def counting_lines(work: Work) -> Iterator[None]:
    """Counts the lines run in COUNTED files on this thread (the event loop's: the bot and discord.py)."""
    def local(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        if event == "line":
            work.lines += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        return local if frame.f_code.co_filename.startswith(COUNTED) else None

    previous = sys.gettrace()  # a coverage run's tracer: back after the batch
    sys.settrace(calls)
    try:
        yield
    finally:
        sys.settrace(previous)


async def test_an_opening_costs_as_much_work_after_400_tables_as_after_16(
        fake_discord: FakeDiscord, tmp_path: Path, inspections: list[int]) -> None:
    world = Opening(fake_discord, LATE + BATCH, keep_logs=False)
    # Work, not time, is counted: the token's pace (bot/http_pacing.py) would only make the test wait.
    bot = NumberBot(Settings(_env_file=None, database_path=tmp_path / "open.sqlite3",  # type: ignore[call-arg]
                             global_requests_per_window=0))
    await bot.login(fake_discord.token)
    await fake_discord.attach(bot)
    try:
        steps = [0]

        def step() -> int:
            steps[0] += SQLITE_STEPS
            return 0  # go on

        await bot.store._run(lambda conn: conn.set_progress_handler(step, SQLITE_STEPS))  # type: ignore[attr-defined]

        async def counted_batch(first: int) -> Work:
            work = Work()
            steps[0], inspections[0] = 0, 0
            with counting_lines(work):
                await world.open(first, first + BATCH)
            work.sqlite_steps, work.inspections = steps[0], inspections[0]
            return work

        await world.open(0, EARLY)
        early = (await counted_batch(EARLY)).per_opening()
        await world.open(EARLY + BATCH, LATE)
        late = (await counted_batch(LATE)).per_opening()
        buckets = len(bot.http._buckets)
    finally:
        fake_discord.detach(bot)
        await bot.close()
    assert world.bad == 0
    assert buckets >= LATE, "every opening makes a bucket (its DM channel): the late batch is past 256"
    # Per opening the two batches agree within 1% (3,040 lines) and 5% (250 SQLite steps). Tried: with
    # discord.py's own bucket walk the late batch ran 1.4 times the lines (430 inspections per opening);
    # without the index on a channel's open game, 5 times the SQLite steps.
    assert late["lines"] <= 1.15 * early["lines"], (early, late)
    assert late["sqlite_steps"] <= 1.15 * early["sqlite_steps"], (early, late)
    assert late["inspections"] * BATCH <= 2 * buckets, (early, late)  # at most two walks in the batch
