"""Heads-up against a thinking opponent: an approximate equilibrium of the turn, as a zero-sum game (pure).

With two players left, every point one scores is a point the other did not: the turn is a zero-sum game
between a few dozen sensible numbers on each side. Regret matching finds a mixed strategy that a best
responder, even one running this code, cannot beat by much within the turn; the generic worth of the
board afterwards (:mod:`ai_future`) stands in for the rest of the round.
"""

from collections.abc import Sequence

from .ai_future import future_value
from .ai_model import Dist
from .ai_tables import MASK, POPCOUNT
from .rules import bonus_for, multiplier_for

DUEL_CANDIDATES = 28  # numbers weighed on each side
DUEL_ROUNDS = 160  # regret-matching iterations


def duel_payoffs(mine: int, theirs: int, turn: int, xs: Sequence[int], ys: Sequence[int]) -> list[list[float]]:
    """``table[i][j]``: what we gain minus what they gain when we write ``xs[i]`` and they write ``ys[j]``."""
    mult, bonus = multiplier_for(turn), bonus_for(turn)
    stay_me, stay_them = future_value(mine, turn + 1, 1), future_value(theirs, turn + 1, 1)
    after_me = [POPCOUNT[MASK[x]] + future_value(mine & ~MASK[x], turn + 1, 1) for x in xs]
    after_them = [POPCOUNT[MASK[y]] + future_value(theirs & ~MASK[y], turn + 1, 1) for y in ys]
    table = []
    for i, x in enumerate(xs):
        mx = MASK[x]
        row = []
        for j, y in enumerate(ys):
            shared = mx & MASK[y]
            x_ok = not (shared and y < x)
            y_ok = not (shared and x < y)
            top = max(v for v, ok in ((x, x_ok), (y, y_ok)) if ok)  # the smaller one is always approved
            gain = (x // 100) * mult + (bonus if x == top else 0) + after_me[i] if x_ok else stay_me
            loss = (y // 100) * mult + (bonus if y == top else 0) + after_them[j] if y_ok else stay_them
            row.append(gain - loss)
        table.append(row)
    return table


def _regret_step(regrets: list[float]) -> list[float]:
    positive = [max(0.0, r) for r in regrets]
    total = sum(positive)
    return [p / total for p in positive] if total > 0 else [1 / len(regrets)] * len(regrets)


def solve_duel(table: Sequence[Sequence[float]], rounds: int = DUEL_ROUNDS) -> list[float]:
    """Our average strategy after ``rounds`` of regret matching (plus) for both sides of ``table``."""
    n, m = len(table), len(table[0])
    columns = [[table[i][j] for i in range(n)] for j in range(m)]
    ours, theirs = [0.0] * n, [0.0] * m
    average = [0.0] * n
    for t in range(1, rounds + 1):
        x = _regret_step(ours)
        y = _regret_step(theirs)
        row_values = [sum(r[j] * y[j] for j in range(m)) for r in table]
        value = sum(x[i] * row_values[i] for i in range(n))
        column_values = [sum(c[i] * x[i] for i in range(n)) for c in columns]
        ours = [max(0.0, ours[i] + row_values[i] - value) for i in range(n)]
        theirs = [max(0.0, theirs[j] + value - column_values[j]) for j in range(m)]  # they minimise
        for i in range(n):
            average[i] += t * x[i]  # later rounds count more (the usual speed-up)
    total = sum(average)
    return [a / total for a in average]


def duel_mix(mine: int, theirs: int, turn: int, my_values: tuple[Sequence[int], Sequence[float]],
             their_values: tuple[Sequence[int], Sequence[float]], their_model: Dist) -> Dist:
    """Our equilibrium mix over our best candidates, against their best candidates and their likely numbers."""
    def best(candidates: Sequence[int], values: Sequence[float]) -> list[int]:
        order = sorted(range(len(values)), key=lambda i: -values[i])[:DUEL_CANDIDATES]
        return [candidates[i] for i in order]

    xs = sorted(best(*my_values))
    likely = [v for v, _, p in sorted(their_model, key=lambda row: -row[2])[:DUEL_CANDIDATES // 2]]
    ys = sorted(set(best(*their_values)) | set(likely))
    weights = solve_duel(duel_payoffs(mine, theirs, turn, xs, ys))
    rows = [(x, MASK[x], w) for x, w in zip(xs, weights, strict=True) if w >= 1e-3]
    total = sum(w for _, _, w in rows)
    return tuple((x, m, w / total) for x, m, w in rows)
