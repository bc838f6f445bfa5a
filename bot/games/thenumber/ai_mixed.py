"""The hard level: a mixed strategy answering what each opponent has shown so far (pure).

Each opponent is predicted by the belief mixture of :mod:`ai_beliefs`, plus the chance that it reads us
(runs this very code and best-replies), recognised from its record, or plays like us. Every candidate number is
valued against those predictions (points, bonus, digits crossed, and what the board is then worth, looked
at one turn ahead before the doubled last turn); the choice is then drawn from a softmax over those
values. The softmax is the defence against being read: a player who can compute this distribution still
cannot know which number comes out of it, and the more the opponents think and read us, the flatter it
gets. Against simple habits it stays sharp, close to the best reply.

At three seats or more (:func:`table_profile`) the values above only model the opponents' past turns: the
turn itself is solved as a game between every seat still playing (:mod:`ai_equilibrium`), each modelled
as its habits, a reader answering the others' strategies, or a player like this one, and the seat draws
from its strategy in that profile. A reader's best reply to a near-equilibrium gains little, where a best
reply to the plain softmax (the level before) won 0.70 of 4-seat games against three hard seats.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from .ai_beliefs import NOISE, normal_dist, observations, opponent_boards, posterior, predicted_dist, spread_chance
from .ai_duel import duel_mix, end_of_round_values
from .ai_equilibrium import solve_table
from .ai_future import Approval, future_table, generic_approval, played_approval
from .ai_model import Dist, block_chances, free_above_weight, softmax_dist, turn_values
from .ai_tables import FULL_MASK, MASK, POPCOUNT, available_mask, canonical_numbers, legal_numbers
from .engine import PublicView, new_game, play_turn, public_view
from .errors import TheNumberError
from .rules import DIGIT_COUNT, TURNS_PER_ROUND, bonus_for, multiplier_for

# Softmax temperatures in points: against players following a habit, against players who weigh points.
SIMPLE_TEMPERATURE = 0.2
THINKING_TEMPERATURE = 0.45
THINKING_TYPES = frozenset({"normal", "sharp", "reader", "hard"})
LOOK_AHEAD_FROM = 4  # look one turn ahead from this turn on (the doubled last turn is what matters)
# Every opponent is also weighed as one who best-replies to the hard level, or plays like it.
READER = "reader"
HARD_LIKE = "hard"
READER_TEMPERATURE = 0.25  # how sharply a reader answers distributions it knows (its past turns)
# ... and how sharply it is taken to answer now, when only quick guesses of what it answers are at hand.
GUESSED_REPLY_TEMPERATURE = 3.0
CAREFUL_GUESS = False  # the quick guess of every seat skips survivors and look-ahead (it runs for each seat)
DUEL_THRESHOLD = 0.5  # heads-up, an opponent this likely to run our code gets the equilibrium of the turn
# Candidates weaker than this share of the softmax are dropped from the mix (they barely matter).
MIX_FLOOR = 2e-3
# In 3 seats or more (:func:`table_profile`): the equilibrium's softness in points and its iterations; a
# reader's softness (it answers by sampling, not always exactly); the prior weight of each own type (at a
# table of this code, the others mostly are this code or read it, and the first turns must not be read).
TABLE_TEMPERATURE = 0.25
TABLE_ITERATIONS = 60
TABLE_ITERATIONS_FIVE = 30  # five seats cost twice as much per iteration
TABLE_READER_TEMPERATURE = 0.8
TABLE_OWN_PRIOR = 2.0
HABIT_FLOOR = 0.02  # at a table, a habit below this share of a seat's play is not modelled
OWN_FLOOR = 0.01  # an own type less likely than this is left out of the prediction (it costs a full model)
# Among readers each seat plays its solved strategy to the power 1 - FLATTEN x (the others' mean reader
# share): they answer whatever it plays, and a flatter mix leaves their answer less to aim at (4 seats:
# 0.68 -> 0.80 of the games against three best responders, 500 games; against three predictors 0.367 ->
# 0.396 on seed 1 and 0.372 -> 0.368 on seed 2, 1,000 games; FLATTEN 0.75 did worse there, 0.324).
FLATTEN = 0.5
# A reader may answer the profile itself or a few draws from it (it runs this code with a generator of its
# own): in the solve half of each reader's play is the second kind, and a quarter of the reply it is
# recognised by. 4 seats, against three readers answering 1, 2, 4 or 8 draws: 0.400 -> 0.568 (1,000 -> 200
# games), 0.373 -> 0.469 (500 -> 300), 0.385 -> 0.420 (500 -> 200), 0.473 -> 0.613 (1,000 -> 200), seed 1.
SAMPLED_SHARE = 0.5
RECOGNISE_SAMPLED = 0.25

Priors = Mapping[str, Mapping[str, float]]
T = TypeVar("T")


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


def _generic_worth(next_turn: int, opponents: int, approval: Approval = generic_approval) -> list[float]:
    """Every board's worth when ``next_turn`` starts, with no knowledge of the opponents beyond ``approval``
    (a fresh list)."""
    if next_turn > TURNS_PER_ROUND:
        return [0.0] * (FULL_MASK + 1)
    return list(future_table(max(1, opponents), approval)[next_turn])


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


def _remembered(cache: dict[tuple[object, ...], T], key: tuple[object, ...], compute: Callable[[], T]) -> T:
    """``cache[key]``, computed if missing; the oldest entries go beyond :data:`_CACHE_SIZE`."""
    found = cache.get(key)
    if found is None:
        found = cache[key] = compute()
        while len(cache) > _CACHE_SIZE:
            cache.pop(next(iter(cache)))
    return found


def _cached(key: tuple[object, ...], compute: Callable[[], Dist]) -> Dist:
    return _remembered(_CACHE, key, compute)


def _frozen(priors: Priors | None) -> tuple[object, ...]:
    """``priors`` as a hashable key."""
    return tuple(sorted((p, tuple(sorted(w.items()))) for p, w in priors.items())) if priors else ()


# Recent distributions by public key: a seat, the seats modelling it, and anyone reading it in the same
# position share the work (and a past position, rebuilt from the history, is found again).
_CACHE: dict[tuple[object, ...], Dist] = {}
_CACHE_SIZE = 2048


def habit_models(view: PublicView, me: str, priors: Priors | None = None
                 ) -> tuple[dict[str, dict[str, float]], dict[str, Dist]]:
    """Beliefs over the habit and level types of :mod:`ai_beliefs` for each opponent still playing, and
    the number each is then predicted to write."""
    boards = opponent_boards(view, me)
    beliefs: dict[str, dict[str, float]] = {}
    models: dict[str, Dist] = {}
    for p, board in boards.items():
        if p != me:
            beliefs[p] = posterior(view, p, (priors or {}).get(p))
            others = tuple(sorted(m for q, m in boards.items() if q != p))
            models[p] = predicted_dist(beliefs[p], board, view.turn, others)
    return beliefs, models


def _duels(belief: Mapping[str, float]) -> bool:
    """Heads-up, is this opponent one to meet with the equilibrium? Thinking, and not the normal level
    (whose soft choices a best reply beats by more)."""
    return thinking_share(belief) >= DUEL_THRESHOLD and belief.get("normal", 0.0) < DUEL_THRESHOLD


def _temperature(beliefs: Mapping[str, Mapping[str, float]]) -> float:
    thinking = [thinking_share(b) for b in beliefs.values()]
    mean = sum(thinking) / max(1, len(thinking))
    # Heads-up (the only place this softmax is played) a reader meets the duel's equilibrium instead.
    return SIMPLE_TEMPERATURE + (THINKING_TEMPERATURE - SIMPLE_TEMPERATURE) * mean


def first_guess(view: PublicView, seat: str) -> Dist:
    """A quick version of the hard level for ``seat`` (habit beliefs only, no look-ahead): what a reader
    who runs this code would expect that seat to write."""
    def compute() -> Dist:
        beliefs, models = habit_models(view, seat)
        board = available_mask(view.crossed[seat])
        c, v = position_values(board, view.turn, list(models.values()), careful=CAREFUL_GUESS)
        return softmax_dist(c, v, _temperature(beliefs), floor=MIX_FLOOR)
    return _cached(("first", _public_key(view), seat), compute)


def reply_to(view: PublicView, seat: str, others: Sequence[Dist], temperature: float = READER_TEMPERATURE
             ) -> Dist:
    """A near-best reply of ``seat`` to the distributions ``others`` of the other seats still playing."""
    c, v = position_values(available_mask(view.crossed[seat]), view.turn, others)
    return softmax_dist(c, v, temperature, floor=MIX_FLOOR)


def _active(view: PublicView, *skip: str) -> list[str]:
    return [q for q in view.players if q not in skip and q not in view.exhausted]


def _table(view: PublicView) -> bool:
    """Three seats or more still play: the turn is solved as a game between them all."""
    return len(_active(view)) >= 3


def reader_dist(view: PublicView, seat: str) -> Dist:
    """How ``seat`` plays now if it reads everyone else as the hard level: a near-best reply to their
    quick guesses (the full level of the others is not known yet while it is being decided)."""
    return _cached(("reader", _public_key(view), seat),
                   lambda: reply_to(view, seat, [first_guess(view, q) for q in _active(view, seat)],
                                    GUESSED_REPLY_TEMPERATURE))


def past_reader_dist(view: PublicView, seat: str) -> Dist:
    """How ``seat`` played at a past position if it read everyone else: a near-best reply to the hard
    level's distribution of each other seat, which any reader of this code could compute then."""
    if _table(view):
        return table_reader(view, seat)

    def compute() -> Dist:
        others = [hard_distribution(view, q) for q in _active(view, seat)]
        c, v = position_values(available_mask(view.crossed[seat]), view.turn, others)
        return softmax_dist(c, v, READER_TEMPERATURE, floor=MIX_FLOOR)
    return _cached(("past reader", _public_key(view), seat), compute)


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


# The types the hard level models with its own code: one who reads the hard level, one who plays like it.
# Each is predicted now by a quick version (the others' full distributions are being decided). At past
# positions a reader is recognised by the reply to the full hard distributions, which is what it really
# answered and which no habit explains; a hard-like player by the quick guess it is predicted with, so
# that its weight says how well that guess predicts it.
OWN_TYPES: Mapping[str, Callable[[PublicView, str], Dist]] = {READER: reader_dist, HARD_LIKE: first_guess}


def past_like_dist(view: PublicView, seat: str) -> Dist:
    """How ``seat`` played at a past position if it plays like the hard level: its strategy in the
    table's equilibrium (3 seats or more), or the quick guess heads-up."""
    return hard_distribution(view, seat) if _table(view) else first_guess(view, seat)


PAST_OWN_TYPES: Mapping[str, Callable[[PublicView, str], Dist]] = {
    READER: past_reader_dist, HARD_LIKE: past_like_dist}


def own_type_chances(view: PublicView, player: str) -> dict[str, list[float]]:
    """The chance of each number ``player`` revealed (see :func:`ai_beliefs.observations`) under each of
    :data:`PAST_OWN_TYPES`, from the positions rebuilt by :func:`past_views`."""
    views = past_views(view)
    chances: dict[str, list[float]] = {k: [] for k in PAST_OWN_TYPES}
    for index, number, board, _, _ in observations(view, player):
        for kind, model in PAST_OWN_TYPES.items():
            if index < len(views) and player not in views[index].exhausted:
                table = {v: p for v, _, p in model(views[index], player)}
                chances[kind].append(spread_chance(table, number, board))
            else:
                chances[kind].append(NOISE / len(legal_numbers(board)))
    return chances


def hard_distribution(view: PublicView, me: str, priors: Priors | None = None) -> Dist:
    """The hard level's mixed strategy for seat ``me``: ascending (value, digit mask, probability) rows.

    Deterministic in the public view (and ``priors``): anyone may compute it; only the draw from it is
    secret. ``me`` must be seated and still playing this round.
    """
    return _cached(("hard", _public_key(view), me, _frozen(priors)), lambda: _hard_distribution(view, me, priors))


def opponent_models(view: PublicView, me: str, priors: Priors | None = None
                    ) -> tuple[dict[str, dict[str, float]], list[Dist]]:
    """Each opponent's belief (habits and the types of :data:`OWN_TYPES`) and predicted distribution, as
    the hard level of seat ``me`` sees them."""
    habits, models = habit_models(view, me, priors)
    beliefs: dict[str, dict[str, float]] = {}
    final: list[Dist] = []
    for p in habits:
        # Any opponent may be reading us or playing like us: weigh that too, from its own record. A reader
        # often writes high numbers, so a habit that roughly fits must not hide it.
        belief = posterior(view, p, (priors or {}).get(p), extra=own_type_chances(view, p))
        model = models[p]
        done = 1.0 - sum(belief[k] for k in OWN_TYPES)
        for kind, own in OWN_TYPES.items():
            if belief[kind] >= OWN_FLOOR:
                done += belief[kind]
                model = blend(model, own(view, p), belief[kind] / done if done > 0 else 0.0)
        beliefs[p] = belief
        final.append(model)
    return beliefs, final


def table_profile(view: PublicView, priors: Priors | None = None) -> dict[str, Dist]:
    """In 3 seats or more: every seat's strategy in the turn's approximate equilibrium (see
    :mod:`ai_equilibrium`), each seat modelled from its record as habits, a reader of this code, or a
    player like this one. The same for every seat that computes it (only public facts go in)."""
    return _table_solution(view, priors)[0]


def table_reader(view: PublicView, seat: str) -> Dist:
    """In 3 seats or more: how ``seat`` writes if it reads every other seat's strategy in the profile
    (exactly, or by sampling it: both are in the mix)."""
    return _table_solution(view, None)[1][seat]


def _table_solution(view: PublicView, priors: Priors | None) -> tuple[dict[str, Dist], dict[str, Dist]]:
    return _remembered(_PROFILES, ("table", _public_key(view), _frozen(priors)), lambda: _solve_profile(view, priors))


_PROFILES: dict[tuple[object, ...], tuple[dict[str, Dist], dict[str, Dist]]] = {}


def table_belief(view: PublicView, seat: str, priors: Priors | None = None) -> dict[str, float]:
    """What :func:`table_profile` believes of ``seat``: its habits, and whether it reads this code or
    plays like it (weighed from its record at the past positions rebuilt from the history)."""
    return posterior(view, seat, (priors or {}).get(seat), extra=own_type_chances(view, seat),
                     extra_prior=TABLE_OWN_PRIOR)


def _solve_profile(view: PublicView, priors: Priors | None) -> tuple[dict[str, Dist], dict[str, Dist]]:
    seats = _active(view)
    boards = opponent_boards(view, seats[0])
    beliefs = {p: table_belief(view, p, priors) for p in seats}
    # The solve depends on names only through these: every table's first turn, for one, is the same.
    key = (view.turn, tuple((boards[p], tuple(round(w, 6) for w in beliefs[p].values())) for p in seats))
    profile, readers = _remembered(_SOLVED, key, lambda: _solve(view.turn, [boards[p] for p in seats],
                                                                  [beliefs[p] for p in seats]))
    return dict(zip(seats, profile, strict=True)), dict(zip(seats, readers, strict=True))


_SOLVED: dict[tuple[object, ...], tuple[tuple[Dist, ...], tuple[Dist, ...]]] = {}


def _without(boards: Sequence[int], seat: int) -> tuple[int, ...]:
    return tuple(sorted(b for q, b in enumerate(boards) if q != seat))


def _solve(turn: int, board_list: Sequence[int], belief_list: Sequence[Mapping[str, float]]
           ) -> tuple[tuple[Dist, ...], tuple[Dist, ...]]:
    seats = range(len(board_list))
    boards = dict(zip(seats, board_list, strict=True))
    habits: dict[int, Dist] = {}
    habit_share: dict[int, float] = {}
    reading: dict[int, float] = {}
    for p, belief in zip(seats, belief_list, strict=True):
        own = sum(belief[k] for k in OWN_TYPES)
        habit_share[p] = 1 - own
        # Habits that barely weigh are left out: each costs a model of the seat (the sound ones, several).
        habit = {k: w for k, w in belief.items() if k not in OWN_TYPES and w >= HABIT_FLOOR * (1 - own)}
        total = sum(habit.values())
        habits[p] = predicted_dist({k: w / total for k, w in habit.items()}, boards[p], turn,
                                   _without(board_list, p)) if habit and total >= HABIT_FLOOR else ()
        reading[p] = belief[READER] if belief[READER] >= OWN_FLOOR else 0.0
    worth = {}
    for p in seats:
        if LOOK_AHEAD_FROM <= turn < TURNS_PER_ROUND:
            # Next turn the thinking part of each seat is taken to play soundly (as the normal level).
            ahead = [blend(habits[q], normal_dist(boards[q], turn + 1, _without(board_list, q)), 1 - habit_share[q])
                     for q in seats if q != p]
            worth[p] = next_turn_worth(boards[p], turn, ahead)
        else:
            # Each seat's own board is valued at the approval rates numbers meet in sound play (4 seats,
            # 4xx-9xx numbers: about three times the generic guess); readers keep the generic valuation.
            # Against three predictors 0.35 -> 0.51 of the games (the same 400 seeds); 0.47 on the bench (500).
            worth[p] = _generic_worth(turn + 1, len(seats) - 1, played_approval)
    iterations = TABLE_ITERATIONS if len(seats) <= 4 else TABLE_ITERATIONS_FIVE
    # A reader is taken to value the board it keeps without looking ahead (a quick reader does; against
    # three that sample our mix, the look-ahead model cost 0.34 -> 0.42 of the wins, 100 games).
    generic = {p: _generic_worth(turn + 1, len(seats) - 1) for p in seats}
    # The equilibrium answers the readers' current replies; readers answer whatever a seat commits to.
    power = {p: 1 - FLATTEN * sum(reading[q] for q in seats if q != p) / (len(seats) - 1) for p in seats}
    solved, read = solve_table(boards, turn, worth, habits, habit_share, reading, iterations,
                               TABLE_TEMPERATURE, TABLE_READER_TEMPERATURE, generic, power, SAMPLED_SHARE)
    profile = []
    readers = []
    for p in seats:
        kept = [(v, m, w) for v, m, w in solved[p] if w >= MIX_FLOOR]
        total = sum(w for _, _, w in kept)
        profile.append(tuple((v, m, w / total) for v, m, w in kept))
        # A reader may answer our mixes exactly or softly, looking ahead or not, or answer draws from
        # them: each kind is recognised.
        c, quick, ahead, drawn = read[p]
        exact = blend(softmax_dist(c, quick, READER_TEMPERATURE, floor=MIX_FLOOR),
                      softmax_dist(c, ahead, READER_TEMPERATURE, floor=MIX_FLOOR), 0.5)
        reader = blend(exact, softmax_dist(c, quick, TABLE_READER_TEMPERATURE, floor=MIX_FLOOR), 1 / 3)
        sampler = tuple((x, MASK[x], w) for x, w in zip(c, drawn, strict=True) if w > 0)
        readers.append(blend(reader, sampler, RECOGNISE_SAMPLED))
    return tuple(profile), tuple(readers)


def _hard_distribution(view: PublicView, me: str, priors: Priors | None) -> Dist:
    if _table(view):
        return table_profile(view, priors)[me]
    beliefs, final = opponent_models(view, me, priors)
    mine = available_mask(view.crossed[me])
    c, v = position_values(mine, view.turn, final)
    if len(final) == 1:
        # Heads-up, the round's end is valued by its exact game: the lead over the one opponent.
        (p,) = beliefs
        v = end_of_round_values(mine, available_mask(view.crossed[p]), view.turn, c, final[0]) or v
    mix = softmax_dist(c, v, _temperature(beliefs), floor=MIX_FLOOR)
    if len(final) == 1 and _duels(next(iter(beliefs.values()))):
        # Heads-up against someone who seems to read us: play the turn's zero-sum equilibrium instead.
        (p,) = beliefs
        theirs = available_mask(view.crossed[p])
        their_values = position_values(theirs, view.turn, [mix], careful=False)
        return duel_mix(mine, theirs, view.turn, (c, v), their_values, final[0])
    return mix
