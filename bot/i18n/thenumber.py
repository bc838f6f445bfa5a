"""The Number's refusals in words, shared by its front ends (Discord, terminal), so they say the same thing.

The engine raises typed errors and knows no language (a game imports only the protocol); what a player
reads is drawn here from the error's fields and the catalogue.
"""

from collections.abc import Iterable

from bot.games.thenumber.errors import (
    GameOver,
    MalformedNumber,
    NotSeated,
    SitsOut,
    TheNumberError,
    UnavailableDigit,
    example_number,
)
from bot.i18n import t


def digit_list(digits: Iterable[int], language: str) -> str:
    """``[1, 3, 6]`` -> "1, 3 and 6" (or "1, 3 et 6")."""
    items = [str(d) for d in digits]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + t("thenumber.list.and", language) + items[-1]


def spaced(digits: Iterable[int], language: str) -> str:
    return " ".join(str(d) for d in sorted(digits)) or t("thenumber.digits.none", language)


def refusal(error: TheNumberError, available: frozenset[int] | None = None, language: str = "en") -> str:
    """Why a choice was refused, with what the player can do instead."""
    if isinstance(error, MalformedNumber):
        text = t("thenumber.refuse.malformed", language, example=example_number(available))
        if available is not None:
            text += t("thenumber.refuse.available", language, digits=spaced(available, language))
        return text
    if isinstance(error, UnavailableDigit):
        left = spaced(error.available, language)
        if len(error.crossed_used) == 1:
            return t("thenumber.refuse.unavailable.one", language, number=error.number, digit=error.crossed_used[0],
                     available=left)
        return t("thenumber.refuse.unavailable.many", language, number=error.number,
                 digits=digit_list(error.crossed_used, language), available=left)
    if isinstance(error, SitsOut):
        return t("thenumber.refuse.sits_out", language)
    if isinstance(error, GameOver):
        return t("thenumber.refuse.game_over", language)
    if isinstance(error, NotSeated):
        return t("thenumber.refuse.not_seated", language)
    return str(error)
