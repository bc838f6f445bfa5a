"""The worked examples of RULES.md and the rulebook, and the engine's typed errors."""

import pytest

from bot.games.thenumber import rules
from bot.games.thenumber.check import Entry, Status, check_turn
from bot.games.thenumber.engine import (
    choose,
    new_game,
    play_turn,
    public_view,
    resolve_turn,
    secret_view,
    validate_choice,
    withdraw,
)
from bot.games.thenumber.errors import BadSeating, GameOver, MalformedNumber, NotSeated, SitsOut, UnavailableDigit
from bot.games.thenumber.numbers import parse_number


def turn_of(turn: int, numbers: list[str]) -> dict:
    entries = {f"p{i}": Entry(n) for i, n in enumerate(numbers)}
    return check_turn(turn, entries)


def test_bonus_table_and_structure_live_in_one_place() -> None:
    assert rules.TURN_BONUS == (2, 3, 4, 6, 8)
    assert (rules.MIN_SEATS, rules.MAX_SEATS, rules.ROUNDS, rules.TURNS_PER_ROUND) == (2, 5, 2, 5)


def test_example_1_rulebook_turn() -> None:
    r = turn_of(1, ["761", "513", "444", "444", "220"])
    assert r["p0"].status is Status.ELIMINATED and r["p0"].blocker == "513" and r["p0"].shared == (1,)
    assert (r["p1"].status, r["p1"].points, r["p1"].bonus) == (Status.APPROVED, 7, 2)
    assert (r["p2"].status, r["p2"].points) == (Status.APPROVED, 4)
    assert (r["p3"].status, r["p3"].points) == (Status.APPROVED, 4)
    assert (r["p4"].status, r["p4"].points) == (Status.APPROVED, 2)
    assert [r[p].crossed for p in ("p1", "p2", "p3", "p4")] == [{5, 1, 3}, {4}, {4}, {2, 0}]
    assert r["p0"].crossed == frozenset()


def test_example_2_last_turn_doubles_then_adds_bonus() -> None:
    r = turn_of(5, ["902", "111"])
    assert (r["p0"].status, r["p0"].points) == (Status.APPROVED, 9 * 2 + 8)
    assert r["p1"].points == 2  # 1 doubled, no bonus


def test_example_3_eliminated_numbers_still_eliminate() -> None:
    r = turn_of(2, ["120", "234", "345"])
    assert [r[p].status for p in ("p0", "p1", "p2")] == [Status.APPROVED, Status.ELIMINATED, Status.ELIMINATED]
    assert r["p0"].points == 1 + 3
    assert r["p2"].blocker == "234"  # 234 is itself eliminated, yet it eliminates 345


def test_example_4_identical_biggest_numbers_share_the_bonus() -> None:
    r = turn_of(1, ["888", "888", "123"])
    assert r["p0"].points == r["p1"].points == 8 + 2
    assert r["p2"].points == 1


def test_identical_numbers_still_meet_smaller_ones() -> None:
    r = turn_of(1, ["555", "555", "150"])
    assert r["p0"].status is r["p1"].status is Status.ELIMINATED
    assert r["p2"].points == 1 + 2


def test_example_5_last_digit_exhausts_and_counts_ten() -> None:
    state = new_game(["ana", "ben"])
    script = ["012", "345", "678", "999"]  # ana crosses 0-8, then 9
    for number in script:
        state = choose(state, "ana", number)
        state, outcome = resolve_turn(state)
        assert outcome.results["ana"].status is Status.APPROVED
    assert state.available("ana") == frozenset()
    assert state.is_exhausted("ana")
    assert state.awaiting() == ("ben",)
    with pytest.raises(SitsOut):
        choose(state, "ana", "999")
    state, outcome = play_turn(state, {"ana": "111"})
    assert outcome.results["ana"].status is Status.EXHAUSTED and outcome.results["ana"].number is None
    assert state.round == 2 and state.available("ana") == frozenset(range(10))
    # exact figure, computed by hand: 012 -> 0+2, 345 -> 3+3, 678 -> 6+4, 999 -> 9+6, exhausted -> 0
    assert state.round_totals("ana") == (2 + 6 + 10 + 15 + 0 + 10,)


def test_smallest_valid_number_is_always_approved_even_000() -> None:
    r = turn_of(3, ["000", "001"])
    assert r["p0"].status is Status.APPROVED and r["p0"].points == 0 + 4
    assert r["p1"].status is Status.ELIMINATED


def test_invalid_missing_and_exhausted_take_no_part() -> None:
    r = check_turn(1, {
        "a": Entry("513"),
        "b": Entry("111", Status.INVALID),
        "c": Entry(None, Status.MISSING),
        "d": Entry(None, Status.EXHAUSTED),
    })
    assert r["a"].points == 5 + 2  # the invalid 111 eliminates nobody
    assert (r["b"].status, r["b"].number, r["b"].points, r["b"].crossed) == (Status.INVALID, "111", 0, frozenset())
    assert (r["c"].status, r["c"].number) == (Status.MISSING, None)
    assert (r["d"].status, r["d"].number) == (Status.EXHAUSTED, None)


def test_table_rule_makes_crossed_digit_invalid_in_play_turn() -> None:
    state = new_game(["a", "b"])
    state, _ = play_turn(state, {"a": "513", "b": "222"})
    state, outcome = play_turn(state, {"a": "150", "b": "999"})
    assert outcome.results["a"].status is Status.INVALID
    assert outcome.results["b"].points == 9 + 3
    assert state.crossed["a"] == {1, 3, 5}


@pytest.mark.parametrize("text", ["", "12", "1234", "12a", "-12", "+12", "1e2", "0x1", "1 2", "١٢٣", "12.", " 1 2 "])
def test_malformed_numbers_are_refused_with_an_example(text: str) -> None:
    with pytest.raises(MalformedNumber) as info:
        parse_number(text)
    assert str(info.value) == "must be three digits, like 407"
    assert info.value.code == "malformed"


@pytest.mark.parametrize(("text", "number"), [("513", "513"), (" 007 ", "007"), ("５１３", "513"), ("\t999\n", "999")])
def test_numbers_are_normalised(text: str, number: str) -> None:
    assert parse_number(text) == number


def test_unavailable_digit_error_names_digit_and_what_is_left() -> None:
    state = new_game(["a", "b"])
    state, _ = play_turn(state, {"a": "713", "b": "222"})
    state, _ = play_turn(state, {"a": "666", "b": "999"})
    with pytest.raises(UnavailableDigit) as info:
        validate_choice(state, "a", "470")
    assert str(info.value) == "7 is crossed off; available: 0 2 4 5 8 9"
    assert info.value.code == "unavailable"
    with pytest.raises(UnavailableDigit) as info:
        validate_choice(state, "a", "613")
    assert str(info.value) == "1, 3 and 6 are crossed off; available: 0 2 4 5 8 9"
    assert not isinstance(info.value, MalformedNumber)


def test_choices_are_secret_replaceable_and_only_for_players() -> None:
    state = new_game(["a", "b", "c"])
    state = choose(state, "a", "123")
    state = choose(state, "a", "456")
    view = public_view(state)
    assert view.chosen == {"a"}
    assert "456" not in repr(view.chosen) and "456" not in repr(state)
    assert secret_view(state, "a") == "456" and secret_view(state, "b") is None
    assert state.awaiting() == ("b", "c")
    assert withdraw(state, "a").pending == {}
    with pytest.raises(NotSeated):
        choose(state, "zed", "123")


def test_seating_limits() -> None:
    with pytest.raises(BadSeating):
        new_game(["solo"])
    with pytest.raises(BadSeating):
        new_game(["a", "b", "c", "d", "e", "f"])
    with pytest.raises(BadSeating):
        new_game(["a", "a"])


def test_full_game_totals_and_shared_win() -> None:
    state = new_game(["a", "b"])
    for _ in range(10):
        state, _ = play_turn(state, {"a": "111", "b": "111"})
    assert state.finished
    # turn 1: both 111 approved and biggest (1 + 2); afterwards 1 is crossed off, so 111 is invalid
    assert state.round_totals("a") == state.round_totals("b") == (1 + 2 + 1, ) * 2
    assert state.winners() == ("a", "b")
    with pytest.raises(GameOver):
        choose(state, "a", "123")
