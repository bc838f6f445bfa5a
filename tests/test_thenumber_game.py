"""The Number's adapter on the game protocol (bot/games/thenumber/game.py): what the conformance test
cannot know about this game: its seats, its errors, its secrets, its figures for the stats."""

import random

import pytest

from bot.core.fold import fold
from bot.core.game import RuleError
from bot.games import GAMES, UnknownGameKey, game_for
from bot.games.thenumber import rules
from bot.games.thenumber.check import Status
from bot.games.thenumber.engine import PublicView, choose, public_view
from bot.games.thenumber.errors import GameOver, MalformedNumber, NotSeated, SitsOut, UnavailableDigit
from bot.games.thenumber.game import GAME, TURN_SECONDS, SeatView, stored_step
from bot.games.thenumber.replay import replay
from bot.i18n.thenumber import refusal
from bot.settings import Settings


def played(*turns: dict[int, str], seats: int = 2):
    state = GAME.setup(seats, {}, 0)
    for turn in turns:
        state, _ = GAME.apply(state, {s: {"number": n} for s, n in turn.items()})
    return state


def test_the_tuple_of_games_and_the_lookup() -> None:
    assert GAMES[0] is GAME and game_for("thenumber") is GAME
    with pytest.raises(UnknownGameKey, match="no game 'chess'; the games are: thenumber"):
        game_for("chess")


def test_declared_like_the_rules_and_the_settings() -> None:
    assert (GAME.key, GAME.title, GAME.seats) == ("thenumber", "The Number", range(2, 6))
    assert GAME.ai_levels == ("easy", "normal", "hard")
    field = Settings.model_fields["turn_seconds"]
    bounds = {type(m).__name__: m for m in field.metadata}
    assert GAME.options == (TURN_SECONDS,)
    assert (TURN_SECONDS.default, TURN_SECONDS.min, TURN_SECONDS.max) == (field.default, bounds["Ge"].ge,
                                                                          bounds["Le"].le)


def test_seats_are_named_by_their_number_inside_the_engine() -> None:
    state = GAME.setup(3, {}, 42)
    assert state.players == ("0", "1", "2")
    assert GAME.setup(3, {}, 1) == state  # The Number draws nothing: the seed changes nothing
    with pytest.raises(RuleError, match="2 to 5 players"):
        GAME.setup(6, {}, 0)


def test_one_sealed_number_step_for_every_seat_with_a_digit_left() -> None:
    prompt = GAME.prompt(GAME.setup(3, {}, 0))
    assert prompt is not None
    assert (prompt.seats, prompt.kind, prompt.sealed, prompt.chance) == (frozenset({0, 1, 2}), "number", True, False)
    assert GAME.legal(GAME.setup(3, {}, 0), 0) is None
    # Seat 0 crosses off all ten digits in four approved turns and sits out the round's last turn.
    state = played({0: "012", 1: "999"}, {0: "345", 1: "999"}, {0: "678", 1: "999"}, {0: "999", 1: "999"})
    assert state.turn == 5 and state.is_exhausted("0")
    assert GAME.prompt(state).seats == frozenset({1})
    with pytest.raises(SitsOut):
        GAME.parse(state, 0, "123")


def test_parse_and_check_give_canonical_numbers_or_typed_rule_errors() -> None:
    state = played({0: "713", 1: "222"}, {0: "666", 1: "999"})
    assert GAME.parse(state, 0, " ４０２ ") == {"number": "402"}
    assert GAME.check(state, 1, {"number": "５１３"}) == {"number": "513"}
    with pytest.raises(UnavailableDigit) as info:
        GAME.parse(state, 0, "470")
    error = info.value
    assert isinstance(error, RuleError)  # the core catches RuleError; the presenter still reads the type
    assert str(error) == "7 is crossed off; available: 0 2 4 5 8 9"
    assert error.key == "unavailable" and error.values["available"] == (0, 2, 4, 5, 8, 9)
    assert refusal(error) == refusal(UnavailableDigit("470", [7], [0, 2, 4, 5, 8, 9]))
    with pytest.raises(MalformedNumber, match="must be three digits, like 407") as malformed:
        GAME.parse(state, 0, "12a")
    assert malformed.value.key == "malformed" and isinstance(malformed.value, RuleError)
    with pytest.raises(NotSeated):
        GAME.parse(state, 5, "123")
    for bad in ({"number": 513}, {"number": "513", "also": 1}, {"digits": "513"}, "513"):
        with pytest.raises(RuleError, match="an action of The Number is") as refused:
            GAME.check(state, 0, bad)  # type: ignore[arg-type]
        assert refused.value.key == "bad_action"


def test_apply_plays_the_turn_by_the_table_rule() -> None:
    state = played({0: "513", 1: "222"}, seats=3)
    after, outcome = GAME.apply(state, {0: {"number": "150"}, 1: {"number": "999"}})
    assert (outcome.round, outcome.turn) == (1, 2)
    assert outcome.results["0"].status is Status.INVALID  # uses a crossed-off digit: out, crosses nothing
    assert outcome.results["1"].points == 9 + rules.bonus_for(2)
    assert outcome.results["2"].status is Status.MISSING  # absent from the step
    assert after.crossed["0"] == {1, 3, 5} and after.turn == 3
    assert GAME.timeout(state, frozenset({0, 1, 2})) == {}
    _, nobody = GAME.apply(state, GAME.timeout(state, frozenset({0, 1, 2})))
    assert {r.status for r in nobody.results.values()} == {Status.MISSING}


@pytest.mark.parametrize("step", [{None: {"number": "123"}}, {7: {"number": "123"}}, {True: {"number": "123"}},
                                  {0: {"number": "12"}}, {0: {"n": "123"}}])
def test_apply_refuses_a_step_that_is_not_a_turn(step) -> None:
    with pytest.raises(RuleError):
        GAME.apply(GAME.setup(2, {}, 0), step)


def test_a_finished_game_has_its_result_and_takes_no_step() -> None:
    turns = [{0: "999", 1: "100"}] + [{0: "888", 1: "000"}] * 4 + [{0: "777", 1: "011"}] * 5
    state = played(*turns)
    assert GAME.prompt(state) is None
    with pytest.raises(GameOver):
        GAME.apply(state, {})
    result = GAME.result(state)
    assert result is not None
    assert result.scores == {0: state.final_scores()["0"], 1: state.final_scores()["1"]}
    assert result.winners == frozenset(int(p) for p in state.winners())
    assert result.extra[0]["played"] == 10 and result.extra[0]["numbers"][:2] == ["999", "888"]
    assert result.extra[1]["numbers"][0] == "100"
    approved = [sum(o.results[p].status is Status.APPROVED for o in state.history) for p in ("0", "1")]
    assert [result.extra[s]["approved"] for s in (0, 1)] == approved
    assert GAME.result(played({0: "123"})) is None


def test_result_extra_counts_numbers_written_even_invalid_ones_but_not_missing_turns() -> None:
    turns = [{0: "513", 1: "222"}, {0: "150"}] + [{0: "999", 1: "999"}] * 8  # 150 is invalid, seat 1 missing
    result = GAME.result(played(*turns))
    assert result is not None
    assert result.extra[0]["played"] == 10 and result.extra[0]["numbers"][1] == "150"
    assert result.extra[1]["played"] == 9 and "150" not in result.extra[1]["numbers"]


def test_folding_steps_is_the_replay_contracts_game() -> None:
    rng = random.Random(5)
    state = GAME.setup(4, {}, 0)
    rounds: list[list[dict[str, str]]] = [[], []]
    while GAME.prompt(state) is not None:
        step = {s: GAME.ai(GAME.view(state, s), s, "easy", rng) for s in sorted(GAME.prompt(state).seats)}
        rounds[state.round - 1].append({str(s): a["number"] for s, a in step.items()})
        state, _ = GAME.apply(state, step)
    assert state == replay(["0", "1", "2", "3"], rounds)


def test_a_seat_sees_its_own_pending_number_and_nobody_else_does() -> None:
    state = choose(GAME.setup(3, {}, 0), "1", "513")  # a draft the way the terminal still keeps one
    table = GAME.view(state, None)
    assert isinstance(table, PublicView) and table == public_view(state)
    mine = GAME.view(state, 1)
    assert isinstance(mine, SeatView) and mine.pending == "513" and mine.secrets() == ("513",)
    assert mine.table == table and "513" not in repr(mine)  # kept out of log lines
    assert "513" not in repr(table) and table.chosen == {"1"}
    other = GAME.view(state, 0)
    assert other.pending is None and other.secrets() == () and "513" not in repr(other)


def test_the_ai_acts_from_its_own_seat_view_as_from_the_table_view() -> None:
    state = choose(played({0: "513", 1: "222"}), "0", "402")
    for level in GAME.ai_levels:
        mine = GAME.ai(GAME.view(state, 1), 1, level, random.Random(3))
        assert mine == GAME.ai(GAME.view(state, None), 1, level, random.Random(3))
        assert GAME.check(state, 1, mine) == mine
        own = GAME.ai(GAME.view(state, 0), 0, level, random.Random(3))
        assert not set(own["number"]) & set("135")  # its board allows it
    with pytest.raises(GameOver):
        GAME.ai(GAME.view(played(*[{0: "999", 1: "999"}] * 10), None), 0, "easy", random.Random(1))


def test_turns_stored_before_the_protocol_fold_as_steps() -> None:
    payloads = [{"numbers": {"0": "513", "1": "222"}}, {"numbers": {"1": "999"}}] + [{"numbers": {}}] * 8
    state, events = fold(GAME, 2, {}, 0, [stored_step(p["numbers"]) for p in payloads])
    assert state == replay(["0", "1"], [[p["numbers"] for p in payloads[:5]], [p["numbers"] for p in payloads[5:]]])
    assert events[1].results["0"].status is Status.MISSING and GAME.result(state) is not None
