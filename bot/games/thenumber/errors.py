"""Typed errors of The Number. Each one says what went wrong in words a player understands."""

from collections.abc import Iterable

from .rules import EXAMPLE_NUMBER


def format_digits(digits: Iterable[int]) -> str:
    """``[0, 2, 4]`` -> ``"0 2 4"``; no digits -> ``"none"``."""
    text = " ".join(str(d) for d in sorted(digits))
    return text or "none"


def example_number(available: Iterable[int] | None = None) -> str:
    """A number the player could play now, for "like ..." hints.

    The usual example when its digits are all free (and when the board is unknown); otherwise one built
    from the available digits (middle, lowest, highest), so the hint never suggests a crossed-off digit.
    """
    if available is None:
        return EXAMPLE_NUMBER
    free = sorted(set(available))
    if not free or set(EXAMPLE_NUMBER) <= {str(d) for d in free}:
        return EXAMPLE_NUMBER
    return f"{free[len(free) // 2]}{free[0]}{free[-1]}"


class TheNumberError(Exception):
    """Base of every rule error; ``code`` is stable for programs, ``str()`` is for people."""

    code = "error"


class MalformedNumber(TheNumberError):
    """The text is not three digits (a syntax problem, whatever the board)."""

    code = "malformed"

    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__(f"must be three digits, like {EXAMPLE_NUMBER}")


class UnavailableDigit(TheNumberError):
    """The number is well formed but uses digits this player has crossed off."""

    code = "unavailable"

    def __init__(self, number: str, crossed_used: Iterable[int], available: Iterable[int]) -> None:
        self.number = number
        self.crossed_used = tuple(sorted(set(crossed_used)))
        self.available = tuple(sorted(set(available)))
        used = self.crossed_used
        if len(used) == 1:
            head = f"{used[0]} is crossed off"
        else:
            head = " and ".join([", ".join(str(d) for d in used[:-1]), str(used[-1])]) + " are crossed off"
        super().__init__(f"{head}; available: {format_digits(self.available)}")


class NotSeated(TheNumberError):
    code = "not_seated"

    def __init__(self, player: str) -> None:
        self.player = player
        super().__init__(f"{player!r} is not a player in this game")


class SitsOut(TheNumberError):
    """A player with every digit crossed off takes no part until the next round."""

    code = "sits_out"

    def __init__(self, player: str) -> None:
        self.player = player
        super().__init__("every digit is crossed off; you sit out the rest of this round")


class GameOver(TheNumberError):
    code = "game_over"

    def __init__(self) -> None:
        super().__init__("the game is over")


class BadSeating(TheNumberError):
    code = "bad_seating"

    def __init__(self, message: str) -> None:
        super().__init__(message)
