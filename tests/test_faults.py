"""Faults from Discord and from the database: retried, refused duplicates, clean stops, busy waits."""

import asyncio
import sqlite3
import threading
from pathlib import Path

from tests.discord_world import PATIENCE, World, eventually


def posts_in(world: World) -> str:
    return rf"^/channels/{world.general.id}/messages$"


def fast_retries(world: World) -> None:
    world.bot.get_cog("Table").poster.retry_delays = (0.05, 0.1)  # type: ignore[union-attr]


async def reveal_is_caught_up_once(world: World) -> None:
    """Ben's choice ends the turn while the reveal's sends fail: no reveal, a catch-up scheduled, and one
    reveal once the catch-up runs."""
    await world.dm("ben", "240")
    await eventually(lambda: world.bot.scheduler.is_scheduled(("catch-up", 1)), what="a catch-up")
    assert world.reveals() == []
    await world.advance(31)
    await eventually(lambda: world.reveals(), what="the caught-up reveal")
    await world.wait_status("turn 2 of 5")
    assert len(world.reveals()) == 1


async def test_server_errors_on_the_reveal_are_retried_and_it_is_posted_once(world: World) -> None:
    await world.start_game(("ana", "ben"))
    fast_retries(world)
    await world.dm("ana", "513")
    world.fake.fail_next("POST", posts_in(world), 503, times=2)  # discord.py itself does not retry 503
    world.fake.fail_next("POST", posts_in(world), 502, times=1)  # ... but does retry 502, after 1 s
    await world.dm("ben", "240")
    await eventually(lambda: world.reveals(), what="the reveal after the errors")
    await world.wait_status("turn 2 of 5")
    statuses = [r.status for r in world.fake.requests_to("POST", posts_in(world))]
    assert statuses.count(503) == 2 and statuses.count(502) == 1
    assert len(world.reveals()) == 1
    # the reveal is told with the next turn's message: marked as told just after that post
    for _ in range(2000):
        record = await world.bot.store.load_game(1)
        if record.announced_phase >= 0:
            break
        await asyncio.sleep(0.01)
    assert record.announced_phase == 0


async def test_rate_limit_retry_after_is_honoured(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.dm("ana", "513")
    world.fake.fail_next("POST", posts_in(world), 429, retry_after=0.4)
    await world.dm("ben", "240")
    await eventually(lambda: world.reveals(), what="the reveal after the 429")
    posts = world.fake.requests_to("POST", posts_in(world))
    limited = next(i for i, r in enumerate(posts) if r.status == 429)
    assert posts[limited + 1].time - posts[limited].time >= 0.4  # the retry waited as told (a lower bound)
    assert len(world.reveals()) == 1


async def test_a_rate_limit_that_outlasts_discordpy_is_retried_then_caught_up(world: World) -> None:
    """Under a saturated global limit discord.py gives up after five tries with a 429: the reveal is sent
    again, and caught up later if the limit lasts, never dropped."""
    await world.start_game(("ana", "ben"))
    fast_retries(world)
    await world.dm("ana", "513")
    # discord.py's five tries for each of the bot's three sends (first and two retries): all refused
    world.fake.fail_next("POST", posts_in(world), 429, times=15, retry_after=0.01)
    await reveal_is_caught_up_once(world)


async def test_a_dm_acknowledgement_outlasting_discordpys_rate_limit_tries_is_sent_again(world: World) -> None:
    await world.start_game(("ana", "ben"))
    fast_retries(world)
    dm = world.fake.world.dm_channel(world.users["ana"].user)
    world.fake.fail_next("POST", rf"^/channels/{dm.id}/messages$", 429, times=5, retry_after=0.01)
    await world.dm("ana", "513")
    # "Locked in 513": a bare "513" also matches a channel mention whose snowflake holds those digits.
    acks = await eventually(lambda: [m for m in world.fake.dms(world.users["ana"]) if "Locked in 513" in m.content
                                     and m.author_id != world.users["ana"].id], what="the acknowledgement")
    assert len(acks) == 1


async def test_a_long_outage_is_caught_up_later(world: World) -> None:
    await world.start_game(("ana", "ben"))
    fast_retries(world)
    await world.dm("ana", "513")
    world.fake.fail_next("POST", posts_in(world), 503, times=3)  # more than the retries
    await reveal_is_caught_up_once(world)


async def test_a_deleted_channel_ends_the_game_and_tells_every_player(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.dm("ana", "513")
    await world.fake.delete_channel(world.general)
    for name in ("ana", "ben"):  # the host and the others alike (issue 34, point 13)
        note = await eventually(lambda n=name: [m for m in world.fake.dms(world.users[n])
                                                if "was stopped" in m.content])
        assert "channel was deleted" in note[0].content
    record = await world.bot.store.load_game(1)
    assert record.status == "cancelled" and [a.kind for a in record.actions] == ["start", "choose"]
    answer = await world.dm("ben", "240")
    assert "not in a game" in answer
    assert not world.bot.scheduler.is_scheduled(("deadline", 1))


async def test_losing_send_messages_ends_the_game_cleanly(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.fake.set_bot_permission(world.general, False, "send_messages")
    await world.dm("ana", "513")
    await world.dm("ben", "240")  # the reveal is refused with 403 / 50013
    for name in ("ana", "ben"):
        note = await eventually(lambda n=name: [m for m in world.fake.dms(world.users[n])
                                                if "was stopped" in m.content])
        assert "no longer allowed to post" in note[0].content
    record = await world.bot.store.load_game(1)
    assert record.status == "cancelled" and record.phase == 1  # the turn itself was kept
    refused = [r for r in world.fake.requests_to("POST", posts_in(world)) if r.status == 403]
    assert len(refused) == 1


def hold_database_lock(path: Path, locked: threading.Event, release: threading.Event) -> None:
    """Lock the whole database until ``release`` (PATIENCE at most: a safety net, the release is the event)."""
    raw = sqlite3.connect(path, timeout=30)
    raw.execute("BEGIN EXCLUSIVE")
    locked.set()
    release.wait(PATIENCE)
    raw.execute("COMMIT")
    raw.close()


async def test_a_locked_database_makes_the_bot_wait_not_lose_the_choice(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_database_lock, args=(world.db_path, locked, release))
    holder.start()
    await asyncio.to_thread(locked.wait)
    answer = await (await world.users["ben"].click(world.status_message(), "Choose secretly")).wait()
    submitted = await world.users["ben"].submit_modal(answer, {"number": "240"})
    try:
        await submitted.wait()  # answered while the database is still locked
    finally:
        release.set()
    # deferred while the database was locked, as an update of the turn message: in time, or the fake would
    # have refused it (10062); the answer then updates that message and the acknowledgement follows privately
    assert submitted.response_type == 6 and submitted.rejections == []
    edits = await submitted.wait_edits(1)
    assert "Ben" not in world.fake.visible_text(edits[0])  # no longer in the "To choose" line: he has chosen
    assert (await world.answer(submitted)).startswith("Locked in 240")
    dm_answer = await world.dm("ana", "513")
    assert dm_answer.startswith("Locked in 513")
    await asyncio.to_thread(holder.join)
    record = await world.bot.store.load_game(1)
    assert {(a.seat, a.payload.get("number")) for a in record.actions if a.kind == "choose"} == {(1, "240"),
                                                                                                  (0, "513")}


async def test_a_dm_acknowledgement_survives_a_server_error(world: World) -> None:
    await world.start_game(("ana", "ben"))
    fast_retries(world)
    world.fake.fail_next("POST", r"^/channels/\d+/messages$", 503, times=1)
    answer = await world.dm("ana", "513")
    assert answer.startswith("Locked in 513")
    assert len([m for m in world.fake.dms(world.users["ana"]) if "Locked in" in m.content]) == 1
