"""AI priors from finished games (issue 17 point 2): the store's read, the core hook, The Number's hard AI.

A learning game's AI starts from what each human's finished games against this bot showed: the service
reads them once when the game starts, the game turns what the table saw at their end into priors, and the
priors are stored with the start (beside the seed), so that every AI move, a restart and a replay use them.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.core.fold import step_rng
from bot.core.game import History, PastGame
from bot.core.service import PAST_GAMES_PER_PLAYER, GameService
from bot.core.table import PRIORS_KEY, Table, priors_of, seed_of
from bot.games.thenumber import ai
from bot.games.thenumber.ai_beliefs import DEFAULT_PRIOR, TYPES
from bot.games.thenumber.ai_history import checked_priors, opening_beliefs, prior_from_history, trust
from bot.games.thenumber.ai_mixed import hard_distribution
from bot.games.thenumber.ai_tables import MASK
from bot.games.thenumber.engine import GameState, PublicView, new_game, play_turn, public_view
from bot.games.thenumber.game import GAME, TheNumber, table_of
from storage.base import GameStore
from tests.conftest import FakeClock
from tests.discord_world import eventually, make_world
from tests.fakediscord import FakeDiscord

_ids = itertools.count(1)
Habit = Callable[[GameState, str], str]


def high_repeat(state: GameState, me: str) -> str:
    """999, then 888, ...: the highest digit left, three times."""
    return str(max(state.available(me))) * 3


def low(state: GameState, me: str) -> str:
    digits = sorted(state.available(me))
    return "".join(str(digits[min(i, len(digits) - 1)]) for i in range(3))


def played_by(habit: Habit, others: int = 2) -> PublicView:
    """The final public view of a whole game where player "h" follows ``habit`` and the others play normal."""
    names = ["h", *(f"o{i}" for i in range(others))]
    state = new_game(names)
    k = 0
    while not state.finished:
        view = public_view(state)
        numbers = {n: habit(state, n) if n == "h" else ai.choose_number(view, n, "normal", step_rng(7, k, i))
                   for i, n in enumerate(names) if not state.is_exhausted(n)}
        state, _ = play_turn(state, numbers)
        k += 1
    return public_view(state)


def answer_share(dist: Any) -> float:
    """How much of a distribution writes a number with a 9 below 999 (the answer to opponents writing 999)."""
    return sum(p for v, m, p in dist if m & MASK[999] and v < 999)


# The pure part ------------------------------------------------------------------------------------
def test_one_game_of_999_888_777_makes_high_repeat_the_likeliest_type_from_turn_1() -> None:
    past = played_by(high_repeat)
    prior = prior_from_history([(past, "h")])
    assert set(prior) == set(TYPES) and abs(sum(prior.values()) - 1) < 1e-5
    assert max(prior, key=prior.__getitem__) == "high_repeat", prior
    opening = public_view(new_game(["me", "h"]))
    belief = opening_beliefs(opening, "me", {"h": prior})["h"]
    assert max(belief, key=belief.__getitem__) == "high_repeat"
    assert belief["high_repeat"] > 3 * DEFAULT_PRIOR["high_repeat"]


def test_more_games_of_a_habit_make_it_surer_and_no_history_is_the_default_prior() -> None:
    one = prior_from_history([(played_by(high_repeat), "h")])
    five = prior_from_history([(played_by(high_repeat), "h")] * 5)
    assert five["high_repeat"] > one["high_repeat"] > 0.3
    assert five["high_repeat"] < 1 - (1 - trust(5)) * 0.5  # part of the weight always stays on the default
    assert prior_from_history([]) == dict(DEFAULT_PRIOR)
    # a game in which the player revealed nothing says nothing
    assert prior_from_history([(public_view(new_game(["h", "x"])), "h")]) == dict(DEFAULT_PRIOR)
    lows = prior_from_history([(played_by(low), "h")] * 3)
    assert max(lows, key=lows.__getitem__) == "low", lows


def test_the_game_turns_a_history_into_priors_by_seat_and_checks_stored_priors() -> None:
    # A stored game names its seats "0", "1", ...: ana sat first then, and sits second now.
    history: History = {1: [PastGame(public_view(_as_seats(played_by(high_repeat))), 0)]}
    priors = GAME.ai_priors(history)
    assert priors is not None and set(priors) == {"1"}
    assert max(priors["1"], key=priors["1"].__getitem__) == "high_repeat"
    assert GAME.ai_priors({}) is None
    assert checked_priors({"1": {"high_repeat": 0.5, "bogus": 3, "low": "x", "high": True}}) == {
        "1": {"high_repeat": 0.5}}
    assert checked_priors(["no"]) is None and checked_priors({"1": {}}) is None


def _as_seats(view: PublicView) -> GameState:
    """The game of ``view`` replayed with the players named "0", "1", ... (as the adapter names seats)."""
    names = {p: str(i) for i, p in enumerate(view.players)}
    state = new_game(list(names.values()))
    for outcome in view.history:
        numbers = {names[p]: r.number for p, r in outcome.results.items() if r.number is not None}
        state, _ = play_turn(state, numbers)
    return state


def test_hard_answers_a_remembered_habit_on_turn_1_and_the_other_levels_ignore_priors() -> None:
    opening = public_view(new_game(["0", "1", "2"]))
    prior = prior_from_history([(played_by(high_repeat), "h")] * 5)
    told = {"1": prior, "2": prior}
    assert answer_share(hard_distribution(opening, "0", told)) > answer_share(hard_distribution(opening, "0")) + 0.2
    view = GAME.view(GAME.setup(3, {}, 0), 0)
    for level in ("easy", "normal"):
        assert GAME.ai(view, 0, level, step_rng(1, 0, 0), told) == GAME.ai(view, 0, level, step_rng(1, 0, 0))


# Through the game service -------------------------------------------------------------------------
async def open_table(service: GameService, humans: Sequence[int], ais: Sequence[str]) -> int:
    record = await service.open_lobby(1, next(_ids), humans[0], f"u{humans[0]}", {}, kind=GAME.key)
    for user in humans[1:]:
        await service.join(record.id, user, f"u{user}")
    for level in ais:
        await service.add_ai(record.id, humans[0], level, f"ai-{level}")
    return record.id


async def play_game(service: GameService, humans: Mapping[int, Habit], ais: Sequence[str],
                    first_draft: str | None = None) -> int:
    """A whole game: each human writes by its habit (the first, once, drafts ``first_draft`` before)."""
    game_id = await open_table(service, list(humans), ais)
    table = (await service.start(game_id, next(iter(humans)))).table
    while table.running:
        for seat in sorted(table.awaited()):
            user = table.seat(seat).user_id
            assert user is not None
            if first_draft is not None:
                await service.act(game_id, user, text=first_draft, phase=table.step)
                first_draft = None
            table = (await service.act(game_id, user, text=humans[user](table.state, str(seat)),
                                       phase=table.step)).table
            if not table.running:
                break
    return game_id


async def test_the_store_returns_each_players_newest_finished_games_against_the_bot(store: GameStore,
                                                                                    clock: FakeClock) -> None:
    service = GameService(store, [GAME], clock)
    ana, bo, cy = (next(_ids) * 1000 + i for i in range(3))
    played = []
    for _ in range(3):
        played.append(await play_game(service, {ana: high_repeat}, ["normal"]))
        clock.advance(5)
    human_only = await play_game(service, {ana: high_repeat, bo: low}, [])
    clock.advance(5)
    both = await play_game(service, {bo: low, ana: high_repeat}, ["easy"])
    clock.advance(5)
    running = await open_table(service, [cy], ["hard"])
    await service.start(running, cy)
    newest_two = [r.id for r in await store.past_games(GAME.key, [ana], 2)]
    assert newest_two == [both, played[2]]
    found = [r.id for r in await store.past_games(GAME.key, [ana, bo, cy], 20)]
    assert found == [both, *reversed(played)]  # each game once, newest first; no human-only, no running game
    assert human_only not in found
    records = await store.past_games(GAME.key, [bo], 5)
    assert [r.id for r in records] == [both] and records[0].actions and records[0].seats
    assert await store.past_games("numeri", [ana], 5) == []
    assert await store.past_games(GAME.key, [], 5) == []


async def test_a_hard_ai_starts_from_what_a_players_finished_games_showed(store: GameStore,
                                                                         clock: FakeClock) -> None:
    service = GameService(store, [GAME], clock)
    ana, bo = next(_ids) * 1000, next(_ids) * 1000 + 1
    for _ in range(3):
        await play_game(service, {ana: high_repeat}, ["normal", "easy"])
        clock.advance(5)
    # The new table: bo (no history) and ana, then a hard AI in seat 2.
    game_id = await open_table(service, [bo, ana], ["hard"])
    outcome = await service.start(game_id, bo)
    record = await store.load_game(game_id)
    priors = priors_of(record)
    assert priors is not None and set(priors) == {"1"}  # ana's seat; bo has no past game: the default prior
    assert max(priors["1"], key=priors["1"].__getitem__) == "high_repeat"
    table = outcome.table
    assert table.ai_priors == priors
    # Turn 1: the AI already believes ana writes 999, and its distribution answers it.
    view = table_of(GAME.view(table.state, 2))
    belief = opening_beliefs(view, "2", checked_priors(priors))
    assert max(belief["1"], key=belief["1"].__getitem__) == "high_repeat"
    assert belief["0"]["normal"] == max(belief["0"].values())  # bo: the default prior's likeliest type
    # About 0.32 against 0.08 (0.43 against 0.03 before the solve modelled readers that answer draws of
    # the mixes: bo, who may be one, would answer ana's 999 too, and hard spreads its answer).
    assert answer_share(hard_distribution(view, "2", checked_priors(priors))) > answer_share(
        hard_distribution(view, "2")) + 0.2
    # The AI's draft is the one the stored seed and the stored priors give: a replay derives it again.
    draft = next(a.payload for a in record.actions if a.kind == "choose" and a.seat == 2)
    again = GAME.ai(GAME.view(table.state, 2), 2, "hard", step_rng(seed_of(record), 0, 2), priors)
    assert draft == again
    # A restart folds the game again and keeps the same priors, read from the start row (no other read).
    restarted = GameService(store, [GAME], clock)
    assert (await restarted.table(game_id)).ai_priors == priors


async def test_no_history_read_without_a_learning_seat_or_any_past_game(store: GameStore, clock: FakeClock,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[tuple[str, list[int], int]] = []
    real = store.past_games

    async def counted(kind: str, users: Sequence[int], per_user: int) -> Any:
        reads.append((kind, list(users), per_user))
        return await real(kind, users, per_user)

    monkeypatch.setattr(store, "past_games", counted)
    service = GameService(store, [GAME], clock)
    ana = next(_ids) * 1000
    await play_game(service, {ana: high_repeat}, ["normal"])  # no hard seat: nothing read
    assert reads == []
    clock.advance(5)
    newcomer = next(_ids) * 1000
    game_id = await open_table(service, [newcomer], ["hard"])
    await service.start(game_id, newcomer)
    assert reads == [(GAME.key, [newcomer], PAST_GAMES_PER_PLAYER)]
    assert priors_of(await store.load_game(game_id)) is None  # nothing known: nothing stored
    assert PRIORS_KEY not in next(a.payload for a in (await store.load_game(game_id)).actions if a.kind == "start")


async def test_the_history_is_the_tables_view_of_each_finished_game_never_a_draft(
        store: GameStore, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A draft a player replaced is never revealed: no view the game is handed holds it."""
    service = GameService(store, [GAME], clock)
    ana, bo = next(_ids) * 1000, next(_ids) * 1000 + 1
    # ana drafts 586 while bo has not chosen yet, then changes her mind: 586 is never revealed
    await play_game(service, {ana: high_repeat, bo: low}, ["easy"], first_draft="586")
    seen: list[History] = []
    real = TheNumber.ai_priors

    def spy(self: TheNumber, history: History) -> Any:
        seen.append(history)
        return real(self, history)

    monkeypatch.setattr(TheNumber, "ai_priors", spy)
    clock.advance(5)
    game_id = await open_table(service, [ana], ["hard"])
    await service.start(game_id, ana)
    assert len(seen) == 1 and set(seen[0]) == {0}
    (past,) = seen[0][0]
    assert isinstance(past.view, PublicView) and past.seat == 0  # the table's view, not a seat's
    # ana's own numbers (the easy AI at the table may well write 586 by chance: its seed is secret)
    hers = [outcome.results[past.view.players[past.seat]].number for outcome in past.view.history]
    assert hers[0] == "999" and "586" not in hers


async def test_a_past_game_that_cannot_be_folded_is_left_out(store: GameStore, clock: FakeClock,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    service = GameService(store, [GAME], clock)
    ana = next(_ids) * 1000
    await play_game(service, {ana: high_repeat}, ["easy"])
    clock.advance(5)

    def broken(self: TheNumber, *args: Any) -> Any:
        raise ValueError("rules changed")

    game_id = await open_table(service, [ana], ["hard"])
    lobby = await store.load_game(game_id)
    with monkeypatch.context() as patch:
        patch.setattr(TheNumber, "apply", broken)
        assert await service._ai_priors(GAME, lobby) is None
    with monkeypatch.context() as patch:
        patch.setattr(TheNumber, "ai_priors", broken)  # a fault of the game's own: the game starts without
        assert await service._ai_priors(GAME, lobby) is None
    await service.start(game_id, ana)
    assert priors_of(await store.load_game(game_id)) is not None


def test_a_table_without_stored_priors_has_none() -> None:
    assert Table.__dataclass_fields__["ai_priors"].default is None


# Through Discord (the fake) -----------------------------------------------------------------------
async def test_in_discord_a_hard_ai_remembers_a_player_who_always_goes_high(
        fake_discord: FakeDiscord, db_path: Path, clock: FakeClock) -> None:
    world = await make_world(fake_discord, db_path, clock)
    try:
        for game_id in (1, 2):
            opened = await (await world.users["ana"].slash(world.general, "thenumber start", ai_players=1,
                                                           ai_level="hard")).wait()
            await (await world.users["ana"].click(opened.message, "Start")).wait()
            assert world.bot is not None
            table = await world.bot.service.table(game_id)
            if game_id == 2:
                break
            for turn in range(10):  # ana writes 999, 888, ... every turn of both rounds
                await world.wait_status(f"turn {turn % 5 + 1} of 5")
                table = await world.bot.service.table(game_id)
                free = table.state.available("0")
                if free:
                    await world.play_turn({"ana": str(max(free)) * 3})
                else:
                    before = len(world.reveals())
                    await world.advance(61)
                    await eventually(lambda before=before: len(world.reveals()) > before, what="the reveal")
            await eventually(lambda: "The Number · game over" in world.fake.visible_text(world.reveals()[-1]),
                             what="the end")
        priors = table.ai_priors
        assert priors is not None and set(priors) == {"0"}
        assert max(priors["0"], key=priors["0"].__getitem__) == "high_repeat"
        belief = opening_beliefs(table_of(GAME.view(table.state, 1)), "1", checked_priors(priors))["0"]
        assert max(belief, key=belief.__getitem__) == "high_repeat"
        assert world.fake.violations == []
    finally:
        await world.stop_bot()


# Binomial: how often each player fought ------------------------------------------------------------
def binomial_game(seats: int, seed: int, policies: Mapping[int, Any]) -> Any:
    """The final state of a Binomial game whose seats follow ``policies`` (the normal level otherwise)."""
    from bench.ai_pool_binomial_players import POOL
    from bot.games.binomial.game import GAME as BINOMIAL

    state = BINOMIAL.setup(seats, {}, seed)
    rng = Random(seed)
    while (prompt := BINOMIAL.prompt(state)) is not None:
        if prompt.chance:
            state, _ = BINOMIAL.apply(state, {None: BINOMIAL.chance(state, rng)})
            continue
        state, _ = BINOMIAL.apply(state, {s: policies.get(s, POOL["normal"])(BINOMIAL.view(state, s), s, rng)
                                          for s in prompt.seats})
    return state


def test_binomial_hard_expects_a_player_who_always_fought_to_fight_from_the_first_card() -> None:
    from bench.ai_pool_binomial_players import POOL
    from bot.games.binomial import ai_hard
    from bot.games.binomial.game import GAME as BINOMIAL
    from bot.games.binomial.game import fight_priors

    final = BINOMIAL.view(binomial_game(3, 4, {1: POOL["always_fight"], 2: POOL["never_fight"]}), None)
    assert final.sheets is not None  # a finished game shows every sheet; the priors never read them
    # Now ana (seat 1 then) sits in seat 2 and bo (seat 2 then) in seat 1.
    priors = BINOMIAL.ai_priors({2: [PastGame(final, 1)], 1: [PastGame(final, 2)]})
    assert priors is not None and set(priors) == {"1", "2"}
    assert priors == BINOMIAL.ai_priors({2: [PastGame(dataclasses.replace(final, sheets=None), 1)],
                                         1: [PastGame(dataclasses.replace(final, sheets=None), 2)]})
    rounds = priors["2"]["rounds"]
    # (a round without a fitting number counts as a round not fought, as hard counts them in a game)
    assert priors["2"]["fights"] > 0.6 * rounds and priors["1"]["fights"] == 0
    # The first card of a new game: hard already expects seat 2 to fight and seat 1 to pass.
    state = BINOMIAL.setup(3, {}, 5)
    rng = Random(5)
    while not ((prompt := BINOMIAL.prompt(state)) is not None and prompt.kind in ("declare", "pick")
               and 0 in prompt.seats):  # seat 0's first declaration
        assert prompt is not None
        step = ({None: BINOMIAL.chance(state, rng)} if prompt.chance else
                {s: BINOMIAL.ai(BINOMIAL.view(state, s), s, "normal", rng) for s in prompt.seats})
        state, _ = BINOMIAL.apply(state, step)
    view = BINOMIAL.view(state, 0)
    assert view.history == ()
    told = ai_hard.fight_rates(view, 0, fight_priors(priors))
    plain = ai_hard.fight_rates(view, 0)
    assert plain == {1: ai_hard.PRIOR_RATE, 2: ai_hard.PRIOR_RATE}
    assert told[2] > ai_hard.PRIOR_RATE + 0.05 and told[1] < 0.2
    assert fight_priors({"1": {"rounds": 3, "fights": 9}, "x": {}, "2": {"rounds": True, "fights": 0}}) is None
    for k in range(3):  # and the decision is a legal one
        action = BINOMIAL.ai(view, 0, "hard", Random(k), priors)
        assert BINOMIAL.check(state, 0, action) == action


async def test_a_binomial_table_with_a_hard_ai_stores_how_often_each_human_fought(store: GameStore,
                                                                                  clock: FakeClock) -> None:
    from bot.games.binomial import ai_hard
    from bot.games.binomial.game import GAME as BINOMIAL
    from bot.games.binomial.game import fight_priors

    service = GameService(store, [GAME, BINOMIAL], clock)
    ana = next(_ids) * 1000
    record = await service.open_lobby(1, next(_ids), ana, "ana", {}, kind=BINOMIAL.key)
    await service.add_ai(record.id, ana, "normal", "ai")
    table = (await service.start(record.id, ana)).table
    while table.running:  # ana fights with her biggest fitting number whenever she can
        (seat,) = sorted(table.awaited())
        legal = list(BINOMIAL.legal(table.state, seat) or [])
        action = legal[-1] if legal[-1].get("fight") else legal[0]
        table = (await service.act(record.id, ana, action=action, phase=table.step)).table
    clock.advance(5)
    lobby = await service.open_lobby(1, next(_ids), ana, "ana", {}, kind=BINOMIAL.key)
    await service.add_ai(lobby.id, ana, "hard", "ai")
    started = (await service.start(lobby.id, ana)).table
    priors = priors_of(await store.load_game(lobby.id))
    assert priors is not None and set(priors) == {"0"} and started.ai_priors == priors
    # exactly what the table saw of her first game: the rounds it had and the ones she fought
    assert priors == BINOMIAL.ai_priors({0: [PastGame(BINOMIAL.view(table.state, None), 0)]})
    rounds, fights = priors["0"]["rounds"], priors["0"]["fights"]
    assert 0 <= fights <= rounds and rounds > 0
    assert (fight_priors(priors) or {})[0] == ai_hard.past_fight_prior(rounds, fights)
