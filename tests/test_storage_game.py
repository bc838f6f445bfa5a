"""Whole games through the store: round trip, exactly-once resolution, concurrency, export."""

import asyncio
import json
import random

import pytest

from bot.core.errors import AlreadySeated, NotHost
from bot.games.thenumber.engine import new_game, play_turn
from bot.games.thenumber.replay import replay_text
from bot.services.thenumber import TheNumberService, rebuild, seat_key
from storage.base import AlreadyPlaying, ChannelBusy, GameFull, GameStore, StalePhase
from tests.backends import Backend
from tests.conftest import FakeClock
from tests.play_helpers import legal_number, open_running_game
from tests.reference_scorer import score_game


async def test_whole_game_round_trip_rebuilds_the_engine_state(backend: Backend, clock: FakeClock) -> None:
    rng = random.Random(5)
    users = [11, 12, 13, 14]
    async with backend.store() as store:
        service = TheNumberService(store, clock)
        record = await open_running_game(service, 100, users)
        engine_state = new_game([seat_key(i) for i in range(len(users))])
        for _ in range(10):
            table = await service.table(record.id)
            numbers = {}
            for i, uid in enumerate(users):
                if rng.random() < 0.1 or table.state.is_exhausted(seat_key(i)):
                    continue  # this player misses the turn
                numbers[seat_key(i)] = legal_number(table.state, i, rng)
                await service.choose(record.id, uid, numbers[seat_key(i)])
            clock.advance(61)
            report = await service.expire(record.id, table.record.phase)
            assert report is not None
            engine_state, outcome = play_turn(engine_state, numbers)
            assert report.outcome == outcome
        assert engine_state.finished

    async with backend.store() as store:  # a new process, say
        loaded = await store.load_game(record.id)
        assert loaded.status == "finished" and loaded.phase == 10
        rebuilt = rebuild(loaded)
        assert rebuilt.final_scores() == engine_state.final_scores()
        assert rebuilt.history == engine_state.history
        script = TheNumberService.replay_script(loaded)
        result = replay_text(json.dumps(script))
        assert result == score_game(script["players"], script["rounds"])
        assert list(result["final"].values()) == [engine_state.final_scores()[seat_key(i)] for i in range(4)]


async def test_a_restarted_service_keeps_acknowledged_choices(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as store:
        service = TheNumberService(store, clock)
        record = await open_running_game(service, 100, [1, 2, 3])
        await service.choose(record.id, 1, "513")
        await service.choose(record.id, 2, "７８０")  # normalised before it is stored
    async with backend.store() as store:
        service = TheNumberService(store, clock)
        open_games = await service.load_open_games()
        assert [g.id for g in open_games] == [record.id]
        table = await service.table(record.id)
        assert dict(table.state.pending) == {"0": "513", "1": "780"}
        assert [s.user_id for s in table.awaiting()] == [3]
        ack = await service.choose(record.id, 3, "999")
        assert ack.complete
        report = await service.resolve(record.id, 0)
        assert report is not None and report.outcome.results["0"].points == 5


async def test_two_coroutines_racing_resolve_a_turn_once(store: GameStore, clock: FakeClock) -> None:
    service = TheNumberService(store, clock)
    record = await open_running_game(service, 100, [1, 2])
    await service.choose(record.id, 1, "123")
    await service.choose(record.id, 2, "456")
    reports = await asyncio.gather(service.resolve(record.id, 0), service.expire(record.id, 0),
                                   service.resolve(record.id, 0))
    assert sum(r is not None for r in reports) == 1
    loaded = await store.load_game(record.id)
    assert loaded.phase == 1 and sum(a.kind == "resolve" for a in loaded.actions) == 1


async def test_two_processes_racing_resolve_a_turn_once(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as first, backend.store() as second:
        a, b = TheNumberService(first, clock), TheNumberService(second, clock)
        record = await open_running_game(a, 100, [1, 2])
        await a.choose(record.id, 1, "123")
        await b.choose(record.id, 2, "456")  # b's cache is fresh from the database
        await a.table(record.id)  # a still has the old phase and only 1 choice in its cache
        results = await asyncio.gather(a.expire(record.id, 0), b.resolve(record.id, 0))
        assert sum(r is not None for r in results) == 1
        # the database guard itself: a direct second resolution is refused
        assert not await first.resolve_phase(record.id, 0, {"numbers": {}}, None, False, clock.now())
        loaded = await first.load_game(record.id)
        assert sum(a.kind == "resolve" for a in loaded.actions) == 1 and loaded.phase == 1


async def test_fifty_games_of_five_with_concurrent_choices(store: GameStore, clock: FakeClock) -> None:
    service = TheNumberService(store, clock)
    rng = random.Random(50)
    games = []
    for g in range(50):
        users = [1000 * (g + 1) + i for i in range(5)]
        games.append((await open_running_game(service, 10_000 + g, users), users))
    engines = {record.id: new_game([seat_key(i) for i in range(5)]) for record, _ in games}
    reveals: dict[int, int] = {record.id: 0 for record, _ in games}

    async def choose_then_maybe_reveal(game_id: int, uid: int, number: str) -> None:
        await asyncio.sleep(rng.random() / 1000)
        ack = await service.choose(game_id, uid, number)
        if ack.complete and await service.resolve(game_id, ack.table.record.phase):
            reveals[game_id] += 1

    for _ in range(10):
        jobs, turn_numbers = [], {}
        for record, users in games:
            table = await service.table(record.id)
            numbers = {seat_key(i): legal_number(table.state, i, rng) for i in range(5)
                       if not table.state.is_exhausted(seat_key(i))}
            turn_numbers[record.id] = numbers
            jobs += [choose_then_maybe_reveal(record.id, users[int(k)], n) for k, n in numbers.items()]
            if not numbers:  # everyone exhausted: nobody will choose, so the timer reveals the turn
                jobs.append(_expire_and_count(service, record.id, table.record.phase, reveals))
        rng.shuffle(jobs)
        await asyncio.gather(*jobs)
        for record, _ in games:
            engines[record.id], _ = play_turn(engines[record.id], turn_numbers[record.id])

    for record, _ in games:
        loaded = await store.load_game(record.id)
        assert loaded.status == "finished" and reveals[record.id] == 10
        assert sum(a.kind == "resolve" for a in loaded.actions) == 10
        assert rebuild(loaded).final_scores() == engines[record.id].final_scores()


async def _expire_and_count(service: TheNumberService, game_id: int, phase: int, reveals: dict[int, int]) -> None:
    if await service.expire(game_id, phase):
        reveals[game_id] += 1


async def test_lobby_rules_are_kept_by_the_store(store: GameStore, clock: FakeClock) -> None:
    service = TheNumberService(store, clock)
    record = await service.open_lobby(1, 100, 1, "ana", {})
    with pytest.raises(ChannelBusy):
        await service.open_lobby(1, 100, 9, "zed", {})
    with pytest.raises(AlreadyPlaying) as info:
        await service.open_lobby(1, 200, 1, "ana", {})
    assert "<#100>" in str(info.value)
    with pytest.raises(AlreadySeated):
        await service.join(record.id, 1, "ana")
    for uid in (2, 3, 4, 5):
        await service.join(record.id, uid, f"u{uid}")
    with pytest.raises(GameFull):
        await service.join(record.id, 6, "six")
    with pytest.raises(NotHost):
        await service.start(record.id, 2)
    table = await service.start(record.id, 1)
    with pytest.raises(StalePhase):
        await store.record_choice(record.id, 3, 0, {"number": "123"}, clock.now())
    assert table.record.deadline == clock.now() + 60 * 2  # the default turn timer
