"""Numeri as plain text for the terminal: the track, the tokens, the events and the final scores."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.numeri import engine
from bot.games.numeri.engine import Event, Move, Moved, Passed, Rolled
from bot.games.numeri.rules import LAST_SQUARES, TOKENS
from bot.games.numeri.view import NumeriView

LETTERS = "ABCD"
PER_LINE = 10


def token_label(seat: int, token: int) -> str:
    return f"{LETTERS[seat]}{token}"


def render_track(view: NumeriView) -> str:
    """Each square as ``number:value token``; ``|`` marks the active barrier, ``*`` the last move's squares."""
    owner = {sq: token_label(s, t) for s, seat in enumerate(view.positions)
             for t, sq in zip(TOKENS, seat, strict=True) if sq is not None}
    marked = {m.end for m in view.last}
    cells = []
    for square, value in enumerate(view.board, start=1):
        mark = "*" if square in marked else " "
        barrier = " |" if square == view.barrier else ""
        cells.append(f"{square:>2}:{value:>3} {owner.get(square, '..'):<2}{mark}{barrier}")
    lines = [" ".join(cells[i:i + PER_LINE]).rstrip() for i in range(0, len(cells), PER_LINE)]
    state = "passed: 3, 4 and 5 may be split" if view.barrier_passed else "not passed yet"
    head = f"Track (reconstructed board; barrier | after square {view.barrier}, {state}):"
    return "\n".join([head, *lines])


def render_tokens(view: NumeriView, names: Sequence[str]) -> str:
    rows = []
    for seat, name in enumerate(names):
        where = " ".join(f"{token_label(seat, t)}@{'off' if sq is None else sq}"
                         for t, sq in zip(TOKENS, view.positions[seat], strict=True))
        rows.append(f"{LETTERS[seat]} {name}: {where}  score {view.scores[seat]}")
    return "\n".join(rows)


def move_text(seat: int, move: Move) -> str:
    start = "enters" if move.start is None else f"{move.start} ->"
    return f"{token_label(seat, move.token)} {start} {move.end}"


def _says(name: str, verb: str) -> str:
    """``"bot1 rolls"``, but ``"You roll"``."""
    return f"You {verb}" if name == "you" else f"{name} {verb}s"


def render_event(event: Event, names: Sequence[str]) -> str:
    name = names[event.seat]
    if isinstance(event, Rolled):
        return f"{_says(name, 'roll')} {event.roll}."
    if isinstance(event, Passed):
        return f"{_says(name, 'roll')} {event.roll}: no move is possible, the turn passes."
    assert isinstance(event, Moved)
    text = f"{_says(name, 'move')} " + ", then ".join(move_text(event.seat, m) for m in event.moves) + "."
    if event.ended:
        last = ", ".join(map(str, LAST_SQUARES[:-1])) + f" and {LAST_SQUARES[-1]}"
        text += f" Squares {last} are all taken: the game is over."
    elif event.extra_turn:
        text += f" A new chain of three: {_says(name, 'throw')} again."
    return text


def render_final(view: NumeriView, names: Sequence[str]) -> str:
    lines = ["Final scores:"]
    for seat, name in enumerate(names):
        parts = []
        for t, sq in zip(TOKENS, view.positions[seat], strict=True):
            where = "never entered" if sq is None else f"square {sq}"
            parts.append(f"{t} ({where}) {engine.token_points(t, sq):+d}")
        lines.append(f"{LETTERS[seat]} {name}: {view.scores[seat]} = " + ", ".join(parts))
    best = max(view.scores)
    winners = [n for s, n in enumerate(names) if view.scores[s] == best]
    lines.append(("Winner: " if len(winners) == 1 else "Winners (tied): ") + ", ".join(winners))
    return "\n".join(lines)
