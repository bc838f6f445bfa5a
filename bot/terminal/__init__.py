"""Terminal front ends for every game: a human-vs-AI game per game, an AI-only arena, the replay (no Discord)."""

from typing import TextIO

HUMAN = "you"  # the human always sits in seat 0


def seat_names(players: int) -> list[str]:
    """How a terminal game names its seats: you, bot1, bot2..."""
    return [HUMAN, *(f"bot{i}" for i in range(1, players))]


def read_answer(question: str, inp: TextIO, out: TextIO) -> str | None:
    """The human's next line after ``question`` (with its line end), or None at the end of input."""
    out.write(question)
    out.flush()
    line = inp.readline()
    if not line:
        out.write("\n")
        return None
    if not inp.isatty():  # scripted input: echo it so the transcript reads like a session
        out.write(line if line.endswith("\n") else line + "\n")
    return line
