"""What a board is worth for the rest of a round: a small dynamic programme over digit sets.

The thinking levels weigh this turn's points against what the digits they cross would have been worth
later (a 9 kept for the doubled last turn, enough digits left not to sit out). Opponents are not known
that far ahead, so the programme uses a generic chance of approval that falls with the number's value
and with how many digits it exposes (or, for the hard level at a table, the approval rates numbers meet
between sound players). It depends only on the seat count and that choice, so it is computed once.
"""

from collections.abc import Callable
from functools import cache

from .ai_tables import FULL_MASK, MASK, POPCOUNT, canonical_numbers
from .rules import TURNS_PER_ROUND, bonus_for, multiplier_for

# Guess of the share of opponents' numbers that touch a given digit (they write about three digits).
_DIGIT_TOUCH = 0.27


def generic_approval(value: int, digit_count: int, opponents: int) -> float:
    """Chance that no opponent writes a smaller number sharing a digit, with no knowledge of them."""
    touch = 1 - (1 - _DIGIT_TOUCH) ** digit_count
    return max(0.0, 1 - value / 1000 * touch) ** opponents


def generic_top(value: int, opponents: int) -> float:
    """Chance that an approved number is also the biggest approved one."""
    return ((value + 1) / 1000) ** (0.6 * opponents)


@cache
def _feasible() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each available-digit mask, the canonical numbers it allows, as (value, digit mask)."""
    actions = [(v, MASK[v]) for v in canonical_numbers(FULL_MASK)]
    return tuple(tuple((v, m) for v, m in actions if m & ~avail == 0) for avail in range(FULL_MASK + 1))


# Between sound players a number's risk grows much faster with its value than the generic guess (fit for
# opponents writing any legal number) says: they write high numbers. Fitted to the approval rates by hundreds
# digit and digit count in 210 4-seat games of the hard level against three readers (8,400 numbers): a 9xx
# number with two digits was approved 0.51 of the time (generic guess 0.17), a 5xx with three 0.80 (0.29).
PLAYED_RISK_POWER = 3
PLAYED_TOUCH = 0.13

Approval = Callable[[int, int, int], float]


def played_approval(value: int, digit_count: int, opponents: int) -> float:
    """Chance that no opponent writes a smaller number sharing a digit, as met in play between sound players."""
    touch = 1 - (1 - PLAYED_TOUCH) ** digit_count
    return max(0.0, 1 - (value / 1000) ** PLAYED_RISK_POWER * touch) ** opponents


@cache
def future_table(opponents: int, approval: Approval = generic_approval) -> tuple[tuple[float, ...], ...]:
    """``table[t][mask]``: expected points from turn ``t`` (1-based; t = 6 means round over) to round end."""
    feasible = _feasible()
    table: list[tuple[float, ...]] = [()] * (TURNS_PER_ROUND + 2)
    table[TURNS_PER_ROUND + 1] = (0.0,) * (FULL_MASK + 1)
    for turn in range(TURNS_PER_ROUND, 0, -1):
        later = table[turn + 1]
        mult, bonus = multiplier_for(turn), bonus_for(turn)
        # Per-number constants of this turn, computed once and not per board.
        gain = {}
        for v, m in feasible[FULL_MASK]:
            p = approval(v, POPCOUNT[m], opponents)
            gain[v] = (p, p * ((v // 100) * mult + bonus * generic_top(v, opponents) + POPCOUNT[m]))
        row = []
        for avail in range(FULL_MASK + 1):
            stay = later[avail]
            best = stay  # writing nothing useful is never worse than this floor
            for v, m in feasible[avail]:
                p, g = gain[v]
                value = g + p * later[avail & ~m] + (1 - p) * stay
                if value > best:
                    best = value
            row.append(best)
        table[turn] = tuple(row)
    return tuple(table)


def future_value(available: int, next_turn: int, opponents: int) -> float:
    """Worth of a board with ``available`` digits when ``next_turn`` starts (past the round's end: 0)."""
    if next_turn > TURNS_PER_ROUND:
        return 0.0
    return future_table(max(1, opponents))[next_turn][available]
