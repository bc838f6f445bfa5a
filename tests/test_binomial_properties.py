"""Property tests over random Binomial games (hypothesis): numbers used once, fighters' numbers used up, only
the winner scores (except in the same boat), the game ends, apply never mutates, same seed same game, and
no unused number of any seat reaches the table's view or an event before the end."""

import copy
import dataclasses
from collections.abc import Iterator, Mapping
from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.binomial.engine import Declared, Fight, Placed, Rolled, State
from bot.games.binomial.game import GAME
from bot.games.binomial.view import View

OPTIONS = st.fixed_dictionaries({
    "dark": st.booleans(), "reward_for_fighting": st.booleans(), "openness": st.booleans(),
    "match": st.booleans(),
})


def walk_game(seats: int, options: Mapping[str, Any], seed: int, levels: list[str] | None = None,
              ) -> Iterator[tuple[State, Mapping[Any, Any], State, Any]]:
    """Every step of a seeded random game (or AI game with ``levels``): (before, step, after, event)."""
    state = GAME.setup(seats, options, seed)
    rng = Random(seed)
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            step: dict[Any, Any] = {None: GAME.chance(state, rng)}
        elif levels:
            step = {s: GAME.ai(GAME.view(state, s), s, levels[s], rng) for s in prompt.seats}
        else:
            step = {}
            for s in sorted(prompt.seats):
                if rng.random() < 0.15:
                    continue  # this seat timed out: the core merges the rules' default
                step[s] = rng.choice(list(GAME.legal(state, s) or []))
            step.update(GAME.timeout(state, frozenset(prompt.seats) - set(step)))
        new, event = GAME.apply(state, step)
        yield state, step, new, event
        state = new


def final(seats: int, options: Mapping[str, Any], seed: int) -> tuple[State, list[Any]]:
    events = []
    state = GAME.setup(seats, options, seed)
    for _, _, after, event in walk_game(seats, options, seed):
        events.append(event)
        state = after
    return state, events


def numbers_in(obj: Any) -> Iterator[Any]:
    """Every leaf value of a view or event (dataclasses, tuples, mappings)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from numbers_in(getattr(obj, f.name))
    elif isinstance(obj, tuple | list | frozenset | set):
        for item in obj:
            yield from numbers_in(item)
    elif isinstance(obj, Mapping):
        for item in obj.values():
            yield from numbers_in(item)
    else:
        yield obj


@settings(max_examples=40, deadline=None)
@given(seats=st.integers(2, 7), options=OPTIONS, seed=st.integers(0, 10**6))
def test_random_games_keep_the_rules(seats: int, options: dict[str, Any], seed: int) -> None:
    if seats >= 6:
        options = {**options, "same_boat": seed % 2 == 0}
    for steps, (before, _, after, event) in enumerate(walk_game(seats, options, seed)):
        assert steps < 2000  # the game always ends
        if isinstance(event, Fight):
            fighters = dict(event.fighters)
            sheets = after.finished[-1].sheets if event.game_over else after.sheets  # a match starts afresh
            for s, n in event.fighters:  # a fighter's number is always used up (one copy)
                assert sheets[s].unused.count(n) == before.sheets[s].unused.count(n) - 1
            for s in range(seats):
                if s not in fighters:
                    assert sheets[s].unused == before.sheets[s].unused  # passing keeps everything
            scorers = {s for s, p in enumerate(event.points) if p}
            if not before.variants.same_boat:
                assert scorers <= ({event.winner} if event.winner is not None else set())
            assert scorers <= set(fighters)
            assert event.chairman == (before.chairman if event.winner is None else event.winner)
        for sheet in after.sheets:  # a number is used at most once: used rounds are distinct
            rounds = [r for r in sheet.used if r]
            assert len(rounds) == len(set(rounds))
    assert after.over and GAME.result(after) is not None


@settings(max_examples=15, deadline=None)
@given(seats=st.integers(2, 7), options=OPTIONS, seed=st.integers(0, 10**6))
def test_apply_never_mutates_and_same_seed_same_game(seats: int, options: dict[str, Any], seed: int) -> None:
    for before, step, _, _ in walk_game(seats, options, seed):
        snapshot = copy.deepcopy(before)
        GAME.apply(before, step)
        assert before == snapshot
    assert final(seats, options, seed) == final(seats, options, seed)


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(2, 7), options=OPTIONS, seed=st.integers(0, 10**6))
def test_no_unused_number_reaches_the_table_or_an_event(seats: int, options: dict[str, Any], seed: int) -> None:
    for before, _, after, event in walk_game(seats, options, seed):
        for state, thing in ((before, GAME.view(before, None)), (after, GAME.view(after, None)), (after, event)):
            if state.over or (isinstance(thing, Fight) and thing.game_over):
                continue  # at the end every sheet is revealed
            if isinstance(thing, View):
                assert thing.sheet is None and thing.sheets is None and thing.pick is None
                assert all(isinstance(f, bool) for _, f in thing.declared)
                revealed = {n for nums in thing.revealed for n in nums}
                # whatever was revealed is used up: no unused number hides in the revealed ones
                for s in range(seats):
                    used = [n for n, r in zip(state.sheets[s].numbers, state.sheets[s].used, strict=True) if r]
                    assert set(thing.revealed[s]) <= set(used)
                assert revealed <= {n for f in thing.history for _, n in f.fighters}
            elif isinstance(thing, Declared):
                assert set(dataclasses.asdict(thing)) == {"game", "round", "seat", "fight"}
            elif isinstance(thing, Placed):
                assert set(dataclasses.asdict(thing)) == {"game", "roll", "digit", "seats"}
            elif isinstance(thing, Rolled):
                assert set(dataclasses.asdict(thing)) == {"game", "roll", "digit"}
            elif isinstance(thing, Fight):
                assert thing.sheets is None
                for s, n in thing.fighters:
                    assert n not in after.sheets[s].unused or after.sheets[s].unused.count(n) < \
                        before.sheets[s].unused.count(n)
            # no Sheet object in what the table sees, but those of a match's finished games
            shown = dataclasses.replace(thing, past=()) if isinstance(thing, View) else thing
            assert "Sheet(" not in repr(shown)


def test_the_table_view_before_the_end_never_differs_by_sheet_contents() -> None:
    """Two games that differ only in where the digits went look the same to the table until a reveal."""
    a = GAME.setup(3, {}, 5)
    b = a
    rng = Random(2)
    while a.kind in ("roll", "place"):
        if a.kind == "roll":
            step = {None: GAME.chance(a, rng)}
            a, _ = GAME.apply(a, step)
            b, _ = GAME.apply(b, step)
            continue
        a, ea = GAME.apply(a, {s: (GAME.legal(a, s) or [])[0] for s in range(3)})
        b, eb = GAME.apply(b, {s: (GAME.legal(b, s) or [])[-1] for s in range(3)})
        assert ea == eb
    assert GAME.view(a, None) == GAME.view(b, None)
    assert GAME.view(a, 0) != GAME.view(b, 0)
