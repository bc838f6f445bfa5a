"""The bot paces its own requests under Discord's global limit (bot/http_pacing.py): a burst never earns a 429,
and interaction answers, which Discord does not count, never queue behind the paced requests.

The real bot against the fake with its global limit on (50 requests per second, fixed windows); the bot paces at
its defaults (48 per second, a sliding window). Every wait is for an event; nothing is timed.
"""

import asyncio
import logging
from pathlib import Path

import discord
import pytest

from bot.client import NumberBot
from bot.http_pacing import BACKGROUND, URGENT, GlobalPacer
from bot.settings import Settings
from tests.discord_world import World, eventually

POSTS, DMS = 100, 20  # 140 counted requests at once (a DM opens its channel first): three windows' worth


def refused(world: World) -> list[str]:
    return [f"{r.method} {r.path}" for r in world.fake.requests if r.status == 429]


def pacer(bot: NumberBot) -> GlobalPacer:
    assert bot.pacer is not None  # the default settings pace
    return bot.pacer


async def test_a_burst_of_posts_and_dms_gets_no_429_and_every_message_arrives(world: World) -> None:
    bot = world.bot
    assert bot is not None
    limit = world.fake.limit_globally(sliding=True)
    channel = bot.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    users = list(world.users.values())

    async def dm(n: int) -> None:  # each opens its DM channel (a counted request) and posts in it
        await (await bot.create_dm(discord.Object(users[n % len(users)].user.id))).send(f"dm {n}")

    await asyncio.gather(*(channel.send(f"post {n}") for n in range(POSTS)), *(dm(n) for n in range(DMS)))
    assert refused(world) == [] and limit.limited == 0
    assert sorted(m.content for m in world.fake.messages(world.general)) == sorted(f"post {n}" for n in range(POSTS))
    assert sum(len(world.fake.dms(u)) for u in users) == DMS
    assert limit.accepted >= POSTS + 2 * DMS and pacer(bot).waited > 0  # paced, not merely under the limit


async def test_an_interaction_is_answered_at_once_while_a_hundred_posts_wait(world: World) -> None:
    bot = world.bot
    assert bot is not None
    world.fake.limit_globally(sliding=True)
    channel = bot.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    backlog = [asyncio.create_task(channel.send(f"post {n}")) for n in range(100)]
    try:
        await eventually(lambda: pacer(bot).waited, what="posts waiting for the pace")
        answered = await (await world.users["ana"].slash(world.general, "thenumber start")).wait()
        assert answered.response_type is not None and not answered.rejections
        # 100 posts at 48 a second take two windows more: the answer did not wait for them.
        assert len(world.fake.messages(world.general)) < 100
        await asyncio.gather(*backlog)
    finally:
        for task in backlog:
            task.cancel()
    assert refused(world) == []


async def test_no_window_holds_more_than_its_requests_and_they_leave_in_arrival_order() -> None:
    pace = GlobalPacer(3, 0.05)
    sent: list[tuple[int, float]] = []

    async def send(n: int) -> None:
        admission = await pace.admit()
        assert admission is not None
        sent.append((n, pace.clock()))
        await pace.answered(admission)

    await asyncio.gather(*(send(n) for n in range(10)))
    assert [n for n, _ in sent] == list(range(10))
    times = [at for _, at in sent]
    # Any 4 sends in a row span a full window: no window of 0.05 s, sliding or fixed, holds more than 3.
    assert all(later - earlier >= 0.05 for earlier, later in zip(times, times[3:], strict=False))


async def test_a_slot_counts_from_when_its_request_left_not_from_when_it_was_admitted() -> None:
    """Requests admitted a window apart but held up before they left (a busy loop, a connection to wait for)
    must not leave together: while the first three have not left, a fourth is not admitted at all."""
    now = [0.0]
    pace = GlobalPacer(3, 1.0, clock=lambda: now[0])
    first = [await pace.admit() for _ in range(3)]
    now[0] = 5.0  # long after their admission, and they have still not left
    fourth = asyncio.ensure_future(pace.admit())
    await asyncio.sleep(0)
    assert not fourth.done()
    for admission in first:  # they leave now, at 5.0
        assert admission is not None
        await pace.answered(admission)
    now[0] = 5.5
    await asyncio.sleep(0)
    assert not fourth.done()  # 5.0 + 1 s: still inside the window of the three that left
    now[0] = 6.0
    assert await asyncio.wait_for(fourth, 5) is not None


async def test_a_backlog_of_background_requests_leaves_slots_for_urgent_ones() -> None:
    """Background requests may fill all but the reserve of a window: an urgent request then goes at once,
    instead of waiting up to a window for the backlog's slots to free."""
    now = [0.0]
    pace = GlobalPacer(12, 1.0, clock=lambda: now[0])
    assert pace.reserve == 2
    backlog = [asyncio.ensure_future(pace.admit(BACKGROUND)) for _ in range(12)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert sum(task.done() for task in backlog) == 10  # two slots kept for urgent requests
    urgent = asyncio.ensure_future(pace.admit(URGENT))
    for _ in range(5):
        await asyncio.sleep(0)
    assert urgent.done() and sum(task.done() for task in backlog) == 10
    for task in backlog:
        task.cancel()


async def test_waiting_requests_leave_urgent_first_then_in_arrival_order() -> None:
    now = [0.0]
    pace = GlobalPacer(1, 1.0, clock=lambda: now[0])
    held = await pace.admit()
    assert held is not None
    order: list[str] = []

    async def send(name: str, rank: int) -> None:
        admission = await pace.admit(rank)
        assert admission is not None
        order.append(name)
        await pace.answered(admission)

    waiting = [asyncio.ensure_future(send(name, rank)) for name, rank in
               [("dm 1", BACKGROUND), ("reminder", BACKGROUND), ("turn 1", URGENT), ("dm 2", BACKGROUND),
                ("turn 2", URGENT)]]
    await asyncio.sleep(0)
    await pace.answered(held)
    while not all(task.done() for task in waiting):
        now[0] += 1.0  # each waits a window for the one before it
        await asyncio.sleep(0.01)
    assert order == ["turn 1", "turn 2", "dm 1", "reminder", "dm 2"]


async def test_no_pace_when_a_proxy_paces(tmp_path: Path) -> None:
    bot = NumberBot(Settings(_env_file=None, database_path=tmp_path / "b.sqlite3",  # type: ignore[call-arg]
                             global_requests_per_window=0))
    assert bot.pacer is None and bot.http.http_trace is None


async def test_a_shutdown_under_a_paced_backlog_logs_no_error(world: World, caplog: pytest.LogCaptureFixture
                                                              ) -> None:
    """A join's how-to-play DM waits behind 100 posts for its pace when the bot shuts down: the request is cut
    short (the session is closed), which is no error of the bot's."""
    bot = world.bot
    assert bot is not None
    lobby = (await (await world.users["ana"].slash(world.general, "thenumber start")).wait()).message
    assert lobby is not None
    channel = bot.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    backlog = [asyncio.create_task(channel.send(f"post {n}")) for n in range(100)]
    await eventually(lambda: pacer(bot).waited, what="posts waiting for the pace")
    joined = await (await world.users["ben"].click(world.fake.world.messages[lobby.id], "Join")).wait()
    assert joined.response_type == 7, joined.text()
    assert not world.fake.dms(world.users["ben"])  # its DM is still waiting
    with caplog.at_level(logging.INFO):
        await world.stop_bot()
        await asyncio.gather(*backlog, return_exceptions=True)
        await eventually(lambda: "cut short by the shutdown" in caplog.text, what="the join's DM given up")
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []



async def test_under_a_full_pace_the_first_turn_message_goes_before_the_join_dms(world: World) -> None:
    """Every slot of the pace is taken when a table opens, seats two players and starts: the three how-to-play
    DMs (asked for first) wait in the background, so the turn message, asked for last, is the first to go."""
    bot = world.bot
    assert bot is not None
    held = [await pacer(bot).admit() for _ in range(pacer(bot).requests)]
    start = len(world.fake.requests)
    lobby = await world.open_table()
    started = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert started.response_type == 7, started.rejections
    await eventually(lambda: pacer(bot).waiting(URGENT) and pacer(bot).waiting(BACKGROUND),
                     what="the DMs and the turn message waiting for the pace")
    for admission in held:
        assert admission is not None
        await pacer(bot).answered(admission)
    await eventually(lambda: world._status_or_none(), what="the first turn's status message")
    await eventually(lambda: sum(len(world.fake.dms(u)) for u in world.users.values()) >= 3, what="the join DMs")
    counted = [f"{r.method} {r.path}" for r in world.fake.requests[start:]
               if not r.path.startswith(("/interactions/", "/webhooks/"))]
    first_dm = next(i for i, r in enumerate(counted) if r == "POST /users/@me/channels")
    first_post = next(i for i, r in enumerate(counted) if r == f"POST /channels/{world.general.id}/messages")
    assert first_post < first_dm, counted

