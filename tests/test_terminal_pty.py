"""``python -m bot play`` in a real pseudo-terminal of 80 columns: whole games, line editing and history,
colours and shapes (and NO_COLOR), Ctrl-C (status 130, on a line of its own) and Ctrl-D."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.games import GAMES
from tests.terminal_helpers import ROOT, Terminal, play_to_the_end, widest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
PROMPT = r"\[\? help, q quit\]:"


@pytest.mark.parametrize("key", [g.key for g in GAMES])
def test_a_whole_game_in_an_80_column_terminal(key: str) -> None:
    terminal = Terminal("--game", key, "--players", "3", "--seed", "6", "--name", "ana")
    try:
        assert play_to_the_end(terminal, first=["help", "zz", "board", ""]) == 0, terminal.text[-2000:]
    finally:
        terminal.kill()
    assert "Traceback" not in terminal.text and "Winner" in terminal.text
    assert "How to play" in terminal.text and "Refused: " in terminal.text
    lines = [line.rstrip() for line in terminal.printed.splitlines()]  # the prompts' widths: in-process tests
    assert widest("\n".join(lines)) <= 80, max(lines, key=len)


def test_line_editing_and_history() -> None:
    terminal = Terminal("--game", "numeri", "--players", "2", "--seed", "3", "--name", "ana")
    try:
        terminal.read_until(PROMPT)
        terminal.type("xx\x1b[D\x1b[D9\r")  # two Left arrows, then 9: the line reads 9xx
        terminal.read_until(r"Refused: Type the token to move, like 4, or two for a split, like 1 3 \(not 9xx\)")
        terminal.read_until(r"9xx\)\.\s*\n(.*\n)*.*" + PROMPT)
        terminal.type("\x1b[A\r")  # Up: the answer given before, again
        terminal.read_until(r"\(not 9xx\)\.(.*\n)+.*\(not 9xx\)\.")
        terminal.type("q\r")
        assert terminal.finish() == 1
    finally:
        terminal.kill()
    assert "^[[D" not in terminal.raw and "\x1b[D9" not in terminal.text


def test_colours_and_shapes_on_a_terminal_and_none_with_no_color() -> None:
    coloured = Terminal("--players", "3", "--seed", "1", "--name", "ana")
    plain = Terminal("--players", "3", "--seed", "1", "--name", "ana", env={"NO_COLOR": "1"})
    try:
        for terminal in (coloured, plain):
            terminal.read_until(PROMPT)
            terminal.type("q\r")
            assert terminal.finish() == 1
    finally:
        coloured.kill()
        plain.kill()
    assert "▲ ana" in coloured.text and "\x1b[31m▲ ana" in coloured.raw
    assert "▲" not in plain.text and "\x1b[31m" not in plain.raw and "\x1b[1m" not in plain.raw
    assert "ana against 2 AI players" in plain.text


def test_no_escape_codes_when_the_output_is_not_a_terminal() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "play", "--seed", "1", "--name", "ana"], input="q\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1 and "\x1b" not in done.stdout and "▲" not in done.stdout


@pytest.mark.parametrize("key", ["binomial", "thenumber"])
def test_ctrl_c_at_the_prompt_leaves_with_130_on_a_line_of_its_own(key: str) -> None:
    terminal = Terminal("--game", key, "--players", "3", "--seed", "2", "--name", "ana")
    try:
        terminal.read_until(PROMPT)
        terminal.type("3")  # half an answer: Ctrl-C drops it
        terminal.interrupt()
        assert terminal.finish() == 130
    finally:
        terminal.kill()
    text = terminal.text
    assert "\nInterrupted (Ctrl-C): game abandoned." in text
    assert "^C" not in text.split("Interrupted")[0].splitlines()[-1] if "^C" in text else True
    assert "Traceback" not in text and "KeyboardInterrupt" not in text


def test_ctrl_d_at_the_prompt_leaves_the_game() -> None:
    terminal = Terminal("--game", "binomial", "--players", "2", "--seed", "2", "--name", "ana")
    try:
        terminal.read_until(PROMPT)
        terminal.type("\x04")
        assert terminal.finish() == 1
    finally:
        terminal.kill()
    assert terminal.text.rstrip().endswith("Game abandoned.") and "Traceback" not in terminal.text
