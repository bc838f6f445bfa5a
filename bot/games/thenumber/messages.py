"""Player-facing sentences shared by every front end (Discord, terminal), so they say the same thing."""

from .errors import MalformedNumber, TheNumberError, UnavailableDigit, format_digits


def refusal(error: TheNumberError, available: frozenset[int] | None = None) -> str:
    """Why a choice was refused, with what the player can do instead."""
    if isinstance(error, MalformedNumber):
        text = f"That is not a number you can play: it {error}."
        if available is not None:
            text += f" Your available digits: {format_digits(available)}."
        return text
    if isinstance(error, UnavailableDigit):
        return f"You can't play {error.number}: {error}."
    return f"You can't choose now: {error}."
