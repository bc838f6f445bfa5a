"""Heads-up: the turn as a zero-sum game, played for the lead over the one opponent (pure).

With two players left, every point one scores is a point the other did not: the turn is a zero-sum game
between the sensible numbers on each side. Against an opponent who seems to read us, hard plays its
equilibrium, a mixed strategy that a best responder, even one running this code, cannot beat within it.

What comes after the turn is valued two ways. The last two turns of a round are solved exactly (the
simplex method): after turn 5 nothing of the boards is left to play for, so the value of the last turn's
game for every pair of boards is the true worth of what turn 4 leaves (a 9 kept for the doubled turn is
worth what the duel, not a generic opponent, lets it score). Every heads-up opponent is answered with that
exact valuation at the round's end, through :func:`end_of_round_values`. Earlier, the generic worth of
each board (:mod:`ai_future`) stands in for the rest of the round, and the game is cut down to a few
dozen numbers per side and solved by regret matching.
"""

from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from .ai_future import future_value
from .ai_model import Dist
from .ai_tables import MASK, POPCOUNT, canonical_numbers
from .rules import TURNS_PER_ROUND, bonus_for, multiplier_for

DUEL_CANDIDATES = 28  # numbers weighed on each side before the end of the round
DUEL_ROUNDS = 160  # regret-matching iterations of the cut-down game
EXACT_ROUNDS = 600  # regret matching of an exact game, should the simplex method cycle
PIVOT_LIMIT = 20  # simplex pivots allowed per row and column of the game
EXACT_FROM = TURNS_PER_ROUND - 1  # the turn from which the rest of the round is solved exactly
# Bigger end-of-round games (boards that kept many digits) take the cut-down way: their last-turn games are
# too many and too big to solve in time, and they are rare.
EXACT_SIZE = 55 * 55

Later = Callable[[int, int], float]  # (our board, their board) after the turn -> what it is worth to us


def _generic_later(turn: int) -> Later:
    def later(mine: int, theirs: int) -> float:
        return future_value(mine, turn + 1, 1) - future_value(theirs, turn + 1, 1)
    return later


def duel_payoffs(mine: int, theirs: int, turn: int, xs: Sequence[int], ys: Sequence[int],
                 later: Later | None = None) -> list[list[float]]:
    """``table[i][j]``: what we gain minus what they gain when we write ``xs[i]`` and they write ``ys[j]``,
    plus ``later`` of the boards the turn leaves (by default the generic worth of each board)."""
    mult, bonus = multiplier_for(turn), bonus_for(turn)
    worth = later or _generic_later(turn)
    # ``later`` once per pair of boards left (numbers with the same digits leave the same board).
    seen: dict[tuple[int, int], float] = {}

    def left(a: int, b: int) -> float:
        found = seen.get((a, b))
        if found is None:
            found = seen[a, b] = worth(a, b)
        return found

    table = []
    for x in xs:
        mx = MASK[x]
        px, ax = (x // 100) * mult + POPCOUNT[mx], mine & ~mx  # points and digits crossed if approved
        row = []
        for y in ys:
            my = MASK[y]
            py, ay = (y // 100) * mult + POPCOUNT[my], theirs & ~my
            if mx & my:  # only the smaller one is approved (both, and both biggest, if they are equal)
                if x < y:
                    row.append(px + bonus + left(ax, theirs))
                elif y < x:
                    row.append(-py - bonus + left(mine, ay))
                else:
                    row.append(px - py + left(ax, ay))
            else:  # both approved, the bigger one takes the bonus
                row.append(px - py + (bonus if x > y else -bonus) + left(ax, ay))
        table.append(row)
    return table


def _positive_share(regrets: np.ndarray) -> np.ndarray:
    positive = np.maximum(regrets, 0.0)
    total = positive.sum()
    return positive / total if total > 0 else np.full(len(regrets), 1 / len(regrets))


def solve_game(table: Sequence[Sequence[float]] | np.ndarray, rounds: int = DUEL_ROUNDS) -> tuple[np.ndarray, float]:
    """Our (row player's) average strategy after ``rounds`` of regret matching plus, and the game's value
    estimated from both sides' averages. A saddle point (a pure answer for both) is returned at once."""
    a = np.asarray(table, dtype=float)
    lows, highs = a.min(axis=1), a.max(axis=0)
    best = int(lows.argmax())
    if lows[best] >= highs.min() - 1e-9:
        pure = np.zeros(a.shape[0])
        pure[best] = 1.0
        return pure, float(lows[best])
    ours, theirs = np.zeros(a.shape[0]), np.zeros(a.shape[1])
    average, their_average = np.zeros(a.shape[0]), np.zeros(a.shape[1])
    for t in range(1, rounds + 1):
        x = _positive_share(ours)
        y = _positive_share(theirs)
        row_values = a @ y
        value = x @ row_values
        ours = np.maximum(0.0, ours + row_values - value)
        theirs = np.maximum(0.0, theirs + value - x @ a)  # they minimise
        average += t * x  # later rounds count more (the usual speed-up)
        their_average += t * y
    average /= average.sum()
    their_average /= their_average.sum()
    return average, float(average @ a @ their_average)


def solve_exact(table: Sequence[Sequence[float]] | np.ndarray) -> tuple[np.ndarray, float]:
    """Our optimal strategy of ``table`` and the game's value, by the simplex method on the usual linear
    programme (the opponent's side; our strategy is read from its dual). Exact, and for the small games
    of the round's end far quicker than regret matching; should it ever cycle, regret matching answers."""
    a = np.asarray(table, dtype=float)
    shift = a.min() - 1.0  # every entry positive, so the value is too
    n, m = a.shape
    t = np.zeros((n + 1, m + n + 1))
    t[:n, :m] = a - shift
    t[:n, m:m + n] = np.eye(n)
    t[:n, -1] = 1.0
    t[n, :m] = -1.0
    for _ in range(PIVOT_LIMIT * (n + m)):
        col = int(t[n, :-1].argmin())
        if t[n, col] >= -1e-12:
            duals = np.maximum(t[n, m:m + n], 0.0)
            return duals / duals.sum(), float(1.0 / duals.sum() + shift)
        column = t[:n, col]
        ratios = np.full(n, np.inf)
        ok = column > 1e-12
        ratios[ok] = t[:n, -1][ok] / column[ok]
        row = int(ratios.argmin())
        t[row] /= t[row, col]
        factors = t[:, col].copy()
        factors[row] = 0.0
        t -= np.outer(factors, t[row])
    return solve_game(a, EXACT_ROUNDS)


def _unopposed(board: int, turn: int) -> float:
    """What a player scores on the last turn when the other sits out (its number is surely the biggest)."""
    return max(((x // 100) * multiplier_for(turn) + bonus_for(turn) + POPCOUNT[MASK[x]]
                for x in canonical_numbers(board)), default=0.0)


@lru_cache(maxsize=1 << 16)
def last_turn_value(mine: int, theirs: int) -> float:
    """The value to us of the round's last turn between these boards (points and digits crossed)."""
    if not mine or not theirs:
        return _unopposed(mine, TURNS_PER_ROUND) - _unopposed(theirs, TURNS_PER_ROUND)
    table = duel_payoffs(mine, theirs, TURNS_PER_ROUND, canonical_numbers(mine), canonical_numbers(theirs),
                         lambda _a, _b: 0.0)
    return solve_exact(table)[1]


def _exact_later(turn: int) -> Later:
    """After turn 4, the exact value of the last turn; after turn 5, nothing."""
    return last_turn_value if turn < TURNS_PER_ROUND else (lambda _a, _b: 0.0)


def _exact_size(mine: int, theirs: int) -> bool:
    return len(canonical_numbers(mine)) * len(canonical_numbers(theirs)) <= EXACT_SIZE


def end_of_round_values(mine: int, theirs: int, turn: int, candidates: Sequence[int],
                        their_model: Dist) -> list[float] | None:
    """Each candidate's expected lead over the opponent against ``their_model``, the rest of the round
    valued exactly (see :func:`last_turn_value`); None before the round's end or for boards too big."""
    if turn < EXACT_FROM or not _exact_size(mine, theirs):
        return None
    ys = [y for y, _, _ in their_model]
    table = duel_payoffs(mine, theirs, turn, candidates, ys, _exact_later(turn))
    weights = [w for _, _, w in their_model]
    return [sum(a * w for a, w in zip(row, weights, strict=True)) for row in table]


def duel_mix(mine: int, theirs: int, turn: int, my_values: tuple[Sequence[int], Sequence[float]],
             their_values: tuple[Sequence[int], Sequence[float]], their_model: Dist) -> Dist:
    """Our equilibrium mix: at the end of the round over every number, solved exactly; earlier over our
    best candidates, against their best candidates and their likely numbers."""
    xs, ys = list(canonical_numbers(mine)), list(canonical_numbers(theirs))
    if turn >= EXACT_FROM and _exact_size(mine, theirs):
        weights = solve_exact(duel_payoffs(mine, theirs, turn, xs, ys, _exact_later(turn)))[0]
    else:
        def best(candidates: Sequence[int], values: Sequence[float]) -> list[int]:
            order = sorted(range(len(values)), key=lambda i: -values[i])[:DUEL_CANDIDATES]
            return [candidates[i] for i in order]

        xs = sorted(best(*my_values))
        likely = [v for v, _, p in sorted(their_model, key=lambda row: -row[2])[:DUEL_CANDIDATES // 2]]
        ys = sorted(set(best(*their_values)) | set(likely))
        weights = solve_game(duel_payoffs(mine, theirs, turn, xs, ys))[0]
    rows = [(x, MASK[x], float(w)) for x, w in zip(xs, weights, strict=True) if w >= 1e-3]
    total = sum(w for _, _, w in rows)
    return tuple((x, m, w / total) for x, m, w in rows)
