"""Timers that fall due together start a few at a time: the loop turns between them (players' interactions get
their turns), and every one of them still runs, in the order they fell due. Counted in turns of the loop, never
timed."""

import asyncio
import time
from collections import Counter

from bot.core.timers import Callback, Scheduler
from tests.conftest import FakeClock

TIMERS, AT_ONCE = 1000, 8


async def test_a_thousand_timers_due_at_once_start_in_small_batches_between_turns_of_the_loop() -> None:
    clock = FakeClock()
    scheduler = Scheduler(clock, due_at_once=AT_ONCE)
    turn = 0
    started_in_turn: Counter[int] = Counter()
    order: list[int] = []
    under_way = most = 0

    async def ticker() -> None:  # runs once per turn of the loop
        nonlocal turn
        while True:
            turn += 1
            await asyncio.sleep(0)

    def job(n: int) -> Callback:
        async def run() -> None:
            nonlocal under_way, most
            started_in_turn[turn] += 1
            order.append(n)
            under_way += 1
            most = max(most, under_way)
            await asyncio.sleep(0)  # a round trip of its own (the database, a post)
            under_way -= 1
        return run

    ticking = asyncio.create_task(ticker())
    try:
        for n in range(TIMERS):
            scheduler.schedule(("deadline", n), clock.now() + 0.01, job(n))
        time.sleep(0.02)  # the loop is busy elsewhere: when it looks again, all of them are due together
        while len(order) < TIMERS:
            await asyncio.sleep(0.001)
    finally:
        ticking.cancel()
    assert order == list(range(TIMERS))
    assert most <= AT_ONCE and max(started_in_turn.values()) <= AT_ONCE
    assert len(started_in_turn) >= TIMERS // AT_ONCE  # spread over many turns of the loop
    assert not any(scheduler.is_scheduled(("deadline", n)) for n in range(TIMERS))


async def test_a_due_timer_cancelled_before_it_started_does_not_run() -> None:
    clock = FakeClock()
    scheduler = Scheduler(clock, due_at_once=1)
    release = asyncio.Event()
    ran: list[str] = []

    def job(name: str) -> Callback:
        async def run() -> None:
            ran.append(name)
            await release.wait()
        return run

    for name in "abc":
        scheduler.schedule(name, clock.now() + 0.001, job(name))
    while not ran:
        await asyncio.sleep(0.001)
    assert scheduler.is_scheduled("b") and scheduler.is_scheduled("c")  # due, waiting for their turn
    scheduler.cancel("b")
    release.set()
    while len(ran) < 2:
        await asyncio.sleep(0.001)
    for _ in range(10):
        await asyncio.sleep(0)
    assert ran == ["a", "c"]
