"""Every number that defines Nim, in one place."""

from typing import Final

from bot.core.game import Option

GAME_KEY: Final = "nim"
TITLE: Final = "Nim"

MIN_SEATS: Final = 2
MAX_SEATS: Final = 4
MAX_TAKE: Final = 3
TURN_SECONDS: Final = Option("turn_seconds", default=60, min=15, max=3600)
PILE: Final = Option("pile", default=21, min=5, max=50)  # counters on the table at the start
