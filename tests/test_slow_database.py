"""A slow or failing database never leaves a game stuck or a player unanswered: interactions are deferred
in time and finished, deadlines are retried until they succeed, and nothing unsaved is acknowledged."""

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest

from storage.base import GameRecord
from tests.discord_world import World, eventually
from tests.test_faults import hold_database_lock


class HeldLock:
    """Another writer holding the whole database until :meth:`release` (the test releases it once the bot has
    deferred its answer: the lock outlasts Discord's 3 s only if the bot fails to defer)."""

    def __init__(self, world: World) -> None:
        self.locked, self.released = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=hold_database_lock, args=(world.db_path, self.locked, self.released))

    def release(self) -> None:
        self.released.set()

    def join(self) -> None:
        self.released.set()
        self.thread.join()


async def locked_database(world: World) -> HeldLock:
    """The database locked by another writer (from when this returns) until the test releases it."""
    holder = HeldLock(world)
    holder.thread.start()
    await asyncio.to_thread(holder.locked.wait)
    return holder


def failing(world: World, method: str, times: int, message: str = "database is locked") -> Callable[[], int]:
    """The store's ``method`` raises sqlite3.OperationalError the next ``times`` calls (as a database locked
    past its busy timeout, or a full disk, does); returns a function counting the failures so far."""
    store = world.bot.store  # type: ignore[union-attr]
    original = getattr(store, method)
    failures = 0

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        nonlocal failures
        if failures < times:
            failures += 1
            raise sqlite3.OperationalError(message)
        return await original(*args, **kwargs)

    setattr(store, method, flaky)
    return lambda: failures


async def stored(world: World, predicate: Callable[[GameRecord], bool], game_id: int = 1) -> GameRecord:
    """Game ``game_id`` once its stored record satisfies ``predicate`` (the bot commits just after it posts)."""
    async def poll() -> GameRecord:
        while not predicate(record := await world.bot.store.load_game(game_id)):  # type: ignore[union-attr]
            await asyncio.sleep(0.01)
        return record
    return await asyncio.wait_for(poll(), 5)


def fast_backoff(world: World) -> None:
    world.bot.get_cog("Table").state.backoff_delays = (0.05, 0.1)  # type: ignore[union-attr]


# Interactions answered in time ----------------------------------------------------------------------
async def test_start_is_deferred_and_the_game_gets_its_status_message_and_timer(world: World) -> None:
    lobby = await world.open_table(("ana", "ben"))
    holder = await locked_database(world)
    started = await (await world.users["ana"].click(lobby, "Start")).wait(timeout=3)
    assert started.response_type == 6 and not started.rejections  # deferred within Discord's 3 s
    holder.release()
    status = await eventually(world._status_or_none, timeout=10, what="the first turn's status message")
    assert "turn 1 of 5" in world.fake.visible_text(status)
    assert "has started" in world.fake.visible_text(world.fake.world.messages[lobby.id]).lower() or \
        world.fake.world.messages[lobby.id].components == []
    assert world.bot.scheduler.is_scheduled(("deadline", 1))
    await asyncio.to_thread(holder.join)
    record = await stored(world, lambda r: r.status_message_id is not None)
    assert record.status == "running" and record.status_message_id == status.id


async def test_slash_start_is_deferred_and_its_lobby_shown(world: World) -> None:
    holder = await locked_database(world)
    opened = await (await world.users["ana"].slash(world.general, "thenumber start")).wait(timeout=3)
    assert opened.response_type == 5 and not opened.ephemeral
    holder.release()
    await opened.wait_edits(1, timeout=10)  # the lobby replaces the "thinking" message
    lobby = world.fake.world.messages[opened.original_message_id]  # type: ignore[index]
    assert "Join" in world.fake.visible_text(lobby)
    await asyncio.to_thread(holder.join)
    record = await stored(world, lambda r: r.lobby_message_id is not None)
    assert record.status == "lobby" and record.lobby_message_id == lobby.id
    joined = await (await world.users["ben"].click(lobby, "Join")).wait()
    assert joined.response_type == 7 and "Ben" in joined.text()


async def test_join_is_deferred_and_the_lobby_shows_the_new_player(world: World) -> None:
    lobby = await world.open_table(("ana",))
    holder = await locked_database(world)
    joined = await (await world.users["ben"].click(lobby, "Join")).wait(timeout=3)
    assert joined.response_type == 6 and not joined.rejections
    holder.release()
    await eventually(lambda: "Ben" in world.fake.visible_text(world.fake.world.messages[lobby.id]), timeout=10,
                     what="the lobby to show Ben")
    await asyncio.to_thread(holder.join)


async def test_a_lobby_nobody_could_see_is_closed_and_frees_the_channel(world: World) -> None:
    world.fake.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", 400, code=50035)
    await world.users["ana"].slash(world.general, "thenumber start")
    await eventually(lambda: [r for r in world.fake.requests_to("POST", r"/callback$") if r.status == 400],
                     what="the refused answer")
    record = await stored(world, lambda r: r.status != "lobby")  # the undo follows the refused answer
    assert record.status == "cancelled"
    opened = await (await world.users["ben"].slash(world.general, "thenumber start")).wait()
    assert opened.message is not None and "Join" in world.fake.visible_text(opened.message)


# Deadlines retried ----------------------------------------------------------------------------------
@pytest.mark.parametrize("fault", ["database is locked", "database or disk is full"])
async def test_a_failing_deadline_is_retried_until_the_turn_is_revealed(world: World, fault: str,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    await world.start_game(("ana", "ben"))
    fast_backoff(world)
    await world.dm("ana", "513")
    failures = failing(world, "resolve_phase", times=3, message=fault)
    with caplog.at_level(logging.WARNING):
        await world.advance(61)
        reveal = await eventually(lambda: world.reveals(), timeout=10, what="the reveal after the retries")
    assert failures() == 3
    assert "Ben ⌛ missing" in world.fake.visible_text(reveal[0])
    assert sum("the deadline of step 0 failed" in r.getMessage() for r in caplog.records) == 3
    await world.wait_status("turn 2 of 5")
    assert world.bot.scheduler.is_scheduled(("deadline", 1))


async def test_a_reveal_whose_recording_fails_is_caught_up(world: World) -> None:
    await world.start_game(("ana", "ben"))
    fast_backoff(world)
    await world.dm("ana", "513")
    failing(world, "mark_announced", times=2, message="database or disk is full")
    await world.dm("ben", "240")
    await world.wait_status("turn 2 of 5")
    record = await stored(world, lambda r: r.announced_phase == 0)
    assert record.status_message_id is not None and len(world.reveals()) == 1


# Nothing unsaved acknowledged ----------------------------------------------------------------------
@pytest.mark.parametrize("method", ["record_choice", "open_game_of_user"])
async def test_a_dm_during_an_outage_is_answered_but_never_acknowledged(world: World, method: str) -> None:
    await world.start_game(("ana", "ben"))
    failing(world, method, times=1)
    answer = await world.dm("ana", "513")
    assert answer == "I could not save that, try again in a moment."
    assert not any("Locked in" in m.content for m in world.fake.dms(world.users["ana"]))
    record = await world.bot.store.load_game(1)
    assert [a for a in record.actions if a.kind == "choose"] == []
    assert (await world.dm("ana", "513")).startswith("Locked in 513")  # the database is back


async def test_a_modal_during_an_outage_is_answered_but_never_acknowledged(world: World) -> None:
    await world.start_game(("ana", "ben"))
    failing(world, "record_choice", times=1, message="database or disk is full")
    answer = await world.modal("ana", "513")
    assert answer.ephemeral and answer.content == "I could not save that, try again in a moment."
    assert (await world.answer(await world.modal("ana", "513"))).startswith("Locked in 513")
