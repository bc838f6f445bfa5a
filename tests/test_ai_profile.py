"""The hard level's solved turn: readers of it are recognised, it mixes, and heads-up it is hard to exploit."""

import math
import random

import numpy as np

from bot.games.thenumber.ai import choose_number
from bot.games.thenumber.ai_mixed import READER, hard_distribution, position_values, solved
from bot.games.thenumber.ai_profile import CANDIDATES, _duel_matrix, tables
from bot.games.thenumber.ai_tables import FULL_MASK, MASK, available_mask
from bot.games.thenumber.engine import PublicView, new_game, play_turn, public_view


def best_reply_to_hard(view: PublicView, me: str) -> str:
    """What a reader of this code writes: the best reply to the hard level's mix in every other seat."""
    others = [hard_distribution(view, p) for p in view.players if p != me and p not in view.exhausted]
    candidates, values = position_values(available_mask(view.crossed[me]), view.turn, others)
    return f"{candidates[max(range(len(values)), key=values.__getitem__)]:03d}"


def test_a_reader_of_the_hard_level_is_recognised_within_three_turns() -> None:
    names = ["h0", "r", "h1", "h2"]
    state = new_game(names)
    rngs = {n: random.Random(f"reader:{n}") for n in names}
    for _ in range(3):
        view = public_view(state)
        numbers = {n: best_reply_to_hard(view, n) if n == "r" else choose_number(view, n, "hard", rngs[n])
                   for n in names if n not in view.exhausted}
        state, _ = play_turn(state, numbers)
    belief = solved(public_view(state)).beliefs["r"]
    assert belief[READER] > 0.5, belief


def entropy_bits(dist: tuple[tuple[int, int, float], ...]) -> float:
    return -sum(p * math.log2(p) for _, _, p in dist if p > 0)


def test_against_unknown_players_the_mix_has_entropy_and_is_legal() -> None:
    view = public_view(new_game(["a", "b", "c", "d"]))
    for me in view.players:
        dist = hard_distribution(view, me)
        assert abs(sum(p for _, _, p in dist) - 1) < 1e-9
        assert all(MASK[v] == m for v, m, _ in dist)
        assert entropy_bits(dist) > 0.5, dist  # more than one sensible number, drawn in secret


def test_heads_up_no_reply_gains_much_against_the_first_turn_mix() -> None:
    """Turn 1 heads-up, scored as our points minus theirs: the best reply to hard's mix gains under 2.5 points
    (a deterministic choice would lose several)."""
    view = public_view(new_game(["h", "x"]))
    dist = hard_distribution(view, "h")
    mix = np.zeros(len(CANDIDATES))
    for v, _, p in dist:
        mix[CANDIDATES.index(v)] = p
    table = _duel_matrix(tables(), FULL_MASK, FULL_MASK, 1)  # [ours, theirs]: our gain minus theirs
    worst = float((mix @ table).min())
    assert worst > -2.5, worst
    pure = int(np.argmax(mix))
    assert float(table[pure].min()) < worst - 2.0
