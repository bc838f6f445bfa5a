"""One contract test for every game in ``bot.games.GAMES`` (after PettingZoo's api_test and seed_test).

Each game is played to the end by its AI at every level and by random legal choices, for every seat
count, through ``bot.core.fold.playout`` (the live game); then its stored steps are walked again and at
every step the test checks what the core relies on:

* the result exists exactly when ``prompt`` is None; every listed legal action passes ``check``;
* ``apply`` never mutates the state it is given;
* the rules' timeout step, merged with the actions of the seats that did act, is always accepted;
* secrets stay secret: a seat's view may expose ``secrets()`` (strings only that seat may see); none may
  appear in the table's view, in another seat's view, or in an event made before the current state;
* the same seed gives the same game, and folding the exported envelope (through JSON) gives the live
  final state and the live events.

When ``legal`` is None (too many actions to list) the random player asks the game's first AI level
(its weakest, by convention "easy") for an action: that is the game's way to produce a legal one.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from bot.core.fold import (
    SeatPolicy,
    ai_policy,
    envelope,
    fold,
    fold_envelope,
    playout,
    step_from_json,
    step_to_json,
)
from bot.core.game import Action, Game, Option, Prompt, Result, RuleError, Seat
from bot.games import GAMES, game_for

SEEDS = (1, 2, 3)

AnyGame = Game[Any, Any, Any]


def game_id(game: AnyGame) -> str:
    return game.key


def snapshot(value: Any) -> Any:
    """A deep, comparable copy of a state built of dataclasses, mappings, sequences and sets.

    ``copy.deepcopy`` cannot copy a ``MappingProxyType`` (The Number freezes its mappings so), hence this.
    """
    if value is None or isinstance(value, str | bytes | int | float | enum.Enum):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__qualname__,
                tuple((f.name, snapshot(getattr(value, f.name))) for f in dataclasses.fields(value)))
    if isinstance(value, Mapping):
        return ("map", tuple(sorted(((repr(k), snapshot(v)) for k, v in value.items()), key=lambda kv: kv[0])))
    if isinstance(value, list | tuple):
        return (type(value).__qualname__, tuple(snapshot(v) for v in value))
    if isinstance(value, set | frozenset):
        return ("set", tuple(sorted((snapshot(v) for v in value), key=repr)))
    slots = [name for cls in type(value).__mro__ for name in getattr(cls, "__slots__", ())]
    if hasattr(value, "__dict__") or slots:
        fields = {**{name: getattr(value, name) for name in slots if hasattr(value, name)},
                  **getattr(value, "__dict__", {})}
        return (type(value).__qualname__, snapshot(fields))
    return repr(value)


def secrets_of(view: Any) -> tuple[str, ...]:
    """What a view shows only to its seat (empty for a view without ``secrets()``)."""
    found = getattr(view, "secrets", None)
    return tuple(found()) if callable(found) else ()


def shown(value: Any) -> str:
    return f"{value!r}\n{value}"


def random_policy(game: AnyGame, seat: Seat) -> SeatPolicy:
    """A random legal choice; when the game lists none, its weakest AI's."""
    def choose(view: Any, legal: Sequence[Action] | None, rng: random.Random) -> Action:
        if legal is None:
            return game.ai(view, seat, game.ai_levels[0], rng)
        assert legal, f"{game.key}: seat {seat} is awaited but has no legal action"
        return rng.choice(list(legal))
    return choose


def names(seats: int) -> list[str]:
    return [f"seat {s}" for s in range(seats)]


def walk(game: AnyGame, seats: int, seed: int, steps: Sequence[Mapping[str, Any]]
         ) -> Iterator[tuple[Any, Mapping[Any, Action], Any, Any]]:
    """(state before, step, state after, event) for each stored step, folding them from the start."""
    state = game.setup(seats, {}, seed)
    for stored in steps:
        step = step_from_json(stored)
        after, event = game.apply(state, step)
        yield state, step, after, event
        state = after


def check_state(game: AnyGame, seats: int, state: Any, events: Sequence[Any], rng: random.Random) -> None:
    """Everything that must hold in one state of a game (``events``: every event made before it)."""
    prompt = game.prompt(state)
    result = game.result(state)
    assert (prompt is None) == (result is not None), f"{game.key}: prompt {prompt} but result {result}"
    if result is not None:
        assert set(result.scores) == set(range(seats))
        assert result.winners <= set(range(seats))
        assert set(result.extra) <= set(range(seats))
        json.dumps({str(s): dict(e) for s, e in result.extra.items()})  # stored as JSON by the stats
    else:
        assert prompt.seats <= set(range(seats))
        assert not (prompt.chance and prompt.seats), f"{game.key}: a chance step awaits seats {prompt.seats}"

    table = game.view(state, None)
    assert not secrets_of(table), f"{game.key}: the table's view has secrets"
    table_text = shown(table)
    past = shown(list(events))
    views = {seat: game.view(state, seat) for seat in range(seats)}
    for seat, view in views.items():
        for secret in secrets_of(view):
            assert secret not in table_text, f"{game.key}: seat {seat}'s secret {secret!r} is in the table view"
            assert secret not in past, f"{game.key}: seat {seat}'s secret {secret!r} is in an earlier event"
            for other, other_view in views.items():
                if other != seat:
                    assert secret not in shown(other_view), \
                        f"{game.key}: seat {seat}'s secret {secret!r} is in seat {other}'s view"

    if prompt is None or prompt.chance:
        return
    for seat in sorted(prompt.seats):
        legal = game.legal(state, seat)
        for action in legal or ():
            canonical = game.check(state, seat, action)
            assert game.check(state, seat, canonical) == canonical, f"{game.key}: check is not idempotent"
        json.dumps(legal)  # actions are JSON-able

    # The deadline: whoever has not acted gets the rules' default; the step must always apply.
    awaited = sorted(prompt.seats)
    for missing in {frozenset(awaited), frozenset(rng.sample(awaited, rng.randint(0, len(awaited))))}:
        if not prompt.sealed and not missing:
            continue  # an open step is applied at its first action: it never reaches the deadline complete
        drafts = {s: random_policy(game, s)(game.view(state, s), game.legal(state, s), rng)
                  for s in awaited if s not in missing} if prompt.sealed else {}
        defaults = game.timeout(state, missing)
        assert set(defaults) <= missing, f"{game.key}: timeout acts for seats {set(defaults) - missing}"
        json.dumps(step_to_json(defaults))
        before = snapshot(state)
        game.apply(state, {**drafts, **defaults})
        assert snapshot(state) == before, f"{game.key}: apply mutated its input at the deadline"


def check_game(game: AnyGame, seats: int, seed: int, policy: Sequence[SeatPolicy]) -> None:
    steps, final = playout(game, seats, {}, seed, policy, random.Random(seed))
    assert game.prompt(final) is None and game.result(final) is not None

    rng = random.Random(f"conformance:{seed}")
    events: list[Any] = []
    state = game.setup(seats, {}, seed)
    states = [state]
    for before, step, after, event in walk(game, seats, seed, steps):
        check_state(game, seats, before, events, rng)
        frozen = snapshot(before)
        again, again_event = game.apply(before, step)
        assert snapshot(before) == frozen, f"{game.key}: apply mutated its input"
        assert snapshot(again) == snapshot(after) and snapshot(again_event) == snapshot(event), \
            f"{game.key}: the same step applied twice gave two results"
        events.append(event)
        states.append(after)
        state = after
    check_state(game, seats, state, events, rng)
    assert snapshot(state) == snapshot(final), f"{game.key}: folding the steps does not give the live state"

    # The export, through JSON, folds back to the live game.
    exported = json.loads(json.dumps(envelope(game.key, names(seats), {}, seed, steps)))
    assert exported["steps"] == steps
    assert snapshot(fold_envelope(exported, (game,))) == snapshot(final)
    folded, folded_events = fold(game, seats, {}, seed, exported["steps"])
    assert snapshot(folded) == snapshot(final) and snapshot(folded_events) == snapshot(events)
    upto = len(steps) // 2
    half, half_events = fold(game, seats, {}, seed, steps, upto=upto)
    assert snapshot(half) == snapshot(states[upto]) and snapshot(half_events) == snapshot(events[:upto])

    # The same seed (and the same players) give the same game.
    replayed, replayed_final = playout(game, seats, {}, seed, policy, random.Random(seed))
    assert replayed == steps and snapshot(replayed_final) == snapshot(final), \
        f"{game.key}: the same seed gave another game"


def seat_counts(game: AnyGame) -> list[int]:
    return list(game.seats)


CASES = [(game, seats) for game in GAMES for seats in seat_counts(game)]


def case_id(case: tuple[AnyGame, int]) -> str:
    return f"{case[0].key}-{case[1]}seats"


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("level_index", range(3))
def test_the_ai_plays_every_game_to_the_end(case: tuple[AnyGame, int], level_index: int) -> None:
    game, seats = case
    if level_index >= len(game.ai_levels):
        pytest.skip(f"{game.key} has only {len(game.ai_levels)} AI levels: no level number {level_index + 1} to play")
    level = game.ai_levels[level_index]
    check_game(game, seats, SEEDS[0], [ai_policy(game, s, level) for s in range(seats)])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_mixed_ai_levels_play_to_the_end(case: tuple[AnyGame, int]) -> None:
    game, seats = case
    levels = itertools.cycle(reversed(game.ai_levels))
    check_game(game, seats, SEEDS[1], [ai_policy(game, s, next(levels)) for s in range(seats)])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_legal_choices_play_to_the_end(case: tuple[AnyGame, int], seed: int) -> None:
    game, seats = case
    check_game(game, seats, seed, [random_policy(game, s) for s in range(seats)])


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_the_game_declares_itself(game: AnyGame) -> None:
    assert game_for(game.key) is game
    assert game.key.isidentifier() and game.key.islower()
    assert game.title and game.seats.start >= 1 and len(game.seats) >= 1
    assert game.ai_levels, f"{game.key} has no AI level (the random player and the lobby need one)"
    for option in game.options:
        assert option.name.isidentifier()
        if option.min is not None and not isinstance(option.default, bool):
            assert option.min <= option.default
        if option.max is not None and not isinstance(option.default, bool):
            assert option.default <= option.max
        assert not option.choices or option.default in option.choices
    assert any(o.name == "turn_seconds" for o in game.options), "every game has a turn timer"
    assert len({g.key for g in GAMES}) == len(GAMES)


def test_the_snapshot_sees_a_change_deep_inside() -> None:
    inner: dict[str, list[int]] = {"a": [1, 2]}
    before = snapshot(inner)
    inner["a"].append(3)
    assert snapshot(inner) != before


# The test tested: a toy game with chance, open steps, legal lists and a secret per seat passes it, and
# each way of breaking the contract fails it. (The Number has none of chance, open steps or listed moves.)
@dataclasses.dataclass(frozen=True)
class ToyState:
    positions: list[int]  # a list on purpose: the mutating variant below changes it in place
    words: tuple[str, ...]  # each seat's secret word
    mover: int = 0
    roll: int | None = None
    steps: int = 0


@dataclasses.dataclass(frozen=True)
class ToyView:
    positions: tuple[int, ...]
    roll: int | None
    word: str | None = dataclasses.field(default=None, repr=False)

    def secrets(self) -> tuple[str, ...]:
        return () if self.word is None else (self.word,)


class Toy:
    """Roll a die (1-3), then the mover advances by it or stays; first to 6 wins, 40 steps at most."""

    key, title, seats, ai_levels = "toy", "Toy", range(2, 4), ("easy",)
    options = (Option("turn_seconds", 60, 15, 3600),)

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> ToyState:
        rng = random.Random(seed)
        return ToyState([0] * seats, tuple(f"word{rng.randrange(10**9)}x{s}" for s in range(seats)))

    def _over(self, state: ToyState) -> bool:
        return max(state.positions) >= 6 or state.steps >= 40

    def prompt(self, state: ToyState) -> Any:
        if self._over(state):
            return None
        if state.roll is None:
            return Prompt(frozenset(), "roll", chance=True)
        return Prompt(frozenset({state.mover}), "move")

    def legal(self, state: ToyState, seat: Seat) -> list[Action]:
        return [{"move": 0}, {"move": state.roll}]

    def parse(self, state: ToyState, seat: Seat, text: str) -> Action:
        return self.check(state, seat, {"move": int(text)})

    def check(self, state: ToyState, seat: Seat, action: Action) -> Action:
        if seat != state.mover or state.roll is None or dict(action) not in self.legal(state, seat):
            raise RuleError(f"not a move: {action}")
        return dict(action)

    def chance(self, state: ToyState, rng: random.Random) -> Action:
        return {"die": rng.randint(1, 3)}

    def apply(self, state: ToyState, step: Mapping[Any, Action]) -> tuple[ToyState, Any]:
        if self._over(state):
            raise RuleError("over")
        if state.roll is None:
            die = step[None]["die"]
            return dataclasses.replace(state, roll=die, steps=state.steps + 1), ("rolled", die)
        move = step.get(state.mover, {"move": 0})["move"]
        if move not in (0, state.roll):
            raise RuleError("bad move")
        positions = list(state.positions)
        positions[state.mover] += move
        return (ToyState(positions, state.words, (state.mover + 1) % len(positions), None, state.steps + 1),
                ("moved", state.mover, move))

    def timeout(self, state: ToyState, missing: frozenset[Seat]) -> Mapping[Any, Action]:
        return {s: {"move": 0} for s in missing}

    def view(self, state: ToyState, seat: Seat | None) -> ToyView:
        return ToyView(tuple(state.positions), state.roll, None if seat is None else state.words[seat])

    def result(self, state: ToyState) -> Any:
        if not self._over(state):
            return None
        best = max(state.positions)
        return Result(dict(enumerate(state.positions)),
                      frozenset(s for s, p in enumerate(state.positions) if p == best))

    def ai(self, view: ToyView, seat: Seat, level: str, rng: random.Random) -> Action:
        return {"move": view.roll}


class MutatingToy(Toy):
    def apply(self, state: ToyState, step: Mapping[Any, Action]) -> tuple[ToyState, Any]:
        after, event = super().apply(state, step)
        state.positions[0] += 1
        return after, event


class LeakyTableToy(Toy):
    def view(self, state: ToyState, seat: Seat | None) -> ToyView:
        return dataclasses.replace(super().view(state, seat), positions=(*state.positions, state.words[0]))  # type: ignore[arg-type]


class LeakyEventToy(Toy):
    def apply(self, state: ToyState, step: Mapping[Any, Action]) -> tuple[ToyState, Any]:
        after, event = super().apply(state, step)
        return after, (*event, state.words[-1])


class StubbornToy(Toy):
    def timeout(self, state: ToyState, missing: frozenset[Seat]) -> Mapping[Any, Action]:
        return {s: {"move": 99} for s in missing}


class EarlyResultToy(Toy):
    def result(self, state: ToyState) -> Any:
        return super().result(state) or Result({}, frozenset())


class SeedlessToy(Toy):
    def chance(self, state: ToyState, rng: random.Random) -> Action:
        return {"die": random.randint(1, 3)}  # the global generator: not reproducible from the seed


def toy_policies(game: Toy, seats: int) -> list[SeatPolicy]:
    return [random_policy(game, s) for s in range(seats)]  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [2, 3])
def test_the_toy_game_passes(seats: int) -> None:
    for seed in SEEDS:
        check_game(Toy(), seats, seed, toy_policies(Toy(), seats))  # type: ignore[arg-type]


@pytest.mark.parametrize(("broken", "message"), [
    (MutatingToy, "mutated its input"),
    (LeakyTableToy, "in the table view"),
    (LeakyEventToy, "in an earlier event"),
    (StubbornToy, "bad move"),
    (EarlyResultToy, "prompt"),
    (SeedlessToy, "the same seed gave another game"),
])
def test_each_broken_contract_fails(broken: type[Toy], message: str) -> None:
    game = broken()
    with pytest.raises((AssertionError, RuleError), match=message):
        for seed in range(10):
            check_game(game, 2, seed, toy_policies(game, 2))  # type: ignore[arg-type]
