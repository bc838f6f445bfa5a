"""The turn as a game between every seat still playing: an approximate equilibrium, found fast (pure).

A reader who runs the hard level's code knows its distribution; the defence is a distribution that leaves
no number much better than the mix itself against what the others play. :func:`solve_table` finds such a
profile for a whole table by smooth fictitious play: each seat answers the others' average play with a
softmax of its values, and its strategy is the (recency-weighted) average of those answers. Each seat
plays part of its time by habit (a fixed distribution), part as a reader (a sharp answer to the others'
strategies, which it can compute as well as we can, or the best answer to a few draws from them, as a
reader running this code with a generator of its own writes), and the rest by the strategy being solved for.

The values are the hard level's (points, bonus when no bigger number survives the others, digits crossed,
the board's worth afterwards), written as matrix products over the seats' canonical numbers.
"""

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

import numpy as np

from .ai_model import Dist, block_chances, free_above_weight
from .ai_tables import MASK, POPCOUNT, canonical_numbers
from .rules import bonus_for, multiplier_for

S = TypeVar("S")  # how the caller names its seats

STRATEGY_SIZE = 100  # each seat mixes over at most this many numbers: its best against the habits
START_HEAT = 4.0  # the first answers are this much softer; the temperature cools to its target
WIDEN, WIDEN_EVERY = 16, 8  # every few iterations each seat may also mix over its best numbers by then
RECENCY = 2.0  # later answers weigh more in the average (the first ones answer poor guesses)
# A reader may also answer a few draws from each strategy (it runs the code with its own generator), not
# the strategy itself: its answer is then the best number against those draws. Modelled by this many
# simulated readers, a third answering each number of draws per seat. (Readers of 1, 2, 4 and 8 draws, with
# 64 of them and three quarters of a reader's play sampled: 4 seats against three readers of 2, 3 and 4
# draws 0.385, 0.427, 0.490 against 0.469, 0.398, 0.420 here, 200 games each on the same seeds, and the
# decisions slower: not kept.)
SAMPLED_READERS = 48
SAMPLED_DRAWS = (1, 2, 4)
_READER_DRAWS = np.repeat(SAMPLED_DRAWS, SAMPLED_READERS // len(SAMPLED_DRAWS))
_READER_STARTS = np.concatenate([[0], np.cumsum(_READER_DRAWS)[:-1]])
_SAMPLED_PROFILES = int(_READER_DRAWS.sum())
SAMPLED_EVERY = 8  # iterations between two renewals of their answers (the strategies move slowly)


@lru_cache(maxsize=32)  # boards repeat (every round starts with full boards); kept as booleans: 0.4 MB a pair
def _matrices(a_board: int, b_board: int) -> tuple[np.ndarray, np.ndarray]:
    """For the canonical numbers a of one board (rows) against those b of another (columns): whether b
    eliminates a; whether b is bigger and shares no digit with a."""
    a_values, a_masks = _numbers(a_board)
    b_values, b_masks = _numbers(b_board)
    share = (a_masks[:, None] & b_masks[None, :]) != 0
    blocks = share & (b_values[None, :] < a_values[:, None])
    free_above = ~share & (b_values[None, :] > a_values[:, None])
    blocks.setflags(write=False)  # shared through the cache
    free_above.setflags(write=False)
    return blocks, free_above


@lru_cache(maxsize=64)
def _numbers(board: int) -> tuple[np.ndarray, np.ndarray]:
    numbers = canonical_numbers(board)
    return np.array(numbers, dtype=np.int64), np.array([MASK[x] for x in numbers], dtype=np.int64)


def solve_table(boards: Mapping[S, int], turn: int, worth: Mapping[S, Sequence[float]],
                habits: Mapping[S, Dist], habit_share: Mapping[S, float], reader_share: Mapping[S, float],
                iterations: int, temperature: float, reader_temperature: float,
                reader_worth: Mapping[S, Sequence[float]] | None = None, power: Mapping[S, float] | None = None,
                sampled: float = 0.0
                ) -> tuple[dict[S, Dist], dict[S, tuple[tuple[int, ...], list[float], list[float], list[float]]]]:
    """Each seat's strategy (over its canonical numbers) in an approximate equilibrium of this turn.

    ``worth[p]`` is what each of p's boards is worth when the next turn starts; ``habits[p]`` and
    ``habit_share[p]`` the part of p's play that does not think; ``reader_share[p]`` the part that answers
    the others' strategies at ``reader_temperature``; the rest plays the strategy solved for. A reader
    values the board it keeps by ``reader_worth`` (default ``worth``). ``power[p]``, if given, flattens
    (below 1) each seat's final strategy to its weights ** power, normalised, before the readers' values.

    Returns the strategies, and each seat's values (over its canonical numbers) as a reader of the others'
    final strategies: what a seat that reads the table would weigh, valuing the board it keeps by
    ``reader_worth`` and by ``worth``, and how often each of its numbers is a sampling reader's answer.
    ``sampled`` is the share of a reader's play that answers draws (see :data:`SAMPLED_READERS`).
    """
    seats = list(boards)
    others = {p: [q for q in seats if q != p] for p in seats}
    mult, bonus = multiplier_for(turn), bonus_for(turn)
    cand = {p: canonical_numbers(boards[p]) for p in seats}

    def gains(table: Mapping[S, Sequence[float]]) -> tuple[dict[S, np.ndarray], dict[S, float]]:
        return ({p: np.array([(x // 100) * mult + POPCOUNT[MASK[x]] + table[p][boards[p] & ~MASK[x]]
                              for x in cand[p]]) for p in seats},
                {p: table[p][boards[p]] for p in seats})

    valued = {False: gains(worth), True: gains(reader_worth or worth)}
    habit_block: dict[tuple[S, S], np.ndarray | float] = {}
    habit_free: dict[tuple[S, S], np.ndarray | float] = {}
    for p in seats:
        for q in others[p]:
            counts = bool(habits[q]) and habit_share[q] > 0
            habit_block[p, q] = np.array(block_chances(cand[p], habits[q])) if counts else 0.0
            habit_free[p, q] = np.array(free_above_weight(cand[p], habits[q])) if counts else 0.0
    full = {(p, q): _matrices(boards[p], boards[q]) for p in seats for q in others[p]}
    # The first guess of what each seat may mix over: its best numbers against the habits, the thinking
    # part of every other seat taken as uniform (row sums of the matrices: no product needed).
    first = {}
    won, stay = valued[False]
    for p in seats:
        approve = np.ones(len(cand[p]))
        top = np.ones(len(cand[p]))
        for q in others[p]:
            blocks, frees = full[p, q]
            thinking = (1 - habit_share[q]) / blocks.shape[1]
            approve *= 1 - (thinking * blocks.sum(axis=1) + habit_share[q] * habit_block[p, q])
            top *= np.maximum(1 - (thinking * frees.sum(axis=1) + habit_share[q] * habit_free[p, q]), 0.0)
        first[p] = approve * (won[p] + bonus * top) + (1 - approve) * stay[p]
    pick = {p: np.sort(np.argsort(-first[p])[:STRATEGY_SIZE]) for p in seats}  # what each seat mixes over
    # Two sets of matrices, both with the picked numbers as columns: all numbers as rows (to value every
    # number, now and then) and the picked ones only (for the iterations, which only need those).
    wide: dict[tuple[S, S], tuple[np.ndarray, np.ndarray]] = {}
    narrow: dict[tuple[S, S], tuple[np.ndarray, np.ndarray]] = {}
    habit_narrow: dict[tuple[S, S], tuple[np.ndarray | float, np.ndarray | float]] = {}

    def build() -> None:
        for p, q in full:
            blocks, frees = (m[:, pick[q]].astype(np.float64) for m in full[p, q])
            wide[p, q] = blocks, frees
            narrow[p, q] = blocks[pick[p]], frees[pick[p]]
            hb, hf = habit_block[p, q], habit_free[p, q]
            habit_narrow[p, q] = (hb[pick[p]] if isinstance(hb, np.ndarray) else 0.0,
                                  hf[pick[p]] if isinstance(hf, np.ndarray) else 0.0)

    def values_of(plays: Mapping[S, np.ndarray], habit: Mapping[S, float], who: Sequence[S], reading: bool,
                  every: bool) -> dict[S, np.ndarray]:
        """The values of the seats in ``who`` when each seat plays ``plays`` (over its picked numbers) plus
        ``habit`` of its habits; as a reader values them if ``reading``; for every number if ``every``
        (else for the picked ones)."""
        won, stay = valued[reading]
        kept = {}
        for a, b in full:
            matrices, habits_of = (wide[a, b], (habit_block[a, b], habit_free[a, b])) if every and a in who \
                else (narrow[a, b], habit_narrow[a, b])
            blocked = matrices[0] @ plays[b]
            kept[a, b] = 1 - (blocked + habit[b] * habits_of[0] if habit[b] else blocked)
        out = {}
        for p in who:
            approve = None
            top = None
            for q in others[p]:
                approve = kept[p, q] if approve is None else approve * kept[p, q]
                alive = plays[q]  # q's numbers weighted by the chance the third seats spare them
                for r in others[q]:
                    if r != p:
                        alive = alive * (kept[q, r][pick[q]] if every and q in who else kept[q, r])
                matrices, habits_of = (wide[p, q], habit_free[p, q]) if every else \
                    (narrow[p, q], habit_narrow[p, q][1])
                above = matrices[1] @ alive
                if habit[q]:
                    above = above + habit[q] * habits_of
                spared = np.maximum(1 - above, 0.0)
                top = spared if top is None else top * spared
            gain, keep = (won[p], stay[p]) if every else (won[p][pick[p]], stay[p])
            out[p] = approve * (gain + bonus * top) + (1 - approve) * keep
        return out

    def sampled_reply(p: S, plays: Mapping[S, np.ndarray], every: bool) -> np.ndarray:
        """How often each of p's numbers (every one, or the picked ones) is the best answer of a reader who
        draws a few numbers from each other seat's strategy ``plays`` (over its picked numbers) and answers
        those draws, drawn by a fixed generator: the model is the same for every seat that computes it.
        Reader i's draws are the columns from _READER_STARTS[i] on (one column: one number of each seat)."""
        generator = np.random.default_rng(0)
        drawn = {q: generator.choice(len(plays[q]), size=_SAMPLED_PROFILES, p=plays[q] / plays[q].sum())
                 for q in others[p]}
        won, stay = valued[True]  # a reader values the board it keeps as a quick reader does
        approved: np.ndarray | float = 1.0
        spared: np.ndarray | float = 1.0  # no bigger surviving draw shares no digit with the number
        for q in others[p]:
            blocks, frees = wide[p, q] if every else narrow[p, q]
            approved = approved * (1 - blocks[:, drawn[q]])
            alive = np.ones(_SAMPLED_PROFILES)  # q's draw survives the other draws of its profile
            for r in others[q]:
                if r != p:
                    alive = alive * ~full[q, r][0][pick[q][drawn[q]], pick[r][drawn[r]]]
            spared = spared * (1 - frees[:, drawn[q]] * alive)
        gain = won[p] if every else won[p][pick[p]]
        outcome = approved * (gain[:, None] + bonus * spared - stay[p])
        best = np.add.reduceat(outcome, _READER_STARTS, axis=1).argmax(axis=0)
        counts = np.bincount(best, minlength=len(gain)).astype(np.float64)
        return counts / counts.sum()

    def soft(v: np.ndarray, t: float) -> np.ndarray:
        weights = np.exp((v - v.max()) / t)
        return weights / weights.sum()

    def widen(found: Mapping[S, np.ndarray]) -> None:
        """Let each seat also mix over its best numbers by the latest values of every number (a reader's
        sharp answer may lie outside the first choice)."""
        for q, v in found.items():
            best = np.argsort(-v)[:WIDEN]
            new = best[~np.isin(best, pick[q])]
            if len(new):
                pick[q] = np.concatenate([pick[q], new])
                sigma[q] = np.concatenate([sigma[q], np.zeros(len(new))])
                for answers in (read, by_draws):
                    if q in answers:
                        answers[q] = np.concatenate([answers[q], np.zeros(len(new))])

    build()
    sigma = {p: soft(first[p][pick[p]], temperature * START_HEAT) for p in seats}
    readers = [p for p in seats if reader_share[p] > 0]
    no_habit = {p: 0.0 for p in seats}
    read: dict[S, np.ndarray] = {}
    by_draws: dict[S, np.ndarray] = {}  # the sampling readers' answers, renewed every SAMPLED_EVERY iterations
    for k in range(iterations):
        # A reader answers the strategies themselves (it runs this code), not the habits mixed in.
        every = k % WIDEN_EVERY == WIDEN_EVERY - 1 and k < iterations - WIDEN_EVERY
        # The readers' answers move slowly (the strategies are running averages): every other iteration.
        read_values = values_of(sigma, no_habit, readers, True, every) if readers and (every or k % 2 == 0) \
            else {}
        if read_values and sampled and (every or k % SAMPLED_EVERY == 0):
            by_draws = {p: sampled_reply(p, sigma, False) for p in read_values}
        if read_values:
            read = {p: soft(v[pick[p]] if every else v, reader_temperature) for p, v in read_values.items()}
            if sampled:
                read = {p: (1 - sampled) * r + sampled * by_draws[p] for p, r in read.items()}
        plays = {p: (1 - habit_share[p] - reader_share[p]) * sigma[p] + reader_share[p] * read.get(p, 0.0)
                 for p in seats}
        replies = values_of(plays, habit_share, seats, False, every)
        if every:
            widen(replies)
            widen(read_values)
            build()
            replies = {p: v[pick[p]] for p, v in replies.items()}
        heat = START_HEAT ** (1 - k / max(1, iterations - 1))
        step = (RECENCY + 1) / (k + 2 + RECENCY)
        sigma = {p: sigma[p] + step * (soft(replies[p], temperature * heat) - sigma[p]) for p in seats}
    if power:  # the readers are valued against what is played, the flattened strategies
        sigma = {p: sigma[p] ** power[p] / (sigma[p] ** power[p]).sum() for p in seats}
    strategies = {}
    for p in seats:
        weights = np.zeros(len(cand[p]))
        weights[pick[p]] = sigma[p]
        strategies[p] = tuple((x, MASK[x], float(w)) for x, w in zip(cand[p], weights, strict=True) if w > 0)
    quick = values_of(sigma, no_habit, seats, True, True)
    ahead = values_of(sigma, no_habit, seats, False, True)
    drawn = {p: sampled_reply(p, sigma, True).tolist() for p in seats}
    return strategies, {p: (cand[p], quick[p].tolist(), ahead[p].tolist(), drawn[p]) for p in seats}
