"""The Numeri board as a PNG: the track with each square's value, the active barrier, every token in its
seat's colour and shape with its number, the last move marked. Drawn from the public view only."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

import matplotlib

matplotlib.use("Agg")  # no display: render to bytes

import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, Rectangle

from bot.games.numeri.rules import LAST_SQUARES, SQUARES, VALUE
from bot.games.numeri.view import NumeriView

PER_ROW = 10
# One colour and one shape per seat, matching cogs.seats (red triangle, blue diamond, green circle, gold star).
SEAT_COLOURS = ("#d62728", "#1f5fbf", "#2ca02c", "#c99a00")
SEAT_MARKERS = ("^", "D", "o", "*")
SEAT_SIZES = (30, 24, 26, 36)  # markers of the same visual weight
CELL, GAP = 1.0, 0.12


def cell_origin(square: int) -> tuple[float, float]:
    """The lower-left corner of ``square``: rows of ten, snaking, square 1 at the top left."""
    row, col = divmod(square - 1, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    rows = (SQUARES + PER_ROW - 1) // PER_ROW
    return col * (CELL + GAP), (rows - 1 - row) * (CELL + GAP)


def rows_top() -> float:
    return ((SQUARES + PER_ROW - 1) // PER_ROW) * (CELL + GAP) + 0.02


def value_colour(value: int) -> str:
    if value < 0:
        return "#f6d5d5"
    if value == 0:
        return "#f2f2f2"
    return "#d8ecd8" if value < 10 else "#b9deb9"


def draw(view: NumeriView, names: Sequence[str]) -> bytes:
    return _draw(view, tuple(names))


@lru_cache(maxsize=64)
def _draw(view: NumeriView, names: tuple[str, ...]) -> bytes:
    rows = (SQUARES + PER_ROW - 1) // PER_ROW
    width = PER_ROW * (CELL + GAP)
    legend_h = 0.55 * view.seats + 0.3
    fig = plt.figure(figsize=(10.5, (rows * (CELL + GAP) + legend_h + 0.8) * 0.95), dpi=100)
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
    ax.set_xlim(-0.15, width + 0.05)
    ax.set_ylim(-legend_h - 0.1, rows * (CELL + GAP) + 0.5)
    ax.set_aspect("equal")
    ax.axis("off")
    owner = {sq: (seat, token) for seat, squares in enumerate(view.positions)
             for token, sq in enumerate(squares, start=1) if sq is not None}
    ends = {m.end for m in view.last}
    starts = {m.start for m in view.last if m.start is not None}
    for square in range(1, SQUARES + 1):
        x, y = cell_origin(square)
        value = VALUE[square]
        last_squares = square in LAST_SQUARES
        ax.add_patch(Rectangle((x, y), CELL, CELL, facecolor=value_colour(value),
                               edgecolor="#7a5c00" if last_squares else "#888888",
                               linewidth=2.2 if last_squares else 1.0, linestyle="-"))
        if square in starts:
            ax.add_patch(Rectangle((x + 0.05, y + 0.05), CELL - 0.1, CELL - 0.1, fill=False, edgecolor="#ff8c00",
                                   linewidth=2.0, linestyle="--"))
        if square in ends:
            ax.add_patch(Rectangle((x + 0.03, y + 0.03), CELL - 0.06, CELL - 0.06, fill=False, edgecolor="#ff8c00",
                                   linewidth=4.0))
        ax.text(x + 0.07, y + CELL - 0.08, str(square), fontsize=8, color="#555555", va="top", ha="left")
        ax.text(x + CELL - 0.07, y + CELL - 0.08, f"{value:+d}" if value else "0", fontsize=12,
                fontweight="bold", color="#222222", va="top", ha="right")
        if square in owner:
            seat, token = owner[square]
            cx, cy = x + CELL / 2, y + CELL * 0.4
            ax.plot(cx, cy, marker=SEAT_MARKERS[seat], markersize=SEAT_SIZES[seat], color=SEAT_COLOURS[seat],
                    markeredgecolor="black", markeredgewidth=1.2)
            ax.text(cx, cy - (0.06 if SEAT_MARKERS[seat] == "^" else 0), str(token), fontsize=13,
                    fontweight="bold", color="white", ha="center", va="center")
    _draw_barrier(ax, view)
    if view.last and view.last_seat is not None:
        for m in view.last:
            if m.start is not None:
                (x0, y0), (x1, y1) = cell_origin(m.start), cell_origin(m.end)
                ax.add_patch(FancyArrowPatch((x0 + CELL / 2, y0 + CELL * 0.85), (x1 + CELL / 2, y1 + CELL * 0.85),
                                             connectionstyle="arc3,rad=-0.25", arrowstyle="-|>", mutation_scale=14,
                                             color="#ff8c00", linewidth=1.8))
    _draw_legend(ax, view, names)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


def _draw_barrier(ax: plt.Axes, view: NumeriView) -> None:
    b = view.barrier
    (x0, y0), (x1, y1) = cell_origin(b), cell_origin(b + 1)
    colour = "#2ca02c" if view.barrier_passed else "#b00020"
    if abs(y0 - y1) < 1e-9:  # same row: a wall between the two squares
        x = max(x0, x1) - GAP / 2
        ax.plot([x, x], [y0 - 0.12, y0 + CELL + 0.12], color=colour, linewidth=5, solid_capstyle="butt")
    else:  # the turn of the snake: a wall under the square
        y = min(y0, y1) + CELL + GAP / 2
        ax.plot([x0 - 0.12, x0 + CELL + 0.12], [y, y], color=colour, linewidth=5, solid_capstyle="butt")



def _draw_legend(ax: plt.Axes, view: NumeriView, names: Sequence[str]) -> None:
    state = "passed: 3, 4 and 5 may be split" if view.barrier_passed else "not passed yet"
    ax.text(0.0, rows_top(), f"Barrier after square {view.barrier}: {state}.   Ends when 35, 36 and 37 are taken.",
            fontsize=10, va="bottom", color="#2ca02c" if view.barrier_passed else "#b00020")
    for seat in range(view.seats):
        y = -0.45 - 0.55 * seat
        ax.plot(0.25, y, marker=SEAT_MARKERS[seat], markersize=SEAT_SIZES[seat] * 0.6, color=SEAT_COLOURS[seat],
                markeredgecolor="black", markeredgewidth=1)
        off = [str(t) for t, sq in enumerate(view.positions[seat], start=1) if sq is None]
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        turn = "  ◀" if not view.over and seat == view.current else ""
        ax.text(0.6, y, f"{name}{turn}", fontsize=12, fontweight="bold", va="center", parse_math=False)
        ax.text(4.6, y, f"{view.scores[seat]:+d} pts", fontsize=12, va="center")
        ax.text(6.1, y, f"off the board: {' '.join(off) or '-'}", fontsize=11, va="center", color="#444444")
