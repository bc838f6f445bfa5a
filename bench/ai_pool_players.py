"""The opponent pool the hard level is measured against (bench only; never used by the product).

Each strategy is ``(view, me, rng) -> number``: it sees the public view only, like any seat, and draws
from its own ``rng``. They are written for the bench, not tuned against the hard level: simple habits,
the product's own easy and normal levels, a Monte Carlo player, and four readers of the hard level that run
its code (they know its distribution, never its secret draw).
"""

import random
from collections.abc import Callable, Sequence

from bot.games.thenumber.ai import choose_number
from bot.games.thenumber.ai_future import future_value
from bot.games.thenumber.ai_mixed import hard_distribution, position_values
from bot.games.thenumber.ai_model import easy_dist, sample
from bot.games.thenumber.ai_tables import MASK, POPCOUNT, available_mask, canonical_numbers, legal_numbers
from bot.games.thenumber.engine import PublicView
from bot.games.thenumber.rules import bonus_for, multiplier_for

Strategy = Callable[[PublicView, str, random.Random], str]


def _board(view: PublicView, me: str) -> int:
    return available_mask(view.crossed[me])


def _opponents(view: PublicView, me: str) -> list[str]:
    return [p for p in view.players if p != me and p not in view.exhausted]


def high_repeat(view: PublicView, me: str, rng: random.Random) -> str:
    """Its highest available digit three times: 999, and once 9 is crossed 888, ..."""
    top = max(d for d in range(10) if _board(view, me) >> d & 1)
    return str(top) * 3


def high_distinct(view: PublicView, me: str, rng: random.Random) -> str:
    """The biggest number its board allows (987, then 654, ...)."""
    return f"{legal_numbers(_board(view, me))[-1]:03d}"


def repeat_digits(view: PublicView, me: str, rng: random.Random) -> str:
    """A random available digit three times."""
    board = _board(view, me)
    return str(rng.choice([d for d in range(10) if board >> d & 1])) * 3


def cheap_low(view: PublicView, me: str, rng: random.Random) -> str:
    """One of the fifteen smallest numbers it may write: rarely eliminated, rarely worth much."""
    return f"{rng.choice(legal_numbers(_board(view, me))[:15]):03d}"


def uniform(view: PublicView, me: str, rng: random.Random) -> str:
    return f"{rng.choice(legal_numbers(_board(view, me))):03d}"


def product_level(level: str) -> Strategy:
    def play(view: PublicView, me: str, rng: random.Random) -> str:
        return choose_number(view, me, level, rng)
    play.__doc__ = f"The product's {level} level."
    return play


def exact_points(x: int, others: Sequence[int], turn: int) -> tuple[bool, int]:
    """Whether ``x`` is approved against the others' numbers, and what it scores (bonus included)."""
    mx = MASK[x]
    if any(y < x and MASK[y] & mx for y in others):
        return False, 0
    everyone = (x, *others)
    top = max(v for v in everyone if not any(y < v and MASK[y] & MASK[v] for y in everyone))
    return True, (x // 100) * multiplier_for(turn) + (bonus_for(turn) if x == top else 0)


def _best_against_profiles(view: PublicView, me: str, profiles: Sequence[Sequence[int]]) -> int:
    """The candidate with the best mean outcome over sampled opponent profiles (points + board worth)."""
    board, turn = _board(view, me), view.turn
    n_opp = max(1, len(profiles[0]) if profiles else 1)
    stay = future_value(board, turn + 1, n_opp)
    best, best_value = -1, float("-inf")
    for x in canonical_numbers(board):
        m = MASK[x]
        won = POPCOUNT[m] + future_value(board & ~m, turn + 1, n_opp)
        total = 0.0
        for others in profiles:
            approved, points = exact_points(x, others, turn)
            total += points + won if approved else stay
        if total > best_value:
            best, best_value = x, total
    return best


MONTE_CARLO_SAMPLES = 24


def monte_carlo(view: PublicView, me: str, rng: random.Random) -> str:
    """Samples the opponents' numbers (as beginners would write them) and plays the best on average."""
    models = [easy_dist(_board(view, p)) for p in _opponents(view, me)]
    profiles = [[sample(d, rng.random()) for d in models] for _ in range(MONTE_CARLO_SAMPLES)]
    return f"{_best_against_profiles(view, me, profiles):03d}"


def best_responder(view: PublicView, me: str, rng: random.Random) -> str:
    """Takes every opponent to be the hard level, computes its exact mixed strategy with the hard level's
    own code, and writes the number with the best expected value against those distributions."""
    models = [hard_distribution(view, p) for p in _opponents(view, me)]
    candidates, values = position_values(_board(view, me), view.turn, models)
    return f"{candidates[max(range(len(values)), key=values.__getitem__)]:03d}"


PREDICTOR_SAMPLES = 8


def _answer_predictions(view: PublicView, me: str, rng: random.Random, samples: int) -> str:
    models = [hard_distribution(view, p) for p in _opponents(view, me)]
    profiles = [[sample(d, rng.random()) for d in models] for _ in range(samples)]
    return f"{_best_against_profiles(view, me, profiles):03d}"


def predictor(view: PublicView, me: str, rng: random.Random) -> str:
    """Runs the hard level with its own random draws to predict each opponent's number, and answers those."""
    return _answer_predictions(view, me, rng, PREDICTOR_SAMPLES)


def single_predictor(view: PublicView, me: str, rng: random.Random) -> str:
    """Predicts each opponent by one run of the hard level (one draw, as a single ``choose_number`` call
    with its own generator would make) and answers that one profile: the simplest reader of the code."""
    return _answer_predictions(view, me, rng, 1)


def four_draw_predictor(view: PublicView, me: str, rng: random.Random) -> str:
    """Answers four runs of the hard level per opponent: between the single draw and the near-exact eight,
    the readers the hard level found hardest to answer (0.385 of 4-seat games, 500, before it modelled them)."""
    return _answer_predictions(view, me, rng, 4)


POOL: dict[str, Strategy] = {
    "high_repeat": high_repeat,
    "high_distinct": high_distinct,
    "repeat_digits": repeat_digits,
    "cheap_low": cheap_low,
    "uniform": uniform,
    "easy": product_level("easy"),
    "normal": product_level("normal"),
    "monte_carlo": monte_carlo,
    "best_responder": best_responder,
    "predictor": predictor,
    "predictor_1": single_predictor,
    "predictor_4": four_draw_predictor,
}
