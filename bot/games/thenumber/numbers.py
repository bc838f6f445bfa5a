"""Reading a number the way players type it, and its digits."""

import re
import unicodedata

from .errors import MalformedNumber, UnavailableDigit
from .rules import DIGIT_COUNT

_THREE_ASCII_DIGITS = re.compile(r"[0-9]{3}")
ALL_DIGITS = frozenset(range(DIGIT_COUNT))


def parse_number(text: str) -> str:
    """Normalise typed input to a canonical three-digit string, or raise :class:`MalformedNumber`.

    NFKC first, so full-width digits from Japanese keyboards become ASCII; then trimmed; then it
    must be exactly three ASCII digits. Other scripts' digits stay non-ASCII after NFKC and are
    refused on purpose: the board only has 0-9.
    """
    if text in NUMBERS:  # already canonical: the common case when replaying stored games
        return text
    normalised = unicodedata.normalize("NFKC", text).strip()
    if not _THREE_ASCII_DIGITS.fullmatch(normalised):
        raise MalformedNumber(text)
    return normalised


def _digits(number: str) -> frozenset[int]:
    return frozenset(int(c) for c in number)


def _mask(number: str) -> int:
    return (1 << (ord(number[0]) - 48)) | (1 << (ord(number[1]) - 48)) | (1 << (ord(number[2]) - 48))


# Every number there is, worked out once: value, digit mask (for "shares a digit") and digit set.
NUMBERS: dict[str, tuple[int, int, frozenset[int]]] = {
    f"{n:03d}": (n, _mask(f"{n:03d}"), _digits(f"{n:03d}")) for n in range(1000)}


def digits_of(number: str) -> frozenset[int]:
    """The distinct digits of a canonical number: ``"111"`` -> ``{1}``."""
    return NUMBERS[number][2]


def check_available(number: str, crossed: frozenset[int]) -> None:
    """Raise :class:`UnavailableDigit` if ``number`` uses a crossed-off digit."""
    used = digits_of(number) & crossed
    if used:
        raise UnavailableDigit(number, used, ALL_DIGITS - crossed)
