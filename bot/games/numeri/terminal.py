"""Numeri in the terminal (``python -m bot play --game numeri``): the track, the moves, the scores as text.

The screen the shared terminal front end (``bot/terminal``) finds beside this game; pure text from the views
and events. ``seats`` names the seats and ``words`` gives the Discord table's sentences (duck-typed: this
package imports only the protocol). Every line fits 80 columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.core.game import Action, Prompt, Result, RuleError

from . import engine
from .engine import Move, Moved, Passed, Rolled
from .rules import LAST_SQUARES, STAR, TOKENS, UNENTERED_POINTS, VALUE
from .view import NumeriView

LETTERS = "ABCD"
PER_ROW = 13  # squares per row of the track: 8 + 13 x 4 = 60 columns
HUMAN = 0


def token_label(seat: int, token: int) -> str:
    return f"{LETTERS[seat]}{token}"


def face(roll: Any, words: Any) -> str:
    return words("numeri.star") if roll == STAR else str(roll)


def square_text(square: int | None, words: Any) -> str:
    return words("numeri.off") if square is None else str(square)


def moves_text(moves: Sequence[Move], words: Any) -> str:
    parts = [words("numeri.move.enter", token=m.token, end=m.end) if m.start is None else
             words("numeri.move.step", token=m.token, start=m.start, end=m.end) for m in moves]
    return words("numeri.and").join(parts)


def render_track(view: NumeriView) -> str:
    """The track in rows of 13 squares: number, value and token (``A5``: seat A's token 5; ``*`` just moved).

    ``|`` stands between the squares either side of the active barrier.
    """
    owner = {sq: token_label(s, t) for s, seat in enumerate(view.positions)
             for t, sq in zip(TOKENS, seat, strict=True) if sq is not None}
    moved = {m.end for m in view.last}
    passed = "passed: 3, 4 and 5 may be split" if view.barrier_passed else "not passed yet"
    lines = [f"Track (barrier | after square {view.barrier}, {passed}):"]
    squares = range(1, len(view.board) + 1)
    for row in range(0, len(squares), PER_ROW):
        chunk = squares[row:row + PER_ROW]

        def cells(text: Iterable[str], chunk: range = chunk) -> str:
            out = ""
            for square, cell in zip(chunk, text, strict=True):
                gap = "|" if square == view.barrier + 1 else " "
                out += gap + f"{cell:>3}"
            return out.rstrip()

        lines.append("  square" + cells(str(sq) for sq in chunk))
        lines.append("  value " + cells(str(view.board[sq - 1]) for sq in chunk))
        lines.append("  token " + cells(owner.get(sq, "..") + ("*" if sq in moved else "") for sq in chunk))
    return "\n".join(lines)


def render_tokens(view: NumeriView, seats: Any, words: Any) -> str:
    """One line per seat: letter, name, where each token stands, the score (the Discord board line's facts)."""
    width = max(len(n) for n in seats.names)
    rows = []
    for seat in range(view.seats):
        tokens = " ".join(f"{t}:{square_text(sq, words)}" for t, sq in zip(TOKENS, view.positions[seat],
                                                                            strict=True))
        score = words("numeri.picture.points", points=view.scores[seat])
        rows.append(f"  {LETTERS[seat]} {seats.name(seat):<{width}}  {tokens}  {score}")
    return "\n".join(rows)


def points_lines(view: NumeriView, seat: int, words: Any) -> list[str]:
    lines = []
    for token, square in zip(TOKENS, view.positions[seat], strict=True):
        if square is None:
            lines.append(words("numeri.points.off", token=token, value=UNENTERED_POINTS,
                               points=token * UNENTERED_POINTS))
        else:
            lines.append(words("numeri.points.on", token=token, square=square, value=VALUE[square],
                               points=engine.token_points(token, square)))
    return lines


class NumeriScreen:
    def introduction(self, view: NumeriView, seats: Any, words: Any) -> str:
        return (f"The board is a reconstruction: the printed board's values are unknown.\n"
                f"Seats: {', '.join(f'{LETTERS[s]} {seats.name(s)}' for s in range(view.seats))}. "
                f"{seats.name(view.first)} begins.")

    def rules(self, options: Mapping[str, Any], words: Any) -> str:
        text = words("numeri.rules.text").rsplit("\n", 1)[0]  # the last line is about Discord's buttons
        text += ("\nIn the terminal: type the token the die names (4), or two tokens for a split (1 3); the menu "
                 "shows where each would go.")
        return _wrap(words("numeri.rules.title") + "\n" + text)

    def header(self, view: NumeriView, prompt: Prompt, seats: Any, words: Any) -> str | None:
        if HUMAN not in prompt.seats:
            return None
        return render_track(view) + "\n" + render_tokens(view, seats, words)

    def question(self, view: NumeriView, prompt: Prompt, words: Any) -> tuple[str, str]:
        return "", f"You rolled {face(view.roll, words)}: your move"

    def choice(self, view: NumeriView, action: Action, words: Any) -> tuple[str, str]:
        """``1 3`` and where the tokens go: ``Token 1: off → 3 + Token 3: 5 → 9`` (the Discord button's text)."""
        moves = list(action["moves"])
        positions, parts = view.positions, []
        for token in moves:
            end = engine.destination(positions, HUMAN, token)
            start = positions[HUMAN][token - 1]
            parts.append(words("numeri.choice.part", token=token, start=square_text(start, words),
                               end="?" if end is None else end))
            if end is not None:
                positions, _ = engine.step(positions, HUMAN, token)
        return " ".join(map(str, moves)), " + ".join(parts)

    def event(self, event: Any, before: NumeriView, after: NumeriView, seats: Any, words: Any) -> str | None:
        name = seats.name(event.seat)
        if isinstance(event, Rolled):
            return None  # told with the move (or in the human's question)
        if isinstance(event, Passed):
            return words("numeri.event.passed", name=name, roll=face(event.roll, words))
        assert isinstance(event, Moved)
        line = words("numeri.event.moved", name=name, roll=face(event.roll, words),
                     moves=moves_text(event.moves, words))
        if event.ended:
            last = ", ".join(map(str, LAST_SQUARES[:-1])) + f" and {LAST_SQUARES[-1]}"
            line += f" Squares {last} are all taken: the game is over."
        elif event.extra_turn:
            line += " " + words("numeri.event.extra", name=name)
        return _wrap(line)

    def board(self, view: NumeriView, seats: Any, words: Any) -> str:
        return render_track(view) + "\n" + render_tokens(view, seats, words)

    def final(self, view: NumeriView, result: Result, seats: Any, words: Any) -> str:
        lines = [words("numeri.final.title"), render_track(view)]
        for seat in range(view.seats):
            lines.append(f"{LETTERS[seat]} " + words("numeri.final.seat", name=seats.name(seat),
                                                      score=view.scores[seat]))
            lines += [f"    {line}" for line in points_lines(view, seat, words)]
        winners = ", ".join(seats.name(s) for s in sorted(result.winners))
        lines.append(words("numeri.final.winners", names=winners))
        return "\n".join(lines)

    def refusal(self, error: RuleError, view: NumeriView, words: Any) -> str:
        key = f"numeri.error.{error.key}"
        if error.key == "blocked" and error.values.get("after") is not None:
            key = "numeri.error.blocked_after"
        return words(key, **error.values) if words.has(key) else str(error)

    def marks(self, seat: int) -> tuple[str, ...]:
        return tuple(token_label(seat, t) for t in TOKENS)


def _wrap(text: str) -> str:
    import textwrap

    return "\n".join(textwrap.fill(p, 80, subsequent_indent="  ") if p else "" for p in text.split("\n"))


SCREEN = NumeriScreen()
