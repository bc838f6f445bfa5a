"""Opponent models and the one-turn expected value shared by the thinking levels (pure).

A model of a player is a distribution over the numbers they may write, as ``Dist``: ascending
``(value, digit mask, probability)`` rows. Two sweeps turn a model into, for each of our candidates,
the chance the opponent eliminates it and the chance the opponent writes a bigger number it cannot
eliminate. Each sweep keeps running sums per set of digits and reads "shares a digit" back by
inclusion-exclusion, so it costs about seven steps per row instead of one per pair (the loops are
written out by hand: they are the AI's hot path).
"""

import math
from collections.abc import Sequence
from functools import cache

from .ai_future import future_value
from .ai_tables import FULL_MASK, MASK, POPCOUNT, SIGNED_SUBMASKS, canonical_numbers, legal_numbers
from .rules import bonus_for, multiplier_for

# Per digit mask: its non-empty submasks, and the same split by inclusion-exclusion sign (odd, even size).
SUBMASKS: dict[int, tuple[int, ...]] = {m: tuple(sub for sub, _ in subs) for m, subs in SIGNED_SUBMASKS.items()}
SPLIT_SUBMASKS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    m: (tuple(sub for sub, sign in subs if sign > 0), tuple(sub for sub, sign in subs if sign < 0))
    for m, subs in SIGNED_SUBMASKS.items()}

Dist = tuple[tuple[int, int, float], ...]


def block_chances(candidates: Sequence[int], dist: Dist) -> list[float]:
    """For each candidate (ascending), the chance ``dist`` writes a smaller number sharing a digit."""
    sums = [0.0] * (FULL_MASK + 1)
    out = []
    j, n = 0, len(dist)
    for x in candidates:
        while j < n and dist[j][0] < x:
            _, m, w = dist[j]
            for sub in SUBMASKS[m]:
                sums[sub] += w
            j += 1
        plus, minus = SPLIT_SUBMASKS[MASK[x]]
        t = 0.0
        for sub in plus:
            t += sums[sub]
        for sub in minus:
            t -= sums[sub]
        out.append(t)
    return out


def free_above_weight(candidates: Sequence[int], dist: Dist) -> list[float]:
    """For each candidate (ascending), the weight of ``dist`` on bigger numbers sharing no digit with it."""
    sums = [0.0] * (FULL_MASK + 1)
    total = 0.0
    out = [0.0] * len(candidates)
    j = len(dist) - 1
    for i in range(len(candidates) - 1, -1, -1):
        x = candidates[i]
        while j >= 0 and dist[j][0] > x:
            _, m, w = dist[j]
            for sub in SUBMASKS[m]:
                sums[sub] += w
            total += w
            j -= 1
        plus, minus = SPLIT_SUBMASKS[MASK[x]]
        t = total
        for sub in plus:
            t -= sums[sub]
        for sub in minus:
            t += sums[sub]
        out[i] = t
    return out


@cache
def easy_dist(available: int) -> Dist:
    """How the easy level plays a board: any legal number, mid values and three digits preferred."""
    rows = []
    for v in legal_numbers(available):
        weight = math.exp(-(((v - 450) / 260) ** 2)) * (1.0 + POPCOUNT[MASK[v]])
        rows.append((v, MASK[v], weight))
    total = sum(w for _, _, w in rows) or 1.0
    return tuple((v, m, w / total) for v, m, w in rows)


def turn_values(available: int, turn: int, opponents: Sequence[Dist],
                approve_guess: Sequence[Dist] | None = None) -> tuple[tuple[int, ...], list[float]]:
    """Expected value of each canonical candidate this turn, against independent opponent models.

    Value = chance approved x (first digit x multiplier + bonus x chance biggest + digits crossed + what the
    board is then worth) + chance eliminated x what the untouched board is worth. ``approve_guess`` lets a
    caller weight each opponent's bigger numbers by their own chance of being approved (hard level);
    without it a flat guess is used.
    """
    candidates = canonical_numbers(available)
    n_opp = max(1, len(opponents))
    mult, bonus = multiplier_for(turn), bonus_for(turn)
    approve = [1.0] * len(candidates)
    top = [1.0] * len(candidates)
    for k, dist in enumerate(opponents):
        blocks = block_chances(candidates, dist)
        above = free_above_weight(candidates, approve_guess[k] if approve_guess else dist)
        factor = 1.0 if approve_guess else 0.55  # flat guess: a bigger free number is approved about half the time
        for i in range(len(candidates)):
            approve[i] *= 1 - blocks[i]
            top[i] *= max(0.0, 1 - factor * above[i])
    stay = future_value(available, turn + 1, n_opp)
    values = []
    for i, x in enumerate(candidates):
        m = MASK[x]
        won = (x // 100) * mult + bonus * top[i] + POPCOUNT[m] + future_value(available & ~m, turn + 1, n_opp)
        values.append(approve[i] * won + (1 - approve[i]) * stay)
    return candidates, values


def softmax_dist(candidates: Sequence[int], values: Sequence[float], temperature: float,
                 floor: float = 1e-4) -> Dist:
    """A distribution favouring high values; rows below ``floor`` are dropped (they barely matter)."""
    best = max(values)
    weights = [math.exp((v - best) / temperature) for v in values]
    total = sum(weights)
    rows = [(x, MASK[x], w / total) for x, w in zip(candidates, weights, strict=True) if w / total >= floor]
    kept = sum(w for _, _, w in rows)
    return tuple((x, m, w / kept) for x, m, w in rows)


def sample(dist: Dist, u: float) -> int:
    """The value at cumulative probability ``u`` in [0, 1)."""
    acc = 0.0
    for value, _, weight in dist:
        acc += weight
        if u < acc:
            return value
    return dist[-1][0]
