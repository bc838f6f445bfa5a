"""``python -m bot play`` and ``python -m bot arena``: scripted games, the bot's refusals, replay agreement."""

import io
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

from bot.games.thenumber.errors import MalformedNumber, UnavailableDigit
from bot.games.thenumber.messages import refusal
from bot.games.thenumber.numbers import ALL_DIGITS, digits_of
from bot.games.thenumber.replay import replay_text
from bot.terminal.arena import run_arena
from bot.terminal.play import play_game

ROOT = Path(__file__).resolve().parents[1]
ARENA_KEYS = {"games", "wins", "win_rate", "ci95_low", "ci95_high", "mean_score", "decision_ms_p50",
              "decision_ms_p99"}
# Junk first, then each single-digit number twice: once one is approved, its twin is refused on the next
# turn (crossed digit); and whatever the board, some single-digit number is legal, so the game completes.
BLOCK = ["12", "4o7", *(str(d) * 3 for d in range(9, -1, -1) for _ in range(2))]
SCRIPTED = "\n".join(BLOCK * 12) + "\n"


def run_bot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def check_refusals(transcript: str) -> int:
    """Every refusal line is exactly the bot's sentence for the input typed after the prompt before it."""
    checked = 0
    prompt = re.compile(r"Your number \(available digits: ([0-9 ]+|none)\): (.*)")
    lines = transcript.splitlines()
    for before, line in itertools.pairwise(lines):
        match = prompt.fullmatch(before)
        if not match or line.startswith(("Your number", "Tower")):
            continue
        available = frozenset(int(d) for d in match.group(1).split() if d.isdigit())
        typed = match.group(2)
        if re.fullmatch(r"[0-9]{3}", typed):
            used = digits_of(typed) & (ALL_DIGITS - available)
            expected = refusal(UnavailableDigit(typed, used, available), available)
        else:
            expected = refusal(MalformedNumber(typed), available)
        assert line == expected
        checked += 1
    return checked


def final_standings(transcript: str) -> dict[str, int]:
    tail = transcript.split("=== Final standings ===")[1]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+\d+\. (\S+)\s+(\d+)$", tail, re.M)}


def test_scripted_game_completes_refuses_bad_input_and_matches_replay(tmp_path: Path) -> None:
    script_file = tmp_path / "game.json"
    done = run_bot("play", "--players", "3", "--seed", "7", "--script-out", str(script_file), stdin=SCRIPTED)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "That is not a number you can play: it must be three digits, like 407." in out
    assert "You can't play " in out
    assert check_refusals(out) >= 3
    assert "End of round 1" in out and "End of round 2" in out
    replayed = run_bot("replay", str(script_file))
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)
    assert result["final"] == final_standings(out)
    winners = re.search(r"^Winners?(?: \(shared\))?: (.*)$", out, re.M)
    assert winners and sorted(winners.group(1).split(", ")) == result["winners"]


def test_in_process_game_is_deterministic_and_its_script_replays() -> None:
    results = [play_game(3, "hard", 7, inp=io.StringIO(SCRIPTED), out=io.StringIO()) for _ in range(2)]
    assert all(r.completed for r in results)
    assert results[0].script() == results[1].script()
    replayed = replay_text(json.dumps(results[0].script()))
    assert replayed["final"] == results[0].state.final_scores()
    assert replayed["winners"] == sorted(results[0].state.winners())


def test_end_of_input_stops_the_game_gracefully() -> None:
    done = run_bot("play", "--players", "2", "--seed", "1", stdin="12\n")
    assert done.returncode == 1
    assert "Input ended" in done.stdout and "Traceback" not in done.stderr


def test_arena_prints_one_json_object() -> None:
    done = run_bot("arena", "--games", "6", "--json", "--seats", "hard", "normal", "easy", "normal")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) == {"hard", "normal", "easy"}
    assert all(set(f) == ARENA_KEYS for f in figures.values())
    assert figures["normal"]["games"] == 12  # two seats x six games: counted per seat
    assert abs(sum(f["wins"] for f in figures.values()) - 6) < 1e-6  # ties are shared
    assert all(0 <= f["ci95_low"] <= f["win_rate"] <= f["ci95_high"] <= 1 for f in figures.values())


def test_arena_figures_do_not_depend_on_worker_count() -> None:
    def strip(figures: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
        return {k: {n: v for n, v in f.items() if not n.startswith("decision")} for k, f in figures.items()}

    one = run_arena(8, ["normal", "easy", "easy"], seed=3, workers=1)
    two = run_arena(8, ["normal", "easy", "easy"], seed=3, workers=2)
    assert strip(one) == strip(two)
