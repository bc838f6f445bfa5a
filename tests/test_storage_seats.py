"""Seats stay numbered 0..n-1 in seating order: a game's rules number their seats by position, so a player
who leaves a lobby must not leave a gap (a game started with seats 0 and 2 would wait for the wrong seat)."""


from bot.core.service import GameService
from bot.games import GAMES
from tests.backends import Backend
from tests.conftest import FakeClock


async def test_leaving_a_lobby_closes_the_gap_in_seating_order(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as store:
        record = await store.create_lobby("numeri", 1, 10, 100, "Ana", {}, clock.now())
        for user, name in ((101, "Ben"), (102, "Cy"), (103, "Dee")):
            await store.seat_player(record.id, user, name, 4, clock.now())
        await store.unseat_player(record.id, 1, "left", clock.now())  # Ben leaves
        seats = (await store.load_game(record.id)).seats
        assert [(s.seat, s.name) for s in seats] == [(0, "Ana"), (1, "Cy"), (2, "Dee")]
        again = await store.seat_player(record.id, 104, "Eve", 4, clock.now())
        assert again.seat == 3


async def test_a_game_started_after_someone_left_asks_the_seats_that_are_there(backend: Backend,
                                                                               clock: FakeClock) -> None:
    async with backend.store() as store:
        service = GameService(store, GAMES, clock)
        record = await service.open_lobby(1, 10, 100, "Ana", {}, kind="numeri")
        await service.join(record.id, 101, "Ben")
        await service.join(record.id, 102, "Cy")
        await service.leave_lobby(record.id, 101)
        await service.start(record.id, 100)
        table = await service.table(record.id)
        assert table.prompt is not None
        assert table.prompt.seats <= {s.seat for s in table.record.seated}
        assert sorted(s.seat for s in table.record.seats) == list(range(len(table.record.seats)))
