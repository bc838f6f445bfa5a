"""Every number that defines The Number, in one place (see shared RULES.md).

A correction to the rules should be a one-line change here.
"""

from typing import Final

from bot.core.game import Option

GAME_KEY: Final = "thenumber"

# The table's timer (/thenumber start turn_seconds); the bot's TURN_SECONDS setting is the default on Discord.
TURN_SECONDS: Final = Option("turn_seconds", default=120, min=15, max=3600, server_default=True)

MIN_SEATS: Final = 2
MAX_SEATS: Final = 5
BEST_SEATS: Final = (3, 5)  # the lobby suggests this range when only two sit down

ROUNDS: Final = 2
TURNS_PER_ROUND: Final = 5
TOTAL_TURNS: Final = ROUNDS * TURNS_PER_ROUND

# Bonus for the biggest approved number, by turn (1-based). Only +2 is in the rulebook text;
# the rest come from a published review of the game.
TURN_BONUS: Final = (2, 3, 4, 6, 8)

# On the last turn of a round the first digit counts this many times (the bonus is added after).
LAST_TURN_MULTIPLIER: Final = 2

DIGIT_COUNT: Final = 10
NUMBER_LENGTH: Final = 3
EXAMPLE_NUMBER: Final = "407"


def bonus_for(turn: int) -> int:
    """The bonus for the biggest approved number on ``turn`` (1-based)."""
    return TURN_BONUS[turn - 1]


def multiplier_for(turn: int) -> int:
    """How many times the first digit counts on ``turn`` (1-based)."""
    return LAST_TURN_MULTIPLIER if turn == TURNS_PER_ROUND else 1
