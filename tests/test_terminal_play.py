"""``python -m bot play`` and ``python -m bot arena``: scripted games, the bot's refusals, replay agreement."""

import io
import itertools
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import game_for
from bot.games.thenumber.errors import MalformedNumber, UnavailableDigit, example_number
from bot.games.thenumber.numbers import ALL_DIGITS, digits_of
from bot.games.thenumber.replay import replay_text
from bot.i18n.thenumber import refusal
from bot.terminal.arena import run_arena
from bot.terminal.console import Console, Seats
from bot.terminal.table import Table

ROOT = Path(__file__).resolve().parents[1]
ARENA_KEYS = {"games", "wins", "win_rate", "ci95_low", "ci95_high", "mean_score", "decision_ms_p50",
              "decision_ms_p99"}
# Junk first, then each single-digit number twice: once one is approved, its twin is refused on the next
# turn (crossed digit); and whatever the board, some single-digit number is legal, so the game completes.
BLOCK = ["12", "4o7", *(str(d) * 3 for d in range(9, -1, -1) for _ in range(2))]
SCRIPTED = "\n".join(BLOCK * 12) + "\n"


class Played:
    """A game of The Number played in process, as the terminal played it."""

    def __init__(self, table: Table, status: int, transcript: str) -> None:
        self.table, self.status, self.transcript = table, status, transcript
        self.completed = table.played.finished
        self.turns = table.played.steps

    def script(self) -> dict[str, object]:
        return self.table.script()


def play_game(players: int, level: str, seed: int, *, inp: io.StringIO, out: io.StringIO) -> Played:
    names = ("you", *(f"bot{i}" for i in range(1, players)))
    table = Table(game_for("thenumber"), Seats(names), level, seed, {},
                  Console(inp, out, colour=False, editing=False))
    status = table.play()
    return Played(table, status, out.getvalue())


def run_bot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def check_refusals(transcript: str) -> int:
    """Every refusal line is exactly the bot's sentence for the input typed after the prompt before it."""
    checked = 0
    prompt = re.compile(r"Your number \(available digits: ([0-9 ]+|none)\) \[\? help, q quit\]: (.*)")
    lines = transcript.splitlines()
    for i, (before, line) in enumerate(itertools.pairwise(lines)):
        match = prompt.fullmatch(before)
        if not match or not line.startswith("Refused: "):
            continue
        for more in itertools.takewhile(lambda row: row.startswith("  "), lines[i + 2:]):
            line += " " + more.strip()  # a refusal is folded to 80 columns
        available = frozenset(int(d) for d in match.group(1).split() if d.isdigit())
        typed = match.group(2)
        if re.fullmatch(r"[0-9]{3}", typed):
            used = digits_of(typed) & (ALL_DIGITS - available)
            expected = refusal(UnavailableDigit(typed, used, available), available)
        else:
            expected = refusal(MalformedNumber(typed), available)
            example = re.search(r"like ([0-9]{3})\.", line)
            assert example and set(map(int, example.group(1))) <= available, line  # a number they can play
        assert line == "Refused: " + expected
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
    assert out.rstrip().endswith(f"Replay script written to {script_file} (python -m bot replay {script_file} "
                                 "replays the game).")
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
    assert results[0].script() == results[1].script() and results[0].transcript == results[1].transcript
    replayed = replay_text(json.dumps(results[0].script()))
    assert replayed["final"] == final_standings(results[0].transcript)
    winners = re.search(r"^Winners?(?: \(shared\))?: (.*)$", results[0].transcript, re.M)
    assert winners and replayed["winners"] == sorted(winners.group(1).split(", "))


def test_end_of_input_stops_the_game_gracefully() -> None:
    done = run_bot("play", "--players", "2", "--seed", "1", stdin="12\n")
    assert done.returncode == 1
    assert done.stdout.rstrip().endswith("Game abandoned.") and "Traceback" not in done.stderr


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


def test_ctrl_c_at_the_prompt_abandons_the_game_without_a_traceback() -> None:
    with subprocess.Popen([sys.executable, "-m", "bot", "play", "--players", "3", "--seed", "2"], cwd=ROOT,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None and proc.stdin is not None
        seen = ""
        while "Your number" not in seen:  # the prompt has no newline: read it character by character
            char = proc.stdout.read(1)
            assert char, "the game ended before its first prompt"
            seen += char
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 130  # the shells' status for Ctrl-C
    assert "Interrupted (Ctrl-C): game abandoned." in rest
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def _sections(transcript: str, title: str) -> list[list[str]]:
    """Every block of indented lines that follows a line starting with ``title``."""
    blocks, lines = [], transcript.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(title):
            block = list(itertools.takewhile(lambda row: row.startswith("  "), lines[i + 1:]))
            blocks.append(block)
    return blocks


def test_round_end_shows_turn_five_crossings_and_the_next_round_resets_the_boards() -> None:
    out = io.StringIO()
    assert play_game(4, "normal", 11, inp=io.StringIO(SCRIPTED), out=out).completed
    transcript = out.getvalue()
    for round_no in (1, 2):
        before_end = transcript.split(f"--- End of round {round_no}")[0]
        boards = _sections(before_end, "Boards")[-1]
        board_crossed = {row.split()[0]: int(re.search(r"crossed (\d+)", row).group(1)) for row in boards}
        round_end = _sections(transcript, f"--- End of round {round_no}")[0]
        scored = {row.split()[0]: int(re.search(r"crossed\s+(\d+) =", row).group(1)) for row in round_end}
        assert board_crossed == scored  # the boards shown are the ones the crossed digits are counted on
        assert sum(scored.values()) > 0
    round_two = transcript.split("=== Round 2 of 2, turn 1 of 5")[1]
    assert "every board is reset" in round_two.split("Your number")[0]
    reset = _sections(round_two, "Boards")[0]
    assert all(row.split()[1:11] == [str(d) for d in range(10)] for row in reset)


def test_score_rows_stay_aligned_in_round_two() -> None:
    out = io.StringIO()
    assert play_game(5, "hard", 4, inp=io.StringIO(SCRIPTED), out=out).completed
    blocks = _sections(out.getvalue(), "Scores:")
    assert any(row.count("= ") == 2 for block in blocks for row in block)  # both rounds' sums shown
    for block in blocks:  # the rounds and the total are columns: every row the same length, bars aligned
        assert len({len(row) for row in block}) == 1, block
        assert len({tuple(i for i, c in enumerate(row) if c == "|") for row in block}) == 1, block


@pytest.mark.parametrize("word", ["help", "?", "rules", " RULES "])
def test_help_at_the_prompt_explains_the_rules_and_asks_again(word: str) -> None:
    out = io.StringIO()
    result = play_game(3, "easy", 1, inp=io.StringIO(f"{word}\n"), out=out)
    text = out.getvalue()
    assert not result.completed and not result.turns  # nothing was played
    rules = " ".join(text.split("--- How to play The Number ---")[1].split())
    assert "turn 1 +2, turn 2 +3, turn 3 +4, turn 4 +6, turn 5 +8" in rules
    assert "On turn 5 the first digit counts x2" in rules
    assert "end of each round every crossed-off digit scores 1 point" in rules
    assert rules.count("Your number") == 1 and "not a number you can play" not in text


def test_default_seed_is_random_printed_and_replays_the_same_game() -> None:
    first = run_bot("play", "--players", "3", stdin=SCRIPTED)
    assert first.returncode == 0, first.stderr
    seed = re.search(r"Seed (\d+): play this game again with --seed (\d+)\.", first.stdout)
    assert seed and seed.group(1) == seed.group(2)
    again = run_bot("play", "--players", "3", "--seed", seed.group(1), stdin=SCRIPTED)
    assert again.stdout == first.stdout
    seeds = {re.search(r"Seed (\d+)", run_bot("play", stdin="").stdout).group(1) for _ in range(3)}
    assert len(seeds) > 1  # three draws from a million are all equal only by a 1e-12 chance


def test_introduction_grammar_and_the_two_seat_advice() -> None:
    two = run_bot("play", "--players", "2", "--seed", "1", stdin="")
    assert re.match(r"The Number: \w+ against 1 AI player \(normal\)\.\n", two.stdout)
    assert "plays best with 3 to 5" in two.stdout
    three = run_bot("play", "--players", "3", "--seed", "1", stdin="")
    assert re.match(r"The Number: \w+ against 2 AI players \(normal\)\.\n", three.stdout)
    assert "plays best" not in three.stdout


@pytest.mark.parametrize(("available", "expected"), [
    (set(range(10)), "407"),
    ({0, 4, 7}, "407"),
    (set(range(1, 10)), "519"),
    ({3}, "333"),
    ({2, 8}, "828"),
])
def test_example_number_is_playable(available: set[int], expected: str) -> None:
    example = example_number(available)
    assert example == expected and set(map(int, example)) <= available


def test_refusal_example_follows_the_board_in_every_language() -> None:
    no_zero = frozenset(range(1, 10))
    assert "like 519." in refusal(MalformedNumber("12"), no_zero)
    assert "par exemple 519." in refusal(MalformedNumber("12"), no_zero, "fr")
    assert "like 407." in refusal(MalformedNumber("12"), None)  # board unknown: the usual example


def test_malformed_refusal_with_zero_crossed_off_suggests_a_playable_number() -> None:
    out = io.StringIO()
    play_game(2, "easy", 3, inp=io.StringIO("000\n12\n"), out=out)  # 000 is approved (smallest): 0 crossed
    text = out.getvalue()
    assert "Your number (available digits: 1 2 3 4 5 6 7 8 9) [? help, q quit]: 12" in text
    refusal_line = next(line for line in text.splitlines() if "not a number you can play" in line)
    assert "like 407" not in refusal_line and "like 519" in refusal_line


def test_script_out_into_a_missing_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    done = run_bot("play", "--seed", "1", "--script-out", str(tmp_path / "missing" / "game.json"), stdin=SCRIPTED)
    assert done.returncode == 2
    assert "Round 1" not in done.stdout and "does not exist" in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("python -m bot play: error: --script-out")
    folder = run_bot("play", "--seed", "1", "--script-out", str(tmp_path), stdin=SCRIPTED)
    assert folder.returncode == 2 and "is a folder" in folder.stderr


@pytest.mark.parametrize("games", ["0", "-5", "many"])
def test_arena_refuses_a_game_count_below_one(games: str) -> None:
    done = run_bot("arena", "--games", games)
    assert done.returncode == 2 and done.stdout == "" and "--games" in done.stderr
    assert "Traceback" not in done.stderr


def test_help_says_a_bare_command_starts_the_discord_bot_and_version_is_shown() -> None:
    helped = run_bot("--help")
    assert helped.returncode == 0
    assert "With no command, python -m bot starts the Discord bot" in " ".join(helped.stdout.split())
    shown = run_bot("--version")
    assert shown.returncode == 0 and re.fullmatch(r"python -m bot \S+\n", shown.stdout), shown.stdout
