"""What :mod:`cogs.table.poster`, :mod:`cogs.table.timers` and :mod:`cogs.table.recovery` share: the turn
message a game has up, a step as presenters see it, the seats' public infos, how a card becomes a message (or is
recognised in one), and the keys of a game's timers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import discord

from bot.core.service import StepReport
from bot.core.table import Table
from bot.i18n import t
from cogs.seats import plain_name, safe_name
from storage.base import GameRecord

from .layout import MAX_TEXT, embeds_of, has_inputs, text_length
from .presenter import Card, Happened, SeatInfo

DEADLINE, REMINDER, CATCH_UP, STATUS = "deadline", "reminder", "catch-up", "status"
TIMER_KEYS = (DEADLINE, REMINDER, CATCH_UP, STATUS)
MAX_EMBEDS, MAX_EMBED_CHARS = 10, 6000  # Discord's limits for one message's embeds (count, total characters)


# The seats' infos of a table as last drawn, while its state, record and drafts are the same objects and seats:
# one choice asks them several times (its answer's turn message, the acknowledgement, the reveal).
_INFOS: dict[int, tuple[Table, Any, GameRecord, frozenset[int], tuple[SeatInfo, ...]]] = {}
_INFOS_KEPT = 4096


@lru_cache(maxsize=4096)
def _shown(name: str, is_ai: bool) -> str:
    return safe_name(plain_name(name, is_ai))


def seat_infos(table: Table) -> list[SeatInfo]:
    drafted = frozenset(table.drafts)  # the only part changed in place (a choice): the rest is replaced
    kept = _INFOS.get(id(table))
    if (kept is not None and kept[0] is table and kept[1] is table.state and kept[2] is table.record
            and kept[3] == drafted):
        return list(kept[4])
    seated = table.seated
    running = table.running
    awaited = table.awaited() if running else frozenset()
    infos = tuple(SeatInfo(s.seat, _shown(s.name, s.is_ai), s.is_ai, s.seat not in seated,
                           running and table.away(s.seat), s.seat in awaited, s.state) for s in table.record.seats)
    if len(_INFOS) >= _INFOS_KEPT:
        _INFOS.clear()
    _INFOS[id(table)] = (table, table.state, table.record, drafted, infos)
    return list(infos)


def happened(table: Table, report: StepReport) -> Happened:
    """A report as the presenter may see it: the table's views, never the states."""
    game = table.game
    return Happened(report.step, report.event, game.view(report.before, None), game.view(report.after, None),
                    report.reason, report.timed_out, report.finished, table.id)


def footer(title: str, game_id: int, final: bool, lang: str) -> str:
    return t("core.footer.final" if final else "core.footer", lang, game=title, id=game_id)


def combined(head: Card, card: Card) -> Card | None:
    """``head`` (a report) above ``card`` (a turn message) as one message; None when it would not fit."""
    embeds = (*head.embeds, *card.embeds)
    content = "\n".join(c for c in (head.content, card.content) if c) or None
    if (head.pictures or card.pictures or len(embeds) > MAX_EMBEDS or sum(len(e) for e in embeds) > MAX_EMBED_CHARS
            or len(content or "") > 2000 or text_length(Card(content, embeds)) > MAX_TEXT):
        return None  # (MAX_TEXT: drawn as Components V2, the message's text displays hold 4000 characters)
    return Card(content, embeds)


def shows(message: discord.Message, card: Card) -> bool:
    """Whether ``message`` reads as ``card`` told after whatever came first: no inputs, the same embed titles,
    and each embed's text ending with the card's (a ``done`` card puts what it told before first)."""
    embeds = embeds_of(message)  # a V2 message reads as the embeds it was drawn from
    return (not has_inputs(message) and bool(card.embeds) and len(embeds) == len(card.embeds) and all(
        e.title == c.title and bool(c.description) and (e.description or "").endswith(c.description or "")
        for e, c in zip(embeds, card.embeds, strict=True)))


def ended_seats(seats: Sequence[SeatInfo], ended: Happened) -> list[SeatInfo]:
    """The seats as the ended step left them: awaited only those the deadline acted for."""
    return [replace(s, awaited=s.seat in ended.timed_out) for s in seats]


@dataclass(frozen=True, slots=True)
class TurnMessage:
    step: int
    message_id: int
    since: tuple[Happened, ...] = ()  # what it told before its own step
    thread: str | None = None  # the presenter's thread key: later steps of the same thread edit this message
    # The embeds shown above the turn's own card (a report posted with it); None: not known (found after a
    # restart): learnt from the message an interaction carries, or read once before the close.
    head: tuple[discord.Embed, ...] | None = ()
    reminded: bool = False  # the reminder line is shown (kept by later updates of the message)
    # When a choice last updated it in its own answer (the clock's seconds): a choice within STATUS_EDIT_DELAY of
    # that is shown by one refresh with any others (``Poster.gathered``).
    updated: float | None = None
