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
from .ai_tables import MASK, available_mask
from .engine import PublicView
from .rules import bonus_for, multiplier_for

# Softmax temperatures in points: against players following a habit, against players who weigh points.
SIMPLE_TEMPERATURE = 0.35
THINKING_TEMPERATURE = 1.1
THINKING_TYPES = frozenset({"normal", "sharp"})
# The share of the bonus a bigger opponent number would have taken, when we eliminate it.
_BONUS_SHARE = 0.5
# Reading: with this share of thinking opponents we assume they may best-reply to us, in this many rounds.
READER_THRESHOLD = 0.3
READER_ROUNDS = 2
READER_SHARE = 0.6  # of a thinking opponent's weight that goes to "best reply to our mix"
READER_TEMPERATURE = 0.3
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
    mult = multiplier_for(turn)
    # Heads-up an opponent's bigger approved number always takes the bonus; with more seats, about half.
    bonus = bonus_for(turn) * (1.0 if len(models) == 1 else _BONUS_SHARE)
    out = [0.0] * len(candidates)
    for dist in models:
        worth = tuple((v, m, p * ((v // 100) * mult + bonus)) for v, m, p in dist)
        for i, w in enumerate(_shared_above(candidates, worth)):
            out[i] += w
    return out


def survivor_models(models: Sequence[Dist]) -> list[Dist]:
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


def _values(mine: int, turn: int, models: Sequence[Dist], careful: bool = True) -> tuple[tuple[int, ...], list[float]]:
    """Each candidate's worth against the models: its own points and board, plus what it denies the others."""
    guess = survivor_models(models) if careful and models else None
    candidates, values = turn_values(mine, turn, models, approve_guess=guess)
    if models:
        # Points the others score count against us: fully heads-up (it is a duel), less with more seats.
        weight = 1 / len(models)
        for i, d in enumerate(denial(candidates, turn, models)):
            values[i] += weight * d
        bonus = bonus_for(turn)
        for dist in models:
            # The opponent takes the bonus when it eliminates us, or writes a bigger number we cannot stop.
            lost = block_chances(candidates, dist)
            above = free_above_weight(candidates, dist)
            for i in range(len(candidates)):
                values[i] -= weight * weight * bonus * (lost[i] + above[i])
    return candidates, values


def blend(a: Dist, b: Dist, share_b: float) -> Dist:
    """The mixture (1 - share_b) a + share_b b."""
    rows: dict[int, float] = {}
    for dist, w in ((a, 1 - share_b), (b, share_b)):
        for v, _, p in dist:
            rows[v] = rows.get(v, 0.0) + w * p
    return tuple((v, MASK[v], p) for v, p in sorted(rows.items()) if p > 0)


def _public_key(view: PublicView) -> tuple[object, ...]:
    """Everything public the hard level reads, as a hashable key (so readers of it share the work)."""
    history = tuple((o.round, o.turn, tuple((s, r.number, r.status, r.crossed) for s, r in o.results.items()))
                    for o in view.history)
    crossed = tuple((p, view.crossed[p]) for p in view.players)
    return view.players, view.round, view.turn, view.finished, crossed, view.exhausted, history


def hard_distribution(view: PublicView, me: str, priors: Priors | None = None) -> Dist:
    """The hard level's mixed strategy for seat ``me``: ascending (value, digit mask, probability) rows.

    Deterministic in the public view (and ``priors``): anyone may compute it; only the draw from it is
    secret. ``me`` must be seated and still playing this round.
    """
    frozen = tuple(sorted((p, tuple(sorted(w.items()))) for p, w in priors.items())) if priors else ()
    key = (_public_key(view), me, frozen)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = _hard_distribution(view, me, priors)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
    return found


# Recent distributions by public key: a seat and anyone reading it in the same position share the work.
_CACHE: dict[tuple[object, ...], Dist] = {}
_CACHE_SIZE = 256


def _hard_distribution(view: PublicView, me: str, priors: Priors | None) -> Dist:
    mine = available_mask(view.crossed[me])
    boards = opponent_boards(view, me)
    beliefs, base = opponent_models(view, me, priors)
    turn = view.turn
    candidates, values = _values(mine, turn, base)
    thinking = [sum(b[k] for k in THINKING_TYPES) for b in beliefs.values()]
    mean_thinking = sum(thinking) / max(1, len(thinking))
    temperature = SIMPLE_TEMPERATURE + (THINKING_TEMPERATURE - SIMPLE_TEMPERATURE) * mean_thinking
    mix = softmax_dist(candidates, values, temperature, floor=MIX_FLOOR)
    if mean_thinking < READER_THRESHOLD:
        return mix
    # Thinking opponents may read us: average our replies to their best replies to our own average
    # (fictitious play), so that what a reader of this very code answers is already priced in.
    opponents = [p for p in beliefs]
    for t in range(1, READER_ROUNDS + 1):
        models = []
        for k, p in enumerate(opponents):
            seen = [mix, *base[:k], *base[k + 1:]]
            c, v = _values(boards[p], turn, seen, careful=False)
            reader = softmax_dist(c, v, READER_TEMPERATURE, floor=MIX_FLOOR)
            models.append(blend(base[k], reader, READER_SHARE * thinking[k]))
        c, v = _values(mine, turn, models)
        mix = blend(mix, softmax_dist(c, v, temperature, floor=MIX_FLOOR), 1 / (t + 1))
    return mix
