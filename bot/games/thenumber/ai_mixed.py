"""The hard level: a mixed strategy answering what each opponent has shown so far (pure).

Every seat still playing gets beliefs over player types from its revealed numbers (:mod:`ai_beliefs`):
habits (999 then 888, one digit three times, high, low, any number), the product's easy and normal
levels, and two thinking types read from the turn's solved profile (:mod:`ai_profile`): a *thinker*
who weighs the points against everyone, and a *reader* who runs this very code for every other seat
and best-replies. The turn is then solved as a game of all seats at once, each modelled by its beliefs,
and the hard level draws from a softmax over its candidates' values in that solution. Against habits the
softmax is sharp (close to the best reply); against thinkers it is soft, so that a reader who computes
this distribution still cannot know the number: the draw comes from the game's secret seed.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .ai_beliefs import CLASS_SIZE, NOISE, TYPES, observations, posterior, type_dist
from .ai_future import future_table
from .ai_model import Dist, block_chances, free_above_weight, turn_values
from .ai_profile import CANDIDATES, THINKER_TEMPERATURE, Profile, Seat, class_chance, np, solve, tables
from .ai_profile import READER_TEMPERATURE as PROFILE_READER_TEMPERATURE
from .ai_tables import FULL_MASK, MASK, POPCOUNT, available_mask, canonical_numbers, legal_numbers
from .engine import PublicView, new_game, play_turn, public_view
from .errors import TheNumberError
from .rules import DIGIT_COUNT, TURNS_PER_ROUND, bonus_for, multiplier_for

# Softmax temperatures in points: against players following a habit, against players who weigh points.
SIMPLE_TEMPERATURE = 0.2
# The two thinking types solved in the turn's profile (:mod:`ai_profile`), with their prior weights.
THINKER = "thinker"
READER = "reader"
PROFILE_PRIOR: Mapping[str, float] = {THINKER: 0.15, READER: 0.1}
THINKING_TEMPERATURE = 0.45
THINKING_TYPES = frozenset({"normal", "sharp", THINKER, READER})
LOOK_AHEAD_FROM = 4  # look one turn ahead from this turn on (the doubled last turn is what matters)
# Candidates weaker than this share of the softmax are dropped from the mix (they barely matter).
MIX_FLOOR = 2e-3

Priors = Mapping[str, Mapping[str, float]]


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


def _generic_worth(next_turn: int, opponents: int) -> list[float]:
    """Every board's worth when ``next_turn`` starts, with no knowledge of the opponents (a fresh list)."""
    if next_turn > TURNS_PER_ROUND:
        return [0.0] * (FULL_MASK + 1)
    return list(future_table(max(1, opponents))[next_turn])


def next_turn_worth(mine: int, turn: int, models: Sequence[Dist]) -> list[float]:
    """For every board inside ``mine``: its worth when the next turn starts, looked at one turn ahead.

    The opponents are taken to keep playing as predicted now; the best number of each sub-board comes
    from one valuation of every candidate next turn and a max over subsets, so that keeping a 9 for the
    doubled last turn, or a digit that stops a habit, is weighed against what the others really do.
    """
    if turn >= TURNS_PER_ROUND:
        return [0.0] * (FULL_MASK + 1)
    worth = _generic_worth(turn + 2, len(models))
    candidates, values = turn_values(mine, turn + 1, models)
    for x, v in zip(candidates, values, strict=True):
        if v > worth[MASK[x]]:
            worth[MASK[x]] = v
    for bit in range(DIGIT_COUNT):  # best over every sub-board: a max over subsets, bit by bit
        flag = 1 << bit
        for m in range(FULL_MASK + 1):
            if m & flag and worth[m ^ flag] > worth[m]:
                worth[m] = worth[m ^ flag]
    return worth


def position_values(mine: int, turn: int, models: Sequence[Dist],
                    careful: bool = True) -> tuple[tuple[int, ...], list[float]]:
    """Each candidate's worth against the models: its points and bonus, and what the board it leaves is worth.

    ``careful`` adds the slower parts (an opponent's bigger number counted only if the others spare it,
    and a look one turn ahead); readers of us are modelled without them.
    """
    candidates = canonical_numbers(mine)
    n = len(candidates)
    mult, bonus = multiplier_for(turn), bonus_for(turn)
    guess = survivor_models(models) if careful else models
    factor = 1.0 if careful else 0.55
    approve, top = [1.0] * n, [1.0] * n
    for dist, hopeful in zip(models, guess, strict=True):
        blocks = block_chances(candidates, dist)
        above = free_above_weight(candidates, hopeful)
        for i in range(n):
            approve[i] *= 1 - blocks[i]
            top[i] *= max(0.0, 1 - factor * above[i])
    if careful and turn >= LOOK_AHEAD_FROM and turn < TURNS_PER_ROUND:
        worth = next_turn_worth(mine, turn, models)
    else:
        worth = _generic_worth(turn + 1, len(models))
    stay = worth[mine]
    values = []
    for i, x in enumerate(candidates):
        m = MASK[x]
        won = (x // 100) * mult + bonus * top[i] + POPCOUNT[m] + worth[mine & ~m]
        values.append(approve[i] * won + (1 - approve[i]) * stay)
    return candidates, values


def thinking_share(belief: Mapping[str, float]) -> float:
    """How much an opponent looks like a player who thinks (and so may read us), from 0 to 1.

    Whatever no single habit explains well counts as thinking: a player who answers our own distribution
    fits none of the habits, and must not be mistaken for one.
    """
    habit = max((w for k, w in belief.items() if k not in THINKING_TYPES), default=0.0)
    return max(sum(belief.get(k, 0.0) for k in THINKING_TYPES), 1 - habit)


def _public_key(view: PublicView) -> tuple[object, ...]:
    """Everything public the hard level reads, as a hashable key (so readers of it share the work)."""
    history = tuple((o.round, o.turn, tuple((s, r.number, r.status, r.crossed) for s, r in o.results.items()))
                    for o in view.history)
    crossed = tuple((p, view.crossed[p]) for p in view.players)
    return view.players, view.round, view.turn, view.finished, crossed, view.exhausted, history


# Solved positions by public key (and priors): every seat, the seats modelling it, and anyone reading
# it share one solution, and a past position rebuilt from the history is found again.
_CACHE_SIZE = 128  # a solved position holds a few arrays of 460 floats per seat (about 40 KB)


def _temperature(beliefs: Mapping[str, Mapping[str, float]]) -> float:
    thinking = [thinking_share(b) for b in beliefs.values()]
    mean = sum(thinking) / max(1, len(thinking))
    return SIMPLE_TEMPERATURE + (THINKING_TEMPERATURE - SIMPLE_TEMPERATURE) * mean


def past_views(view: PublicView) -> list[PublicView]:
    """The view before each turn of the history, rebuilt by replaying the revealed numbers.

    Stops where the replay disagrees with the history (a position that did not start as a new game).
    """
    try:
        state = new_game(view.players)
    except TheNumberError:
        return []
    views = []
    for outcome in view.history:
        if (outcome.round, outcome.turn) != (state.round, state.turn) or state.finished:
            break
        views.append(public_view(state))
        numbers = {p: r.number for p, r in outcome.results.items() if r.number is not None}
        state, replayed = play_turn(state, numbers)
        if dict(replayed.results) != dict(outcome.results):
            break
    return views




def _noisy_class_chance(values: np.ndarray, temperature: float, number: int, board: int) -> float:
    p = class_chance(values, temperature, number) / CLASS_SIZE[number]
    return (1 - NOISE) * p + NOISE / len(legal_numbers(board))


def profile_chances(view: PublicView, player: str, priors: Priors | None) -> dict[str, list[float]]:
    """The chance of each number ``player`` revealed (see :func:`ai_beliefs.observations`) under the two
    thinking types, read from the profile solved at that past position."""
    views = past_views(view)
    chances: dict[str, list[float]] = {THINKER: [], READER: []}
    for index, number, board, _, _ in observations(view, player):
        if index < len(views) and player not in views[index].exhausted:
            past = views[index]
            seat = _playing(past).index(player)
            profile = public_profile(past, priors)
            chances[THINKER].append(_noisy_class_chance(profile.values[seat], THINKER_TEMPERATURE, number, board))
            chances[READER].append(_noisy_class_chance(profile.read_values[seat], PROFILE_READER_TEMPERATURE,
                                                       number, board))
        else:
            for k in chances:
                chances[k].append(NOISE / len(legal_numbers(board)))
    return chances


def _playing(view: PublicView) -> list[str]:
    return [p for p in view.players if p not in view.exhausted]


def seat_beliefs(view: PublicView, priors: Priors | None = None) -> dict[str, dict[str, float]]:
    """Beliefs over the habit types and the two thinking types for every seat still playing."""
    out = {}
    for p in _playing(view):
        prior = (priors or {}).get(p)
        if prior is not None:
            prior = {**PROFILE_PRIOR, **prior}
        out[p] = posterior(view, p, prior, extra=profile_chances(view, p, priors), extra_prior=PROFILE_PRIOR)
    return out


def _fixed_part(belief: Mapping[str, float], board: int, turn: int, others: tuple[int, ...]) -> np.ndarray:
    """The habit part of a seat's model, over the candidates (each number counted as its class)."""
    out = np.zeros(len(CANDIDATES))
    for kind in TYPES:
        w = belief.get(kind, 0.0)
        if w >= 1e-4:
            out += w * _type_vector(kind, board, turn, others)
    return out


@lru_cache(maxsize=512)
def _type_vector(kind: str, board: int, turn: int, others: tuple[int, ...]) -> np.ndarray:
    index = tables().index_of
    out = np.zeros(len(CANDIDATES))
    for v, _, p in type_dist(kind, board, turn, others):
        out[index[v]] += p
    return out


@dataclass(frozen=True)
class Solved:
    players: tuple[str, ...]
    beliefs: Mapping[str, Mapping[str, float]]
    profile: Profile


def _frozen(priors: Priors | None) -> tuple[object, ...]:
    return tuple(sorted((p, tuple(sorted(w.items()))) for p, w in priors.items())) if priors else ()


def solved(view: PublicView, priors: Priors | None = None) -> Solved:
    """The position's beliefs and solved profile (one per position, shared by every seat and reader)."""
    key = ("profile", _public_key(view), _frozen(priors))
    found = _PROFILES.get(key)
    if found is None:
        players = tuple(_playing(view))
        beliefs = seat_beliefs(view, priors)
        boards = {p: available_mask(view.crossed[p]) for p in players}
        seats = []
        for p in players:
            b = beliefs[p]
            others = tuple(sorted(m for q, m in boards.items() if q != p))
            rest = {q: c for q, c in beliefs.items() if q != p}
            seats.append(Seat(board=boards[p], fixed=_fixed_part(b, boards[p], view.turn, others),
                              thinker=b.get(THINKER, 0.0), reader=b.get(READER, 0.0),
                              temperature=_temperature(rest), prey=1.0 - b.get(THINKER, 0.0)))
        found = _PROFILES[key] = Solved(players, beliefs, solve(seats, view.turn))
        while len(_PROFILES) > _CACHE_SIZE:
            _PROFILES.pop(next(iter(_PROFILES)))
    return found


def public_profile(view: PublicView, priors: Priors | None = None) -> Profile:
    return solved(view, priors).profile


_PROFILES: dict[tuple[object, ...], Solved] = {}


def hard_distribution(view: PublicView, me: str, priors: Priors | None = None) -> Dist:
    """The hard level's mixed strategy for seat ``me``: ascending (value, digit mask, probability) rows.

    Deterministic in the public view (and ``priors``): anyone may compute it; only the draw from it is
    secret. ``me`` must be seated and still playing this round.
    """
    found = solved(view, priors)
    p = found.profile.hards[found.players.index(me)]
    rows = [(CANDIDATES[i], MASK[CANDIDATES[i]], float(p[i])) for i in np.nonzero(p >= MIX_FLOOR)[0]]
    total = sum(w for _, _, w in rows)
    return tuple((v, m, w / total) for v, m, w in rows)
