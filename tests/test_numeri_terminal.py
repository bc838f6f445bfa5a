"""The terminal game of Numeri with a scripted stdin: help, refusals, a whole game, abandoning it."""

from __future__ import annotations

import io
import re

from bot.games import game_for
from bot.games.numeri.game import GAME
from bot.games.numeri.terminal import render_track
from bot.terminal.console import Console, Seats
from bot.terminal.table import Table
from tests.terminal_helpers import play_first_choices, play_lines, widest


class Interrupting(io.StringIO):
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_a_whole_game_with_help_and_refusals() -> None:
    status, text, _ = play_first_choices("numeri", 3, seed=5, level="normal")
    assert status == 0
    assert "reconstruction" in text and "Final scores" not in text
    assert re.search(r"^Winner: ", text, re.M) or "🏆" not in text
    assert re.search(r"^A ana: -?\d+ points?$", text, re.M)
    assert re.search(r"^    Token 1: (square \d+ \(value -?\d+\)|never entered \(-5 each\)) → -?\d+$", text, re.M)
    assert "barrier | after square 14" in text
    _, text = play_lines("numeri", 3, ["help", "9", "zz", "7 7", "q"], seed=5)
    joined = " ".join(text.split())  # the rules are folded to 80 columns
    assert "How to play Numeri" in text and "Each token scores its number times its square's value" in joined
    assert "Refused: Type the token to move, like 4, or two for a split, like 1 3 (not zz)." in text
    assert "Refused: A split moves two different tokens, not token 7 twice." in text or "Tokens are numbered" in text


def test_end_of_input_and_ctrl_c_abandon_cleanly() -> None:
    status, text = play_lines("numeri", 2, [], seed=3, level="easy")
    assert status == 1 and text.rstrip().endswith("Game abandoned.")
    out = io.StringIO()
    console = Console(Interrupting(), out, colour=False, editing=False)
    assert Table(game_for("numeri"), Seats(("ana", "b", "c", "d")), "hard", 3, {}, console).play() == 130
    assert out.getvalue().rstrip().endswith("Interrupted (Ctrl-C): game abandoned.")


def test_bad_arguments_are_refused() -> None:
    out = io.StringIO()
    console = Console(io.StringIO(""), out, colour=False, editing=False)
    assert Table(game_for("numeri"), Seats(tuple("abcde")), "normal", 1, {}, console).play() == 2
    assert "2 to 4 players" in out.getvalue()


def test_the_track_shows_values_tokens_and_the_barrier_in_80_columns() -> None:
    state = GAME.setup(2, {}, 1)
    state, _ = GAME.apply(state, {None: {"roll": 5}})
    state, _ = GAME.apply(state, {state.current: {"moves": [5]}})
    text = render_track(GAME.view(state, None))
    letter = "AB"[1 - state.current]
    rows = text.splitlines()
    assert rows[1].split() == ["square", *map(str, range(1, 10)), "10|", "11", "12", "13"]
    assert rows[2].split()[:2] == ["value", "-3"] and rows[3].split()[1] == f"{letter}5*"
    assert rows[7].split()[-1] == "37" and rows[8].split()[-1] == "30" and rows[9].split()[-1] == ".."
    assert widest(text) <= 80
