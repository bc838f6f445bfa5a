"""Every number and card fact that defines Binomial, in one place (see shared RULES.md, section Binomial).

A correction to the rules should be a one-line change here.

Where the rule text is silent (decisions of this bot, besides RULES.md):
- A seat that leaves the game (or is kicked) plays no more and cannot chair: when the chairman leaves, the
  chairmanship passes at once to the next seat in declaring order (seat order from the chairman) still playing.
  A round whose declarations began keeps its order; the next round starts from the new chairman. The engine
  learns who left from the forfeit marked on the seat's action in the log (game.LEFT), so a replay agrees.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.core.game import Option

GAME_KEY: Final = "binomial"
TITLE: Final = "Binomial"

MIN_SEATS: Final = 2
MAX_SEATS: Final = 7
SEATS: Final = range(MIN_SEATS, MAX_SEATS + 1)

NUMBERS_PER_SHEET: Final = 8
CELLS: Final = tuple(f"{k}{part}" for k in range(1, NUMBERS_PER_SHEET + 1) for part in "ab")  # 1a 1b ... 8b
ROLLS: Final = len(CELLS)  # one roll per cell: 16
DIE: Final = range(10)  # a ten-sided die, faces 0-9
ALL_NUMBERS: Final = range(100)  # 00-99: a leading zero is allowed

MATCH_GAMES: Final = 3  # the text recommends three games in a row, points added up
# The timer per roll and per declaration (/binomial start turn_seconds): its own default, not the bot's setting
TURN_SECONDS: Final = Option("turn_seconds", default=30, min=15, max=3600)

# Variants
REWARD_MIN_FIGHTERS: Final = 3  # "reward for fighting": with at least this many fighters ...
REWARD_POINTS: Final = 1  # ... the card's owner gets this much more
SAME_BOAT_SEATS: Final = range(6, MAX_SEATS + 1)  # "in the same boat" is refused with fewer seats


def digits(n: int) -> tuple[int, int]:
    return divmod(n, 10)


def show(n: int) -> str:
    """A sheet number as written: always two digits (``5`` -> ``"05"``)."""
    return f"{n:02d}"


@dataclass(frozen=True, slots=True)
class Card:
    """One postulate: which numbers fit, which fitting number is best, what it is worth."""

    key: str
    title: str
    fits_text: str
    fits: Callable[[int], bool]
    measure: Callable[[int], int]
    largest_wins: bool  # True: the largest measure is best; False: the smallest
    points: int | None  # None: X, the number of declared fighters

    def rank(self, n: int) -> tuple[int, int]:
        """Sort key, larger is better: the measure in the card's direction, then the largest number."""
        m = self.measure(n)
        return (m if self.largest_wins else -m, n)

    def worth(self, fighters: int) -> int:
        return fighters if self.points is None else self.points

    @property
    def label(self) -> str:
        """The title as quoted inside a sentence: ``'contains 0'``."""
        return self.title[0].lower() + self.title[1:]

    @property
    def points_text(self) -> str:
        return "X (one per fighter)" if self.points is None else str(self.points)


def _a(n: int) -> int:
    return n // 10


def _b(n: int) -> int:
    return n % 10


def _any(_: int) -> bool:
    return True


def _number(n: int) -> int:
    return n


def _contains(d: int) -> Callable[[int], bool]:
    return lambda n: d in (_a(n), _b(n))


_digit_sum = lambda n: _a(n) + _b(n)  # noqa: E731
_difference = lambda n: abs(_a(n) - _b(n))  # noqa: E731

# The 16 postulate cards, in the order of issue 14's key list.
CARDS: Final[tuple[Card, ...]] = (
    Card("two_identical", "Two identical digits", "both digits the same (00, 11 ... 99)",
         lambda n: _a(n) == _b(n), _number, True, 4),
    Card("divisible_by_10", "Divisible by 10", "second digit 0", lambda n: _b(n) == 0, _number, True, 4),
    Card("contains_0", "Contains 0", "a digit is 0", _contains(0), _number, True, 3),
    Card("divisible_by_5", "Divisible by 5", "second digit 0 or 5", lambda n: _b(n) in (0, 5), _number, True, 3),
    Card("contains_5", "Contains 5", "a digit is 5", _contains(5), _number, True, 3),
    Card("largest_number", "Largest number", "any number; the largest wins", _any, _number, True, None),
    Card("largest_digit_sum", "Largest digit sum", "any number; the largest digit sum wins",
         _any, _digit_sum, True, None),
    Card("contains_9", "Contains 9", "a digit is 9", _contains(9), _number, True, 3),
    Card("smallest_number", "Smallest number", "any number; the smallest wins", _any, _number, False, None),
    Card("smallest_digit_sum", "Smallest digit sum", "any number; the smallest digit sum wins",
         _any, _digit_sum, False, None),
    Card("contains_1", "Contains 1", "a digit is 1", _contains(1), _number, True, 3),
    Card("smallest_difference", "Smallest difference of digits", "any number; the smallest gap between its digits wins",
         _any, _difference, False, None),
    Card("largest_difference", "Largest difference of digits", "any number; the largest gap between its digits wins",
         _any, _difference, True, None),
    Card("first_divisible_by_second", "First digit divisible by second",
         "second digit not 0 and the first a multiple of it (93, 05)",
         lambda n: _b(n) != 0 and _a(n) % _b(n) == 0, _number, True, 2),
    Card("closest_to_50", "Closest to 50", "any number; the closest to 50 wins", _any,
         lambda n: abs(n - 50), False, None),
    Card("digits_sum_10", "Digits sum to 10", "the digits add up to 10 (19, 28 ... 91)",
         lambda n: _a(n) + _b(n) == 10, _number, True, 4),
)
CARD_BY_KEY: Final = {card.key: card for card in CARDS}
CARD_KEYS: Final = tuple(card.key for card in CARDS)
DECK_SIZE: Final = len(CARDS)
