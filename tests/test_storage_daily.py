"""Daily tables in both stores (SQLite migration 0009, PostgreSQL 0004): a reminder is claimed once whatever
the number of claimers, the /notify summary switch and one summary a day, and a player's running games."""

from __future__ import annotations

import asyncio

from tests.backends import Backend
from tests.conftest import FakeClock


async def test_a_reminder_is_claimed_exactly_once(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as store, backend.store() as other:  # two processes, say
        record = await store.create_lobby("thenumber", 1, 10, 100, "Ana", {"pace": "daily"}, clock.now())
        claims = await asyncio.gather(*(s.claim_reminder(record.id, 0, "half", clock.now())
                                        for s in (store, other) for _ in range(5)))
        assert sorted(claims) == [False] * 9 + [True]
        assert await store.claim_reminder(record.id, 0, "near", clock.now())  # another slot
        assert await store.claim_reminder(record.id, 1, "half", clock.now())  # the next step's
        assert not await other.claim_reminder(record.id, 1, "half", clock.now())
        days = await asyncio.gather(*(s.claim_summary(7, "2027-01-15", clock.now()) for s in (store, other, store)))
        assert sorted(days) == [False, False, True]
        assert await other.claim_summary(7, "2027-01-16", clock.now())  # the next day's


async def test_the_summary_switch_is_on_by_default_and_kept_beside_the_other_settings(backend: Backend) -> None:
    async with backend.store() as store:
        assert await store.get_summary(7) is True
        await store.set_notify(7, False, True)
        await store.set_summary(7, False)
        assert await store.get_summary(7) is False and await store.get_notify(7) == (False, True)
        await store.set_summary(8, False)  # no row yet: the others stay on
        assert await store.get_notify(8) == (True, True)
        await store.set_notify(8, True, False)
        assert await store.get_summary(8) is False
    async with backend.store() as store:
        assert await store.get_summary(7) is False and await store.get_summary(9) is True


async def test_the_running_games_of_a_player_in_any_server(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as store:
        first = await store.create_lobby("thenumber", 1, 10, 100, "Ana", {}, clock.now())
        await store.seat_player(first.id, 101, "Ben", 5, clock.now())
        await store.start_game(first.id, clock.now() + 60, clock.now(), {"seed": 1})
        lobby = await store.create_lobby("numeri", 2, 20, 102, "Cy", {}, clock.now())
        assert [g.id for g in await store.running_games_of_user(101)] == [first.id]
        assert await store.running_games_of_user(102) == []  # a lobby is not waiting for anyone
        assert lobby.status == "lobby"
