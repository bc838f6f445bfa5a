"""A table's options checked against what its game declares (``Game.options``), defaults filled in."""

from collections.abc import Mapping
from typing import Any

from .errors import BadOption, OptionNeedsSeats
from .game import Option


def checked_options(declared: tuple[Option, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared option with its value (the default when not given); other keys pass through untouched,
    since a front end may keep its own (The Number's AI count)."""
    options = dict(given)
    for option in declared:
        options[option.name] = _checked(option, given.get(option.name, option.default))
    return options


def _checked(option: Option, value: Any) -> int | bool | str:
    if isinstance(option.default, bool):
        if not isinstance(value, bool):
            raise BadOption(option.name, "true | false")
        return value
    if isinstance(option.default, int):
        low = option.min if option.min is not None else "…"
        high = option.max if option.max is not None else "…"
        if (isinstance(value, bool) or not isinstance(value, int)
                or (option.min is not None and value < option.min) or (option.max is not None and value > option.max)):
            raise BadOption(option.name, f"{low}-{high}")
        return value
    if not isinstance(value, str) or (option.choices and value not in option.choices):
        raise BadOption(option.name, " | ".join(option.choices) or "text")
    return value


def check_seats(declared: tuple[Option, ...], options: Mapping[str, Any], seats: int) -> None:
    """An option limited to some table sizes (``Option.seats``) may be on only at those sizes."""
    for option in declared:
        if option.seats is not None and options.get(option.name, option.default) and seats not in option.seats:
            raise OptionNeedsSeats(option.name, option.seats.start, option.seats.stop - 1)
