"""Results and stats of every game kind: the cache equals a recomputation for The Number, Numeri and Binomial;
kinds never mix (in the cache or in a group's commands); each kind's export replays; stopped games count in no
statistic. Games are played to the end through the generic GameService (humans act as the game's AI would)."""

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.core.fold import fold as fold_steps
from bot.core.fold import fold_envelope
from bot.core.service import GameService
from bot.core.stats import player_stats, summariser
from bot.core.table import seed_of
from bot.games import GAMES, game_for
from bot.games.thenumber.replay import replay_text
from cogs.binomial.stats import BinomialStats
from cogs.numeri.stats import NumeriStats
from cogs.thenumber.records import rebuild
from storage.base import GameRecord
from tests.backends import Backend
from tests.conftest import FakeClock
from tests.discord_world import World

ROOT = Path(__file__).resolve().parents[1]
KINDS = [g.key for g in GAMES]
_channels = itertools.count(500)


async def play(service: GameService, guild: int, users: list[int], kind: str, seed: int, *,
               ais: tuple[str, ...] = (), stop_after: int | None = None) -> int:
    """A whole game of ``kind`` (or ``stop_after`` steps, then cancelled) with humans acting as the AI would."""
    game = game_for(kind)
    record = await service.open_lobby(guild, next(_channels), users[0], f"p{users[0]}", {}, kind=kind)
    for user in users[1:]:
        await service.join(record.id, user, f"p{user}")
    for level in ais:
        await service.add_ai(record.id, users[0], level, f"AI {level}")
    table = (await service.start(record.id, users[0])).table
    rng = random.Random(seed)
    while table.running:
        if stop_after is not None and table.step >= stop_after:
            await service.cancel(record.id, users[0], False)
            break
        seat = min(table.awaited())
        user = table.seat(seat).user_id
        assert user is not None
        action = game.ai(game.view(table.state, seat), seat, game.ai_levels[0], rng)
        table = (await service.act(record.id, user, action=action, phase=table.step)).table
        service.clock.advance(5)  # type: ignore[attr-defined]
    return record.id


def recomputed(record: GameRecord) -> dict[int, tuple[int, bool, dict[str, Any]]]:
    """Seat -> (score, won, figures) by folding the stored steps with bot.core.fold alone."""
    game = game_for(record.kind)
    steps = [a.payload["step"] for a in record.actions if a.kind == "resolve"]
    state, _ = fold_steps(game, len(record.seats), record.options, seed_of(record), steps)
    result = game.result(state)
    assert result is not None
    # (``extra`` is optional: a game without figures of its own has none)
    return {s: (result.scores[s], s in result.winners, json.loads(json.dumps(result.extra.get(s, {}))))
            for s in range(len(record.seats))}


async def test_the_cache_equals_a_recomputation_for_every_kind_and_kinds_never_mix(backend: Backend) -> None:
    clock = FakeClock()
    async with backend.store() as store:
        service = GameService(store, GAMES, clock)
        finished: dict[str, list[int]] = {kind: [] for kind in KINDS}
        for n, kind in enumerate(KINDS * 2):
            users = [1000 + 10 * n + s for s in range(2)]
            finished[kind].append(await play(service, 1, users, kind, seed=n, ais=("normal",) if n % 2 else ()))
        stopped = await play(service, 1, [1, 2], "numeri", seed=99, stop_after=3)
        assert (await store.load_game(stopped)).status == "cancelled"
        records = {i: await store.load_game(i) for ids in finished.values() for i in ids}
        for kind in KINDS:  # the store's own lists of finished games, for whoever folds them, by kind too
            assert {r.id for r in await store.finished_games(1, 10, kind)} == set(finished[kind])
        assert {r.id for r in await store.finished_games(1, 10)} == set(records)
        async with backend.stats(summariser(GAMES), KINDS) as stats:
            assert await stats.refresh(every_guild=True) == 2 * len(KINDS)  # two of each kind
            cached = await stats.all_results()
            assert {r.game_id for r in cached} == set(records)  # the cancelled game counts nowhere
            for game_id, record in records.items():
                rows = [r for r in cached if r.game_id == game_id]
                assert {r.kind for r in rows} == {record.kind} and [r.seat for r in rows] == [0, 1, 2][:len(rows)]
                assert {r.seat: (r.final_score, r.won, dict(r.extra)) for r in rows} == recomputed(record)
                assert [r.user_id for r in rows] == [s.user_id for s in record.seats]
            thenumber = next(r for r in records.values() if r.kind == "thenumber")  # and the engine agrees
            assert {str(r.seat): r.final_score for r in cached if r.game_id == thenumber.id} == \
                rebuild(thenumber).final_scores()
            for kind in KINDS:  # every read of a kind sees that kind only
                assert {r.game_id for r in await stats.all_results(kind)} == set(finished[kind])
                assert {g.game_id for g in await stats.recent(1, kind)} == set(finished[kind])
                board = await stats.leaderboard(1, kind, "wins", 0, clock.now() + 1)
                humans = {s.user_id for i in finished[kind] for s in records[i].seats if s.user_id is not None}
                assert {row.user_id for row in board.rows} == humans
                user = records[finished[kind][0]].seats[0].user_id
                assert user is not None
                assert [g.game_id for g in await stats.player_games(1, kind, user)] == [finished[kind][0]]
            assert await stats.rebuild() == 2 * len(KINDS)
            assert await stats.all_results() == cached
            with pytest.raises(ValueError, match="no statistics"):
                await stats.recent(1, "chess")


async def test_a_game_that_started_with_a_gap_in_its_seats_is_still_counted(backend: Backend) -> None:
    """The old code freed the seat of whoever left a lobby, so it started games with seats 0 and 2."""
    clock = FakeClock()
    async with backend.store() as store:
        from tests.play_helpers import number_service

        service = number_service(store, clock)
        record = await service.open_lobby(1, 7, 1, "a", {})
        await service.join(record.id, 2, "b")
        await service.join(record.id, 3, "c")
        await service.leave_lobby(record.id, 2)
        # Written as the old code left it: the seat freed, the others keeping their numbers.
        await backend.execute("UPDATE seats SET seat = 2 WHERE game_id = ? AND seat = 1", record.id)
        started = await service.start(record.id, 1)
        assert [s.seat for s in (await store.load_game(record.id)).seats] == [0, 2]
        table = started.table  # the service numbers the seats by position, as the game does
        rng = random.Random(4)
        while table.running:
            reports, state = [], table.state  # the turn's state: the last number moves the table on
            for seat in table.record.seated:
                free = sorted(state.available(str(seat.seat)))
                if free:
                    number = "".join(str(rng.choice(free)) for _ in "abc")
                    reports += (await service.act(record.id, seat.user_id or 0, text=number)).reports
            assert reports
            table = await service.table(record.id)
        stored = await store.load_game(record.id)
        state = rebuild(stored)  # the engine numbers the seats by position: 0 and 1
        scores = {seat.user_id: state.final_scores()[str(position)] for position, seat in enumerate(stored.seats)}
        async with backend.stats(summariser(GAMES), KINDS) as stats:
            board = await stats.leaderboard(1, "thenumber", "wins", 0, clock.now() + 1)
            assert board.players == 2
            rows = await stats.all_results()
            assert {r.user_id: r.final_score for r in rows} == scores


# Through Discord: each game's group (/thenumber, /numeri...) sees its own games only ------------------------
async def run(world: World, who: str, command: str, **options: Any) -> Any:
    result = await (await world.users[who].slash(world.general, command, **options)).wait(5)
    if result.response_type == 5:
        await result.wait_edits(1)
    assert not result.rejections, result.rejections
    return result


def fields(result: Any) -> dict[str, str]:
    return {f["name"]: f["value"] for e in result.message.embeds for f in e.get("fields", [])}


async def test_each_group_shows_its_own_games_and_exports_replay(world: World, tmp_path: Path) -> None:
    service = GameService(world.bot.store, GAMES, world.clock)
    ana, ben = world.users["ana"].id, world.users["ben"].id
    ids = {kind: await play(service, world.guild.id, [ana, ben], kind, seed=n) for n, kind in enumerate(KINDS)}

    for kind in KINDS:  # each game's group is named by its key
        command = kind
        mine = await run(world, "ana", f"{command} stats")
        assert fields(mine)["Games played"] == "1", (command, fields(mine))
        history = await run(world, "ana", f"{command} history")
        text = world.fake.visible_text(history.message)
        assert f"Game #{ids[kind]}" in text and all(f"Game #{i}" not in text for k, i in ids.items() if k != kind)
        for other, game_id in ids.items():
            if other != kind:  # another kind's game does not exist for this group
                refused = await run(world, "ana", f"{command} game", id=game_id)
                assert refused.ephemeral and f"There is no game #{game_id}" in refused.content
        exported = await run(world, "ana", f"{command} export", id=ids[kind])
        (attachment,) = exported.message.attachments
        record = await world.bot.store.load_game(ids[kind])
        data = json.loads(attachment.data)
        if kind == "thenumber":  # The Number keeps its table script
            assert attachment.filename == f"thenumber-game-{ids[kind]}.json"
            final = rebuild(record).final_scores()
            assert replay_text(attachment.data.decode())["final"] == {s.name: final[str(s.seat)] for s in record.seats}
        else:
            assert attachment.filename == f"{kind}-game-{ids[kind]}.json"
            assert data["game"] == kind and data == service.export(record)
            game = game_for(kind)
            assert game.result(fold_envelope(data, GAMES)) == game.result((await service.table(ids[kind])).state)
            path = tmp_path / attachment.filename
            path.write_bytes(attachment.data)
            replayed = subprocess.run([sys.executable, "-m", "bot", "replay", str(path)], capture_output=True,
                                      text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
            assert replayed.returncode == 0, replayed.stderr
            assert json.loads(replayed.stdout)["scores"] == {
                s.name: r.final_score for s, r in zip(record.seats, await stats_rows(world, ids[kind]), strict=True)}
        shown = await run(world, "ana", f"{command} game", id=ids[kind])
        assert shown.message is not None and shown.message.embeds

    # Each game's own lines, from its presenter.
    numeri = fields(await run(world, "ana", "numeri stats"))
    assert "Tokens never entered" in numeri and "Average points per token" in numeri
    binomial = fields(await run(world, "ben", "binomial stats"))
    assert {"Cards won", "Fights won"} <= set(binomial)
    figures = player_stats(await world.bot.get_cog("TableStats").stats.player_games(  # type: ignore[union-attr]
        world.guild.id, "binomial", ben))
    won = sum(e["fights_won"] for e in figures.extras)
    fights = sum(e["fights"] for e in figures.extras)
    assert binomial["Fights won"].startswith(f"{won} of {fights} ")
    thenumber = fields(await run(world, "ana", "thenumber stats"))
    assert "Approved numbers" in thenumber and "Tokens never entered" not in thenumber


async def stats_rows(world: World, game_id: int) -> list[Any]:
    return await world.bot.get_cog("TableStats").stats.results(game_id)  # type: ignore[union-attr]


def test_each_presenter_says_its_lines_in_english_and_french() -> None:
    from bot.core.stats import PlayerStats
    from cogs.thenumber.stats_presenter import TheNumberStats

    def stats(*extras: dict[str, Any]) -> PlayerStats:
        return PlayerStats(len(extras), 1, 20.0, None, extras)

    numeri = stats({"never_entered": 2, "points": [5, 0, 3]}, {"never_entered": 1, "points": [4, 4, 0]})
    assert NumeriStats().player_fields(numeri, "en") == [
        ("Tokens never entered", "3 in 2 games (1.5 per game)"), ("Average points per token", "**2.7** (6 tokens)")]
    assert NumeriStats().player_fields(numeri, "fr") == [
        ("Pions jamais entrés", "3 en 2 parties (1,5 par partie)"), ("Points moyens par pion", "**2,7** (6 pions)")]
    binomial = stats({"cards_won": 3, "fights": 5, "fights_won": 2, "points_by_card": {"contains_0": 3, "x": 4}},
                     {"cards_won": 1, "fights": 3, "fights_won": 2, "points_by_card": {"contains_5": 3}})
    assert BinomialStats().player_fields(binomial, "en") == [
        ("Cards won", "4 (2.0 per game)"), ("Fights won", "4 of 8 (50%)"),
        ("Points per card won", "**2.5** (10 points for 4 cards)")]
    assert BinomialStats().player_fields(binomial, "fr")[1] == ("Combats gagnés", "4 sur 8 (50\u00a0%)")
    number = stats({"played": 3, "approved": 2, "numbers": ["513", "520", "999"]})
    assert TheNumberStats().player_fields(number, "fr") == [
        ("Nombres validés", "2 sur 3 (67\u00a0%)"), ("Premier chiffre préféré", "**5** (2 nombres)")]
