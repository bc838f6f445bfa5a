"""``python -m bot replay | play | arena`` for every game: scripts, envelopes, terminal games, AI-only games."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.core.fold import ai_policy, envelope, playout
from bot.games import GAMES, game_for
from bot.games.binomial.replay import replay as binomial_replay
from bot.games.binomial.rules import CARD_KEYS, CELLS
from bot.games.numeri.replay import replay as numeri_replay
from bot.games.thenumber.game import GAME as THENUMBER
from bot.terminal.arena import run_arena
from bot.terminal.console import Console, Seats
from bot.terminal.replay import as_json
from bot.terminal.screen import screen_for
from bot.terminal.table import Table
from tests.terminal_helpers import play_first_choices

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["ana", "ben", "cy"]
ARENA_KEYS = {"games", "wins", "win_rate", "ci95_low", "ci95_high", "mean_score", "decision_ms_p50",
              "decision_ms_p99"}
NUMERI_OPENING = [{"roll": 2, "moves": [2]}, {"roll": 4, "moves": [4]}, {"roll": 1, "moves": [1]},
                  {"roll": 2, "moves": [2]}, {"roll": 3, "moves": [3]}]
BINOMIAL_ROLLS = [2, 2, 8, 8, 4, 4, 1, 2, 3, 5, 6, 7, 9, 0, 1, 3]  # 22 88 44 12 35 67 90 13 in cell order


def run_bot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def replayed(data: Any) -> subprocess.CompletedProcess[str]:
    return run_bot("replay", "-", stdin=data if isinstance(data, str) else json.dumps(data))


def assert_refused(done: subprocess.CompletedProcess[str], where: str) -> None:
    """Exit 2, nothing on stdout, and one line on stderr naming ``where``."""
    assert done.returncode == 2 and done.stdout == "", done.stdout[-300:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and where in lines[0], done.stderr[-500:]


def assert_usage_error(done: subprocess.CompletedProcess[str], where: str) -> None:
    """argparse's refusal: exit 2, nothing on stdout, the usage, then one error line naming ``where``."""
    assert done.returncode == 2 and done.stdout == "", done.stdout[-300:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("python -m bot") and ": error: " in last and where in last, done.stderr[-500:]
    assert "Traceback" not in done.stderr


def numeri_script(**changes: Any) -> dict[str, Any]:
    return {"game": "numeri", "players": NAMES, "first": "ana", "turns": NUMERI_OPENING, **changes}


def binomial_script(**changes: Any) -> dict[str, Any]:
    deck = ["two_identical", "smallest_difference",
            *(k for k in CARD_KEYS if k not in ("two_identical", "smallest_difference"))]
    return {"game": "binomial", "players": NAMES, "chairman": "ana", "rolls": BINOMIAL_ROLLS,
            "placements": {p: list(CELLS) for p in NAMES}, "deck": deck,
            "rounds": [{"ana": "22", "ben": "88", "cy": "44"}, {"ben": "12"}], **changes}


def played(key: str, seed: int = 5, seats: int = 3) -> tuple[dict[str, Any], Any]:
    """A whole AI game of ``key`` as its export envelope, and its final state."""
    game = game_for(key)
    steps, state = playout(game, seats, {}, seed, [ai_policy(game, s, "easy") for s in range(seats)], Random(seed))
    return envelope(key, NAMES[:seats], {}, seed, steps), state


# replay ------------------------------------------------------------------------------------------------
def test_a_numeri_script_replays_through_the_cli() -> None:
    done = replayed(numeri_script())
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == numeri_replay(numeri_script())
    assert out["turns"][0] == {"player": "ana", "roll": 2, "moves": [[2, None, 1]], "extra_turn": False}
    assert out["ended"] is False and out["winners"] == ["ben"]


def test_a_binomial_script_replays_through_the_cli() -> None:
    done = replayed(binomial_script())
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == binomial_replay(binomial_script())
    first = out["rounds"][0]
    assert first["card"] == "two_identical" and first["winner"] == "ben" and first["chairman"] == "ben"
    assert out["sheets"]["cy"] == ["22", "88", "44", "12", "35", "67", "90", "13"]


@pytest.mark.parametrize("key", [g.key for g in GAMES])
def test_an_envelope_of_every_game_folds_to_its_result(key: str) -> None:
    data, state = played(key)
    game = game_for(key)
    result = game.result(state)
    assert result is not None
    done = replayed(data)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["game"] == key and out["seats"] == NAMES and out["steps"] == len(data["steps"])
    assert out["ended"] is True
    assert out["scores"] == {name: result.scores[s] for s, name in enumerate(NAMES)}
    assert out["winners"] == [name for s, name in enumerate(NAMES) if s in result.winners]
    assert out["figures"] == {name: json.loads(json.dumps(as_json(result.extra.get(s, {}))))
                              for s, name in enumerate(NAMES)}
    assert out["table"] == json.loads(json.dumps(as_json(game.view(state, None))))


@pytest.mark.parametrize("key", [g.key for g in GAMES])
def test_an_envelope_that_stops_early_is_not_over(key: str) -> None:
    data, _ = played(key, seed=2)
    data["steps"] = data["steps"][: len(data["steps"]) // 2]
    done = replayed(data)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ended"] is False and out["scores"] is None and out["winners"] is None
    assert isinstance(out["table"], dict)


def test_the_number_envelope_agrees_with_its_table_script() -> None:
    data, _ = played("thenumber", seed=9)
    turns = [{NAMES[int(seat)]: action["number"] for seat, action in step.items()} for step in data["steps"]]
    table_script = {"players": NAMES, "rounds": [turns[:5], turns[5:]]}
    from_envelope, from_script = replayed(data), replayed(table_script)
    assert from_envelope.returncode == from_script.returncode == 0
    assert json.loads(from_envelope.stdout)["scores"] == json.loads(from_script.stdout)["final"]


def test_a_table_script_naming_thenumber_is_read_as_one_without_a_game() -> None:
    data, _ = played("thenumber", seed=4)
    turns = [{NAMES[int(seat)]: action["number"] for seat, action in step.items()} for step in data["steps"]]
    plain = {"players": NAMES, "rounds": [turns[:5], turns[5:]]}
    named, unnamed = replayed({"game": "thenumber", **plain}), replayed(plain)
    assert named.returncode == 0 and named.stdout == unnamed.stdout


@pytest.mark.parametrize(("data", "where"), [
    (numeri_script(turns=[{"roll": 7, "moves": [2]}]), "turn 1"),
    (numeri_script(first="dan"), "first:"),
    (numeri_script(players=["ana"]), "players:"),
    (binomial_script(rolls=BINOMIAL_ROLLS[:15]), "rolls:"),
    (binomial_script(rounds=[{"ana": "22"}, {"ana": "22"}]), "round 2: ana used 22 in round 1"),
    (binomial_script(options={"same_boat": True}), "options:"),
    ({"game": "chess", "players": NAMES}, "game: \"chess\" is not one of thenumber, numeri, binomial"),
    ({"game": ["numeri"], "players": NAMES}, "game: (a list)"),
    ({"game": "chess", "format": 1, "seats": NAMES, "options": {}, "seed": 0, "steps": []}, "game: 'chess'"),
    ({"game": "numeri", "format": 2, "seats": NAMES, "options": {}, "seed": 0, "steps": []}, "format:"),
    ({"game": "numeri", "format": 1, "seats": NAMES, "options": {}, "seed": 0}, "'steps'"),
    ({"game": "numeri", "format": 1, "seats": ["a"] * 5, "options": {}, "seed": 0, "steps": []}, "seats:"),
    ({"game": "binomial", "format": 1, "seats": NAMES, "options": {"same_boat": True}, "seed": 0, "steps": []},
     "options: same_boat"),
    ({"game": "thenumber", "format": 1, "seats": NAMES, "options": {}, "seed": 0,
      "steps": [{"0": {"number": "51"}}]}, "step 1:"),
    ({"game": "numeri", "format": 1, "seats": NAMES, "options": {}, "seed": 0, "steps": [{"0": {"moves": [1]}}]},
     "step 1: a chance step was expected"),
    ('{"game": "numeri", "game": "binomial"}', "appears twice"),
    ('{"game": "binomial", "players": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ("{not json", "not valid JSON"),
], ids=lambda value: value[:30] if isinstance(value, str) else None)
def test_bad_input_of_every_game_is_one_line_and_exit_2(data: Any, where: str) -> None:
    assert_refused(replayed(data), where)


def test_a_name_with_a_line_break_still_gives_one_line() -> None:
    assert_refused(replayed(numeri_script(players=["a\nb", "a\nb"])), "players:")


# play -------------------------------------------------------------------------------------------------
def test_play_numeri_to_the_end_and_to_the_end_of_input() -> None:
    status, text, _ = play_first_choices("numeri", 2, seed=3, level="easy")
    assert status == 0 and "Seed 3" in text and "Numeri · game over" in text
    cut = run_bot("play", "--game", "numeri", "--seed", "3", stdin="1\n")
    assert cut.returncode == 1 and "game abandoned" in cut.stdout.lower() and "Traceback" not in cut.stderr


def test_play_binomial_with_variants_to_the_end_and_to_the_end_of_input() -> None:
    done = run_bot("play", "--game", "binomial", "--players", "2", "--seed", "4", "--dark", "--match",
                   stdin="".join(f"{line}\n" for line in [*CELLS, *["pass"] * 16] * 3))
    assert done.returncode == 0, done.stderr
    assert "Seed 4" in done.stdout and "Game 3 of 3, roll 16 of 16" in done.stdout
    assert "Binomial · game over" in done.stdout
    boat = run_bot("play", "--game", "binomial", "--players", "6", "--same-boat", "--seed", "1",
                   stdin="".join(f"{line}\n" for line in [*CELLS, *["pass"] * 16]))
    assert boat.returncode == 0, boat.stderr
    cut = run_bot("play", "--game", "binomial", "--seed", "4", stdin="1a\n1b\n")
    assert cut.returncode == 1 and "game abandoned" in cut.stdout.lower() and "Traceback" not in cut.stderr


def test_the_default_seed_is_printed_for_every_game() -> None:
    for key in ("numeri", "binomial"):
        done = run_bot("play", "--game", key, stdin="")
        assert done.returncode == 1 and done.stdout.split("\n")[1].startswith("Seed "), done.stdout[:200]


def test_play_thenumber_by_name_is_the_default_game() -> None:
    named = run_bot("play", "--game", "thenumber", "--players", "3", "--seed", "1", stdin="")
    default = run_bot("play", "--players", "3", "--seed", "1", stdin="")
    assert named.returncode == default.returncode == 1 and named.stdout == default.stdout


def test_the_number_terminal_plays_over_the_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    applied: list[Any] = []

    class Spy:
        def __getattr__(self, name: str) -> Any:
            return getattr(THENUMBER, name)

        def apply(self, state: Any, step: Any) -> Any:
            applied.append(step)
            return THENUMBER.apply(state, step)

    lines = "\n".join(str(d) * 3 for d in range(9, -1, -1) for _ in range(2)) + "\n"
    console = Console(io.StringIO(lines * 12), io.StringIO(), colour=False, editing=False)
    table = Table(Spy(), Seats(("ana", "bot1")), "easy", 1, {}, console, screen_for(THENUMBER))  # type: ignore[arg-type]
    assert table.play() == 0 and table.played.finished
    assert len(applied) == 10 and all(set(step) <= {0, 1} for step in applied)


@pytest.mark.parametrize(("args", "where"), [
    (["--game", "numeri", "--players", "5"], "Numeri is for 2 to 4 players, not 5"),
    (["--game", "binomial", "--players", "8"], "Binomial is for 2 to 7 players, not 8"),
    (["--players", "6"], "The Number is for 2 to 5 players, not 6"),
    (["--game", "binomial", "--level", "genius"], "'genius' is not an AI level of Binomial"),
    (["--game", "numeri", "--dark"], "--dark: Numeri has no such option"),
    (["--match"], "--match: The Number has no such option"),
    (["--game", "binomial", "--same-boat"], "--same-boat: only with 6 to 7 players"),
    (["--game", "numeri", "--script-out", "/no/such/folder/x.json"], "--script-out: the folder /no/such/folder"),
    (["--game", "chess"], "invalid choice: 'chess'"),
])
def test_play_refuses_arguments_that_do_not_fit_the_game(args: list[str], where: str) -> None:
    assert_usage_error(run_bot("play", *args, stdin="1a\n"), where)


# arena ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["numeri", "binomial"])
def test_arena_of_every_new_game_prints_one_json_object(key: str) -> None:
    done = run_bot("arena", "--game", key, "--games", "2", "--json", "--seats", "hard", "easy", "easy")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) == {"hard", "easy"} and all(set(f) == ARENA_KEYS for f in figures.values())
    assert figures["hard"]["games"] == 2 and figures["easy"]["games"] == 4
    assert abs(sum(f["wins"] for f in figures.values()) - 2) < 1e-6
    assert all(0 <= f["ci95_low"] <= f["win_rate"] <= f["ci95_high"] <= 1 for f in figures.values())


def test_arena_table_names_the_game_and_uses_the_default_seats() -> None:
    done = run_bot("arena", "--game", "binomial", "--games", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Binomial: 1 games, seats: hard normal normal normal, seed 0\n")


def test_arena_figures_of_a_new_game_do_not_depend_on_worker_count() -> None:
    def strip(figures: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
        return {k: {n: v for n, v in f.items() if not n.startswith("decision")} for k, f in figures.items()}

    one = run_arena(4, ["normal", "easy"], seed=3, workers=1, game="numeri")
    two = run_arena(4, ["normal", "easy"], seed=3, workers=2, game="numeri")
    assert strip(one) == strip(two)


@pytest.mark.parametrize(("args", "where"), [
    (["--game", "numeri", "--seats", "hard", "easy", "easy", "easy", "easy"], "Numeri is for 2 to 4 seats, not 5"),
    (["--game", "binomial", "--seats", "hard"], "Binomial is for 2 to 7 seats, not 1"),
    (["--seats", *["easy"] * 6], "The Number is for 2 to 5 seats, not 6"),
    (["--game", "binomial", "--seats", "hard", "wizard"], "'wizard' is not an AI level of Binomial"),
    (["--game", "numeri", "--games", "0"], "--games"),
])
def test_arena_refuses_seats_and_levels_that_do_not_fit_the_game(args: list[str], where: str) -> None:
    assert_usage_error(run_bot("arena", *args), where)
