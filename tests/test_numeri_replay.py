"""Numeri's replay contract (issue 13, point 2): shapes, random games replayed, every bad-input case."""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from bot.games.numeri import engine
from bot.games.numeri.engine import Choice, Moved, Passed, State
from bot.games.numeri.replay import ScriptError, replay, replay_text
from bot.games.numeri.rules import DIE_FACES, SPLITS

from .numeri_helpers import play_game

OPENING = [{"roll": 2, "moves": [2]}, {"roll": 4, "moves": [4]}, {"roll": 1, "moves": [1]},
           {"roll": 2, "moves": [2]}, {"roll": 3, "moves": [3]}]


def script(turns: list[dict[str, Any]], players: list[str] | None = None, first: str = "ana") -> dict[str, Any]:
    return {"game": "numeri", "players": players or ["ana", "ben", "cy"], "first": first, "turns": turns}


def test_opening_output_shape() -> None:
    out = replay(script(OPENING))
    assert out["turns"][0] == {"player": "ana", "roll": 2, "moves": [[2, None, 1]], "extra_turn": False}
    assert out["turns"][3]["moves"] == [[2, 1, 4]] and out["turns"][4]["moves"] == [[3, None, 1]]
    assert out["squares"]["ana"] == {"1": None, "2": 4, "3": None, "4": None, "5": None}
    assert out["scores"] == {"ana": -2 * 2 - 65, "ben": -3 * 3 - 3 * 4 - 5 * (1 + 2 + 5), "cy": -3 - 70}
    assert out["ended"] is False and out["winners"] == ["ben"]
    assert json.loads(json.dumps(out)) == out


def game_script(seats: int, seed: int) -> tuple[dict[str, Any], State]:
    turns: list[dict[str, Any]] = []

    def watch(before: State, event: object, after: State) -> None:
        if isinstance(event, Passed):
            turns.append({"roll": event.roll, "moves": []})
        elif isinstance(event, Moved):
            turns.append({"roll": event.roll, "moves": [m.token for m in event.moves]})

    final = play_game(seats, seed, watch=watch)
    names = ["ana", "ben", "cy", "dee"][:seats]
    return {"game": "numeri", "players": names, "first": names[final.first], "turns": turns}, final


@pytest.mark.parametrize("seats,seed", [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_whole_random_games_replay_to_the_same_end(seats: int, seed: int) -> None:
    data, final = game_script(seats, seed)
    out = replay_text(json.dumps(data))
    assert out["ended"] is True
    for s, name in enumerate(data["players"]):
        assert [out["squares"][name][str(t)] for t in range(1, 6)] == list(final.positions[s])
    with pytest.raises(ScriptError, match=f"^turn {len(data['turns']) + 1}: the game is over$"):
        replay({**data, "turns": [*data["turns"], {"roll": 1, "moves": [1]}]})


def bad(data: object, message: str) -> None:
    with pytest.raises(ScriptError) as caught:
        replay(data)
    text = str(caught.value)
    assert "\n" not in text and text == message, text


def test_bad_scripts_say_what_and_where() -> None:
    bad([], "the script must be a JSON object with 'players', 'first' and 'turns'")
    bad(script([], ["ana"]), "players: 2 to 4 players needed, got 1")
    bad(script([], ["a", "b", "c", "d", "e"], first="a"), "players: 2 to 4 players needed, got 5")
    bad(script([], ["ana", "ana"]), "players: 'ana' is listed more than once")
    bad(script([], ["ana", 3]), "players: must be a list of non-empty names")
    bad(script([], first="zed"), 'first: "zed" is not one of the players')
    bad({**script([]), "turns": None}, "turns: must be a list of {\"roll\": ..., \"moves\": [...]} objects")
    bad(script([{"roll": 6, "moves": [1]}]), "turn 1: a roll is 1, 2, 3, 4, 5 or *, not 6")
    bad(script([{"roll": "3", "moves": [3]}]), "turn 1: a roll is 1, 2, 3, 4, 5 or *, not '3'")
    bad(script([{"roll": 2.0, "moves": [2]}]), "turn 1: a roll is 1, 2, 3, 4, 5 or *, not 2.0")
    bad(script([*OPENING, {"roll": 2, "moves": [3]}]), "turn 6: a 2 moves token 2, not token 3")
    bad(script([{"roll": 4, "moves": [1, 3]}]),
        "turn 1: no token has passed the barrier after square 14 yet: a 4 moves token 4")
    bad(script([{"roll": "*", "moves": []}]), "turn 1: a move is possible, so the turn cannot pass: 1, 2, 3, 4, 5")
    bad(script([{"roll": "*", "moves": [1, 2]}]), "turn 1: a star moves one token of your choice, never two")
    bad(script([{"roll": 1}]), "turn 1: must be an object with 'roll' and 'moves'")
    bad(script([{"roll": 1, "moves": "1"}]), "turn 1: 'moves' must be a list of token numbers, not \"1\"")
    with pytest.raises(ScriptError, match=r"^not valid JSON: "):
        replay_text("{nope")
    with pytest.raises(ScriptError, match="appears twice"):
        replay_text('{"players": [], "players": []}')


def find(wanted: Callable[[State], Choice | None], seats: int = 2) -> tuple[dict[str, Any], State, Choice]:
    """A script of real play up to a roll where ``wanted`` picks a choice (searched over random games)."""
    for seed in range(400):
        turns: list[dict[str, Any]] = []
        state = engine.new_game(seats, seed)
        rng = Random(seed)
        while not state.over:
            face = rng.choice(DIE_FACES)
            rolled, event = engine.roll(state, face)
            if isinstance(event, Passed):
                turns.append({"roll": face, "moves": []})
                state = rolled
                continue
            pick = wanted(rolled)
            if pick is not None:
                names = ["ana", "ben", "cy", "dee"][:seats]
                data = {"game": "numeri", "players": names, "first": names[state.first], "turns": turns}
                return data, rolled, pick
            choice = rng.choice(engine.legal_choices(rolled.positions, seats, rolled.current, face))
            state, _ = engine.move(rolled, choice)
            turns.append({"roll": face, "moves": list(choice)})
    raise AssertionError("no such position in 400 random games")


def _splits(state: State) -> list[Choice]:
    assert state.roll is not None
    return [c for c in engine.legal_choices(state.positions, state.seats, state.current, state.roll) if len(c) == 2]


def test_a_split_whose_first_part_ends_the_game_lists_only_that_token() -> None:
    data, state, (a, b) = find(lambda s: next((c for c in _splits(s) if engine.first_part_ends(s, c)), None))
    n = len(data["turns"]) + 1
    out = replay({**data, "turns": [*data["turns"], {"roll": state.roll, "moves": [a]}]})
    assert out["ended"] is True and out["turns"][-1]["moves"][0][0] == a and len(out["turns"][-1]["moves"]) == 1
    bad({**data, "turns": [*data["turns"], {"roll": state.roll, "moves": [a, b]}]},
        f"turn {n}: token {a}'s move ended the game, so token {b} does not move")


def test_one_listed_part_of_a_split_that_does_not_end_is_bad() -> None:
    def pick(s: State) -> Choice | None:
        assert s.roll is not None
        return next((c for c in _splits(s) if not engine.first_part_ends(s, c) and c[0] != s.roll), None)

    data, state, (a, b) = find(pick)
    n = len(data["turns"]) + 1
    bad({**data, "turns": [*data["turns"], {"roll": state.roll, "moves": [a]}]},
        f"turn {n}: a split moves both tokens: {a} and {b}")
    out = replay({**data, "turns": [*data["turns"], {"roll": state.roll, "moves": [a, b]}]})
    assert [m[0] for m in out["turns"][-1]["moves"]] == [a, b]


def test_a_split_whose_second_part_cannot_follow_is_bad() -> None:
    def pick(s: State) -> Choice | None:
        if s.roll not in (3, 4, 5) or not engine.barrier_passed(s.positions, s.seats):
            return None
        legal = engine.legal_choices(s.positions, s.seats, s.current, s.roll)
        for pair in SPLITS[s.roll]:
            both = all(engine.destination(s.positions, s.current, t) is not None for t in pair)
            for order in (pair, pair[::-1]):
                if both and order not in legal:
                    return order
        return None

    data, state, (a, b) = find(pick)
    bad({**data, "turns": [*data["turns"], {"roll": state.roll, "moves": [a, b]}]},
        f"turn {len(data['turns']) + 1}: after token {a} moves, token {b} cannot move: every square ahead is taken")


def test_a_move_when_none_is_possible_is_bad() -> None:
    for seed in range(400):
        data, _ = game_script(2, seed)
        passes = [i for i, t in enumerate(data["turns"]) if t["moves"] == []]
        if passes:
            i = passes[0]
            turns = [*data["turns"][:i], {"roll": data["turns"][i]["roll"], "moves": [1]}]
            with pytest.raises(ScriptError, match=f"^turn {i + 1}: no move is possible with a "):
                replay({**data, "turns": turns})
            return
    raise AssertionError("no pass in 400 games")
