"""Binomial's card table and reveal: RULES.md's worked examples, and every card on all 100 numbers against
a plain restatement written here independently (digits read from the two-character text)."""

import pytest

from bot.games.binomial.engine import Variants, resolve
from bot.games.binomial.rules import (
    CARD_BY_KEY,
    CARD_KEYS,
    CELLS,
    DIE,
    MATCH_GAMES,
    MAX_SEATS,
    MIN_SEATS,
    ROLLS,
    SAME_BOAT_SEATS,
)

ISSUE_KEYS = [
    "two_identical", "divisible_by_10", "contains_0", "divisible_by_5", "contains_5", "largest_number",
    "largest_digit_sum", "contains_9", "smallest_number", "smallest_digit_sum", "contains_1", "smallest_difference",
    "largest_difference", "first_divisible_by_second", "closest_to_50", "digits_sum_10",
]


def d(n: int) -> tuple[int, int]:
    text = f"{n:02d}"
    return int(text[0]), int(text[1])


def plain_fits(key: str, n: int) -> bool:
    a, b = d(n)
    text = f"{n:02d}"
    return {
        "two_identical": text[0] == text[1],
        "divisible_by_10": n % 10 == 0,
        "contains_0": "0" in text,
        "divisible_by_5": n % 5 == 0,
        "contains_5": "5" in text,
        "contains_9": "9" in text,
        "contains_1": "1" in text,
        "first_divisible_by_second": b > 0 and a % b == 0,
        "digits_sum_10": a + b == 10,
    }.get(key, True)


def plain_better(key: str, n: int, m: int) -> bool:
    """Does n beat m (both fit, n != m) on this card? Ties on the measure go to the larger number."""
    def score(x: int) -> int:
        a, b = d(x)
        if key == "largest_digit_sum":
            return a + b
        if key == "smallest_digit_sum":
            return -(a + b)
        if key == "smallest_number":
            return -x
        if key == "smallest_difference":
            return -abs(a - b)
        if key == "largest_difference":
            return abs(a - b)
        if key == "closest_to_50":
            return -abs(x - 50)
        return x
    if score(n) != score(m):
        return score(n) > score(m)
    return n > m


PLAIN_POINTS = {"two_identical": 4, "divisible_by_10": 4, "contains_0": 3, "divisible_by_5": 3, "contains_5": 3,
                "contains_9": 3, "contains_1": 3, "first_divisible_by_second": 2, "digits_sum_10": 4}


def test_the_numbers_of_the_table() -> None:
    assert (MIN_SEATS, MAX_SEATS, ROLLS, MATCH_GAMES) == (2, 7, 16, 3)
    assert tuple(f"{k}{p}" for k in range(1, 9) for p in "ab") == CELLS
    assert list(DIE) == list(range(10))
    assert list(SAME_BOAT_SEATS) == [6, 7]
    assert tuple(ISSUE_KEYS) == CARD_KEYS


@pytest.mark.parametrize("key", ISSUE_KEYS)
def test_fit_on_all_100_numbers(key: str) -> None:
    card = CARD_BY_KEY[key]
    assert [n for n in range(100) if card.fits(n)] == [n for n in range(100) if plain_fits(key, n)]


@pytest.mark.parametrize("key", ISSUE_KEYS)
def test_points(key: str) -> None:
    card = CARD_BY_KEY[key]
    for fighters in (1, 2, 5):
        assert card.worth(fighters) == PLAIN_POINTS.get(key, fighters)


@pytest.mark.parametrize("key", ISSUE_KEYS)
def test_measure_on_all_pairs_through_the_reveal(key: str) -> None:
    card = CARD_BY_KEY[key]
    fitting = [n for n in range(100) if plain_fits(key, n)]
    for n in fitting:
        for m in fitting:
            if n == m:
                continue
            out = resolve(card, [(0, n), (1, m)], Variants(), 2)
            assert out.winner == (0 if plain_better(key, n, m) else 1), (key, n, m)


def test_example_1_two_identical_digits() -> None:
    out = resolve(CARD_BY_KEY["two_identical"], [(0, 22), (1, 88), (2, 88), (3, 44)], Variants(), 5)
    assert out.cancelled == (88,)
    assert out.winner == 3
    assert out.points == (0, 0, 0, 4, 0)


def test_example_2_closest_to_50_tie_goes_to_the_larger() -> None:
    out = resolve(CARD_BY_KEY["closest_to_50"], [(0, 45), (1, 55)], Variants(), 2)
    assert out.winner == 1 and out.points == (0, 2)


def test_example_3_first_digit_divisible_by_second() -> None:
    card = CARD_BY_KEY["first_divisible_by_second"]
    assert card.fits(93) and card.fits(5)
    assert not card.fits(50) and not card.fits(0) and not card.fits(37)


def test_example_4_one_fighter_wins_alone() -> None:
    out = resolve(CARD_BY_KEY["smallest_number"], [(2, 73)], Variants(), 3)
    assert out.winner == 2 and out.points == (0, 0, 1)


def test_unfit_drops_out_before_cancelling_and_counts_for_x() -> None:
    card = CARD_BY_KEY["contains_0"]
    out = resolve(card, [(0, 37), (1, 37), (2, 10)], Variants(), 3)
    assert out.unfit == (0, 1) and out.cancelled == () and out.winner == 2 and out.points == (0, 0, 3)
    alone = resolve(card, [(0, 37)], Variants(), 2)
    assert alone.winner is None and alone.points == (0, 0)
    x = resolve(CARD_BY_KEY["digits_sum_10"], [(0, 38), (1, 55)], Variants(), 2)
    assert x.unfit == (0,) and x.winner == 1 and x.points == (0, 4)


def test_x_counts_cancelled_and_unfit_fighters() -> None:
    card = CARD_BY_KEY["largest_digit_sum"]
    out = resolve(card, [(0, 99), (1, 99), (2, 12)], Variants(), 3)
    assert out.cancelled == (99,) and out.winner == 2 and out.points == (0, 0, 3)


def test_everybody_cancelled_nobody_wins() -> None:
    out = resolve(CARD_BY_KEY["two_identical"], [(0, 88), (1, 88)], Variants(), 3)
    assert out.winner is None and out.points == (0, 0, 0) and out.cancelled == (88,)


def test_reward_for_fighting_needs_three_fighters() -> None:
    card = CARD_BY_KEY["contains_5"]
    reward = Variants(reward_for_fighting=True)
    assert resolve(card, [(0, 51), (1, 15)], reward, 3).points == (3, 0, 0)
    assert resolve(card, [(0, 51), (1, 15), (2, 15)], reward, 3).points == (4, 0, 0)
    assert resolve(CARD_BY_KEY["largest_number"], [(0, 51), (1, 15), (2, 14)], reward, 3).points == (4, 0, 0)


def test_same_boat_with_a_cancel_everyone_left_scores_largest_owns() -> None:
    card = CARD_BY_KEY["smallest_number"]
    boat = Variants(same_boat=True)
    out = resolve(card, [(0, 10), (1, 10), (2, 30), (3, 70), (4, 5)], boat, 6)
    assert out.cancelled == (10,)
    assert out.winner == 3  # the largest remaining number, though the card wants the smallest
    assert out.points == (0, 0, 5, 5, 5, 0)


def test_same_boat_without_a_cancel_only_the_largest_scores() -> None:
    card = CARD_BY_KEY["smallest_number"]
    out = resolve(card, [(0, 10), (2, 30), (4, 5)], Variants(same_boat=True), 6)
    assert out.winner == 2 and out.points == (0, 0, 3, 0, 0, 0)


def test_same_boat_unfit_numbers_drop_before_and_reward_goes_to_the_owner_only() -> None:
    card = CARD_BY_KEY["contains_9"]
    both = Variants(same_boat=True, reward_for_fighting=True)
    out = resolve(card, [(0, 19), (1, 19), (2, 39), (3, 92), (4, 11)], both, 7)
    assert out.unfit == (4,) and out.cancelled == (19,) and out.winner == 3
    assert out.points == (0, 0, 3, 4, 0, 0, 0)
