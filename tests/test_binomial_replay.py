"""The Binomial replay contract of issue 14: output shapes and sorting, and every bad input (one line naming
where)."""

import copy
import json
from typing import Any

import pytest

from bot.games.binomial.replay import ScriptError, replay
from bot.games.binomial.rules import CARD_KEYS, CELLS

ROLLS = [2, 2, 8, 8, 4, 4, 1, 2, 3, 5, 6, 7, 9, 0, 1, 3]  # 22 88 44 12 35 67 90 13 when written in order
FIVE = ["polikarp", "innokentiy", "veniamin", "evdokiya", "akulina"]


def script(players: list[str] | None = None, **changes: Any) -> dict[str, Any]:
    players = players or ["ana", "ben", "cy"]
    deck = ["two_identical", "smallest_difference", *(k for k in CARD_KEYS if k not in
                                                     ("two_identical", "smallest_difference"))]
    data: dict[str, Any] = {"game": "binomial", "players": players, "chairman": players[0], "rolls": ROLLS,
                            "placements": {p: list(CELLS) for p in players}, "deck": deck, "rounds": []}
    data.update(changes)
    return data


def test_worked_example_1_as_a_script() -> None:
    rounds = [{"polikarp": "22", "innokentiy": "88", "veniamin": "88", "evdokiya": "44"}, {"akulina": "88"}]
    out = replay(script(FIVE, rounds=rounds))
    first, second = out["rounds"]
    assert first == {"round": 1, "card": "two_identical",
                     "fighters": {"polikarp": "22", "innokentiy": "88", "veniamin": "88", "evdokiya": "44"},
                     "cancelled": ["88"], "unfit": [], "winner": "evdokiya", "points": 4, "chairman": "evdokiya"}
    assert second["winner"] == "akulina" and second["points"] == 1 and second["chairman"] == "akulina"
    assert out["scores"] == {"polikarp": 0, "innokentiy": 0, "veniamin": 0, "evdokiya": 4, "akulina": 1}
    assert out["winners"] == ["evdokiya"]
    assert out["sheets"]["polikarp"] == ["22", "88", "44", "12", "35", "67", "90", "13"]


def test_text_input_and_unfit_sorted_and_no_winner() -> None:
    rounds = [{"cy": "12", "ana": "13"}, {"ben": "22", "ana": "22"}]
    out = replay(json.dumps(script(rounds=rounds)))
    r1, r2 = out["rounds"]
    assert r1["unfit"] == ["ana", "cy"] and r1["winner"] is None and r1["points"] == 0 and r1["chairman"] == "ana"
    assert r2["cancelled"] == ["22"] and r2["winner"] is None and r2["points"] == 0
    assert out["winners"] == ["ana", "ben", "cy"]  # everybody on 0 shares


def test_cancelled_numbers_are_sorted_and_listed_once() -> None:
    players = ["a", "b", "c", "d", "e", "f"]
    rounds = [{"a": "88", "b": "88", "c": "22", "d": "22", "e": "44", "f": "88"}]
    out = replay(script(players, rounds=rounds))
    assert out["rounds"][0]["cancelled"] == ["22", "88"] and out["rounds"][0]["winner"] == "e"


def test_same_boat_points_are_what_the_owner_scored() -> None:
    players = ["a", "b", "c", "d", "e", "f"]
    deck = ["smallest_number", *(k for k in CARD_KEYS if k != "smallest_number")]
    rounds = [{"a": "12", "b": "12", "c": "35", "d": "90"}]
    data = script(players, deck=deck, rounds=rounds, options={"same_boat": True, "reward_for_fighting": True})
    out = replay(data)
    r = out["rounds"][0]
    assert r["winner"] == "d" and r["points"] == 5 and r["chairman"] == "d"  # X = 4, plus 1 reward
    assert out["scores"] == {"a": 0, "b": 0, "c": 4, "d": 5, "e": 0, "f": 0}


def test_the_game_ends_when_a_sheet_is_used_up() -> None:
    numbers = ["22", "88", "44", "12", "35", "67", "90", "13"]
    rounds = [{"ana": n} for n in numbers]
    out = replay(script(rounds=rounds))
    assert len(out["rounds"]) == 8
    with pytest.raises(ScriptError, match=r"^round 9: the game ended after round 8$"):
        replay(script(rounds=[*rounds, {}]))


def test_the_script_may_stop_early_and_options_without_effect_are_accepted() -> None:
    out = replay(script(options={"dark": True, "openness": True}, rounds=[{}]))
    assert out["rounds"][0]["winner"] is None and out["scores"] == {"ana": 0, "ben": 0, "cy": 0}
    assert "rounds" in replay({k: v for k, v in script().items() if k != "rounds"})


def _mutated(path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(script(rounds=[{"ana": "22"}, {"ben": "88"}]))
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


CASES: list[tuple[str, Any, str]] = [
    ("wrong game", _mutated(["game"], "thenumber"), "game: "),
    ("missing game", _mutated(["game"], KeyError), "game: "),
    ("one player", _mutated(["players"], ["ana"]), "players: "),
    ("eight players", _mutated(["players"], [f"p{i}" for i in range(8)]), "players: "),
    ("twice the same player", _mutated(["players"], ["ana", "ana", "cy"]), "players: "),
    ("15 rolls", _mutated(["rolls"], ROLLS[:15]), "rolls: "),
    ("17 rolls", _mutated(["rolls"], [*ROLLS, 1]), "rolls: "),
    ("roll 10", _mutated(["rolls", 3], 10), "rolls: "),
    ("roll -1", _mutated(["rolls", 3], -1), "rolls: "),
    ("roll as text", _mutated(["rolls", 3], "3"), "rolls: "),
    ("roll true", _mutated(["rolls", 3], True), "rolls: "),
    ("roll 2.0", _mutated(["rolls", 3], 2.5), "rolls: "),
    ("15 cells", _mutated(["placements", "ben"], list(CELLS)[:15]), "placements: ben: "),
    ("a cell twice", _mutated(["placements", "ben"], [*CELLS[:15], "1a"]), "placements: ben: "),
    ("bad cell", _mutated(["placements", "ben", 0], "9a"), "placements: ben: "),
    ("missing placements", _mutated(["placements", "cy"], KeyError), "placements: cy: "),
    ("unknown player placing", _mutated(["placements", "dan"], list(CELLS)), "placements: "),
    ("deck of 15", _mutated(["deck"], list(CARD_KEYS)[:15]), "deck: "),
    ("deck card twice", _mutated(["deck"], [*list(CARD_KEYS)[:15], CARD_KEYS[0]]), "deck: "),
    ("unknown card", _mutated(["deck", 2], "contains_7"), "deck: "),
    ("unknown player in a round", _mutated(["rounds", 1, "dan"], "22"), "round 2: "),
    ("one digit", _mutated(["rounds", 1, "cy"], "4"), "round 2: "),
    ("three digits", _mutated(["rounds", 1, "cy"], "044"), "round 2: "),
    ("a number, not text", _mutated(["rounds", 1, "cy"], 44), "round 2: "),
    ("null pick", _mutated(["rounds", 1, "cy"], None), "round 2: "),
    ("non-ASCII digits", _mutated(["rounds", 1, "cy"], "\u0664\u0664"), "round 2: "),
    ("not on the sheet", _mutated(["rounds", 1, "cy"], "99"), "round 2: cy has no 99"),
    ("already used", _mutated(["rounds", 1, "ana"], "22"), "round 2: ana used 22 in round 1"),
    ("round not an object", _mutated(["rounds", 1], ["ana"]), "round 2: "),
    ("unknown option", _mutated(["options"], {"fast": True}), "options: "),
    ("same boat with 3", _mutated(["options"], {"same_boat": True}), "options: "),
    ("option not a bool", _mutated(["options"], {"dark": "yes"}), "options: "),
    ("unknown chairman", _mutated(["chairman"], "dan"), "chairman: "),
]


def test_not_json() -> None:
    for text in ("{", "", "[1, 2", "nope"):
        with pytest.raises(ScriptError, match=r"^not valid JSON") as info:
            replay(text)
        assert "\n" not in str(info.value)


def test_not_an_object() -> None:
    with pytest.raises(ScriptError):
        replay("[]")


@pytest.mark.parametrize(("name", "data", "where"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_naming_where(name: str, data: dict[str, Any], where: str) -> None:
    with pytest.raises(ScriptError) as info:
        replay(data)
    message = str(info.value)
    assert "\n" not in message and message.startswith(where), message
    with pytest.raises(ScriptError):
        replay(json.dumps(data))


def test_a_used_copy_leaves_the_other_copy() -> None:
    rolls = [4] * 4 + [1] * 4 + ROLLS[8:]  # 44 44 11 11 35 67 90 13
    out = replay(script(rolls=rolls, rounds=[{"ana": "44"}, {"ana": "44"}]))
    assert out["rounds"][0]["winner"] == "ana"
    with pytest.raises(ScriptError, match=r"^round 3: ana used 44 in round 2$"):
        replay(script(rolls=rolls, rounds=[{"ana": "44"}, {"ana": "44"}, {"ana": "44"}]))
