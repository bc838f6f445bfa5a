"""Every number that defines Highest unique number, in one place."""

from typing import Final

from bot.core.game import Option

GAME_KEY: Final = "hun"
TITLE: Final = "Highest unique number"

MIN_SEATS: Final = 2
MAX_SEATS: Final = 6
ROUNDS: Final = 5
NUMBERS: Final = range(1, 8)  # a pick is 1-7
TURN_SECONDS: Final = Option("turn_seconds", default=60, min=15, max=3600)
