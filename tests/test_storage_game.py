"""Whole games through the store: round trip, exactly-once resolution, concurrency, export."""

import asyncio
import json
import random

import pytest

from bot.core.errors import AlreadySeated, NotHost, TurnOver
from bot.core.service import GameService
from bot.games.thenumber.engine import new_game, play_turn
from bot.games.thenumber.replay import replay_text
from cogs.thenumber.records import rebuild, replay_script, seat_key
from storage.base import AlreadyPlaying, ChannelBusy, GameFull, GameStore, StalePhase
from tests.backends import Backend
from tests.conftest import FakeClock
from tests.play_helpers import legal_number, number_service, open_running_game
from tests.reference_scorer import score_game


async def test_whole_game_round_trip_rebuilds_the_engine_state(backend: Backend, clock: FakeClock) -> None:
    rng = random.Random(5)
    users = [11, 12, 13, 14]
    async with backend.store() as store:
        service = number_service(store, clock)
        record = await open_running_game(service, 100, users)
        engine_state = new_game([seat_key(i) for i in range(len(users))])
        for _ in range(10):
            table = await service.table(record.id)
            numbers = {}
            reports = []
            for i, uid in enumerate(users):
                if rng.random() < 0.1 or table.state.is_exhausted(seat_key(i)):
                    continue  # this player misses the turn
                numbers[seat_key(i)] = legal_number(table.state, i, rng)
                reports += (await service.act(record.id, uid, text=numbers[seat_key(i)])).reports
            if not reports:  # someone missed it: the timer reveals the turn
                clock.advance(61)
                reports = await service.expire(record.id, table.record.phase)
            assert len(reports) == 1
            engine_state, outcome = play_turn(engine_state, numbers)
            assert reports[0].event == outcome
        assert engine_state.finished

    async with backend.store() as store:  # a new process, say
        loaded = await store.load_game(record.id)
        assert loaded.status == "finished" and loaded.phase == 10
        rebuilt = rebuild(loaded)
        assert rebuilt.final_scores() == engine_state.final_scores()
        assert rebuilt.history == engine_state.history
        script = replay_script(loaded)
        result = replay_text(json.dumps(script))
        assert result == score_game(script["players"], script["rounds"])
        assert list(result["final"].values()) == [engine_state.final_scores()[seat_key(i)] for i in range(4)]


async def test_a_restarted_service_keeps_acknowledged_choices(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as store:
        service = number_service(store, clock)
        record = await open_running_game(service, 100, [1, 2, 3])
        await service.act(record.id, 1, text="513")
        await service.act(record.id, 2, text="７８０")  # normalised before it is stored
    async with backend.store() as store:
        service = number_service(store, clock)
        open_games = await service.load_open_games()
        assert [g.id for g in open_games] == [record.id]
        table = await service.table(record.id)
        assert table.drafts == {0: {"number": "513"}, 1: {"number": "780"}}
        assert [table.seat(s).user_id for s in table.awaited()] == [3]
        done = await service.act(record.id, 3, text="999")  # the last number: the turn is revealed
        assert [r.step for r in done.reports] == [0] and done.reports[0].event.results["0"].points == 5


async def test_two_coroutines_racing_resolve_a_turn_once(store: GameStore, clock: FakeClock) -> None:
    service = number_service(store, clock)
    record = await open_running_game(service, 100, [1, 2])
    await service.act(record.id, 1, text="123")
    outcomes = await asyncio.gather(service.act(record.id, 2, text="456"), service.expire(record.id, 0),
                                    service.expire(record.id, 0), return_exceptions=True)
    reports = [o.reports if hasattr(o, "reports") else o for o in outcomes]
    assert sum(len(r) for r in reports if isinstance(r, list)) == 1
    loaded = await store.load_game(record.id)
    assert loaded.phase == 1 and sum(a.kind == "resolve" for a in loaded.actions) == 1


async def test_two_processes_racing_resolve_a_turn_once(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as first, backend.store() as second:
        a, b = number_service(first, clock), number_service(second, clock)
        record = await open_running_game(a, 100, [1, 2, 3])
        await a.act(record.id, 1, text="123")
        await b.act(record.id, 2, text="456")  # b's cache is fresh from the database
        await a.table(record.id)  # a still has the old phase and only 1 choice in its cache
        expired, acted = await asyncio.gather(a.expire(record.id, 0), b.act(record.id, 3, text="789"),
                                              return_exceptions=True)
        # the turn is revealed once: by the timer, or by the last number; a number refused is not in it, and an
        # acknowledged one is, whoever revealed the turn (the timer may have reloaded the game after it)
        assert isinstance(expired, list)
        assert len(expired) + (len(acted.reports) if not isinstance(acted, BaseException) else 0) == 1
        assert isinstance(acted, TurnOver) or not isinstance(acted, BaseException)
        # the database guard itself: a direct second resolution is refused
        assert not await first.resolve_phase(record.id, 0, {"numbers": {}}, None, False, clock.now())
        loaded = await first.load_game(record.id)
        assert sum(a.kind == "resolve" for a in loaded.actions) == 1 and loaded.phase == 1
        step = next(a for a in loaded.actions if a.kind == "resolve").payload["step"]
        assert (step.get("2") == {"number": "789"}) == (not isinstance(acted, TurnOver))


async def test_fifty_games_of_five_with_concurrent_choices(store: GameStore, clock: FakeClock) -> None:
    service = number_service(store, clock)
    rng = random.Random(50)
    games = []
    for g in range(50):
        users = [1000 * (g + 1) + i for i in range(5)]
        games.append((await open_running_game(service, 10_000 + g, users), users))
    engines = {record.id: new_game([seat_key(i) for i in range(5)]) for record, _ in games}
    reveals: dict[int, int] = {record.id: 0 for record, _ in games}

    async def choose_then_maybe_reveal(game_id: int, uid: int, number: str) -> None:
        await asyncio.sleep(rng.random() / 1000)
        done = await service.act(game_id, uid, text=number)
        reveals[game_id] += len(done.reports)

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


async def _expire_and_count(service: GameService, game_id: int, phase: int, reveals: dict[int, int]) -> None:
    reveals[game_id] += len(await service.expire(game_id, phase))


async def test_lobby_rules_are_kept_by_the_store(store: GameStore, clock: FakeClock) -> None:
    service = number_service(store, clock)
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
    table = (await service.start(record.id, 1)).table
    with pytest.raises(StalePhase):
        await store.record_choice(record.id, 3, 0, {"number": "123"}, clock.now())
    assert table.record.deadline == clock.now() + 60 * 2  # the default turn timer


async def test_load_games_reads_a_batch_as_load_game_reads_each(store: GameStore, clock: FakeClock) -> None:
    service = number_service(store, clock)
    running = [await open_running_game(service, 20_000 + g, [3000 * (g + 1) + i for i in range(3)]) for g in range(3)]
    await service.act(running[1].id, 3000 * 2, text="513")  # a pending choice: part of the game read back
    ids = [r.id for r in running]
    batch = await store.load_games([ids[2], 999_999, ids[0], ids[1]])  # an unknown id is left out
    assert sorted(batch, key=lambda r: r.id) == [await store.load_game(i) for i in ids]
    assert await store.load_games([]) == []


async def test_open_games_are_read_in_pages_by_id(store: GameStore, clock: FakeClock) -> None:
    service = number_service(store, clock)
    games = [await open_running_game(service, 30_000 + g, [4000 * (g + 1) + i for i in range(2)]) for g in range(5)]
    lobby = await service.open_lobby(1, 30_100, 9999, "host", {"turn_seconds": 60})
    pages, after = [], 0
    while page := await store.open_games("thenumber", details=False, after=after, limit=2):
        pages.append([r.id for r in page])
        after = page[-1].id
    assert [len(p) for p in pages] == [2, 2, 2]
    assert [i for p in pages for i in p] == sorted([g.id for g in games] + [lobby.id])
