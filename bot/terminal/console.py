"""The terminal itself: line editing, history and colour on a terminal, plain lines everywhere else.

On a terminal (standard input and output both a tty) questions are asked with prompt_toolkit: arrows move
in the line, Up/Down walk the answers already given, Tab completes the moves on offer and the commands, and
Ctrl-C/Ctrl-D behave as a shell's do. Hand-written ``readline`` handling would need the GNU readline module
(absent on Windows, replaced by libedit on macOS) and still give no completion menu: prompt_toolkit is pure
Python, well kept, and works the same on all three.

Anywhere else (a pipe, a file, a test) questions are read line by line with ``readline`` and the answer is
echoed, so a scripted game reads like a session. Colour and the seats' shapes are on only on a terminal and
when ``NO_COLOR`` is not set (https://no-color.org); without them the text is the same, letter for letter.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO

WIDTH = 80  # every line a game prints fits this many columns

# Terminal counterparts of the Discord seats' colours and shapes (cogs/seats.py), seat by seat: one shape per
# colour so that colour-blind players can tell seats apart. One column wide each (the emoji are two).
SEAT_SHAPES = ("▲", "◆", "●", "★", "■", "▼", "○")
SEAT_COLOURS = ("31", "34", "32", "33", "35", "38;5;208", "37")  # red, blue, green, yellow, purple, orange, white
BOLD, DIM, RED, RESET = "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[0m"


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def colour_wanted(out: TextIO) -> bool:
    """Colour and shapes: on a terminal, unless NO_COLOR is set (to anything but "") or TERM is dumb."""
    return _isatty(out) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


@dataclass(frozen=True)
class Seats:
    """How the seats are named on screen; a game's terminal screen gets this, never the console.

    ``name(seat)`` is the seat's label ("▲ ana" with shapes on, "ana" without), ``names`` all of them.
    """

    plain: tuple[str, ...]
    shapes: bool = False

    def name(self, seat: int) -> str:
        if not self.shapes:
            return self.plain[seat]
        return f"{SEAT_SHAPES[seat % len(SEAT_SHAPES)]} {self.plain[seat]}"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.name(s) for s in range(len(self.plain)))

    def __len__(self) -> int:
        return len(self.plain)


class Console:
    """Writes what a game shows and reads the player's answers."""

    def __init__(self, inp: TextIO, out: TextIO, *, colour: bool | None = None,
                 editing: bool | None = None) -> None:
        self.inp, self.out = inp, out
        self.colour = colour_wanted(out) if colour is None else colour
        self.editing = (_isatty(inp) and _isatty(out)) if editing is None else editing
        self._painter: re.Pattern[str] | None = None
        self._paint: dict[str, str] = {}
        self._session: object | None = None
        self._midline = False  # a question is on screen with no line end after it yet

    # Seat colours -----------------------------------------------------------------------------------
    def paint_seats(self, marks: Sequence[Iterable[str]]) -> None:
        """Colour every whole-word occurrence of ``marks[seat]`` (names, token labels) in the seat's colour."""
        self._paint = {m: SEAT_COLOURS[s % len(SEAT_COLOURS)] for s, words in enumerate(marks) for m in words if m}
        if self._paint:
            alternatives = "|".join(re.escape(m) for m in sorted(self._paint, key=len, reverse=True))
            self._painter = re.compile(rf"(?<![\w]){'(?:' + alternatives + ')'}(?![\w])")

    def _styled(self, text: str, style: str) -> str:
        if not self.colour:
            return text
        if self._painter is not None:
            text = self._painter.sub(lambda m: f"\x1b[{self._paint[m.group(0)]}m{m.group(0)}{RESET}{style}", text)
        return f"{style}{text}{RESET}" if style else text

    # Output -----------------------------------------------------------------------------------------
    def show(self, text: str | None, style: str = "") -> None:
        """Print ``text`` (nothing for None or ""), each line in ``style`` on a colour terminal."""
        if not text:
            return
        self.end_line()
        lines = text.split("\n")
        self.out.write("\n".join(self._styled(line, style) for line in lines) + "\n")
        self.out.flush()

    def heading(self, text: str | None) -> None:
        """``text`` after a blank line, in bold on a colour terminal (nothing for None or "")."""
        if text:
            self.show("\n" + text, BOLD)

    def refusal(self, text: str) -> None:
        self.show(text, RED)

    def note(self, text: str) -> None:
        self.show(text, DIM)

    def end_line(self) -> None:
        """Finish a question's line (after Ctrl-C or the end of input) so what follows starts a line."""
        if self._midline:
            self.out.write("\n")
            self._midline = False

    # Input ------------------------------------------------------------------------------------------
    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str | None:
        """The player's answer to ``prompt`` (no line end), or None at the end of input (Ctrl-D).

        Ctrl-C raises KeyboardInterrupt, as anywhere in Python; the caller ends the game.
        """
        if self.editing:
            return self._ask_editing(prompt, completions)
        self.out.write(self._styled(prompt, BOLD))
        self.out.flush()
        self._midline = True
        line = self.inp.readline()
        if not line:
            self.end_line()
            return None
        if not _isatty(self.inp):  # scripted input: echo it so the transcript reads like a session
            self.out.write(line if line.endswith("\n") else line + "\n")
        self._midline = False
        return line.rstrip("\r\n")

    def _ask_editing(self, prompt: str, completions: Sequence[str]) -> str | None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import WordCompleter
        from prompt_toolkit.formatted_text import ANSI
        from prompt_toolkit.history import InMemoryHistory

        if self._session is None:
            self._session = PromptSession(history=InMemoryHistory())
        session: PromptSession[str] = self._session  # type: ignore[assignment]
        completer = WordCompleter(list(dict.fromkeys(completions)), ignore_case=True, sentence=True)
        try:
            return session.prompt(ANSI(self._styled(prompt, BOLD)), completer=completer,
                                  complete_while_typing=False)
        except EOFError:
            return None
