"""The one fold of a game's log (bot/core/fold.py): stored steps, the replay envelope and its errors."""

import json
import random
from typing import Any

import pytest

from bot.core.fold import (
    EnvelopeError,
    ai_policy,
    check_options,
    envelope,
    fold,
    fold_envelope,
    playout,
    step_from_json,
    step_rng,
    step_to_json,
)
from bot.core.game import RuleError
from bot.games import GAMES
from bot.games.thenumber.game import GAME
from tests.test_game_conformance import Toy


def finished_envelope() -> dict[str, Any]:
    steps, _ = playout(GAME, 3, {}, 9, [ai_policy(GAME, s, "easy") for s in range(3)], random.Random(9))
    return envelope("thenumber", ["Ann", "Bob", "Cy"], {"turn_seconds": 60}, 9, steps)


def test_stored_steps_read_back_as_protocol_steps() -> None:
    assert step_from_json({"0": {"number": "513"}, "2": {"number": "087"}}) == {0: {"number": "513"},
                                                                              2: {"number": "087"}}
    for chance in ("chance", "null", None):
        assert step_from_json({chance: {"die": 4}}) == {None: {"die": 4}}
    assert step_to_json({2: {"n": 1}, None: {"die": 4}, 0: {"n": 2}}) == {"chance": {"die": 4}, "0": {"n": 2},
                                                                          "2": {"n": 1}}
    assert list(step_to_json({2: {}, None: {}, 0: {}})) == ["chance", "0", "2"]
    for bad in ({"one": {}}, {"-1": {}}, {"0": "513"}, ["0"], {"1": {}, "01": {}}, {"chance": {}, None: {}}):
        with pytest.raises(EnvelopeError):
            step_from_json(bad)  # type: ignore[arg-type]


def test_fold_gives_the_state_and_events_upto_a_step() -> None:
    data = finished_envelope()
    state, events = fold(GAME, 3, {}, 9, data["steps"])
    assert GAME.prompt(state) is None and len(events) == 10
    half, first = fold(GAME, 3, {}, 9, data["steps"], upto=4)
    assert (half.round, half.turn) == (1, 5) and first == events[:4]
    assert fold(GAME, 3, {}, 9, data["steps"], upto=0) == (GAME.setup(3, {}, 9), [])


def test_the_envelope_round_trips_through_json() -> None:
    data = finished_envelope()
    assert set(data) == {"game", "format", "seats", "options", "seed", "steps"}
    assert (data["game"], data["format"], data["seats"], data["seed"]) == ("thenumber", 1, ["Ann", "Bob", "Cy"], 9)
    again = json.loads(json.dumps(data))
    assert fold_envelope(again, GAMES) == fold(GAME, 3, {}, 9, data["steps"])[0]


def with_(**changes: Any) -> dict[str, Any]:
    return {**finished_envelope(), **changes}


def with_step(index: int, step: Any) -> dict[str, Any]:
    data = finished_envelope()
    data["steps"][index] = step
    return data


@pytest.mark.parametrize(("data", "message"), [
    ([1, 2], "must be a JSON object"),
    ({"game": "thenumber"}, "the envelope has no 'format'"),
    (with_(format=2), "format: only format 1 is known, not 2"),
    (with_(format=True), "format: only format 1"),
    (with_(game="chess"), "game: 'chess' is not one of thenumber"),
    (with_(seats=["Ann"]), "seats: thenumber is for 2 to 5 seats, not 1"),
    (with_(seats="Ann, Bob"), "seats: must be a list of seat names"),
    (with_(options={"turn_seconds": 5}), "options: turn_seconds must be 15-3600, not 5"),
    (with_(options={"turn_seconds": "60"}), "options: turn_seconds must be int"),
    (with_(options={"speed": 1}), "options: thenumber has no option 'speed'"),
    (with_(options=[]), "options: must be an object"),
    (with_(seed=1.5), "seed: must be a whole number"),
    (with_(steps={}), "steps: must be a list"),
    (with_step(2, {"0": {"number": "12"}}), "step 3: must be three digits, like 407"),
    (with_step(0, {"5": {"number": "123"}}), "step 1: there are only 3 seats"),
    (with_step(0, {"x": {}}), "step 1: a step's key must be a seat number or 'chance', not 'x'"),
    (with_step(0, {"chance": {"die": 3}}), "step 1: no chance step was expected"),
    (with_(steps=[*finished_envelope()["steps"], {}]), "step 11: the game is already over"),
])
def test_a_bad_envelope_says_what_is_wrong_in_one_line(data: Any, message: str) -> None:
    with pytest.raises(EnvelopeError) as info:
        fold_envelope(data, GAMES)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_options_are_completed_with_defaults() -> None:
    assert check_options(GAME, {}) == {"turn_seconds": 120}
    assert check_options(GAME, {"turn_seconds": 15}) == {"turn_seconds": 15}
    with pytest.raises(EnvelopeError):
        check_options(GAME, {"turn_seconds": True})


def test_step_generators_are_fixed_by_seed_step_and_seat() -> None:
    assert step_rng(1, 2).random() == step_rng(1, 2).random()
    draws = {step_rng(1, 2).random(), step_rng(1, 3).random(), step_rng(2, 2).random(), step_rng(1, 2, 0).random()}
    assert len(draws) == 4


def test_playout_is_reproducible_and_checks_every_action() -> None:
    policy = [ai_policy(GAME, s, "normal") for s in range(2)]
    first = playout(GAME, 2, {}, 4, policy, random.Random(4))
    assert first == playout(GAME, 2, {}, 4, policy, random.Random(4))
    assert len(first[0]) == 10 and all(set(step) == {"0", "1"} for step in first[0])

    def cheater(view: Any, legal: Any, rng: random.Random) -> dict[str, str]:
        return {"number": "12"}

    with pytest.raises(RuleError):
        playout(GAME, 2, {}, 4, [cheater, cheater], random.Random(4))



def toy_envelope(steps: list[dict[str, Any]]) -> dict[str, Any]:
    return envelope("toy", ["Ann", "Bob"], {}, 1, steps)


@pytest.mark.parametrize(("steps", "message"), [
    ([{"0": {"move": 1}}], "step 1: a chance step was expected"),
    ([{"chance": {"die": 2}, "0": {"move": 2}}], "step 1: a chance step was expected"),
    ([{"chance": {"die": 2}}, {"chance": {"die": 2}}], "step 2: no chance step was expected"),
    ([{"chance": {"die": 2}}, {"1": {"move": 2}}], "step 2: seat 1 may not act now"),
    ([{"chance": {"die": 2}}, {"0": {"move": 3}}], "step 2: bad move"),
])
def test_a_step_must_be_the_one_its_game_asked_for(steps: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(EnvelopeError, match=message):
        fold_envelope(toy_envelope(steps), [Toy()])  # type: ignore[list-item]
    assert fold_envelope(toy_envelope([{"chance": {"die": 2}}, {"0": {"move": 2}}]), [Toy()]).positions == [2, 0]


def test_a_seat_that_sits_out_may_not_act_in_an_export() -> None:
    turns = [{"0": "012", "1": "999"}, {"0": "345", "1": "999"}, {"0": "678", "1": "999"}, {"0": "999", "1": "999"}]
    steps = [{s: {"number": n} for s, n in turn.items()} for turn in turns]
    data = envelope("thenumber", ["Ann", "Bob"], {}, 0, [*steps, {"0": {"number": "123"}}])
    with pytest.raises(EnvelopeError, match="step 5: seat 0 may not act now"):
        fold_envelope(data, GAMES)
