"""The generic game service on the real SQLite store, with two toy games (tests/toy_games.py)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from typing import Any

import pytest

from bot.core.errors import (
    BadOption,
    NotEnoughPlayers,
    NotFinished,
    NotHost,
    NotInGame,
    NotRunning,
    NotYourTurn,
    OptionNeedsSeats,
    TurnOver,
    UnknownLevel,
)
from bot.core.fold import step_from_json as decode_step
from bot.core.game import RuleError
from bot.core.service import GameService, Outcome, StepReport
from bot.core.table import Table, fold, seed_of
from storage.base import GameFull, GameRecord, GameStore
from tests.backends import Backend
from tests.conftest import FakeClock
from tests.toy_games import BIDS, RACE, DiceRace, RaceState

GAMES = (RACE, BIDS)
_ids = itertools.count(1)


async def new_game(service: GameService, kind: str, humans: int, ais: tuple[str, ...] = ()) -> tuple[int, list[int]]:
    """A started game: ``humans`` fresh users (the first hosts) then the AI seats. Returns (id, user ids)."""
    users = [next(_ids) * 100 + i for i in range(humans)]
    record = await service.open_lobby(1, next(_ids), users[0], f"u{users[0]}", {}, kind=kind)
    for user in users[1:]:
        await service.join(record.id, user, f"u{user}")
    for level in ais:
        await service.add_ai(record.id, users[0], level, f"ai-{level}")
    return record.id, users


def resolves(record: GameRecord) -> list[Any]:
    return [a for a in record.actions if a.kind == "resolve"]


def user_of(table: Table, seat: int) -> int:
    user = table.seat(seat).user_id
    assert user is not None
    return user


async def play_out(service: GameService, game_id: int, rng: random.Random) -> list[StepReport]:
    """Humans take random legal actions until the game ends; every report the service returned."""
    reports: list[StepReport] = []
    table = await service.table(game_id)
    while table.running:
        prompt = table.prompt
        assert prompt is not None and not prompt.chance  # chance and AI never wait for anyone
        seat = sorted(table.awaited())[0]
        assert not table.seat(seat).is_ai
        action = rng.choice(list(table.game.legal(table.state, seat) or []))
        step = table.step
        outcome = await service.act(game_id, user_of(table, seat), action=action, phase=step)
        assert outcome.ack is not None and (outcome.ack.seat, outcome.ack.step) == (seat, step)
        reports += outcome.reports
        table = outcome.table
    return reports


# Whole games -----------------------------------------------------------------------------------
async def test_dice_race_with_humans_and_ai_plays_to_the_end(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, _ = await new_game(service, "race", 2, ("greedy", "random"))
    started = await service.start(game_id, (await store.load_game(game_id)).host_id)
    reports = started.reports + await play_out(service, game_id, random.Random(1))
    record = await store.load_game(game_id)
    assert record.status == "finished"
    # every step is one resolve row, reported once, in order; chance steps are steps by nobody
    assert [r.step for r in reports] == list(range(record.phase)) == [a.phase for a in resolves(record)]
    kinds = [set(a.payload["step"]) for a in resolves(record)]
    assert kinds[0::2] == [{"chance"}] * len(kinds[0::2])
    assert {r.reason for r in reports} >= {"chance", "ai", "moved"}
    assert reports[-1].finished and RACE.result(reports[-1].after) is not None
    # folding the log gives the live state; the export folds the same way
    assert fold(RACE, record)[0] == reports[-1].after
    envelope = service.export(record)
    assert envelope["game"] == "race" and envelope["format"] == 1 and envelope["seed"] == seed_of(record)
    assert envelope["seats"] == [s.name for s in record.seats]
    state = RACE.setup(len(envelope["seats"]), envelope["options"], envelope["seed"])
    for step in envelope["steps"]:
        state, _ = RACE.apply(state, decode_step(step))
    assert state == reports[-1].after


async def test_sealed_bids_with_humans_and_ai_plays_to_the_end(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "bids", 2, ("all", "half"))
    started = await service.start(game_id, users[0])
    assert started.reports == []  # the AI seats drafted; the humans are awaited
    table = started.table
    assert table.awaited() == {0, 1} and set(table.drafts) == {2, 3}
    first = await service.act(game_id, users[0], text=" 4 ", phase=0)
    assert first.ack is not None and (first.ack.seat, dict(first.ack.action), first.ack.step) == (0, {"bid": 4}, 0)
    assert first.reports == []
    again = await service.act(game_id, users[0], text="3", phase=0)
    assert again.ack is not None and again.ack.changed and again.reports == []
    last = await service.act(game_id, users[1], action={"bid": 2}, phase=0)
    assert [r.reason for r in last.reports] == ["all-chosen"]
    assert last.reports[0].event.bids == {0: 3, 1: 2, 2: 10, 3: last.reports[0].event.bids[3]}
    reports = last.reports + await play_out(service, game_id, random.Random(2))
    record = await store.load_game(game_id)
    assert record.status == "finished" and len(reports) == 3 == record.phase
    assert fold(BIDS, record)[0] == reports[-1].after
    assert [service.report_for(record, r.step) for r in reports] == reports  # restart catch-up: the same reports
    assert await service.announced(game_id, 2) and not await service.announced(game_id, 2)


async def test_a_rule_error_stores_nothing(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "bids", 2)
    await service.start(game_id, users[0])
    before = len((await store.load_game(game_id)).actions)
    with pytest.raises(RuleError) as refused:
        await service.act(game_id, users[0], text="11")
    assert refused.value.key == "bad_bid"
    with pytest.raises(NotInGame):
        await service.act(game_id, 999_999, text="1")
    assert len((await store.load_game(game_id)).actions) == before


async def test_only_the_seat_the_step_asks_may_act(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "race", 2)
    table = (await service.start(game_id, users[0])).table
    waiting = table.game.prompt(table.state).seats  # type: ignore[union-attr]
    other = next(s for s in (0, 1) if s not in waiting)
    with pytest.raises(NotYourTurn):
        await service.act(game_id, user_of(table, other), action={"steps": 1})


# A choice bound to its step --------------------------------------------------------------------
async def test_an_action_for_an_old_step_is_refused_and_nothing_is_stored(store: GameStore,
                                                                         clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "bids", 2)
    await service.start(game_id, users[0])
    await service.act(game_id, users[0], text="1", phase=0)
    await service.act(game_id, users[1], text="1", phase=0)  # step 0 is applied
    stored = len((await store.load_game(game_id)).actions)
    with pytest.raises(TurnOver) as over:
        await service.act(game_id, users[0], text="2", phase=0)
    assert over.value.step == 1 and over.value.key == "core.error.turn_over"
    assert len((await store.load_game(game_id)).actions) == stored


async def test_a_stale_cache_cannot_store_a_draft_for_a_step_that_is_over(backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as one, backend.store() as two:
        first, second = GameService(one, GAMES, clock), GameService(two, GAMES, clock)
        game_id, users = await new_game(first, "bids", 2)
        await first.start(game_id, users[0])
        await first.table(game_id)
        await second.act(game_id, users[0], text="1")
        await second.act(game_id, users[1], text="1")  # step 0 applied by the other process
        stored = len((await one.load_game(game_id)).actions)
        with pytest.raises(TurnOver) as over:
            await first.act(game_id, users[0], text="5")  # its cache still says step 0
        assert over.value.step == 1
        assert len((await one.load_game(game_id)).actions) == stored
        assert (await first.table(game_id)).step == 1
        await second.act(game_id, users[0], text="2")
        await second.act(game_id, users[1], text="2")  # step 1 applied elsewhere too
        mine = await first.act(game_id, users[0], text="3", phase=2)  # a step newer than the cache: reload
        assert mine.ack is not None and mine.ack.step == 2


# Races across processes ------------------------------------------------------------------------
async def shuffled(rng: random.Random) -> None:
    """A random few turns of the event loop (0 to 3), so that each trial of a race starts its racers in
    another order."""
    for _ in range(rng.randint(0, 3)):
        await asyncio.sleep(0)


@pytest.mark.parametrize("trial", range(12))
async def test_acts_racing_an_expire_in_a_restarted_process_lose_no_draft(backend: Backend, clock: FakeClock,
                                                                         trial: int) -> None:
    async with backend.store() as one, backend.store() as two:
        live = GameService(one, GAMES, clock)
        game_id, users = await new_game(live, "bids", 4)
        await live.start(game_id, users[0])
        await live.act(game_id, users[0], text="1")
        restarted = GameService(two, GAMES, clock)  # a fresh instance on the same database
        if trial % 2:
            await restarted.table(game_id)  # loaded before the drafts below: its cache is behind
        rng = random.Random(trial)

        async def draft(user: int, bid: int, service: GameService) -> Outcome | None:
            await shuffled(rng)
            try:
                return await service.act(game_id, user, text=str(bid), phase=0)
            except TurnOver:
                return None

        async def expire() -> list[StepReport]:
            await shuffled(rng)
            return await restarted.expire(game_id, 0)

        # the second draft goes to the restarted process in half of the trials
        outcomes = await asyncio.gather(draft(users[1], 2, live),
                                        draft(users[2], 3, restarted if trial % 4 >= 2 else live), expire())
        record = await one.load_game(game_id)
        steps = [a for a in resolves(record) if a.phase == 0]
        assert len(steps) == 1, "step 0 resolved exactly once"
        applied = steps[0].payload["step"]
        acked = [o.ack for o in outcomes[:2] if isinstance(o, Outcome) and o.ack is not None]
        for ack in [*acked]:
            assert applied[str(ack.seat)] == dict(ack.action), "an acknowledged draft is in the committed step"
        assert applied["0"] == {"bid": 1}
        # a seat that is missing from the drafts was timed out, and recorded as such
        drafted = {0} | {a.seat for a in acked}
        assert set(steps[0].payload["timed_out"]) == {0, 1, 2, 3} - drafted
        reported = [r for o in outcomes[:2] if isinstance(o, Outcome) for r in o.reports]
        reported += outcomes[2] if isinstance(outcomes[2], list) else []
        assert [r.step for r in reported] == [0], "the one commit is reported once"


@pytest.mark.parametrize("trial", range(6))
async def test_an_open_move_racing_an_expire_elsewhere_is_applied_once_or_refused(backend: Backend, clock: FakeClock,
                                                                                trial: int) -> None:
    async with backend.store() as one, backend.store() as two:
        live = GameService(one, GAMES, clock)
        game_id, users = await new_game(live, "race", 2)
        table = (await live.start(game_id, users[0])).table
        step, mover = table.step, min(table.awaited())
        restarted = GameService(two, GAMES, clock)
        if trial % 2:
            await restarted.table(game_id)
        rng = random.Random(trial)

        async def move() -> Outcome | None:
            await shuffled(rng)
            try:
                return await live.act(game_id, users[mover], action={"steps": 2 if table.state.die > 1 else 1})
            except TurnOver:
                return None

        moved, _ = await asyncio.gather(move(), restarted.expire(game_id, step))
        record = await one.load_game(game_id)
        (applied,) = [a.payload for a in resolves(record) if a.phase == step]
        if moved is not None:
            assert moved.ack is not None and applied["step"] == {str(mover): dict(moved.ack.action)}
            assert applied["reason"] == "moved"
        else:
            assert applied == {"step": {str(mover): {"steps": 1}}, "reason": "deadline", "timed_out": [mover]}


# The cache --------------------------------------------------------------------------------------
class CountingStore:
    """The real store, with ``load_game`` counted and optionally held back to return an older record."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.loads = 0
        self.gate: asyncio.Event | None = None
        self.stale: GameRecord | None = None
        self.entered = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def load_game(self, game_id: int) -> GameRecord:
        self.loads += 1
        if self.stale is not None:
            stale, self.stale = self.stale, None  # once
            self.entered.set()
            if self.gate is not None:
                await self.gate.wait()
            return stale
        self.entered.set()
        await asyncio.sleep(0)
        return await self.store.load_game(game_id)


async def test_ten_readers_at_once_share_one_load(store: GameStore, clock: FakeClock) -> None:
    game_id, users = await new_game(GameService(store, GAMES, clock), "bids", 3)
    await GameService(store, GAMES, clock).start(game_id, users[0])
    counting = CountingStore(store)
    service = GameService(counting, GAMES, clock)  # type: ignore[arg-type]
    tables = await asyncio.gather(*(service.table(game_id) for _ in range(10)))
    assert counting.loads == 1
    assert all(t is tables[0] for t in tables)
    await service.table(game_id)
    assert counting.loads == 1


async def test_a_slow_load_of_an_older_record_never_takes_the_cache_back(store: GameStore,
                                                                        clock: FakeClock) -> None:
    writer = GameService(store, GAMES, clock)
    game_id, users = await new_game(writer, "bids", 2)
    await writer.start(game_id, users[0])
    old = await store.load_game(game_id)  # step 0, no drafts
    await writer.act(game_id, users[0], text="1")
    await writer.act(game_id, users[1], text="1")
    await writer.act(game_id, users[0], text="4")  # step 1 with one draft
    counting = CountingStore(store)
    counting.gate, counting.stale = asyncio.Event(), old
    service = GameService(counting, GAMES, clock)  # type: ignore[arg-type]
    slow = asyncio.create_task(service.table(game_id))
    await counting.entered.wait()
    service.forget(game_id)  # e.g. a refused commit: the next read must not wait for the old load
    fresh = await service.table(game_id)
    assert (fresh.step, fresh.drafts) == (1, {0: {"bid": 4}})
    # let the old load finish: it returns step 0, which the cache refuses
    assert not slow.done()
    assert counting.gate is not None
    counting.gate.set()
    late = await slow
    assert late is fresh and (await service.table(game_id)) is fresh and fresh.step == 1


# Secrets -----------------------------------------------------------------------------------------
async def test_the_seed_is_never_in_a_view_an_event_or_a_log(store: GameStore, clock: FakeClock,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    service = GameService(store, GAMES, clock)
    seeds = set()
    for game, ais in ((RACE, ("greedy",)), (BIDS, ("half",))):
        game_id, users = await new_game(service, game.key, 2, ais)
        started = await service.start(game_id, users[0])
        with pytest.raises(NotFinished):
            service.export(await store.load_game(game_id))  # the seed stays in the store while it runs
        reports = started.reports + await play_out(service, game_id, random.Random(3))
        record = await store.load_game(game_id)
        seed = str(seed_of(record))
        seeds.add(seed)
        shown = [repr(started), repr(started.table), repr(record), *map(repr, reports),
                 *(repr(r.event) for r in reports), caplog.text]
        state = game.setup(len(record.seats), record.options, seed_of(record))
        for action in resolves(record):
            shown += [repr(game.view(state, s)) for s in (None, *range(len(record.seats)))]
            state, _ = game.apply(state, decode_step(action.payload["step"]))
        assert not [text for text in shown if seed in text]
        assert service.export(record)["seed"] == int(seed)  # once it is over
    assert len(seeds) == 2  # drawn for each game


# Deadlines ----------------------------------------------------------------------------------------
async def test_a_deadline_takes_the_rules_default_and_two_misses_in_a_row_make_a_seat_away(
        store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "race", 2)
    table = (await service.start(game_id, users[0])).table
    late = min(table.awaited())
    on_time = 1 - late
    assert await service.expire(game_id, table.step - 1) == []  # an old deadline does nothing
    reports = await service.expire(game_id, table.step)
    assert [(r.reason, r.timed_out) for r in reports] == [("deadline", {late}), ("chance", set())]
    last = resolves(await store.load_game(game_id))[-2].payload
    assert last == {"step": {str(late): {"steps": 1}}, "reason": "deadline", "timed_out": [late]}
    assert not table.away(late)
    await service.act(game_id, users[on_time], action={"steps": 1})
    assert table.awaited() == {late}
    await service.expire(game_id, table.step)
    assert table.away(late) and not table.away(on_time)
    assert (await GameService(store, GAMES, clock).table(game_id)).away(late)  # read from the stored steps
    await service.act(game_id, users[on_time], action={"steps": 1})
    await service.act(game_id, users[late], text="1")
    assert not table.away(late)


async def test_a_sealed_deadline_keeps_the_drafts_and_defaults_the_rest(store: GameStore,
                                                                       clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "bids", 3)
    await service.start(game_id, users[0])
    await service.act(game_id, users[1], text="7")
    clock.advance(61)
    (report,) = await service.expire(game_id, 0)
    assert report.event.bids == {0: 0, 1: 7, 2: 0} and report.timed_out == {0, 2}
    record = await store.load_game(game_id)
    assert record.phase == 1 and record.deadline == clock.now() + 60  # the game's default turn_seconds


# Leaving ------------------------------------------------------------------------------------------
async def test_a_sealed_step_does_not_wait_for_a_seat_that_left(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "bids", 3)
    await service.start(game_id, users[0])
    await service.act(game_id, users[0], text="2")
    await service.act(game_id, users[1], text="3")
    with pytest.raises(NotHost):
        await service.remove(game_id, users[1], users[2], kicked=True)
    left = await service.remove(game_id, users[2], users[2], kicked=False)
    assert [r.reason for r in left.reports] == ["all-chosen"]
    assert left.reports[0].event.bids == {0: 2, 1: 3, 2: 0}
    assert left.table.prompt is not None and left.table.prompt.seats == {0, 1}
    with pytest.raises(NotInGame):
        await service.act(game_id, users[2], text="1")
    gone = await service.remove(game_id, users[0], users[1], kicked=True)
    assert gone.table.record.status == "cancelled" and gone.table.record.end_reason.startswith("abandoned")
    with pytest.raises(NotRunning):
        await service.act(game_id, users[0], text="1")


async def test_an_open_step_of_a_seat_that_left_is_skipped(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "race", 3)
    table = (await service.start(game_id, users[0])).table
    mover = min(table.awaited())
    outcome = await service.remove(game_id, users[mover], users[mover], kicked=False)
    assert [r.reason for r in outcome.reports] == ["absent", "chance"]
    assert outcome.table.awaited() == {(mover + 1) % 3}
    assert mover not in outcome.table.seated


# Lobby --------------------------------------------------------------------------------------------
async def test_the_lobby_follows_each_games_seats_and_ai_levels(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "race", 1)
    with pytest.raises(UnknownLevel):
        await service.add_ai(game_id, users[0], "half", "bot")  # a level of the other game
    with pytest.raises(NotEnoughPlayers):
        await service.start(game_id, users[0])
    for level in ("greedy", "random", "greedy"):
        await service.add_ai(game_id, users[0], level, "bot")
    with pytest.raises(GameFull):  # the race seats four
        await service.add_ai(game_id, users[0], "greedy", "bot")
    assert (await store.load_game(game_id)).kind == "race"


async def test_options_are_checked_against_the_game(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    with pytest.raises(BadOption) as bad:
        await service.open_lobby(1, next(_ids), next(_ids), "ana", {"turn_seconds": 5}, kind="bids")
    assert bad.value.values == {"name": "turn_seconds", "allowed": "15-3600"}
    with pytest.raises(BadOption):
        await service.open_lobby(1, next(_ids), next(_ids), "ana", {"teams": "yes"}, kind="bids")
    host = next(_ids)
    record = await service.open_lobby(1, next(_ids), host, "ana", {"teams": True}, kind="bids")
    assert record.options == {"turn_seconds": 60, "teams": True}
    await service.add_ai(record.id, host, "all", "bot")
    with pytest.raises(OptionNeedsSeats):  # teams need four seats
        await service.start(record.id, host)
    await service.add_ai(record.id, host, "all", "bot")
    await service.add_ai(record.id, host, "half", "bot")
    assert (await service.start(record.id, host)).table.running


# Chance is stored before anyone sees it ----------------------------------------------------------
class Killed(Exception):
    """The process dies here."""


class KillingStore:
    """The real store; dies just after (or just before) committing the first chance step."""

    def __init__(self, store: GameStore, *, before: bool) -> None:
        self.store, self.before = store, before
        self.attempted: dict[str, Any] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def resolve_phase(self, game_id: int, phase: int, payload: Any, *args: Any, **kwargs: Any) -> bool:
        if payload["reason"] != "chance" or self.attempted is not None:
            return await self.store.resolve_phase(game_id, phase, payload, *args, **kwargs)
        self.attempted = payload
        if self.before:
            raise Killed()
        await self.store.resolve_phase(game_id, phase, payload, *args, **kwargs)
        raise Killed()


class CountingRace(DiceRace):
    def __init__(self) -> None:
        self.draws = 0

    def chance(self, state: RaceState, rng: random.Random) -> dict[str, int]:
        self.draws += 1
        return dict(super().chance(state, rng))


async def test_a_restart_after_a_chance_step_never_draws_it_again(store: GameStore, clock: FakeClock) -> None:
    killing = KillingStore(store, before=False)
    doomed = GameService(killing, GAMES, clock)  # type: ignore[arg-type]
    game_id, users = await new_game(doomed, "race", 2)
    with pytest.raises(Killed):
        await doomed.start(game_id, users[0])
    assert killing.attempted is not None
    die = killing.attempted["step"]["chance"]["die"]
    race = CountingRace()
    restarted = GameService(store, (race, BIDS), clock)
    table = await restarted.table(game_id)
    assert isinstance(table.state, RaceState) and table.state.die == die
    assert await restarted.catch_up(game_id) == [] and race.draws == 0
    mover = min(table.awaited())
    outcome = await restarted.act(game_id, users[mover], action={"steps": die})
    assert [r.reason for r in outcome.reports] == ["moved", "chance"] and race.draws == 1
    assert [a.payload["step"] for a in resolves(await store.load_game(game_id))][:2] == [
        {"chance": {"die": die}}, {str(mover): {"steps": die}}]


async def test_a_chance_step_lost_in_a_crash_is_drawn_the_same_at_catch_up(store: GameStore,
                                                                          clock: FakeClock) -> None:
    killing = KillingStore(store, before=True)
    doomed = GameService(killing, GAMES, clock)  # type: ignore[arg-type]
    game_id, users = await new_game(doomed, "race", 2)
    with pytest.raises(Killed):
        await doomed.start(game_id, users[0])
    assert resolves(await store.load_game(game_id)) == []  # nothing was committed, nothing was shown
    restarted = GameService(store, GAMES, clock)
    (report,) = await restarted.catch_up(game_id)
    assert report.reason == "chance" and report.event.die == killing.attempted["step"]["chance"]["die"]  # type: ignore[index]


async def test_a_late_load_at_the_same_step_keeps_the_cached_drafts_unless_the_store_has_more(
        backend: Backend, clock: FakeClock) -> None:
    async with backend.store() as store, backend.store() as other:
        writer = GameService(store, GAMES, clock)
        game_id, users = await new_game(writer, "bids", 3)
        await writer.start(game_id, users[0])
        no_drafts = await store.load_game(game_id)
        counting = CountingStore(store)
        service = GameService(counting, GAMES, clock)  # type: ignore[arg-type]
        counting.gate, counting.stale = asyncio.Event(), no_drafts
        slow = asyncio.create_task(service.table(game_id))
        await counting.entered.wait()
        service.forget(game_id)
        await service.act(game_id, users[0], text="4")  # a fresh load, then the draft
        counting.gate.set()
        cached = await slow
        assert cached.drafts == {0: {"bid": 4}}, "the late load with fewer drafts is not taken"
        # another process stores a draft this cache cannot know; a load that carries it is taken
        await GameService(other, GAMES, clock).act(game_id, users[1], text="5")
        counting.gate, counting.stale = asyncio.Event(), await store.load_game(game_id)
        service.forget(game_id)
        counting.entered.clear()
        slow = asyncio.create_task(service.table(game_id))
        await counting.entered.wait()
        service._install(cached)  # the cache holds the table with one draft when the load lands
        counting.gate.set()
        newer = await slow
        assert newer.drafts == {0: {"bid": 4}, 1: {"bid": 5}} and newer.choices == 2
        assert await service.table(game_id) is newer


async def test_a_load_older_than_a_step_already_committed_is_taken_again(store: GameStore,
                                                                       clock: FakeClock) -> None:
    counting = CountingStore(store)
    service = GameService(counting, GAMES, clock)  # type: ignore[arg-type]
    game_id, users = await new_game(service, "bids", 2)
    await service.start(game_id, users[0])
    for _ in range(2):
        await service.act(game_id, users[0], text="1")
        await service.act(game_id, users[1], text="0")
    running = await store.load_game(game_id)
    await service.act(game_id, users[0], text="1")
    await service.act(game_id, users[1], text="0")  # over: the service caches it no more
    counting.stale = running  # a load that was slow enough to return the game as it was before its end
    loads = counting.loads
    table = await service.table(game_id)
    assert table.record.status == "finished" and table.step == 3
    assert counting.loads == loads + 2


# Storage ------------------------------------------------------------------------------------------
async def test_storage_keeps_the_start_payload_and_refuses_a_step_that_missed_a_draft(store: GameStore,
                                                                                    clock: FakeClock) -> None:
    lobby = await store.create_lobby("bids", 1, next(_ids), 1, "ana", {}, clock.now())
    await store.seat_player(lobby.id, 2, "ben", 5, clock.now())
    record = await store.start_game(lobby.id, None, clock.now(), {"seed": 42})
    assert seed_of(record) == 42 and [a.payload for a in record.actions] == [{"seed": 42}]
    await store.record_choice(lobby.id, 0, 0, {"bid": 1}, clock.now())
    await store.record_choice(lobby.id, 0, 0, {"bid": 2}, clock.now())
    step = {"step": {"0": {"bid": 2}}, "reason": "deadline", "timed_out": [1]}
    assert not await store.resolve_phase(lobby.id, 0, step, None, False, clock.now(), choices=1)
    assert await store.resolve_phase(lobby.id, 0, step, None, False, clock.now(), choices=2)
    assert not await store.resolve_phase(lobby.id, 0, step, None, False, clock.now(), choices=2)
    assert (await store.load_game(lobby.id)).phase == 1


# Random tables ------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
async def test_random_tables_always_match_the_fold_of_their_log(store: GameStore, clock: FakeClock,
                                                               seed: int) -> None:
    """Humans act, change their minds, miss deadlines and leave at random: the live table is always the
    fold of what is stored, each step is reported once and in order, and every game ends."""
    rng = random.Random(seed)
    service = GameService(store, GAMES, clock)
    game = (RACE, BIDS)[seed % 2]
    levels = game.ai_levels
    game_id, users = await new_game(service, game.key, rng.randint(2, 3), tuple(rng.choice(levels)
                                                                                for _ in range(rng.randint(0, 1))))
    outcome = await service.start(game_id, users[0])
    table, reported = outcome.table, [r.step for r in outcome.reports]
    while table.running:
        roll = rng.random()
        awaited = sorted(table.awaited())
        if roll < 0.15 or not awaited:
            reports = await service.expire(game_id, table.step)
        elif roll < 0.18 and len(table.record.seated) > 2:
            seat = rng.choice([s for s in awaited if not table.seat(s).is_ai] or awaited)
            user = table.seat(seat).user_id
            reports = [] if user is None else (await service.remove(game_id, user, user, kicked=False)).reports
        else:
            seat = rng.choice(awaited)
            action = rng.choice(list(game.legal(table.state, seat) or []))
            reports = (await service.act(game_id, user_of(table, seat), action=action, phase=table.step)).reports
        reported += [r.step for r in reports]
        table = await service.table(game_id)
        record = await store.load_game(game_id)
        if table.running:
            assert table.state == fold(game, record)[0] and table.step == record.phase
    record = await store.load_game(game_id)
    assert record.status in ("finished", "cancelled")
    assert reported == list(range(record.phase))
    if record.status == "finished":
        assert game.result(fold(game, record)[0]) is not None
