"""Skill ratings: the maths' properties, and the rating written with the game's end, exactly once, on both backends.

Whole games are played by the generic service on the real stores with the toy games (tests/toy_games.py); the
recompute (``bot.core.rating_check``, what ``python -m bot ratings --recompute`` runs) must find the stored values
bit for bit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.rating import (
    MODEL,
    Rater,
    places,
    rate,
    recompute,
    scopes,
    season_bounds,
    season_of,
    shown,
)
from bot.core.rating_check import recompute_from
from bot.core.service import GameService
from bot.core.stats import summariser
from bot.games import GAMES as BOT_GAMES
from storage import ratings as storage_ratings
from storage.base import GameStore, SeatRecord
from storage.ratings import GLOBAL_SCOPE, RatedPlayer, RatingJob, season_scope, server_scope
from storage.sqlite import _migrate
from tests.backends import Backend
from tests.conftest import FakeClock
from tests.test_core_service import new_game, play_out
from tests.toy_games import BIDS, RACE

GAMES = (RACE, BIDS)
ROOT = Path(__file__).resolve().parents[1]


# The maths ---------------------------------------------------------------------------------------
skills = st.one_of(st.none(), st.tuples(st.floats(10, 40), st.floats(1, 8.4)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), skills), min_size=2, max_size=7), st.randoms(use_true_random=False))
def test_seat_order_changes_nothing(players: list[tuple[int, Any]], rng: random.Random) -> None:
    seats = [SeatRecord(i, 1000 + i, f"p{i}") for i in range(len(players))]
    scores = {i: score for i, (score, _) in enumerate(players)}
    before = {1000 + i: skill for i, (_, skill) in enumerate(players)}

    def changes(order: list[int]) -> dict[int, tuple[float, float]]:
        shuffled = [SeatRecord(pos, seats[i].user_id, seats[i].name) for pos, i in enumerate(order)]
        placed = places(shuffled, {pos: scores[i] for pos, i in enumerate(order)}, [])
        after = rate(placed, [before[p.user_id] for p in placed])
        return {p.user_id: a for p, a in zip(placed, after, strict=True)}

    order = list(range(len(players)))
    other = order[:]
    rng.shuffle(other)
    assert changes(order) == changes(other)  # exactly: the same floats


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=7))
def test_equal_scores_from_equal_ratings_make_equal_changes(scores: list[int]) -> None:
    seats = [SeatRecord(i, 50 + i, f"p{i}") for i in range(len(scores))]
    placed = places(seats, dict(enumerate(scores)), [])
    after = dict(zip((p.user_id for p in placed), rate(placed, [None] * len(placed)), strict=True))
    for i, a in enumerate(scores):
        for j, b in enumerate(scores):
            if a == b:
                assert after[50 + i] == after[50 + j]
            elif a > b:
                assert after[50 + i][0] > after[50 + j][0]


def test_ai_seats_are_not_rated_and_the_first_to_leave_ranks_last() -> None:
    seats = [SeatRecord(0, 1, "ana"), SeatRecord(1, None, "bot", "easy"), SeatRecord(2, 2, "ben", state="left"),
             SeatRecord(3, 3, "cy", state="left"), SeatRecord(4, 4, "dee"), SeatRecord(5, 5, "eve", state="kicked")]
    placed = places(seats, {0: 5, 1: 99, 2: 90, 3: 80, 4: 5, 5: 70}, [3, 2])  # cy left first, then ben
    assert [(p.user_id, p.place) for p in placed] == [(1, 1), (4, 1), (2, 2), (3, 3)]


def test_the_number_shown_and_seasons() -> None:
    assert shown(MODEL.mu) == 1500
    assert season_of(1_796_000_000) == "2026-11" and season_of(1_796_000_000, "quarter") == "2026-Q4"
    assert season_bounds("2026-Q4") == (1_790_812_800.0, 1_798_761_600.0)
    assert season_bounds("2026-12")[1] == season_bounds("2027-01")[0]


games_strategy = st.lists(st.tuples(
    st.lists(st.tuples(st.integers(1, 8), st.integers(0, 6), st.sampled_from(["seated", "seated", "left", "kicked"])),
             min_size=2, max_size=6, unique_by=lambda p: p[0]),
    st.sampled_from([1, 2, None]), st.sampled_from(["2027-01", "2027-02", "2027-Q1"])), min_size=1, max_size=25)


@settings(max_examples=40, deadline=None)
@given(games_strategy)
def test_a_recompute_equals_the_incremental_ratings(games: list[Any]) -> None:
    """Games of random players (some leaving, some kicked), servers and seasons, rated one by one by the write
    the store makes at a game's end, then recomputed from nothing in the ledger's order: the same floats."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    _migrate(db)
    db.execute("PRAGMA foreign_keys = OFF")  # the ledger's games are not stored here: only what ratings read
    entries = []
    for game_id, (seats, guild, season) in enumerate(games, start=1):
        record_seats = [SeatRecord(i, 100 + user, f"p{user}", state=state) for i, (user, _, state) in enumerate(seats)]
        left = [i for i, (_, _, state) in enumerate(seats) if state == "left"]
        players = places(record_seats, {i: score for i, (_, score, _) in enumerate(seats)}, left)
        if len(players) < 2:
            continue
        job = RatingJob("bids", guild, season, scopes(guild, season), tuple(players), Rater(tuple(players)))
        storage_ratings.apply_sqlite(db, game_id, job, 0.0)
        entries.append((game_id, "bids", guild, season, players))
    again = recompute(entries)
    stored = {(str(r[0]), str(r[1]), int(r[2])): (float(r[3]), float(r[4]), int(r[5]))
              for r in db.execute("SELECT kind, scope, user_id, mu, sigma, games FROM ratings")}
    assert again.ratings == stored
    changes = {(c.game_id, c.scope, c.user_id): c for c in map(storage_ratings.change_of, db.execute(
        storage_ratings.CHANGES_SQL.replace("WHERE game_id = ? ", "")))}
    assert again.changes == changes


# Whole games on the stores -----------------------------------------------------------------------
async def finished_game(service: GameService, kind: str = "bids", humans: int = 3,
                        ais: tuple[str, ...] = ()) -> tuple[int, list[int]]:
    game_id, users = await new_game(service, kind, humans, ais)
    await service.start(game_id, users[0])
    await play_out(service, game_id, random.Random(game_id))
    assert (await service.store.load_game(game_id)).status == "finished"
    return game_id, users


async def check_recompute(backend: Backend) -> None:
    async with backend.stats(summariser(GAMES), [g.key for g in GAMES]) as stats:
        report = await recompute_from(stats, GAMES)
    assert report.equal, report.lines()
    return None


async def test_a_finished_game_is_rated_in_three_scopes_and_recomputes_equal(backend: Backend, store: GameStore,
                                                                              clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    ids = [await finished_game(service, kind) for kind in ("bids", "race", "bids")]
    for game_id, users in ids:
        changes = await store.rating_changes(game_id)
        season = season_of(clock.now())
        assert {c.scope for c in changes} == {server_scope(1), GLOBAL_SCOPE, season_scope(1, season)}
        assert {c.user_id for c in changes} == set(users)
        assert all(c.before is None and c.games == 1 for c in changes)  # new players each time
    await check_recompute(backend)


async def test_games_against_ai_only_or_abandoned_change_no_rating(backend: Backend, store: GameStore,
                                                                   clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    solo, _ = await finished_game(service, "bids", 1, ("all", "half"))
    assert await store.rating_changes(solo) == []
    game_id, users = await new_game(service, "bids", 2)
    await service.start(game_id, users[0])
    await service.remove(game_id, users[1], users[1], kicked=False)  # one human left: abandoned
    assert (await store.load_game(game_id)).status == "cancelled"
    assert await store.rating_changes(game_id) == []
    async with backend.stats(summariser(GAMES), [g.key for g in GAMES]) as stats:
        assert await stats.rating_ledger() == []
        assert await stats.all_ratings() == {}


async def test_a_player_who_left_ranks_last_and_the_recompute_agrees(backend: Backend, store: GameStore,
                                                                     clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    game_id, users = await new_game(service, "bids", 4)
    await service.start(game_id, users[0])
    await service.remove(game_id, users[2], users[2], kicked=False)
    await service.remove(game_id, users[1], users[1], kicked=False)
    await play_out(service, game_id, random.Random(3))
    placed = {c.user_id: c.place for c in await store.rating_changes(game_id) if c.scope == GLOBAL_SCOPE}
    assert placed[users[2]] == max(placed.values())  # the first to leave: last
    assert placed[users[1]] == max(placed.values()) - 1
    await check_recompute(backend)


async def test_ratings_follow_a_player_across_games_and_servers(backend: Backend, store: GameStore,
                                                                clock: FakeClock) -> None:
    service = GameService(store, GAMES, clock)
    users = [7001, 7002, 7003]
    for n, guild in enumerate((1, 1, 2)):
        record = await service.open_lobby(guild, 900 + n, users[0], "a", {}, kind="bids")
        for user in users[1:]:
            await service.join(record.id, user, f"u{user}")
        await service.start(record.id, users[0])
        await play_out(service, record.id, random.Random(n))
        clock.advance(40 * 86_400)  # the next game in the next month's season
    async with backend.stats(summariser(GAMES), [g.key for g in GAMES]) as stats:
        everywhere = await stats.player_ratings("bids", users[0], [GLOBAL_SCOPE, server_scope(1), server_scope(2)])
        assert everywhere[GLOBAL_SCOPE].games == 3
        assert everywhere[server_scope(1)].games == 2 and everywhere[server_scope(2)].games == 1
        assert len(await stats.seasons(1, "bids")) == 2
        board = await stats.rating_board(1, "bids", server_scope(1), min_games=1)
        assert {r.user_id for r in board.rows} == set(users) and board.rows[0].rank == 1
    await check_recompute(backend)


class Killed(BaseException):
    """The process dies here (a BaseException, as a kill: nothing after it runs)."""


async def test_a_kill_between_the_games_end_and_its_rating_loses_nothing_and_rates_once(
        backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "storage.postgres.apply_postgres" if backend.postgres else "storage.sqlite.apply_sqlite"
    original = storage_ratings.apply_postgres if backend.postgres else storage_ratings.apply_sqlite

    def dying(*args: Any, **kwargs: Any) -> Any:
        raise Killed()

    dead = backend.store()
    await dead.open()
    service = GameService(dead, GAMES, clock)
    game_id, users = await new_game(service, "bids", 3)
    await service.start(game_id, users[0])
    monkeypatch.setattr(name, dying)
    # the last step: the game's end and its rating are one transaction, and the process dies inside it
    with pytest.raises((Killed, asyncio.CancelledError)):
        await play_out(service, game_id, random.Random(1))
    with contextlib.suppress(BaseException):
        await dead.close()
    monkeypatch.setattr(name, original)
    async with backend.store() as store:  # the restarted process: nothing in memory
        record = await store.load_game(game_id)
        assert record.status == "running" and await store.rating_changes(game_id) == []
        restarted = GameService(store, GAMES, clock)
        await restarted.catch_up(game_id)  # every bid of the last round is in: the restore resolves it
        assert (await store.load_game(game_id)).status == "finished"
        assert len(await store.rating_changes(game_id)) == 9  # 3 players x 3 scopes, once
        await restarted.expire(game_id, record.phase)  # a late timer of the dead process: nothing more
        assert len(await store.rating_changes(game_id)) == 9
    await check_recompute(backend)


async def test_two_processes_finishing_games_at_once_rate_each_once(backend: Backend, clock: FakeClock) -> None:
    async with backend.store(shared=True) as one, backend.store(shared=True) as two:
        first, second = GameService(one, GAMES, clock), GameService(two, GAMES, clock)
        games = [await new_game(first, "bids", 3) for _ in range(6)]
        for game_id, users in games:
            await first.start(game_id, users[0])

        async def last_step(service: GameService, game_id: int, users: list[int]) -> None:
            table = await service.table(game_id)
            for _ in range(300):  # 10 rounds of bids; both processes redraft each seat, so their resolves collide
                # often: generous, but bounded, so that a broken end fails instead of hanging
                if not table.running:
                    return
                for seat in sorted(table.awaited()):
                    try:
                        await service.act(game_id, users[seat], action={"bid": 0}, phase=table.step)
                    except Exception:  # the other process took this step: go on from the stored game
                        break
                table = await service.table(game_id)
            raise AssertionError(f"game {game_id} never finished")

        # both processes play every game at once: each step, and the end, is taken by one of them
        await asyncio.gather(*(last_step(s, g, u) for g, u in games for s in (first, second)))
        async with backend.stats(summariser(GAMES), [g.key for g in GAMES]) as stats:
            ledger = await stats.rating_ledger()
        assert sorted(e.game_id for e in ledger) == sorted(g for g, _ in games)
        assert [e.seq for e in ledger] == list(range(1, len(games) + 1))
        for game_id, _ in games:
            assert len(await one.rating_changes(game_id)) == 9
    await check_recompute(backend)


async def test_games_ending_at_the_same_moment_in_two_processes_are_all_rated_in_one_order(
        backend: Backend, clock: FakeClock) -> None:
    """At the store: twelve games end at once, half through each process's store; every end commits (no two
    ratings take the same place in the ledger) and the ledger's order replays to the stored values."""
    async with backend.store(shared=True) as one, backend.store(shared=True) as two:
        service = GameService(one, GAMES, clock)
        games = [await new_game(service, "bids", 2) for _ in range(12)]
        for game_id, users in games:
            await service.start(game_id, users[0])

        async def end(store: GameStore, game_id: int, users: list[int]) -> bool:
            players = (RatedPlayer(users[0], 0, 1), RatedPlayer(users[1], 1, 2))
            job = RatingJob("bids", 1, "2027-01", scopes(1, "2027-01"), players, Rater(players))
            return await store.resolve_phase(game_id, 0, {"step": {}, "reason": "test", "timed_out": []}, None,
                                             True, clock.now(), rating=job)

        ended = await asyncio.gather(*(end(one if n % 2 else two, g, u) for n, (g, u) in enumerate(games)))
        assert ended == [True] * len(games)
        async with backend.stats(summariser(GAMES), [g.key for g in GAMES]) as stats:
            ledger = await stats.rating_ledger()
        assert sorted(e.game_id for e in ledger) == sorted(g for g, _ in games)
        assert [e.seq for e in ledger] == list(range(1, len(games) + 1))


async def test_the_board_ranks_equal_ratings_alike_across_pages(backend: Backend, store: GameStore) -> None:
    mus = [30.0, 28.0, 28.0, 28.0, 27.0, 26.0, 26.0]  # ranks 1, 2, 2, 2, 5, 6, 6
    for n, mu in enumerate(mus):
        await backend.execute("INSERT INTO ratings (kind, scope, user_id, mu, sigma, games, last_game)"
                              " VALUES ('bids', 'server:1', ?, ?, 2.0, 9, 1)", 500 + n, mu)
    await backend.execute("INSERT INTO ratings (kind, scope, user_id, mu, sigma, games, last_game)"
                          " VALUES ('bids', 'server:1', 999, 40.0, 2.0, 4, 1)")  # provisional: not listed
    async with backend.stats(summariser(GAMES), [g.key for g in GAMES]) as stats:
        ranks = []
        for page in range(3):
            shown_page = await stats.rating_board(1, "bids", "server:1", min_games=5, page=page, per_page=3)
            assert shown_page.players == 7 and shown_page.pages == 3
            ranks += [(r.rank, r.user_id) for r in shown_page.rows]
    assert [r for r, _ in ranks] == [1, 2, 2, 2, 5, 6, 6]
    assert [u for _, u in ranks] == [500, 501, 502, 503, 504, 505, 506]


async def play_the_number(service: GameService, guild: int, users: list[int], seed: int) -> int:
    """A whole game of The Number through the service, every player choosing a random legal number."""
    rng = random.Random(seed)
    record = await service.open_lobby(guild, 800 + seed, users[0], "a", {"turn_seconds": 60}, kind="thenumber")
    for user in users[1:]:
        await service.join(record.id, user, f"u{user}")
    table = (await service.start(record.id, users[0])).table
    while table.running:
        for seat, user in enumerate(users):
            free = sorted(table.state.available(str(seat)))
            if free and table.running:
                await service.act(record.id, user, text="".join(str(rng.choice(free)) for _ in range(3)))
        table = await service.table(record.id)
    return record.id


async def test_the_recompute_command_finds_the_stored_values_and_names_a_difference(
        backend: Backend, store: GameStore, clock: FakeClock, tmp_path: Path) -> None:
    service = GameService(store, BOT_GAMES, clock)
    for seed in range(3):
        await play_the_number(service, 1 + seed % 2, [6001, 6002, 6003][: 2 + seed % 2], seed)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "unused"})
    env.update({"DATABASE_URL": backend.target} if backend.postgres else {"DATABASE_PATH": backend.target})

    def command() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", "ratings", "--recompute"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)

    done = await asyncio.to_thread(command)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ratings: recomputed 3 rated games from their logs: 21 changes, 13 current ratings" in done.stdout
    assert "equal: every change and every current rating is the stored value, bit for bit" in done.stdout
    await backend.execute("UPDATE ratings SET mu = mu + 0.000001 WHERE user_id = 6001 AND scope = 'global'")
    differs = await asyncio.to_thread(command)
    assert differs.returncode == 1 and "DIFFERENT: 1 values differ from the stored ones" in differs.stdout
    assert "rating ('thenumber', 'global', 6001)" in differs.stdout


async def test_sigkilled_at_random_moments_the_game_is_rated_once_and_recomputes_equal(backend: Backend) -> None:
    """A real process (tests/crash_child.py: a game of The Number, four players) SIGKILLed at random moments,
    its last turns included, and started again until the game is over: its end was rated exactly once."""
    from tests.test_storage_crash import opened, run_child

    rng = random.Random(38)
    for _ in range(60):
        lines = await asyncio.to_thread(run_child, backend.target, 38, rng.randint(1, 8))
        if lines and lines[-1] == "DONE":
            break
    else:
        await asyncio.to_thread(run_child, backend.target, 38, None)
    async with opened(backend.target) as store:
        game_id = int(await store.get_meta("crash-test-game") or 0)
        assert (await store.load_game(game_id)).status == "finished"
        changes = await store.rating_changes(game_id)
    assert len(changes) == 4 * 3 and len({(c.scope, c.user_id) for c in changes}) == 12  # 4 players, 3 scopes
    async with backend.stats(summariser(BOT_GAMES), [g.key for g in BOT_GAMES]) as stats:
        assert [e.game_id for e in await stats.rating_ledger()] == [game_id]
        report = await recompute_from(stats, BOT_GAMES)
    assert report.equal and report.games == 1, report.lines()
