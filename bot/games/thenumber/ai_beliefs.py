"""What kind of player is each opponent? Bayesian beliefs over player types, from revealed numbers (pure).

Only public facts are used: the numbers each turn revealed (``view.history``) and the boards they were
written on (rebuilt from the history). Each type is a model of how a player picks a number on a board;
the posterior over types, times each type's model on the current board, is the prediction the hard level
answers. A small share of every type's weight goes to "any legal number", so one surprising number lowers
a belief instead of killing it.
"""

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from .ai_model import Dist, easy_dist, softmax_dist, turn_values
from .ai_tables import FULL_MASK, MASK, available_mask, legal_numbers
from .engine import PublicView
from .rules import DIGIT_COUNT

# The player types, from the simplest habits to soft best replies.
TYPES: tuple[str, ...] = ("high_repeat", "repeat", "high", "low", "uniform", "easy", "normal", "sharp")
TYPE_DESCRIPTIONS: Mapping[str, str] = {
    "high_repeat": "writes its highest available digit three times (999, then 888, ...)",
    "repeat": "writes one available digit three times",
    "high": "writes numbers near the top of what its board allows",
    "low": "writes cheap low numbers",
    "uniform": "writes any legal number",
    "easy": "plays like the easy level",
    "normal": "weighs points against easy-like opponents, like the normal level",
    "sharp": "weighs points against normal-like opponents and picks near the best",
}
# Prior: habits are rarer than play that looks at the points, but none is ruled out.
DEFAULT_PRIOR: Mapping[str, float] = {
    "high_repeat": 0.09, "repeat": 0.09, "high": 0.09, "low": 0.09, "uniform": 0.09,
    "easy": 0.13, "normal": 0.30, "sharp": 0.12,
}
EXTRA_PRIOR = 0.1  # prior weight of a type a caller adds (see posterior's ``extra``)
UNLISTED_PRIOR = 0.01  # weight of a type a given prior leaves out: never ruled out
# Weight each type keeps on "any legal number": how surprised a belief may be and still recover.
NOISE = 0.04
NORMAL_TEMPERATURE = 0.6  # the normal level's softness (the ai module re-exports it)
SHARP_TEMPERATURE = 1.0
_SLOPE = 45.0  # points of value over which the "high" and "low" habits lose weight by e


def _first_and_digits(v: int) -> tuple[int, int]:
    return v // 100, MASK[v]


def _canonical_of(v: int) -> int:
    first, digits = _first_and_digits(v)
    others = sorted(d for d in range(DIGIT_COUNT) if digits >> d & 1 and d != first)
    if len(others) == 2:
        return first * 100 + others[0] * 10 + others[1]
    if len(others) == 1:
        o = others[0]
        return first * 100 + (o * 11 if o < first else first * 10 + o)
    return first * 111


# Canonical-level models (normal, sharp) only weigh one number per (first digit, digit set); a player of
# that type is taken to write any number of the class alike.
CANONICAL: tuple[int, ...] = tuple(_canonical_of(v) for v in range(1000))
CLASS_SIZE: tuple[int, ...] = tuple(sum(1 for w in range(1000) if CANONICAL[w] == CANONICAL[v]) for v in range(1000))


def _normalised(rows: Sequence[tuple[int, float]]) -> Dist:
    total = sum(w for _, w in rows) or 1.0
    return tuple((v, MASK[v], w / total) for v, w in sorted(rows) if w > 0)


@lru_cache(maxsize=2048)
def normal_dist(mine: int, turn: int, others: tuple[int, ...]) -> Dist:
    """The normal level's distribution for a board ``mine`` facing boards ``others`` (it recurs: cached)."""
    candidates, values = turn_values(mine, turn, [easy_dist(o) for o in others])
    return softmax_dist(candidates, values, NORMAL_TEMPERATURE)


def _without(items: tuple[int, ...], index: int) -> tuple[int, ...]:
    return items[:index] + items[index + 1:]


@lru_cache(maxsize=2048)
def sharp_dist(mine: int, turn: int, others: tuple[int, ...]) -> Dist:
    """A soft best reply to opponents who play like the normal level."""
    models = [normal_dist(o, turn, tuple(sorted((*_without(others, k), mine)))) for k, o in enumerate(others)]
    candidates, values = turn_values(mine, turn, models)
    return softmax_dist(candidates, values, SHARP_TEMPERATURE)


@lru_cache(maxsize=512)  # rows of up to 1000 numbers: bounded for a long-running bot
def type_dist(kind: str, mine: int, turn: int, others: tuple[int, ...]) -> Dist:
    """How a player of type ``kind`` writes on board ``mine`` (``others``: the other boards still playing)."""
    legal = legal_numbers(mine)
    digits = [d for d in range(DIGIT_COUNT) if mine >> d & 1]
    if kind == "high_repeat":
        return _normalised([(max(digits) * 111, 1.0)])
    if kind == "repeat":
        return _normalised([(d * 111, 1.0) for d in digits])
    if kind == "high":
        top = legal[-1]
        return _normalised([(v, math.exp((v - top) / _SLOPE)) for v in legal])
    if kind == "low":
        bottom = legal[0]
        return _normalised([(v, math.exp((bottom - v) / _SLOPE)) for v in legal])
    if kind == "uniform":
        return _normalised([(v, 1.0) for v in legal])
    if kind == "easy":
        return easy_dist(mine)
    if kind == "normal":
        return normal_dist(mine, turn, others)
    if kind == "sharp":
        return sharp_dist(mine, turn, others)
    raise ValueError(f"unknown player type {kind!r}")


@lru_cache(maxsize=512)
def _lookup(kind: str, mine: int, turn: int, others: tuple[int, ...]) -> dict[int, float]:
    return {v: p for v, _, p in type_dist(kind, mine, turn, others)}


def spread_chance(table: Mapping[int, float], number: int, mine: int) -> float:
    """Chance of ``number`` under a model of canonical numbers only (spread over its class), noise included."""
    p = table.get(CANONICAL[number], 0.0) / CLASS_SIZE[number]
    return (1 - NOISE) * p + NOISE / len(legal_numbers(mine))


def likelihood(kind: str, number: int, mine: int, turn: int, others: tuple[int, ...]) -> float:
    """Chance that a player of type ``kind`` writes ``number`` on this board (noise included)."""
    table = _lookup(kind, mine, turn, others)
    if kind in ("normal", "sharp"):
        return spread_chance(table, number, mine)
    return (1 - NOISE) * table.get(number, 0.0) + NOISE / len(legal_numbers(mine))


Observation = tuple[int, int, int, int, tuple[int, ...]]


def observations(view: PublicView, player: str) -> list[Observation]:
    """Each number ``player`` revealed this game, as (index in the history, number, its board, turn, the
    other boards playing)."""
    seen: list[Observation] = []
    crossed: dict[str, int] = {p: 0 for p in view.players}
    current_round = 0
    for index, outcome in enumerate(view.history):
        if outcome.round != current_round:
            current_round, crossed = outcome.round, {p: 0 for p in view.players}
        boards = {p: FULL_MASK & ~crossed[p] for p in view.players if crossed[p] != FULL_MASK}
        result = outcome.results.get(player)
        if result is not None and result.status in ("approved", "eliminated") and result.number is not None \
                and player in boards:
            others = tuple(sorted(m for p, m in boards.items() if p != player))
            seen.append((index, int(result.number), boards[player], outcome.turn, others))
        for p, r in outcome.results.items():
            for d in r.crossed:
                crossed[p] |= 1 << d
    return seen


def posterior(view: PublicView, player: str, prior: Mapping[str, float] | None = None,
              extra: Mapping[str, Sequence[float]] | None = None, extra_prior: float = EXTRA_PRIOR
              ) -> dict[str, float]:
    """Belief over :data:`TYPES` for ``player`` after every number they revealed this game.

    ``prior`` (type -> weight) lets a caller start from what past games against this player showed. It
    is then the whole prior: a type it leaves out, a caller's own included, starts from the small
    :data:`UNLISTED_PRIOR`, so nothing is ruled out and this game's numbers can still raise it. ``extra``
    adds types the caller models itself: name -> the chance of each observation (in :func:`observations`
    order), each starting from ``extra_prior`` when no prior is given. So a player with a record is first
    taken for the habits that record showed, not for a reader of this code (the priors-hook test).
    """
    kinds = (*TYPES, *(extra or {}))
    base = dict(prior) if prior else {k: DEFAULT_PRIOR.get(k, extra_prior) for k in kinds}
    logs = {k: math.log(max(base.get(k, 0.0), UNLISTED_PRIOR)) for k in kinds}
    for i, (_, number, mine, turn, others) in enumerate(observations(view, player)):
        for k in TYPES:
            logs[k] += math.log(likelihood(k, number, mine, turn, others))
        for k, chances in (extra or {}).items():
            logs[k] += math.log(chances[i])
    top = max(logs.values())
    weights = {k: math.exp(v - top) for k, v in logs.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


def prior_from_past_games(games: Iterable[tuple[PublicView, str]], trust: float = 0.5) -> dict[str, float]:
    """A prior for one player from finished games against this bot: (final view, that player's seat) pairs.

    The beliefs each game ended with are averaged, and only ``trust`` of the result is used: the rest stays
    on :data:`DEFAULT_PRIOR`, since people change how they play.
    """
    found = [posterior(view, seat) for view, seat in games]
    if not found:
        return dict(DEFAULT_PRIOR)
    return {k: (1 - trust) * DEFAULT_PRIOR[k] + trust * sum(b[k] for b in found) / len(found) for k in TYPES}


def predicted_dist(beliefs: Mapping[str, float], mine: int, turn: int, others: tuple[int, ...],
                   floor: float = 5e-4) -> Dist:
    """The belief mixture on the current board: what ``beliefs``' player is expected to write now."""
    mixed: dict[int, float] = {}
    for kind, weight in beliefs.items():
        if weight < 1e-4 or kind not in TYPES:
            continue
        for v, _, p in type_dist(kind, mine, turn, others):
            mixed[v] = mixed.get(v, 0.0) + weight * p
    rows = [(v, p) for v, p in mixed.items() if p >= floor]
    return _normalised(rows)


def opponent_boards(view: PublicView, me: str) -> dict[str, int]:
    """Available-digit masks of the players still playing this round, ``me`` included."""
    return {p: available_mask(view.crossed[p]) for p in view.players if p not in view.exhausted}

