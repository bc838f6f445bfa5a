"""The hard level: beliefs that recognise habits, a real mixed strategy, replays, and no peeking."""

import random
from collections.abc import Callable, Sequence

from bot.games.thenumber.ai import LEVEL_DESCRIPTIONS, LEVELS, choose_number
from bot.games.thenumber.ai_beliefs import DEFAULT_PRIOR, TYPES, normal_dist, posterior, prior_from_past_games
from bot.games.thenumber.ai_duel import duel_mix, last_turn_value, solve_exact, solve_game
from bot.games.thenumber.ai_mixed import _public_key, hard_distribution, past_views, position_values, table_belief
from bot.games.thenumber.ai_model import easy_dist
from bot.games.thenumber.ai_tables import FULL_MASK, MASK, available_mask, legal_numbers
from bot.games.thenumber.check import Entry, check_turn
from bot.games.thenumber.engine import GameState, choose, new_game, play_turn, public_view, validate_choice

Player = Callable[[GameState, str, random.Random], str]


def repeats_digits(state: GameState, me: str, rng: random.Random) -> str:
    return str(rng.choice(sorted(state.available(me)))) * 3


def always_high(state: GameState, me: str, rng: random.Random) -> str:
    return str(max(state.available(me))) * 3


def plays_normal(state: GameState, me: str, rng: random.Random) -> str:
    return choose_number(public_view(state), me, "normal", rng)


def plays_hard(state: GameState, me: str, rng: random.Random) -> str:
    return choose_number(public_view(state), me, "hard", rng)


def reads_hard(state: GameState, me: str, rng: random.Random) -> str:
    """Computes every other seat's hard distribution and writes the best reply to them."""
    view = public_view(state)
    models = [hard_distribution(view, p) for p in view.players if p != me and p not in view.exhausted]
    candidates, values = position_values(available_mask(view.crossed[me]), view.turn, models)
    return f"{candidates[max(range(len(values)), key=values.__getitem__)]:03d}"


def play(players: Sequence[Player], turns: int, seed: int = 0) -> GameState:
    names = [f"p{i}" for i in range(len(players))]
    state = new_game(names)
    rng = random.Random(seed)
    for _ in range(turns):
        numbers = {n: p(state, n, rng) for n, p in zip(names, players, strict=True) if not state.is_exhausted(n)}
        state, _ = play_turn(state, numbers)
    return state


def test_a_player_who_repeats_digits_is_recognised_within_three_turns() -> None:
    state = play([plays_normal, repeats_digits, plays_normal], turns=3, seed=4)
    belief = posterior(public_view(state), "p1")
    assert set(belief) == set(TYPES)
    assert belief["repeat"] > 0.8, belief


def test_a_player_who_always_goes_high_is_recognised_within_three_turns() -> None:
    state = play([plays_normal, always_high, plays_normal, plays_normal], turns=3, seed=2)
    belief = posterior(public_view(state), "p1")
    assert belief["high_repeat"] > 0.8, belief


def test_a_player_who_reads_the_hard_level_is_recognised_whatever_it_writes() -> None:
    """A reader often writes high numbers; the "high" habit must not hide it from the hard seats."""
    state = play([plays_hard, reads_hard, plays_hard, plays_hard], turns=4, seed=3)
    assert table_belief(public_view(state), "p1")["reader"] > 0.8


def test_before_any_turn_beliefs_are_the_prior_and_a_prior_can_be_given() -> None:
    view = public_view(new_game(["a", "b"]))
    assert max(posterior(view, "b").values()) < 0.5
    told = posterior(view, "b", {"high_repeat": 0.9, "normal": 0.1})
    assert told["high_repeat"] > 0.8


def points_against(number: int, others: Sequence[str], turn: int) -> int:
    entries = {"me": Entry(f"{number:03d}"), **{f"o{i}": Entry(n) for i, n in enumerate(others)}}
    return check_turn(turn, entries)["me"].points


def test_hard_answers_a_table_it_has_seen_always_going_high() -> None:
    """Three players wrote 999, 888, 777: hard expects 666 and plays close to the best answer to it."""
    state = new_game(["h", "x", "y", "z"])
    for mine, theirs in (("111", "999"), ("222", "888"), ("333", "777")):
        state, _ = play_turn(state, {"h": mine, "x": theirs, "y": theirs, "z": theirs})
    view = public_view(state)
    assert posterior(view, "x")["high_repeat"] > 0.8
    expected = sum(p * points_against(v, ["666"] * 3, view.turn) for v, _, p in hard_distribution(view, "h"))
    best = max(points_against(v, ["666"] * 3, view.turn) for v in legal_numbers(available_mask(view.crossed["h"])))
    assert expected > 0.8 * best


def test_a_prior_from_past_games_remembers_a_habit() -> None:
    past = play([plays_normal, always_high, plays_normal], turns=10, seed=8)
    prior = prior_from_past_games([(public_view(past), "p1")])
    assert abs(sum(prior.values()) - 1) < 1e-9
    assert prior["high_repeat"] > 0.4
    assert prior_from_past_games([]) == dict(DEFAULT_PRIOR)


def test_the_priors_hook_changes_the_opening() -> None:
    view = public_view(new_game(["a", "b", "c", "d"]))
    told = {p: {"high_repeat": 1.0} for p in ("b", "c", "d")}
    dist = hard_distribution(view, "a", told)
    assert sum(p for v, m, p in dist if m & MASK[999] and v < 999) > 0.7


def test_the_distribution_is_legal_and_sums_to_one() -> None:
    state = play([plays_normal] * 4, turns=3, seed=3)
    view = public_view(state)
    for me in state.players:
        if state.is_exhausted(me):
            continue
        dist = hard_distribution(view, me)
        assert abs(sum(p for _, _, p in dist) - 1) < 1e-9
        board = available_mask(view.crossed[me])
        assert all(m & ~board == 0 and MASK[v] == m for v, m, _ in dist)


def test_hard_mixes_in_typical_positions() -> None:
    """At a table of hard seats (each a reader's target), support above one and two different generators
    giving different numbers in a good share of positions."""
    mixed_positions = 0
    differ = 0
    for seed in range(3):
        for turns in (1, 2, 3, 6, 7, 8):
            state = play([plays_hard] * 4, turns=turns, seed=seed)
            view = public_view(state)
            dist = hard_distribution(view, "p0")
            mixed_positions += len([row for row in dist if row[2] > 0.02]) > 1
            picks = {choose_number(view, "p0", "hard", random.Random(k)) for k in range(8)}
            differ += len(picks) > 1
    assert mixed_positions >= 5  # of 18
    assert differ >= 4


def test_same_generator_same_choice_along_a_whole_game() -> None:
    def game(seed: int) -> list[str]:
        names = ["h", "x", "y"]
        state = new_game(names)
        rngs = {n: random.Random(f"{seed}:{n}") for n in names}
        written = []
        while not state.finished:
            view = public_view(state)
            numbers = {n: choose_number(view, n, "hard", rngs[n]) for n in names if n not in view.exhausted}
            for n, number in numbers.items():
                assert validate_choice(state, n, number) == number
            written.extend(numbers.values())
            state, _ = play_turn(state, numbers)
        return written

    assert game(5) == game(5)


def test_past_positions_are_rebuilt_exactly() -> None:
    names = ["a", "b", "c"]
    state = new_game(names)
    rng = random.Random(9)
    keys = []
    for _ in range(7):
        keys.append(_public_key(public_view(state)))
        state, _ = play_turn(state, {n: plays_normal(state, n, rng) for n in names if not state.is_exhausted(n)})
    assert [_public_key(v) for v in past_views(public_view(state))] == keys


def test_pending_numbers_do_not_change_the_hard_distribution_mid_game() -> None:
    state = play([plays_normal, always_high, repeats_digits, plays_normal], turns=4, seed=6)
    rng = random.Random(1)
    for me in state.players:
        if state.is_exhausted(me):
            continue
        clean = hard_distribution(public_view(state), me)
        dirty = state
        for p in state.players:
            if p != me and not state.is_exhausted(p):
                digits = sorted(state.available(p))
                dirty = choose(dirty, p, "".join(str(rng.choice(digits)) for _ in range(3)))
        assert public_view(dirty).chosen  # the poison is really there
        assert hard_distribution(public_view(dirty), me) == clean
        assert choose_number(public_view(dirty), me, "hard", random.Random(3)) == \
            choose_number(public_view(state), me, "hard", random.Random(3))


def test_every_level_has_a_description() -> None:
    assert set(LEVEL_DESCRIPTIONS) == set(LEVELS)
    assert all(text.strip() for text in LEVEL_DESCRIPTIONS.values())


def test_the_duel_solver_finds_the_mixed_equilibrium() -> None:
    """Matching pennies: the only equilibrium is half and half; a dominant row is played for sure."""
    half, _ = solve_game([[1.0, -1.0], [-1.0, 1.0]])
    assert abs(half[0] - 0.5) < 0.05
    dominant, _ = solve_game([[2.0, 2.0], [0.0, 1.0]])
    assert dominant[0] > 0.95


def test_the_exact_solver_finds_the_value_and_an_unbeatable_mix() -> None:
    """Rock-paper-scissors is a third each and worth nothing; a saddle point is found as one pure row."""
    weights, value = solve_exact([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    assert abs(value) < 1e-9 and max(abs(w - 1 / 3) for w in weights) < 1e-9
    weights, value = solve_exact([[10.0, -20.0, -22.0, 0.0], [12.0, 11.0, 9.0, 10.0]])
    assert value == 9.0 and weights[1] == 1.0


def test_the_last_turn_is_valued_exactly() -> None:
    """A 9 against an 8 on the doubled last turn: 999 (18 + 8 + one digit) beats 888 (16 + one digit)."""
    assert last_turn_value(1 << 9, 1 << 8) == 10.0
    assert last_turn_value(0, 1 << 8) == -25.0  # sitting out, the other scores 16 + 8 + 1 unopposed


def test_heads_up_against_a_reader_hard_mixes_legal_numbers() -> None:
    state = new_game(["h", "r"])
    view = public_view(state)
    dist = duel_mix(available_mask(view.crossed["h"]), available_mask(view.crossed["r"]), 1,
                    position_values(1023, 1, [hard_distribution(view, "r")]),
                    position_values(1023, 1, [hard_distribution(view, "h")], careful=False),
                    hard_distribution(view, "r"))
    assert abs(sum(p for _, _, p in dist) - 1) < 1e-9
    assert len([row for row in dist if row[2] > 0.02]) > 1


def test_the_levels_are_distinct_easy_wastes_the_doubled_last_turn() -> None:
    """On the doubled last turn with every digit free, a beginner often writes a low first digit; normal
    almost never does."""
    def low(dist: tuple[tuple[int, int, float], ...]) -> float:
        return sum(p for v, _, p in dist if v // 100 < 5)

    assert low(easy_dist(FULL_MASK)) > 0.4
    assert low(normal_dist(FULL_MASK, 5, (FULL_MASK,) * 3)) < 0.1
