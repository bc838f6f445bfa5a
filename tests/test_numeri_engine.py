"""Numeri's engine: RULES.md's worked examples, the precise decisions, errors and the rules table."""

from __future__ import annotations

import pytest

from bot.core.game import RuleError
from bot.games.numeri import engine, errors, rules
from bot.games.numeri.engine import Move

from .numeri_helpers import position, state_at


def test_the_rules_module_holds_the_reconstructed_board_and_barriers() -> None:
    values = [v for _, v, _ in rules.TRACK]
    assert [sq for sq, _, _ in rules.TRACK] == list(range(1, 38))
    assert values[:10] == [-3, -3, -3, -2, -2, -1, -1, 0, 1, 0]
    assert values[10:19] == [2, 0, 3, 0, 4, 0, 5, 0, 6]
    assert values[19:] == [0, 7, 0, 8, 0, 9, 0, 10, 0, 12, 0, 14, 0, 16, 18, 20, 25, 30]
    assert rules.BARRIER_AFTER == {2: 10, 3: 14, 4: 18}
    assert rules.DIE_FACES == (1, 2, 3, 4, 5, "*")
    assert rules.SPLITS == {3: ((1, 2),), 4: ((1, 3),), 5: ((1, 4), (2, 3))}
    assert rules.LAST_SQUARES == (35, 36, 37) and rules.CHAIN_LENGTH == 3 and rules.UNENTERED_POINTS == -5
    assert "reconstructed board" in rules.RULES_TEXT


def test_rulebook_scoring_example_is_52() -> None:
    # 2 on the 25 (square 36), 3 on a 9 (square 25), 5 on a -1 (square 6), 4 never entered, 1 on a blank
    board = position({2: 36, 3: 25, 5: 6, 1: 8}, {})
    assert engine.score(board, 0) == 50 + 27 - 5 - 20 + 0 == 52
    assert engine.scores(board)[1] == -75


def test_rulebook_opening() -> None:
    state = engine.new_game(3, first=0)
    expected = [(0, 2, Move(2, None, 1)), (1, 4, Move(4, None, 2)), (2, 1, Move(1, None, 3)),
                (0, 2, Move(2, 1, 4)), (1, 3, Move(3, None, 1))]
    for seat, face, move in expected:
        assert state.current == seat
        state, _ = engine.roll(state, face)
        state, moved = engine.move(state, [face])
        assert moved.moves == (move,) and not moved.extra_turn


def test_split_order_matters_for_the_extra_throw() -> None:
    # own 1@19, 3@20, 2@22; the other seat on 23 (and 30: the barrier after 10 is passed)
    state = state_at({1: 19, 3: 20, 2: 22}, {1: 23, 2: 30}, roll=4)
    assert engine.legal_choices(state.positions, 2, 0, 4) == [(4,), (1, 3), (3, 1)]
    after, moved = engine.move(state, [3, 1])
    assert moved.extra_turn and after.current == 0 and after.positions[0][:3] == (20, 22, 21)
    after, moved = engine.move(state, [1, 3])  # a chain after the first part only: judged after the turn
    assert not moved.extra_turn and after.current == 1
    assert not engine.move(state, [4])[1].extra_turn


def test_split_near_the_end_four_then_one_legal_one_then_four_not() -> None:
    state = state_at({1: 35, 4: 36}, {1: 20}, roll=5)
    assert (4, 1) in engine.legal_choices(state.positions, 2, 0, 5)
    assert (1, 4) not in engine.legal_choices(state.positions, 2, 0, 5)
    _, moved = engine.move(state, [4, 1])
    assert moved.moves == (Move(4, 36, 37), Move(1, 35, 36))
    with pytest.raises(errors.TokenBlocked, match="after token 1 moves, token 4 cannot move"):
        engine.move(state, [1, 4])


def test_split_refused_when_the_partner_cannot_move_even_if_the_first_part_ends_the_game() -> None:
    # 36 and 37 taken, token 4 on 37 cannot move; token 1 on 34 would fill 35 and end the game
    state = state_at({1: 34, 4: 37}, {1: 36}, roll=5)
    assert engine.legal_choices(state.positions, 2, 0, 5) == [(5,), (2, 3), (3, 2)]
    with pytest.raises(errors.TokenBlocked, match="token 4 cannot move: every square ahead is taken"):
        engine.move(state, [1, 4])


def test_first_part_ending_the_game_makes_only_that_move() -> None:
    state = state_at({1: 34, 4: 20}, {1: 36, 2: 37}, roll=5)
    after, moved = engine.move(state, [1, 4])
    assert moved.moves == (Move(1, 34, 35),) and moved.ended and after.over and not moved.extra_turn
    assert after.positions[0][3] == 20


def test_the_move_that_ends_the_game_earns_no_extra_throw() -> None:
    state = state_at({1: 33, 2: 34, 5: 36}, {1: 37}, roll=1)  # 1 jumps to 35: a new run 34-36, and the end
    after, moved = engine.move(state, [1])
    assert moved.ended and not moved.extra_turn and after.over and moved.next_seat is None


def test_a_chain_that_only_got_shorter_gives_nothing() -> None:
    state = state_at({1: 20, 2: 21, 3: 22, 4: 23}, {1: 30}, roll=4)
    after, moved = engine.move(state, [4])
    assert after.positions[0][3] == 24 and not moved.extra_turn  # 20-22 and 24: the run only got shorter
    state = state_at({1: 19, 2: 20, 3: 21, 4: 22}, {1: 30}, roll=1)
    after, moved = engine.move(state, [1])
    assert after.positions[0][0] == 23 and moved.extra_turn  # 20-23 holds the moved token: changed, so extra
    state = state_at({1: 20, 2: 21, 3: 22, 4: 23}, {1: 24, 2: 30}, roll=4)
    after, moved = engine.move(state, [4])
    assert after.positions[0][3] == 25 and not moved.extra_turn  # 20-22 remains, only shorter


def test_an_unchanged_chain_gives_nothing_and_a_new_one_does() -> None:
    state = state_at({1: 20, 2: 21, 3: 22, 5: 2}, {1: 30}, roll=5)
    assert not engine.move(state, [5])[1].extra_turn
    state = state_at({1: 20, 2: 21, 4: 2}, {1: 30}, roll="*")
    after, moved = engine.move(state, [4])
    assert after.positions[0][3] == 3 and not moved.extra_turn
    state = state_at({1: 20, 2: 21, 4: 18}, {1: 30, 2: 19}, roll="*")
    assert engine.move(state, [4])[1].extra_turn  # 4 jumps 19, 20, 21 and lands on 22


def test_barrier_is_judged_at_the_start_of_the_throw() -> None:
    state = state_at({1: 10, 3: 2}, {}, roll=4)  # nothing beyond square 10 yet
    assert engine.legal_choices(state.positions, 2, 0, 4) == [(4,)]
    with pytest.raises(errors.BarrierClosed, match="no token has passed the barrier after square 10 yet: "
                                                   "a 4 moves token 4"):
        engine.move(state, [1, 3])
    with pytest.raises(errors.BarrierClosed):
        engine.move(state, [1])


def test_an_entering_token_beyond_the_barrier_opens_splitting() -> None:
    # three seats (barrier after 14); squares 1-14 full, so seat 0's token 5 enters on 15
    state = state_at({t: t for t in range(1, 5)}, {t: 4 + t for t in range(1, 6)}, {t: 9 + t for t in range(1, 6)},
                     roll=5)
    assert not engine.barrier_passed(state.positions, 3)
    after, moved = engine.move(state, [5])
    assert moved.moves == (Move(5, None, 15),) and engine.barrier_passed(after.positions, 3)


def test_errors_say_what_is_wrong() -> None:
    state = state_at({1: 30}, {1: 31}, roll=4)
    cases = [
        ([2], "a 4 moves token 4, not token 2"),
        ([1, 2], "a 4 splits as 1+3, not 1+2"),
        ([1], "a split moves both tokens: 1 and 3"),
        ([1, 3, 4], "one or two tokens move in a throw, not 3"),
        ([], "a move is possible, so the turn cannot pass: 4, 1+3, 3+1"),
        ([6], "tokens are numbered 1 to 5, not 6"),
    ]
    for choice, message in cases:
        with pytest.raises(RuleError) as caught:
            engine.move(state, choice)
        assert str(caught.value) == message
    with pytest.raises(errors.SplitNeedsThreeToFive, match="a split needs a throw of 3, 4 or 5"):
        engine.move(state_at({1: 30}, {}, roll=2), [1, 2])
    with pytest.raises(errors.StarMovesOne):
        engine.move(state_at({1: 30}, {}, roll="*"), [1, 2])
    with pytest.raises(errors.TokenBlocked, match=r"^token 4 cannot move: every square ahead is taken$"):
        engine.move(state_at({4: 37, 1: 20}, {}, roll=4), [4])
    with pytest.raises(errors.BadRoll):
        engine.roll(engine.new_game(2, first=0), 6)
    with pytest.raises(errors.BadRoll):
        engine.roll(engine.new_game(2, first=0), 3.0)
    with pytest.raises(errors.BadSeats):
        engine.new_game(5)


def test_a_roll_without_a_move_passes_at_once() -> None:
    state = state_at({1: 37, 2: 20}, {1: 36}, roll=None)
    after, event = engine.roll(state, 1)
    assert isinstance(event, engine.Passed) and after.current == 1 and after.roll is None
    assert after.positions == state.positions


def test_winners_share_ties_and_unentered_tokens_cost_five_per_number() -> None:
    board = position({}, {}, {1: 9})
    assert engine.scores(board) == (-75, -75, 1 - 70)
    assert engine.winners(position({}, {})) == frozenset({0, 1})
    assert engine.never_entered(board, 2) == 4


def test_first_player_is_drawn_from_the_seed() -> None:
    firsts = {engine.new_game(4, seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert engine.new_game(4, 7).first == engine.new_game(4, 7).first
