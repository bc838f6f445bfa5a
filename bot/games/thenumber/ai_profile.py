"""One turn as a game between every seat: a smoothed fictitious play over all boards at once (pure).

Each seat still playing is modelled as a mixture: the fixed habits the beliefs found in its record
(:mod:`ai_beliefs`), plus a share that *thinks*, i.e. answers what everybody else is expected to write.
The thinking shares are solved together: each round of the play, every thinking seat answers the
current average profile with a logit (softmax) reply, and the averages move towards those replies.
The result is an approximate quantal-response equilibrium of the turn: a reader who runs this code and
best-replies to it gains little, because the profile already contains readers' replies.

Heads-up the turn is scored as zero-sum (our points minus theirs): with two seats, every point the other
scores is one we must win back, and a player maximising only its own points is beaten by a mix that is
safe in the difference.

Everything here is a function of the public view, so one profile per position serves every seat (and
any reader) from a cache. numpy does the number crunching: 460 candidates x 1000 numbers per seat.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from .ai_future import future_table
from .ai_tables import FULL_MASK, MASK, POPCOUNT, canonical_numbers
from .rules import TURNS_PER_ROUND, bonus_for, multiplier_for

# Softmax temperatures (in points) of the two thinking types: a player who weighs the points of every
# number softly, and a reader who picks (almost) the best reply to everyone else.
THINKER_TEMPERATURE = 0.45
READER_TEMPERATURE = 0.15
ROUNDS = 12  # fictitious-play rounds: the profile moves little after about ten
# Weight of what a candidate takes from the others, shared among them (see ``_own_values``). Off: at 1.5
# (4 seats, 40 games each) a best responder took 0.80-0.93 of the games against three hard seats, which
# spent their numbers knocking each other out, and hard fell against three predictors too.
RIVALRY = 0.0

CANDIDATES: tuple[int, ...] = canonical_numbers(FULL_MASK)


@dataclass(frozen=True)
class Tables:
    """Facts about the candidates as arrays (built once, on first use). Every number is represented by
    its candidate (same first digit and digits, the smallest such number): 460 columns instead of 1000,
    at the price of a slightly low value for numbers such as 987 (seen as 978)."""

    cand: np.ndarray  # candidate values (460), ascending
    cand_mask: np.ndarray
    block: np.ndarray  # [i, j]: candidate j is smaller than candidate i and shares a digit (j eliminates i)
    free_above: np.ndarray  # [i, j]: candidate j is bigger than candidate i and shares no digit
    share: np.ndarray  # [i, j] bool: candidates i and j share a digit
    first: np.ndarray  # first digit of each candidate
    popcount: np.ndarray
    index_of: np.ndarray  # for each of the 1000 numbers, the index of its candidate


@cache
def tables() -> Tables:
    from .ai_beliefs import CANONICAL
    cand = np.array(CANDIDATES)
    masks = np.array(MASK)[cand]
    share = (masks[:, None] & masks[None, :]) != 0
    block = (share & (cand[None, :] < cand[:, None])).astype(np.float64)
    free = (~share & (cand[None, :] > cand[:, None])).astype(np.float64)
    position = {v: i for i, v in enumerate(CANDIDATES)}
    return Tables(cand=cand, cand_mask=masks, block=block, free_above=free, share=share, first=cand // 100,
                  popcount=np.array(POPCOUNT)[masks], index_of=np.array([position[CANONICAL[v]] for v in range(1000)]))


@dataclass(frozen=True)
class Seat:
    """One seat of the profile: its board, what of it is fixed habit, and how much of it thinks."""

    board: int
    fixed: np.ndarray  # weight over the candidates of the habit part (sums to 1 - thinker - reader)
    thinker: float
    reader: float
    temperature: float  # how softly the hard level would play this seat (it depends on the others)
    # How much knocking this seat's numbers out is worth (see ``_own_values``): players who do not think
    # (habits, readers) are the ones whose numbers can be predicted and knocked out; attacking thinkers
    # only wastes points that the rest of the table collects.
    prey: float = 0.0


@dataclass(frozen=True)
class Profile:
    """The solved turn. Per seat, over CANDIDATES (-inf where the board does not allow a candidate):

    * ``dists``: what the seat is expected to write (its beliefs' mixture);
    * ``values``: each candidate's worth against the others' ``dists`` (what the hard level answers);
    * ``hards``: what the hard level would write in that seat (softmax of ``values``);
    * ``read_values``: each candidate's worth against the others' ``hards``: what a reader of the hard
      level, one who runs this code for every other seat and best-replies, answers.
    """

    dists: tuple[np.ndarray, ...]
    values: tuple[np.ndarray, ...]
    hards: tuple[np.ndarray, ...]
    read_values: tuple[np.ndarray, ...]


def softmax_legal(values: np.ndarray, temperature: float) -> np.ndarray:
    """A softmax over the legal candidates (values of -inf get nothing)."""
    best = values.max()
    w = np.exp((values - best) / temperature)
    return w / w.sum()


def _worth(turn: int, opponents: int) -> np.ndarray:
    if turn + 1 > TURNS_PER_ROUND:
        return np.zeros(FULL_MASK + 1)
    return np.array(future_table(max(1, opponents))[turn + 1])


def _apply(table: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``table @ row`` for every row. One matrix-vector product per seat on purpose: the matrix-matrix
    product runs on BLAS threads, which on a busy machine took 30-50 ms instead of under one."""
    return np.stack([table @ row for row in rows])


def _own_values(t: Tables, seats: Sequence[Seat], dists: np.ndarray, turn: int, legal: list[np.ndarray],
                after: list[np.ndarray], stay: list[float], rivalry: float = 0.0) -> list[np.ndarray]:
    """Each seat's expected points and board worth per candidate, against the others' distributions.

    ``rivalry`` > 0 also counts, at that weight times each seat's ``prey``, what a candidate takes from
    the others: the points and digits of every bigger number it eliminates. Only the final scores' order
    wins a game, so knocking out three players who all wrote 901 is worth far more than the point 109
    scores.
    """
    n = len(seats)
    spared = 1.0 - _apply(t.block, dists)  # [k, j]: chance seat k does not eliminate candidate j
    mult, bonus = multiplier_for(turn), bonus_for(turn)
    # An opponent's bigger number takes the bonus only if the other seats spare it.
    hopeful = np.empty_like(dists)
    for k in range(n):
        alive = np.ones(len(t.cand))
        for j in range(n):
            if j != k:
                alive *= spared[j]
        hopeful[k] = dists[k] * alive
    above = _apply(t.free_above, hopeful)  # [k, i]: chance seat k writes a free, surviving number above candidate i
    out = []
    for s in range(n):
        approve = np.ones(len(t.cand))
        top = np.ones(len(t.cand))
        for o in range(n):
            if o != s:
                approve *= spared[o]
                top *= np.clip(1.0 - above[o], 0.0, 1.0)
        won = t.first * mult + bonus * top + t.popcount + after[s]
        v = approve * won + (1 - approve) * stay[s]
        if rivalry > 0:
            taken = np.zeros(len(t.cand))
            for o in range(n):
                if o != s:
                    alive = np.ones(len(t.cand))
                    for k in range(n):
                        if k not in (o, s):
                            alive *= spared[k]
                    taken += seats[o].prey * dists[o] * alive * (t.first * mult + t.popcount + after[o] - stay[o])
            v = v + rivalry * (t.block.T @ taken)  # block[j, i]: candidate i eliminates a bigger j
        out.append(np.where(legal[s], v, -np.inf))
    return out


def _duel_matrix(t: Tables, mine: int, theirs: int, turn: int) -> np.ndarray:
    """``[i, j]``: our gain minus theirs when we write candidate i and they write candidate j (heads-up)."""
    mult, bonus = multiplier_for(turn), bonus_for(turn)
    w = _worth(turn, 1)
    x = t.cand[:, None]
    y = t.cand[None, :]
    x_ok = ~(t.share & (y < x))
    y_ok = ~(t.share & (x < y))
    x_top = x_ok & (~y_ok | (x >= y))
    y_top = y_ok & (~x_ok | (y >= x))
    after_me = (t.popcount + w[mine & ~t.cand_mask])[:, None]
    after_them = (t.popcount + w[theirs & ~t.cand_mask])[None, :]
    gain = np.where(x_ok, t.first[:, None] * mult + bonus * x_top + after_me, w[mine])
    loss = np.where(y_ok, t.first[None, :] * mult + bonus * y_top + after_them, w[theirs])
    return gain - loss


def solve(seats: Sequence[Seat], turn: int, rounds: int = ROUNDS) -> Profile:
    """Smoothed fictitious play of the turn; each seat's thinking share splits into thinker and reader."""
    t = tables()
    n = len(seats)
    worth = _worth(turn, n - 1)
    legal = [(t.cand_mask & ~s.board) == 0 for s in seats]
    after = [worth[s.board & ~t.cand_mask] for s in seats]
    stay = [float(worth[s.board]) for s in seats]
    duel = [_duel_matrix(t, seats[0].board, seats[1].board, turn),
            _duel_matrix(t, seats[1].board, seats[0].board, turn)] if n == 2 else None

    rivalry = min(1.0, RIVALRY / max(1, n - 1))

    def values_of(dists: np.ndarray, rival: bool) -> list[np.ndarray]:
        if duel is None:
            return _own_values(t, seats, dists, turn, legal, after, stay, rivalry if rival else 0.0)
        # Heads-up: each seat's own table (its candidates against the other's numbers) and the other's mix.
        return [np.where(legal[0], duel[0] @ dists[1], -np.inf), np.where(legal[1], duel[1] @ dists[0], -np.inf)]

    def replies(values: list[np.ndarray], read: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        rows, hard = [], []
        for s, v, r in zip(seats, values, read, strict=True):
            think = np.zeros(len(t.cand))
            if s.thinker > 0:
                think += s.thinker * softmax_legal(v, THINKER_TEMPERATURE)
            if s.reader > 0:
                # A reader answers what the hard level would write in every other seat, not what those
                # seats are: that is the mistake a reader of this code makes, and what we answer.
                think += s.reader * softmax_legal(r, READER_TEMPERATURE)
            rows.append(s.fixed + think)
            hard.append(softmax_legal(v, s.temperature))
        return np.array(rows), np.array(hard)

    # Start from the thinking shares spread evenly over each board's candidates.
    start = [np.where(legal[k], 1.0, 0.0) for k in range(n)]
    dists = np.array([s.fixed + (s.thinker + s.reader) * st / st.sum()
                      for s, st in zip(seats, start, strict=True)])
    hards = np.array([st / st.sum() for st in start])
    values, read = values_of(dists, True), values_of(hards, False)
    for r in range(1, rounds + 1):
        step = 2.0 / (r + 2)  # a little faster than plain averaging, still settling
        new_dists, new_hards = replies(values, read)
        dists = dists + step * (new_dists - dists)
        hards = hards + step * (new_hards - hards)
        values, read = values_of(dists, True), values_of(hards, False)
    final_hards = tuple(softmax_legal(v, s.temperature) for s, v in zip(seats, values, strict=True))
    return Profile(dists=tuple(dists), values=tuple(values), hards=final_hards, read_values=tuple(read))


def class_chance(values: np.ndarray, temperature: float, number: int) -> float:
    """Chance that a softmax over ``values`` (candidates) writes ``number``'s class."""
    return float(softmax_legal(values, temperature)[tables().index_of[number]])
