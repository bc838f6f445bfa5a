"""A database written before one log format for every game (schema 0001-0003, The Number's ``{"numbers"}``
resolve rows) upgrades in place: its games continue, its finished games keep their results and exports."""

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import storage.sqlite
from bot.core.stats import summariser
from bot.games import GAMES
from bot.games.thenumber import rules
from bot.games.thenumber.check import Status
from bot.games.thenumber.engine import GameState, new_game, play_turn
from bot.games.thenumber.replay import script_json
from cogs.thenumber.records import rebuild, replay_script
from storage.migrations import load_migrations
from storage.sqlite import SQLiteStore
from storage.stats import SQLiteStats
from tests.conftest import FakeClock
from tests.play_helpers import number_service

GUILD = 1
KIND = rules.GAME_KEY
PRE_0004 = 3


def random_turns(seats: int, seed: int, turns: int = rules.TOTAL_TURNS, skip: int | None = None
                 ) -> Iterator[dict[str, str]]:
    """Legal turns of a ``seats`` game; seat ``skip`` writes nothing on every third turn (missing)."""
    rng, keys = random.Random(seed), [str(s) for s in range(seats)]
    state = new_game(keys)
    for n in range(turns):
        numbers = {k: "".join(str(rng.choice(sorted(state.available(k)))) for _ in range(3))
                   for k in keys if state.available(k) and not (k == str(skip) and n % 3 == 0)}
        state, _ = play_turn(state, numbers)
        yield numbers


def fold_numbers(seats: int, turns: list[dict[str, str]]) -> GameState:
    state = new_game([str(s) for s in range(seats)])
    for numbers in turns:
        state, _ = play_turn(state, numbers)
    return state


async def old_game(store: SQLiteStore, clock: FakeClock, channel: int, seats: int,
                   turns: list[dict[str, str]], pending: dict[str, str] | None = None) -> int:
    """A game stored exactly as the service of schema 0003 stored it (its ``choose`` rows and
    ``{"numbers": ...}`` resolve rows), finished when ``turns`` is the whole game."""
    users = [channel * 10 + s for s in range(seats)]
    record = await store.create_lobby(KIND, GUILD, channel, users[0], f"p{users[0]}", {"turn_seconds": 60},
                                      clock.now())
    for user in users[1:]:
        await store.seat_player(record.id, user, f"p{user}", rules.MAX_SEATS, clock.now())
    await store.start_game(record.id, clock.now() + 60, clock.now())
    for phase, numbers in enumerate(turns):
        for key, number in numbers.items():
            await store.record_choice(record.id, phase, int(key), {"number": number}, clock.now())
        clock.advance(30)
        finished = phase == rules.TOTAL_TURNS - 1
        assert await store.resolve_phase(record.id, phase, {"numbers": numbers}, None if finished
                                         else clock.now() + 60, finished, clock.now())
    for key, number in (pending or {}).items():
        await store.record_choice(record.id, len(turns), int(key), {"number": number}, clock.now())
    clock.advance(100)
    return record.id


async def build_old_database(path: Path, clock: FakeClock) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(storage.sqlite, "load_migrations", lambda: load_migrations()[:PRE_0004])
        async with SQLiteStore(path) as store:
            assert await store.schema_version() == PRE_0004
            finished = {}
            for channel, seats in ((101, 2), (102, 3), (103, 5)):
                turns = list(random_turns(seats, channel, skip=1))
                finished[await old_game(store, clock, channel, seats, turns)] = (seats, turns)
            running_turns = list(random_turns(3, 7, turns=4))
            after = list(random_turns(3, 7))[4]
            running = await old_game(store, clock, 104, 3, running_turns, pending={"2": after["2"]})
            cancelled = await old_game(store, clock, 105, 2, list(random_turns(2, 8, turns=2)))
            await store.end_game(cancelled, "cancelled", "cancelled by the host", clock.now())
            old_cache = [await cache_rows(store, game_id, seats, turns)
                         for game_id, (seats, turns) in finished.items()]
    with sqlite3.connect(path) as raw:  # the results cache as schema 0003 held it
        raw.executemany("INSERT INTO game_results (game_id, seat, guild_id, user_id, finished_at, final_score, won,"
                        " played, approved, numbers) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [row for rows in old_cache for row in rows])
    return {"finished": finished, "running": (running, running_turns, after), "cancelled": cancelled,
            "cache": sorted(row for rows in old_cache for row in rows)}


async def cache_rows(store: SQLiteStore, game_id: int, seats: int, turns: list[dict[str, str]]
                     ) -> list[tuple[Any, ...]]:
    """A finished game's rows of the schema-0003 cache, from the engine alone."""
    record = await store.load_game(game_id)
    state = fold_numbers(seats, turns)
    finished_at = [a.at for a in record.actions if a.kind == "resolve"][-1]
    rows = []
    for seat in record.seats:
        key = str(seat.seat)
        results = [outcome.results[key] for outcome in state.history]
        numbers = [r.number for r in results if r.number is not None]
        rows.append((game_id, seat.seat, GUILD, seat.user_id, finished_at, state.final_scores()[key],
                     int(key in state.winners()), len(numbers), sum(r.status is Status.APPROVED for r in results),
                     ",".join(numbers)))
    return rows


async def test_a_database_of_schema_0003_upgrades_in_place_and_its_games_go_on(db_path: Path) -> None:
    clock = FakeClock()
    old = await build_old_database(db_path, clock)
    async with SQLiteStore(db_path) as store:
        assert await store.schema_version() == len(load_migrations())
        service = number_service(store, clock)
        # Finished games: the same final state, scores, winners and table script as the old numbers give.
        for game_id, (seats, turns) in old["finished"].items():
            record = await store.load_game(game_id)
            resolves = [a.payload for a in record.actions if a.kind == "resolve"]
            assert resolves == [{"step": {k: {"number": n} for k, n in t.items()}, "reason": "legacy",
                                 "timed_out": []} for t in turns]
            assert rebuild(record) == fold_numbers(seats, turns)
            names = [s.name for s in record.seats]
            assert replay_script(record) == script_json(
                names, [{names[int(k)]: n for k, n in t.items()} for t in turns])
        # The running game continues: its revealed turns and the pending choice are there, and it plays on.
        game_id, turns, after = old["running"]
        table = await service.table(game_id)
        assert table.state == fold_numbers(3, turns) and table.record.phase == len(turns)
        assert table.drafts == {2: {"number": after["2"]}}
        reports = []
        for key in ("0", "1"):
            reports += (await service.act(game_id, 104 * 10 + int(key), text=after[key])).reports
        assert [r.step for r in reports] == [len(turns)]
        assert reports[0].event == play_turn(fold_numbers(3, turns), after)[1]
        # Statistics: every finished game, with the engine's scores; the cancelled and running games in none.
        async with SQLiteStats(db_path, summariser(GAMES), [g.key for g in GAMES]) as stats:
            page = await stats.leaderboard(GUILD, KIND, "wins", 0, clock.now() + 1)
            results = await stats.all_results()
            assert {r.game_id for r in results} == set(old["finished"])
            for game_id, (seats, turns) in old["finished"].items():
                state = fold_numbers(seats, turns)
                mine = [r for r in results if r.game_id == game_id]
                assert {str(r.seat): r.final_score for r in mine} == state.final_scores()
                assert {str(r.seat) for r in mine if r.won} == set(state.winners())
                assert [r.extra["numbers"] for r in mine] == [
                    [t[str(r.seat)] for t in turns if str(r.seat) in t] for r in mine]
            assert page.players == 2 + 3 + 5
            # ... and exactly the figures the schema-0003 cache held.
            assert sorted((r.game_id, r.seat, r.guild_id, r.user_id, r.finished_at, r.final_score, int(r.won),
                           r.extra["played"], r.extra["approved"], ",".join(r.extra["numbers"]))
                          for r in results) == old["cache"]
            assert await stats.rebuild() == len(old["finished"])
            assert await stats.all_results() == results


async def test_the_upgrade_leaves_new_form_payloads_alone(db_path: Path) -> None:
    clock = FakeClock()
    await build_old_database(db_path, clock)
    async with SQLiteStore(db_path) as store:
        before = [a.payload for g in (1, 2, 3) for a in (await store.load_game(g)).actions]
    async with SQLiteStore(db_path) as store:  # the migration ran once; reopening changes nothing
        assert [a.payload for g in (1, 2, 3) for a in (await store.load_game(g)).actions] == before
