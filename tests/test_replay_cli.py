"""``python -m bot replay``: the JSON contract, stdin, and every kind of bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reference_scorer import score_game

ROOT = Path(__file__).resolve().parents[1]


def run_replay(text: str | None = None, file: str = "-") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "replay", file], input=text, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def script(rounds: list[list[dict[str, str]]] | None = None, players: list[str] | None = None) -> str:
    players = players or ["ana", "ben", "cy"]
    rounds = rounds if rounds is not None else [[{} for _ in range(5)] for _ in range(2)]
    return json.dumps({"players": players, "rounds": rounds})


def test_example_file_replays_to_the_independent_score() -> None:
    path = ROOT / "examples" / "rulebook-game.json"
    done = run_replay(file=str(path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    data = json.loads(path.read_text())
    assert result == score_game(data["players"], data["rounds"])
    first = result["turns"][0]
    assert (first["round"], first["turn"]) == (1, 1)
    assert first["results"]["ben"] == {"number": "513", "status": "approved", "points": 7}
    assert first["results"]["ana"] == {"number": "761", "status": "eliminated", "points": 0}
    assert len(result["turns"]) == 10 and result["winners"] == sorted(result["winners"])


def test_stdin_missing_invalid_and_exhausted() -> None:
    r1 = [{"ana": "012", "ben": "999"}, {"ana": "345", "ben": "199"}, {"ana": "678", "ben": "555"},
          {"ana": "999", "ben": "777"}, {"ana": "111", "ben": "888", "cy": "000"}]
    r2 = [{} for _ in range(5)]
    done = run_replay(script([r1, r2]))
    assert done.returncode == 0, done.stderr
    turns = json.loads(done.stdout)["turns"]
    assert turns[0]["results"]["cy"] == {"number": None, "status": "missing", "points": 0}
    assert turns[1]["results"]["ben"]["status"] == "invalid"  # 9 was crossed off by 999
    assert turns[4]["results"]["ana"] == {"number": None, "status": "exhausted", "points": 0}
    assert turns[9]["results"]["ana"]["status"] == "missing"  # full board again in round 2


@pytest.mark.parametrize(("text", "where"), [
    ("{not json", "not valid JSON"),
    ("[]", "JSON object"),
    (script(players=["solo"]), "players: 2 to 5"),
    (script(players=["a", "b", "c", "d", "e", "f"]), "players: 2 to 5"),
    (script(players=["a", "a"]), "'a' is listed more than once"),
    (script(players=["a", ""]), "players: must be a list"),
    (script(rounds=[[{}] * 5]), "rounds: exactly 2 rounds"),
    (script(rounds=[[{}] * 5, [{}] * 4]), "round 2: exactly 5 turns needed, got 4"),
    (script(rounds=[[{}, {}, {"zed": "123"}, {}, {}], [{}] * 5]), "round 1, turn 3: 'zed' is not a player"),
    (script(rounds=[[{}] * 5, [{}, {"ana": "12"}, {}, {}, {}]]), "round 2, turn 2: ana's number \"12\""),
    (script(rounds=[[{"ben": "٥١٣"}] + [{}] * 4, [{}] * 5]), "round 1, turn 1: ben's number \"٥١٣\""),
    (script(rounds=[[{"ben": "5 13"}] + [{}] * 4, [{}] * 5]), "round 1, turn 1: ben's number \"5 13\""),
    (script(rounds=[[{"ben": ["513"]}] + [{}] * 4, [{}] * 5]), "round 1, turn 1: ben's number (a list)"),
    (script(rounds=[[{"ben": 513}] + [{}] * 4, [{}] * 5]), "round 1, turn 1: ben's number 513"),
    (script(rounds=[[{"ben": None}] + [{}] * 4, [{}] * 5]), "round 1, turn 1: ben's number null"),
    ('{"players": ["a", "b"], "rounds": [[{"a": "1", "a": "2"}]]}', "'a' appears twice"),
])
def test_bad_input_exits_2_with_one_line_naming_the_place(text: str, where: str) -> None:
    done = run_replay(text)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and where in lines[0], done.stderr


def test_full_width_and_padded_numbers_are_read_like_the_live_bot() -> None:
    """RULES.md: NFKC, then trimmed; the output shows the canonical number."""
    typed = script(rounds=[[{"ana": "５１３", "ben": " 761 ", "cy": "２２０"}] + [{}] * 4, [{}] * 5])
    canonical = script(rounds=[[{"ana": "513", "ben": "761", "cy": "220"}] + [{}] * 4, [{}] * 5])
    done, expected = run_replay(typed), run_replay(canonical)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.stdout
    assert json.loads(done.stdout)["turns"][0]["results"]["ana"] == {"number": "513", "status": "approved",
                                                                     "points": 7}


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"a": ' * 100_000 + "1" + "}" * 100_000,
    '{"players": ["ana", "ben"], "rounds": [[{"ben": ' + "[" * 100_000 + "]" * 100_000 + "}]]}",
], ids=["lists", "objects", "inside-a-number"])
def test_deeply_nested_json_exits_2_with_one_line(text: str) -> None:
    done = run_replay(text)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-500:]


def test_unreadable_file_exits_2(tmp_path: Path) -> None:
    done = run_replay(file=str(tmp_path / "nope.json"))
    assert done.returncode == 2 and done.stdout == "" and "cannot read" in done.stderr
