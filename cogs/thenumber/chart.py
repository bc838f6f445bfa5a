"""The score race of a finished game as a PNG: the running total after each turn, one line per seat.

Each seat keeps its colour AND a marker shaped like its symbol (🔺 triangle, 🔷 diamond, 🟢 circle, ⭐ star,
🟪 square), so the chart reads without colour too. matplotlib (Agg, no pyplot: no global state) renders in a
worker process; :func:`final_chart_file` is the hook for the final reveal.
"""

import asyncio
import functools
import io
import logging
import multiprocessing
import os
import threading
import warnings
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

import discord

from bot.games.thenumber import rules
from bot.games.thenumber.engine import GameState
from bot.i18n import t
from cogs.seats import seat_style
from storage.base import GameRecord

from .records import rebuild, seat_key, unique_names

log = logging.getLogger(__name__)
T = TypeVar("T")
# One rendering process: a chart is ~0.1 s of mostly GIL-holding Python and C, which in a thread would hold
# up the event loop (and every interaction) when many games end at once; in its own process it runs on the
# other core. Charts queue there; past MAX_QUEUED a final message goes without one. "spawn": the bot has
# threads (aiosqlite), which fork does not carry safely.
_RENDERER: ProcessPoolExecutor | None = None


def _renderer() -> ProcessPoolExecutor:
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_exit_with_parent)
    return _RENDERER


def _exit_with_parent() -> None:
    """In the rendering process: exit as soon as the bot is gone. A bot killed with SIGKILL (or by the OOM
    killer) runs no clean-up, and the worker, which holds both ends of its own task queue, would otherwise
    wait for a chart forever (with its resource tracker)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()  # returns when the parent's end of the spawn pipe closes, i.e. when it has died
        os._exit(0)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


MAX_QUEUED = 4
_queued = 0
MARKERS = ("^", "D", "o", "*", "s", "d", "h")  # in SEAT_STYLES order
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class ReplayableFile(discord.File):
    """A file that rewinds before every attempt: Poster.send re-sends the same File after a 5xx, and
    discord.py only rewinds from its own second try on."""

    def reset(self, *, seek: int | bool = True) -> None:
        self.fp.seek(self._original_pos)


def running_totals(state: GameState) -> dict[str, list[int]]:
    """Seat key -> total after 0, 1, ... 10 turns (crossed digits are added when their round ends)."""
    totals: dict[str, list[int]] = {}
    for key in state.players:
        total, line = 0, [0]
        for outcome in state.history:
            total += outcome.results[key].points
            if outcome.turn == rules.TURNS_PER_ROUND and outcome.round - 1 < len(state.round_bonus[key]):
                total += state.round_bonus[key][outcome.round - 1]
            line.append(total)
        totals[key] = line
    return totals


def score_race_png(names: Sequence[str], seats: Sequence[int], totals: Sequence[Sequence[int]], *, title: str,
                   x_label: str, y_label: str, round_label: str) -> bytes:
    """Render the chart (blocking: call it through asyncio.to_thread)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a glyph missing from the font (emoji in a name) is not an error
        return _draw(names, seats, totals, title=title, x_label=x_label, y_label=y_label, round_label=round_label)


def _draw(names: Sequence[str], seats: Sequence[int], totals: Sequence[Sequence[int]], *, title: str,
          x_label: str, y_label: str, round_label: str) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    turns = max((len(line) for line in totals), default=1) - 1
    for name, seat, line in zip(names, seats, totals, strict=True):
        style, marker = seat_style(seat), MARKERS[seat % len(MARKERS)]
        axes.plot(range(len(line)), line, color=f"#{style.colour.value:06x}", marker=marker,
                  markersize=12 if marker == "*" else 8, linewidth=2.2, label=name, markeredgecolor="black",
                  markeredgewidth=0.6)
    for boundary in range(rules.TURNS_PER_ROUND, turns, rules.TURNS_PER_ROUND):
        axes.axvline(boundary, color="grey", linestyle=":", linewidth=1)
        axes.text(boundary + 0.1, 0.96, round_label.format(round=boundary // rules.TURNS_PER_ROUND + 1),
                  transform=axes.get_xaxis_transform(), color="grey", fontsize=9, va="top")
    axes.set_xticks(range(turns + 1))
    axes.set_xlim(-0.3, max(turns, 1) + 0.3)
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="upper left", frameon=True)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


class ChartsBusy(RuntimeError):
    """Too many charts are waiting to be drawn."""


async def chart_file(record: GameRecord, state: GameState, language: str = "en") -> discord.File:
    """The score race of ``record`` (``state``: its engine state) as a PNG attachment, drawn off the event loop
    (raises :class:`ChartsBusy` when too many are queued)."""
    data = await chart_png(record, state, language)
    return ReplayableFile(io.BytesIO(data), filename=chart_filename(record.id))


async def chart_png(record: GameRecord, state: GameState, language: str = "en") -> bytes:
    """The score race's PNG bytes (see :func:`chart_file`)."""
    global _queued
    if _queued >= MAX_QUEUED:
        raise ChartsBusy(f"{_queued} charts are already waiting")
    names = unique_names(record.seats)
    seats = [s.seat for s in record.seats]
    totals = running_totals(state)
    draw = functools.partial(
        score_race_png, [names[s] for s in seats], seats, [totals[seat_key(s)] for s in seats],
        title=t("stats.chart.title", language, game=record.id), x_label=t("stats.chart.x", language),
        y_label=t("stats.chart.y", language), round_label=t("stats.chart.round", language))
    _queued += 1
    try:
        data = await asyncio.get_running_loop().run_in_executor(_renderer(), draw)
    finally:
        _queued -= 1
    return data


def chart_filename(game_id: int) -> str:
    return f"score-race-{game_id}.png"


async def final_chart_file(record: GameRecord, state: GameState | None = None, language: str = "en"
                           ) -> discord.File | None:
    """The chart for a finished game's final message, or None (never raises: a reveal must not fail for it).

    ``state`` is the game's engine state when the caller has it (the presenter does); otherwise the
    record must carry its actions and is folded here."""
    async def draw() -> discord.File | None:
        folded = rebuild(record) if state is None else state
        return await chart_file(record, folded, language) if folded.history else None
    return await _quietly(record.id, draw)


async def final_chart_png(record: GameRecord, state: GameState, language: str = "en") -> bytes | None:
    """The final message's chart as bytes, or None (never raises, like :func:`final_chart_file`)."""
    async def draw() -> bytes | None:
        return await chart_png(record, state, language) if state.history else None
    return await _quietly(record.id, draw)


async def _quietly(game_id: int, draw: Callable[[], Awaitable[T | None]]) -> T | None:
    """What ``draw`` returns, or None if it raises (busy charts are only logged: a reveal goes on without)."""
    try:
        return await draw()
    except ChartsBusy as busy:
        log.info("no score race for game %s: %s", game_id, busy)
        return None
    except Exception:
        log.exception("could not draw the score race of game %s", game_id)
        return None
