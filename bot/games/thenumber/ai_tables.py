"""Precomputed facts about the 1000 numbers, shared by every AI level (pure, no I/O).

The AI works on integers (value 0-999) and 10-bit digit masks: "shares a digit" is then one ``&``.
"""

from functools import cache

from .numbers import ALL_DIGITS
from .rules import DIGIT_COUNT

FULL_MASK = (1 << DIGIT_COUNT) - 1
MASK: tuple[int, ...] = tuple((1 << (v // 100)) | (1 << (v // 10 % 10)) | (1 << (v % 10)) for v in range(1000))
POPCOUNT: tuple[int, ...] = tuple(bin(m).count("1") for m in range(FULL_MASK + 1))


def _signed_submasks(mask: int) -> tuple[tuple[int, int], ...]:
    """Non-empty submasks with the inclusion-exclusion sign: +1 for odd size, -1 for even."""
    subs = []
    sub = mask
    while sub:
        subs.append((sub, 1 if POPCOUNT[sub] % 2 else -1))
        sub = (sub - 1) & mask
    return tuple(subs)


# Only masks of at most three digits occur in a number, so these stay tiny (at most 7 entries).
SIGNED_SUBMASKS: dict[int, tuple[tuple[int, int], ...]] = {m: _signed_submasks(m) for m in set(MASK)}


def mask_of_digits(digits: frozenset[int]) -> int:
    mask = 0
    for d in digits:
        mask |= 1 << d
    return mask


def number_text(value: int) -> str:
    return f"{value:03d}"


@cache
def legal_numbers(available_mask: int) -> tuple[int, ...]:
    """Every number (ascending) whose digits are all still available."""
    return tuple(v for v in range(1000) if MASK[v] & ~available_mask == 0)


def _canonical(digit_set: int, first: int) -> int:
    """The smallest number starting with ``first`` that uses exactly the digits in ``digit_set``.

    Among numbers with the same digits and first digit, points and crossed digits are equal and the
    smallest one is the hardest to eliminate, so the thinking levels only weigh this one.
    """
    rest = sorted(d for d in range(DIGIT_COUNT) if digit_set >> d & 1 and d != first)
    if len(rest) == 2:
        return first * 100 + rest[0] * 10 + rest[1]
    if len(rest) == 1:
        other = rest[0]
        return first * 100 + (other * 11 if other < first else first * 10 + other)
    return first * 111


@cache
def canonical_numbers(available_mask: int) -> tuple[int, ...]:
    """The candidates the thinking levels consider on a board (ascending)."""
    found = {_canonical(MASK[v], first) for v in legal_numbers(available_mask)
             for first in range(DIGIT_COUNT) if MASK[v] >> first & 1}
    return tuple(sorted(found))


def available_mask(crossed: frozenset[int]) -> int:
    return mask_of_digits(ALL_DIGITS - crossed)
