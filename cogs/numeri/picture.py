"""The Numeri board as a PNG: the track with each square's value, the active barrier, every token in its
seat's colour and shape with its number, the last move marked. Drawn from the public view only.

Pillow (a dependency of matplotlib) draws it in a few milliseconds, with matplotlib's DejaVu fonts, so a
turn never holds the event loop for long.
"""

from __future__ import annotations

import importlib.util
import io
import math
from collections.abc import Sequence
from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.games.numeri.rules import LAST_SQUARES, SQUARES, VALUE
from bot.games.numeri.view import NumeriView
from bot.i18n import t

PER_ROW = 10
ROWS = (SQUARES + PER_ROW - 1) // PER_ROW
CELL, GAP, MARGIN, HEADER, LEGEND_ROW = 88, 10, 20, 34, 42
WIDTH = 2 * MARGIN + PER_ROW * CELL + (PER_ROW - 1) * GAP
# One colour and one shape per seat, matching cogs.seats (red triangle, blue diamond, green circle, gold star).
SEAT_COLOURS = ("#d62728", "#1f5fbf", "#2ca02c", "#c99a00")
SHAPES = ("triangle", "diamond", "circle", "star")
MARK = "#ff8c00"  # the last move


@cache
def fonts_folder() -> Path:
    """matplotlib's TrueType fonts (what ``matplotlib.get_data_path()`` points at), found without importing
    matplotlib: importing it (numpy with it) costs a start-up a third of a second before the bot can connect."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib is not installed: its fonts draw the Numeri board")
    return Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(fonts_folder() / name), size)


def cell_origin(square: int) -> tuple[int, int]:
    """The top-left corner of ``square``: rows of ten, snaking, square 1 at the top left."""
    row, col = divmod(square - 1, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    return MARGIN + col * (CELL + GAP), HEADER + row * (CELL + GAP)


def value_colour(value: int) -> str:
    if value < 0:
        return "#f6d5d5"
    if value == 0:
        return "#f2f2f2"
    return "#d8ecd8" if value < 10 else "#b9deb9"


def shape(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill: str) -> None:
    if kind == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline="black", width=2)
        return
    if kind == "triangle":
        points = [(cx, cy - r * 1.1), (cx + r * 1.1, cy + r * 0.8), (cx - r * 1.1, cy + r * 0.8)]
    elif kind == "diamond":
        points = [(cx, cy - r * 1.15), (cx + r * 1.15, cy), (cx, cy + r * 1.15), (cx - r * 1.15, cy)]
    else:  # a five-pointed star
        points = [(cx + (r * 1.25 if i % 2 == 0 else r * 0.6) * math.sin(i * math.pi / 5),
                   cy - (r * 1.25 if i % 2 == 0 else r * 0.6) * math.cos(i * math.pi / 5)) for i in range(10)]
    draw.polygon(points, fill=fill, outline="black", width=2)


def draw(view: NumeriView, names: Sequence[str], lang: str = "en") -> bytes:
    # Keyed by what is drawn (not the roll): a move's result and the next turn share one picture.
    return _draw(replace(view, roll=None, throws=0, extra_turns=()), tuple(names), lang)


@lru_cache(maxsize=64)
def _draw(view: NumeriView, names: tuple[str, ...], lang: str) -> bytes:
    height = HEADER + ROWS * CELL + (ROWS - 1) * GAP + 16 + LEGEND_ROW * view.seats + MARGIN
    image = Image.new("RGB", (WIDTH, height), "white")
    pen = ImageDraw.Draw(image)
    passed = view.barrier_passed
    header = t("numeri.picture.passed" if passed else "numeri.picture.closed", lang, square=view.barrier,
               last=", ".join(map(str, LAST_SQUARES)))
    pen.text((MARGIN, 8), header, font=font(15), fill="#2ca02c" if passed else "#b00020")
    owner = {sq: (seat, token) for seat, squares in enumerate(view.positions)
             for token, sq in enumerate(squares, start=1) if sq is not None}
    ends = {m.end for m in view.last}
    starts = {m.start for m in view.last if m.start is not None}
    for square in range(1, SQUARES + 1):
        x, y = cell_origin(square)
        value = VALUE[square]
        final = square in LAST_SQUARES
        pen.rectangle((x, y, x + CELL, y + CELL), fill=value_colour(value), outline="#7a5c00" if final else "#888888",
                      width=4 if final else 1)
        if square in starts:
            pen.rectangle((x + 4, y + 4, x + CELL - 4, y + CELL - 4), outline=MARK, width=2)
        if square in ends:
            pen.rectangle((x + 2, y + 2, x + CELL - 2, y + CELL - 2), outline=MARK, width=6)
        pen.text((x + 7, y + 5), str(square), font=font(13), fill="#555555")
        pen.text((x + CELL - 7, y + 4), f"{value:+d}" if value else "0", font=font(19, True), fill="#222222",
                 anchor="ra")
        if square in owner:
            seat, token = owner[square]
            cx, cy = x + CELL / 2, y + CELL * 0.6
            shape(pen, SHAPES[seat], cx, cy, 22, SEAT_COLOURS[seat])
            pen.text((cx, cy + (4 if SHAPES[seat] == "triangle" else 0)), str(token), font=font(20, True),
                     fill="white", anchor="mm", stroke_width=2, stroke_fill="black")
    _barrier(pen, view)
    for move in view.last:
        if move.start is not None:
            _arrow(pen, move.start, move.end)
    _legend(pen, view, names, HEADER + ROWS * CELL + (ROWS - 1) * GAP + 16, lang)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _barrier(pen: ImageDraw.ImageDraw, view: NumeriView) -> None:
    (x0, y0), (x1, y1) = cell_origin(view.barrier), cell_origin(view.barrier + 1)
    colour = "#2ca02c" if view.barrier_passed else "#b00020"
    if y0 == y1:  # same row: a wall between the two squares
        x = max(x0, x1) - GAP // 2
        pen.line((x, y0 - 8, x, y0 + CELL + 8), fill=colour, width=7)
    else:  # the turn of the snake: a wall between the rows
        y = y0 + CELL + GAP // 2
        pen.line((x0 - 8, y, x0 + CELL + 8, y), fill=colour, width=7)


def _arrow(pen: ImageDraw.ImageDraw, start: int, end: int) -> None:
    (x0, y0), (x1, y1) = cell_origin(start), cell_origin(end)
    a = (x0 + CELL / 2, y0 + CELL * 0.3)
    b = (x1 + CELL / 2, y1 + CELL * 0.3)
    pen.line((*a, *b), fill=MARK, width=4)
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    head = [b, (b[0] - 14 * math.cos(angle - 0.45), b[1] - 14 * math.sin(angle - 0.45)),
            (b[0] - 14 * math.cos(angle + 0.45), b[1] - 14 * math.sin(angle + 0.45))]
    pen.polygon(head, fill=MARK)


def _legend(pen: ImageDraw.ImageDraw, view: NumeriView, names: Sequence[str], top: int, lang: str) -> None:
    for seat in range(view.seats):
        y = top + LEGEND_ROW * seat + LEGEND_ROW // 2
        shape(pen, SHAPES[seat], MARGIN + 16, y, 12, SEAT_COLOURS[seat])
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        turn = "  ◀ " + t("numeri.picture.to_play", lang) if not view.over and seat == view.current else ""
        pen.text((MARGIN + 42, y), f"{name[:32]}{turn}", font=font(19, True), fill="black", anchor="lm")
        pen.text((MARGIN + 470, y), t("numeri.picture.points", lang, points=f"{view.scores[seat]:+d}"),
                 font=font(18), fill="black", anchor="lm")
        off = " ".join(str(t) for t, sq in enumerate(view.positions[seat], start=1) if sq is None) or "-"
        pen.text((MARGIN + 640, y), t("numeri.picture.off", lang, tokens=off), font=font(16), fill="#444444",
                 anchor="lm")
