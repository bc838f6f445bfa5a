"""The terminal game of Numeri with a scripted stdin: help, refusals, a whole game, abandoning it."""

from __future__ import annotations

import io
import re

from bot.games.numeri.game import GAME
from bot.terminal.numeri import play
from bot.terminal.numeri_render import render_track


class Interrupting(io.StringIO):
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_a_whole_game_with_help_and_refusals() -> None:
    lines = ["help", "9", "zz", "7 7", *["1"] * 400]
    out = io.StringIO()
    assert play(3, "normal", 5, io.StringIO("\n".join(lines) + "\n"), out) == 0
    text = out.getvalue()
    assert "reconstructed board" in text and "Scoring: each token scores" in text
    assert "pick a number from 1 to" in text
    assert "type the token to move, like 4" in text
    assert "a split moves two different tokens, not token 7 twice" in text or "tokens are numbered" in text
    assert "Final scores:" in text and re.search(r"Winners?( \(tied\))?: ", text)
    assert re.search(r"A you: -?\d+ = 1 \((square \d+|never entered)\) [+-]\d+", text)
    assert "barrier | after square 14" in text


def test_end_of_input_and_ctrl_c_abandon_cleanly() -> None:
    out = io.StringIO()
    assert play(2, "easy", 3, io.StringIO(""), out) == 1
    assert out.getvalue().rstrip().endswith("Game abandoned.")
    out = io.StringIO()
    assert play(4, "hard", 3, Interrupting(), out) == 1
    assert out.getvalue().rstrip().endswith("Game abandoned.")


def test_bad_arguments_are_refused() -> None:
    out = io.StringIO()
    assert play(5, "normal", 1, io.StringIO(""), out) == 2 and "2 to 4 players" in out.getvalue()
    assert play(2, "genius", 1, io.StringIO(""), io.StringIO()) == 2


def test_the_track_shows_values_tokens_and_the_barrier() -> None:
    state = GAME.setup(2, {}, 1)
    state, _ = GAME.apply(state, {None: {"roll": 5}})
    state, _ = GAME.apply(state, {state.current: {"moves": [5]}})
    text = render_track(GAME.view(state, None))
    letter = "AB"[1 - state.current]
    assert f" 1: -3 {letter}5*" in text and "37: 30 .." in text and "10:  0 ..  |" in text and "37: 30 ..\n" not in text
