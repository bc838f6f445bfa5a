"""Driving the terminal table: in process (scripted lines, or a player taking the first move on offer) and
as the real command in a pseudo-terminal of 80 columns."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.games import game_for
from bot.terminal.console import Console, Seats
from bot.terminal.table import Table

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")
NAMES = ("ana", "bot1", "bot2", "bot3", "bot4", "bot5", "bot6")


def play_lines(key: str, players: int, lines: Sequence[str], seed: int = 1, level: str = "normal",
               options: Mapping[str, Any] | None = None) -> tuple[int, str]:
    """A game of ``key`` with the human's answers read from ``lines`` (as from a pipe): status, transcript."""
    out = io.StringIO()
    console = Console(io.StringIO("".join(f"{line}\n" for line in lines)), out, colour=False, editing=False)
    table = Table(game_for(key), Seats(NAMES[:players]), level, seed, dict(options or {}), console)
    return table.play(), out.getvalue()


class FirstChoice(Console):
    """A player who answers with the first move the menu offers (else the next of ``typed``)."""

    def __init__(self, out: io.StringIO, typed: Iterator[str]) -> None:
        super().__init__(io.StringIO(), out, colour=False, editing=False)
        self.typed = typed

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str | None:
        digits = re.search(r"available digits: ([0-9 ]+)\)", prompt)  # The Number lists no moves
        if completions and completions[0] != "help":
            answer: str | None = completions[0]
        elif digits:
            answer = next(self.typed, None) or max(digits.group(1).split()) * 3
        else:
            answer = next(self.typed, None)
        self.out.write(prompt + (answer or "") + "\n")
        return answer


def play_first_choices(key: str, players: int, seed: int = 1, level: str = "normal",
                       options: Mapping[str, Any] | None = None, typed: Sequence[str] = ()
                       ) -> tuple[int, str, Table]:
    out = io.StringIO()
    table = Table(game_for(key), Seats(NAMES[:players]), level, seed, dict(options or {}),
                  FirstChoice(out, iter(typed)))
    return table.play(), out.getvalue(), table


class Terminal:
    """``python -m bot play ...`` in a pseudo-terminal of 80 x 24: type, read the screen, send signals."""

    def __init__(self, *args: str, env: Mapping[str, str] | None = None, command: Sequence[str] | None = None
                 ) -> None:
        import fcntl  # POSIX only: imported here so that the in-process helpers load anywhere
        import pty
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        environment.update({"PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "80", "LINES": "24",
                            # this fake terminal does not answer cursor-position requests
                            "PROMPT_TOOLKIT_NO_CPR": "1", **(env or {})})
        self.proc = subprocess.Popen(list(command or [sys.executable, "-m", "bot", "play", *args]), cwd=ROOT,
                                     stdin=slave, stdout=slave, stderr=slave, env=environment,
                                     start_new_session=True)
        os.close(slave)
        self.raw = ""

    def read_until(self, pattern: str, timeout: float = 60) -> str:
        """Everything read so far once ``pattern`` (a regex) appears on screen; AssertionError if it does not."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {pattern!r}; the screen shows:\n{self.text[-1500:]}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    assert re.search(pattern, self.text), f"ended without {pattern!r}:\n{self.text[-1500:]}"
                self.raw += chunk.decode("utf-8", "replace")
        return self.text

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw)

    @property
    def printed(self) -> str:
        """What the game printed, without prompt_toolkit's drawing of the prompt line (which redraws it with
        cursor moves: stripped of them, it would read as one long line)."""
        return ANSI.sub("", re.sub(r"\x1b\[\?2004h.*?\x1b\[\?2004l", "\n", self.raw, flags=re.S))

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def interrupt(self) -> None:
        self.type("\x03")  # Ctrl-C as the terminal sends it: the line discipline or prompt_toolkit sees it

    def finish(self, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    self.raw += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
        code = self.proc.wait(timeout=max(1, deadline - time.monotonic()))
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                chunk = os.read(self.master, 65536)
                if not chunk:
                    break
                self.raw += chunk.decode("utf-8", "replace")
        except OSError:
            pass
        os.close(self.master)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def widest(transcript: str) -> int:
    """The widest line, in terminal columns."""
    from wcwidth import wcswidth

    return max((wcswidth(line) for line in transcript.splitlines()), default=0)


PROMPT = re.compile(r"\[\? help, q quit\]:\s*$")


def answer_for(screen: str) -> str:
    """What a patient newcomer types at the prompt at the end of ``screen``: the first move the menu offers,
    else the largest available digit three times (The Number), else the cell suggested, else pass."""
    menu = screen.rsplit("Your moves (type one as shown):\n", 1)
    if len(menu) == 2:
        return menu[1].split()[0]
    digits = re.findall(r"available digits: ([0-9 ]+)\)", screen)
    if digits:
        return max(digits[-1].split()) * 3
    cell = re.findall(r"a free cell, like (\w+)\)", screen)
    return cell[-1] if cell else "pass"


def play_to_the_end(terminal: Terminal, first: Sequence[str] = (), limit: int = 400, timeout: float = 300) -> int:
    """Type ``first`` at the first prompts, then answer every prompt as :func:`answer_for` says until the game
    ends; the exit status."""
    typed = list(first)
    mark, deadline = 0, time.monotonic() + timeout
    for _ in range(limit):
        while True:
            screen = ANSI.sub("", terminal.raw[mark:])
            if PROMPT.search(screen) or terminal.proc.poll() is not None:
                break
            assert time.monotonic() < deadline, terminal.text[-1500:]
            ready, _, _ = select.select([terminal.master], [], [], 0.5)
            if ready:
                try:
                    terminal.raw += os.read(terminal.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
        if terminal.proc.poll() is not None and not PROMPT.search(ANSI.sub("", terminal.raw[mark:])):
            break
        mark = len(terminal.raw)
        terminal.type((typed.pop(0) if typed else answer_for(ANSI.sub("", terminal.raw))) + "\r")
    return terminal.finish()
