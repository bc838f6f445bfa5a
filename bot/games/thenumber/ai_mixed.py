"""The hard level: a mixed strategy answering what each opponent has shown so far (pure).

Each opponent is predicted by the belief mixture of :mod:`ai_beliefs`; every candidate number is valued
against those predictions (points, bonus, digits crossed, what the board is then worth, and what it takes
away from the others by eliminating their bigger numbers); the choice is then drawn from a softmax over
those values. The softmax is the defence against being read: a player who can compute this very
distribution still cannot know which number comes out of it, and the bigger the opponents' share of
"thinking" types, the flatter it gets. Against simple habits it stays sharp, close to the best reply.
"""

from collections.abc import Mapping, Sequence

from .ai_beliefs import opponent_boards, posterior, predicted_dist
from .ai_model import Dist, block_chances, free_above_weight, softmax_dist, turn_values
from .engine import PublicView
from .rules import bonus_for, multiplier_for

# Softmax temperatures in points: against players following a habit, against players who weigh points.
SIMPLE_TEMPERATURE = 0.35
THINKING_TEMPERATURE = 1.1
THINKING_TYPES = frozenset({"normal", "sharp"})
# The share of the bonus a bigger opponent number would have taken, when we eliminate it.
_BONUS_SHARE = 0.5
# Candidates weaker than this share of the softmax are dropped from the mix (they barely matter).
MIX_FLOOR = 2e-3

Priors = Mapping[str, Mapping[str, float]]


def _shared_above(candidates: Sequence[int], dist: Dist) -> list[float]:
    """For each candidate (ascending), the weight of ``dist`` on bigger numbers sharing a digit with it."""
    free = free_above_weight(candidates, dist)
    above = [0.0] * len(candidates)
    j, total = len(dist) - 1, 0.0
    for i in range(len(candidates) - 1, -1, -1):
        while j >= 0 and dist[j][0] > candidates[i]:
            total += dist[j][2]
            j -= 1
        above[i] = total
    return [max(0.0, a - f) for a, f in zip(above, free, strict=True)]


def denial(candidates: Sequence[int], turn: int, models: Sequence[Dist]) -> list[float]:
    """Points our candidate would take from the opponents by eliminating their bigger numbers (summed)."""
    mult, bonus = multiplier_for(turn), bonus_for(turn)
    out = [0.0] * len(candidates)
    for dist in models:
        worth = tuple((v, m, p * ((v // 100) * mult + _BONUS_SHARE * bonus)) for v, m, p in dist)
        for i, w in enumerate(_shared_above(candidates, worth)):
            out[i] += w
    return out


def _survivors(models: Sequence[Dist]) -> list[Dist]:
    """Each opponent's model with its bigger numbers weighted by the chance the other opponents spare them."""
    out = []
    for k, dist in enumerate(models):
        values = [row[0] for row in dist]
        alive = [1.0] * len(dist)
        for j, other in enumerate(models):
            if j != k:
                for i, b in enumerate(block_chances(values, other)):
                    alive[i] *= 1 - b
        out.append(tuple((v, m, w * a) for (v, m, w), a in zip(dist, alive, strict=True)))
    return out


def opponent_models(view: PublicView, me: str, priors: Priors | None = None
                    ) -> tuple[dict[str, dict[str, float]], list[Dist]]:
    """Beliefs about each opponent still playing, and the number each is predicted to write now."""
    boards = opponent_boards(view, me)
    beliefs: dict[str, dict[str, float]] = {}
    models: list[Dist] = []
    for p, board in boards.items():
        if p == me:
            continue
        beliefs[p] = posterior(view, p, (priors or {}).get(p))
        others = tuple(sorted(m for q, m in boards.items() if q != p))
        models.append(predicted_dist(beliefs[p], board, view.turn, others))
    return beliefs, models


def hard_distribution(view: PublicView, me: str, priors: Priors | None = None) -> Dist:
    """The hard level's mixed strategy for seat ``me``: ascending (value, digit mask, probability) rows.

    Deterministic in the public view (and ``priors``): anyone may compute it; only the draw from it is
    secret. ``me`` must be seated and still playing this round.
    """
    mine = opponent_boards(view, me)[me]
    beliefs, models = opponent_models(view, me, priors)
    candidates, values = turn_values(mine, view.turn, models, approve_guess=_survivors(models) if models else None)
    if models:
        weight = 1 / len(models)  # heads-up every point denied is a point gained; with more seats, less so
        for i, d in enumerate(denial(candidates, view.turn, models)):
            values[i] += weight * d
    thinking = sum(sum(b[k] for k in THINKING_TYPES) for b in beliefs.values()) / max(1, len(beliefs))
    temperature = SIMPLE_TEMPERATURE + (THINKING_TEMPERATURE - SIMPLE_TEMPERATURE) * thinking
    return softmax_dist(candidates, values, temperature, floor=MIX_FLOOR)
