"""The heart of a turn: which numbers are approved, and what each scores.

Pure and small on purpose: the engine, the AI and the benchmarks all call :func:`check_turn`.
"""

from collections.abc import Mapping
from enum import StrEnum
from typing import NamedTuple

from .numbers import NUMBERS
from .rules import bonus_for, multiplier_for


class Status(StrEnum):
    APPROVED = "approved"
    ELIMINATED = "eliminated"
    INVALID = "invalid"  # used a crossed-off digit (table rule): out before the check
    MISSING = "missing"  # did not choose in time
    EXHAUSTED = "exhausted"  # no digit left: sits out the rest of the round


class SeatResult(NamedTuple):
    """What one seat got on one turn (a named tuple: immutable, and cheap to build on the hot path)."""

    number: str | None
    status: Status
    points: int = 0
    bonus: int = 0  # the part of ``points`` that is the turn bonus
    blocker: str | None = None  # for an eliminated number: the nearest smaller number sharing a digit
    shared: tuple[int, ...] = ()  # the digits it shares with ``blocker``
    crossed: frozenset[int] = frozenset()  # digits this result crosses off the board


class Entry(NamedTuple):
    """One seat's input to the check: a canonical number, or a status that keeps it out."""

    number: str | None
    status: Status | None = None  # None: a valid number that takes part in the check


def check_turn(turn: int, entries: Mapping[str, Entry]) -> dict[str, SeatResult]:
    """Check and score one turn (``turn`` is 1-based within the round).

    A valid number is eliminated when it shares a digit with ANY strictly smaller valid number,
    approved or not; identical numbers never eliminate each other. Approved numbers score their
    first digit (times the last-turn multiplier) and the biggest approved number, however many
    seats wrote it, also takes the turn bonus.
    """
    valid = [(*NUMBERS[e.number][:2], seat, e.number)
             for seat, e in entries.items() if e.status is None and e.number is not None]
    valid.sort()
    results: dict[str, SeatResult] = {}
    approved: list[tuple[int, str, str]] = []
    for i, (value, mask, seat, number) in enumerate(valid):
        blocker = None
        # Walk down from the nearest smaller number, so the reason names the closest culprit.
        for j in range(i - 1, -1, -1):
            other_value, other_mask, _, other_number = valid[j]
            if other_value < value and other_mask & mask:
                blocker = other_number
                break
        if blocker is None:
            approved.append((value, seat, number))
        else:
            shared = tuple(sorted(NUMBERS[number][2] & NUMBERS[blocker][2]))
            results[seat] = SeatResult(number, Status.ELIMINATED, blocker=blocker, shared=shared)

    top = approved[-1][0] if approved else None
    multiplier = multiplier_for(turn)
    for value, seat, number in approved:
        bonus = bonus_for(turn) if value == top else 0
        points = int(number[0]) * multiplier + bonus
        results[seat] = SeatResult(number, Status.APPROVED, points, bonus, crossed=NUMBERS[number][2])

    for seat, e in entries.items():
        if seat not in results:
            status = e.status if e.status is not None else Status.MISSING
            results[seat] = SeatResult(e.number if status is Status.INVALID else None, status)
    return {seat: results[seat] for seat in entries}
