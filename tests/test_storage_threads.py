"""A table's thread in both stores (SQLite migration 0010, PostgreSQL 0005): stored with the game, kept across a
reopening of the store (a restart), and the open table found by its channel or by its thread."""

from __future__ import annotations

from tests.backends import Backend
from tests.conftest import FakeClock

CHANNEL, THREAD = 10, 555


async def test_the_thread_is_stored_and_finds_the_open_table(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as store:
        record = await store.create_lobby("thenumber", 1, CHANNEL, 100, "Ana", {"thread": True}, clock.now())
        assert record.thread_id is None and await store.open_game_in_channel(THREAD) is None
        await store.set_message(record.id, "thread", THREAD)
    async with backend.store() as store:  # another process, or the same after a restart
        assert (await store.load_game(record.id)).thread_id == THREAD
        by_thread = await store.open_game_in_channel(THREAD)
        by_channel = await store.open_game_in_channel(CHANNEL)
        assert by_thread is not None and by_channel is not None and by_thread.id == by_channel.id == record.id
        assert (await store.open_games())[0].thread_id == THREAD
        await store.end_game(record.id, "cancelled", "test", clock.now())
        assert await store.open_game_in_channel(THREAD) is None  # a closed table no longer holds its thread
