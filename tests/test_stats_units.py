"""Statistics without Discord: periods, a player's figures, the chart, export of awkward games, the cache."""

import calendar
import json
import random

from bot.core.stats import MIN_GAMES_FOR_RATES, period_start, player_stats, summarise, summariser
from bot.games import GAMES
from bot.games.thenumber import rules
from bot.games.thenumber.game import GAME
from bot.games.thenumber.replay import replay_text, result_json
from bot.i18n import catalog, placeholders
from bot.services.thenumber import TheNumberService, rebuild, unique_names
from cogs.thenumber.chart import PNG_SIGNATURE, running_totals, score_race_png
from cogs.thenumber.stats_presenter import export_bytes, number_figures
from storage.base import GameStore
from storage.stats import PlayerGame
from tests.backends import Backend
from tests.conftest import FakeClock


def test_periods_start_on_monday_and_on_the_first_of_the_month_utc() -> None:
    now = calendar.timegm((2027, 2, 10, 15, 30, 0))  # a Wednesday
    assert period_start("week", now) == calendar.timegm((2027, 2, 8, 0, 0, 0))
    assert period_start("month", now) == calendar.timegm((2027, 2, 1, 0, 0, 0))
    assert period_start("all", now) == 0.0
    monday = calendar.timegm((2027, 2, 8, 0, 0, 0))
    assert period_start("week", monday) == monday


def test_player_figures_tie_rules() -> None:
    games = [PlayerGame(1, 5, 100.0, 30, True, {"played": 10, "approved": 6, "numbers": ["513", "220", "513"]}),
             PlayerGame(2, 5, 200.0, 30, True, {"played": 10, "approved": 4, "numbers": ["220", "999"]}),
             PlayerGame(3, 5, 300.0, 12, False, {"played": 8, "approved": 2, "numbers": ["999"]})]
    stats = player_stats(games)
    figures = number_figures(stats.extras)
    assert (stats.games, stats.wins, figures.played, figures.approved) == (3, 2, 28, 12)
    assert stats.average == 24.0 and stats.best is not None and stats.best.game_id == 2  # latest of equal bests
    assert (figures.favourite_digit, figures.favourite_count) == (9, 2)  # 2, 5 and 9 twice each: the higher digit
    assert player_stats([]).games == 0


def test_stats_catalogs_match_in_both_languages() -> None:
    en, fr = catalog("en"), catalog("fr")
    keys = [k for k in en if k.startswith("stats.")]
    assert keys and all(k in fr for k in keys)
    for key in keys:
        assert placeholders(en[key]) == placeholders(fr[key]), key


def play(seats: int, seed: int) -> list[dict[str, str]]:
    from bot.games.thenumber.engine import new_game, play_turn

    rng, keys = random.Random(seed), [str(s) for s in range(seats)]
    state, turns = new_game(keys), []
    while not state.finished:
        numbers = {k: "".join(str(rng.choice(sorted(state.available(k)))) for _ in range(3))
                   for k in keys if state.available(k)}
        state, _ = play_turn(state, numbers)
        turns.append(numbers)
    return turns


def test_chart_is_a_png_and_its_lines_end_on_the_final_scores() -> None:
    from bot.games.thenumber.engine import new_game, play_turn

    state = new_game(["0", "1", "2", "3", "4"])
    for numbers in play(5, 3):
        state, _ = play_turn(state, numbers)
    totals = running_totals(state)
    assert {k: v[-1] for k, v in totals.items()} == state.final_scores()
    assert all(len(v) == rules.TOTAL_TURNS + 1 and v[0] == 0 for v in totals.values())
    png = score_race_png(["Ana", "Ben 🎲", "Cy", "Dee", "Eve"], [0, 1, 2, 3, 4], [totals[str(s)] for s in range(5)],
                         title="t", x_label="x", y_label="y", round_label="round {round}")
    assert png.startswith(PNG_SIGNATURE) and len(png) > 10_000


async def test_export_replays_a_game_with_twin_names_and_a_player_who_left(store: GameStore) -> None:
    service = TheNumberService(store, FakeClock())
    record = await service.open_lobby(1, 7, 11, "Alex", {"turn_seconds": 60})
    await service.join(record.id, 12, "Alex")
    await service.join(record.id, 13, "Sam")
    table = await service.start(record.id, 11)
    rng = random.Random(9)
    while not table.state.finished:
        if table.record.phase == 3:
            table = await service.remove(record.id, 13, 13, kicked=False)  # Sam leaves after three turns
        for seat in table.record.seated:
            free = sorted(table.state.available(str(seat.seat)))
            if free:
                await service.choose(record.id, seat.user_id or 0, "".join(str(rng.choice(free)) for _ in range(3)))
        report = await service.resolve(record.id, table.record.phase, force=True)
        assert report is not None
        table = report.table
    stored = await store.load_game(record.id)
    data = export_bytes(stored)
    names = unique_names(stored.seats)
    assert json.loads(data)["players"] == ["Alex", "Alex (2)", "Sam"]
    expected = result_json(rebuild(stored))
    rename = {str(seat): name for seat, name in names.items()}
    replayed = replay_text(data.decode())
    assert replayed["final"] == {rename[k]: v for k, v in expected["final"].items()}
    assert replayed["winners"] == sorted(rename[k] for k in expected["winners"])
    assert [[(rename[k], r) for k, r in t["results"].items()] for t in expected["turns"]] == \
        [list(t["results"].items()) for t in replayed["turns"]]


async def test_results_cache_fills_on_read_and_rebuilds_identically(store: GameStore, backend: Backend) -> None:
    clock = FakeClock()
    service = TheNumberService(store, clock)
    ids = []
    for n, seats in enumerate((2, 3, 5)):
        record = await service.open_lobby(1, 100 + n, 1, "u1", {})
        for user in range(2, seats + 1):
            await service.join(record.id, user, f"u{user}")
        await service.start(record.id, 1)
        for numbers in play(seats, n):
            for key, number in numbers.items():
                await service.choose(record.id, int(key) + 1, number)
            table = await service.table(record.id)
            assert await service.resolve(record.id, table.record.phase) is not None
        clock.advance(600)
        ids.append(record.id)
    async with backend.stats(summariser(GAMES), [g.key for g in GAMES]) as stats:
        assert await stats.all_results() == []
        page = await stats.leaderboard(1, rules.GAME_KEY, "wins", 0, clock.now() + 1)  # a read fills what is missing
        assert page.players == 5
        cached = await stats.all_results()
        for game_id in ids:
            record = await store.load_game(game_id)
            assert [r for r in cached if r.game_id == game_id] == summarise(GAME, record)
            state = rebuild(record)
            assert {str(r.seat): r.final_score for r in cached if r.game_id == game_id} == state.final_scores()
        assert await stats.rebuild() == 3
        assert await stats.all_results() == cached
        # A game finished later is picked up by the next read (the cheap incremental check).
        record = await service.open_lobby(1, 200, 1, "u1", {})
        await service.join(record.id, 2, "u2")
        await service.start(record.id, 1)
        for numbers in play(2, 42):
            for key, number in numbers.items():
                await service.choose(record.id, int(key) + 1, number)
            table = await service.table(record.id)
            await service.resolve(record.id, table.record.phase)
        games = await stats.player_games(1, rules.GAME_KEY, 2)
        assert [g.game_id for g in games] == [*ids, record.id]


def test_choice_texts_state_the_minimum_games() -> None:
    for language in ("en", "fr"):
        for key in ("stats.choice.rate", "stats.choice.average"):
            assert f" {MIN_GAMES_FOR_RATES} " in catalog(language)[key], (language, key)
