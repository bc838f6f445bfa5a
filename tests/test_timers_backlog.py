"""The scheduler's backlog of overdue timers: oldest first, a few at once, paced, behind the foreground;
a cancel or a new schedule takes a waiting timer out; nothing is kept for a key once it has run. And the
restart's read of the open games: one pass for every kind."""

import asyncio
from pathlib import Path
from typing import Any

from bot.core.service import GameService
from bot.core.timers import Callback, Scheduler
from storage.base import GameRecord
from storage.sqlite import SQLiteStore
from tests.conftest import FakeClock
from tests.toy_games import BIDS, RACE


async def test_overdue_timers_run_oldest_first_a_few_at_once() -> None:
    clock = FakeClock()
    scheduler = Scheduler(clock, overdue_rate=1000.0, overdue_at_once=2)
    release = asyncio.Event()
    started: list[int] = []
    under_way = most = 0

    def job(n: int) -> Callback:
        async def run() -> None:
            nonlocal under_way, most
            started.append(n)
            under_way += 1
            most = max(most, under_way)
            await release.wait()
            under_way -= 1
        return run

    for n in range(10):
        scheduler.schedule(("deadline", n), clock.now() - n, job(n))  # game 9 is the most overdue
    assert scheduler.overdue() == 10 and all(scheduler.is_scheduled(("deadline", n)) for n in range(10))
    while len(started) < 2:
        await asyncio.sleep(0)
    for _ in range(20):
        await asyncio.sleep(0)
    assert started == [9, 8] and scheduler.overdue() == 8  # two at once: the others wait their turn
    release.set()
    while scheduler.overdue() or len(started) < 10:
        await asyncio.sleep(0.001)
    assert started == list(range(9, -1, -1)) and most == 2
    assert not any(scheduler.is_scheduled(("deadline", n)) for n in range(10))


async def test_a_cancelled_or_rescheduled_overdue_timer_does_not_run_from_the_backlog() -> None:
    clock = FakeClock()
    scheduler = Scheduler(clock, overdue_rate=1000.0, overdue_at_once=1)
    ran: list[str] = []

    def job(name: str) -> Callback:
        async def run() -> None:
            ran.append(name)
        return run

    with scheduler.foreground():  # held: nothing starts yet
        for name in "abc":
            scheduler.schedule(name, clock.now() - 1, job(name))
        scheduler.cancel("b")
        scheduler.schedule("c", clock.now() + 3600, job("c later"))  # no longer overdue
        assert scheduler.overdue() == 1
    while scheduler.overdue():
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.01)
    assert ran == ["a"] and scheduler.is_scheduled("c")
    scheduler.cancel_all()
    assert not scheduler.is_scheduled("c") and not scheduler.overdue()


async def test_the_backlog_waits_for_the_foreground() -> None:
    clock = FakeClock()
    scheduler = Scheduler(clock, overdue_rate=1000.0)
    ran = asyncio.Event()

    async def run() -> None:
        ran.set()

    with scheduler.foreground():
        scheduler.schedule("overdue", clock.now() - 1, run)
        for _ in range(50):
            await asyncio.sleep(0)
        assert not ran.is_set() and scheduler.overdue() == 1
    await asyncio.wait_for(ran.wait(), 5)


async def test_fire_due_runs_the_backlog_too() -> None:
    clock = FakeClock()
    scheduler = Scheduler(clock)
    ran: list[str] = []

    async def run() -> None:
        ran.append("x")

    with scheduler.foreground():
        scheduler.schedule("overdue", clock.now() - 1, run)
        assert await scheduler.fire_due() == 1
    assert ran == ["x"] and not scheduler.overdue()


async def test_a_restart_reads_the_open_games_in_one_pass_for_every_kind(tmp_path: Path) -> None:
    async with SQLiteStore(tmp_path / "games.sqlite3") as store:
        service = GameService(store, (RACE, BIDS), FakeClock())
        games = [await service.open_lobby(1 << 22, n, 30 + n, "a", {}, kind=kind)
                 for n, kind in enumerate(("race", "bids", "race"))]
        kinds: list[str | None] = []
        open_games = store.open_games

        async def counted(kind: str | None = None, **kwargs: Any) -> list[GameRecord]:
            kinds.append(kind)
            return await open_games(kind, **kwargs)

        store.open_games = counted  # type: ignore[method-assign]
        assert [r.id for r in await service.load_open_games()] == [g.id for g in games]
        assert kinds == [None, None]  # one page for both kinds, then the empty one that ends it
        # a kind another service runs is left to it
        assert [r.id for r in await GameService(store, (RACE,), FakeClock()).load_open_games()] == [
            games[0].id, games[2].id]
