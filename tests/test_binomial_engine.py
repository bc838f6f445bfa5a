"""Binomial through the core's protocol (``GAME``): prompts, actions, typed errors, views, matches."""

from random import Random

import pytest

from bot.core.game import RuleError
from bot.games.binomial import engine
from bot.games.binomial.engine import Declared, Fight, Placed, Rolled, Variants
from bot.games.binomial.game import GAME
from bot.games.binomial.rules import CARD_KEYS, CELLS

PLAIN = Variants()
ROLLS = [4, 4, 0, 7, 9, 9, 5, 0, 1, 1, 2, 8, 3, 6, 5, 5]


def seated(seats: int = 3, deck: tuple[str, ...] = CARD_KEYS, variants: Variants = PLAIN, chairman: int = 0,
           orders: dict[int, list[int]] | None = None) -> engine.State:
    """A game after numerology: seat s writes roll i into cell orders[s][i] (default 1a 1b 2a ...)."""
    state = engine.new_game(seats, variants, [deck], chairman)
    for i, digit in enumerate(ROLLS):
        state, _ = GAME.apply(state, {None: {"digit": digit}})
        cells = {s: {"cell": CELLS[(orders or {}).get(s, list(range(16)))[i]]} for s in range(seats)}
        state, _ = GAME.apply(state, cells)
    return state


def test_setup_is_seeded_and_draws_a_chairman_and_a_deck() -> None:
    a, b = GAME.setup(4, {}, 7), GAME.setup(4, {}, 7)
    assert a == b
    assert sorted(a.decks[0]) == sorted(CARD_KEYS) and a.games == 1
    assert {GAME.setup(4, {}, s).chairman for s in range(30)} == {0, 1, 2, 3}
    assert GAME.setup(3, {"match": True}, 1).games == 3


def test_setup_refuses_bad_options() -> None:
    with pytest.raises(RuleError, match="same boat"):
        GAME.setup(5, {"same_boat": True}, 1)
    GAME.setup(6, {"same_boat": True}, 1)
    with pytest.raises(RuleError, match="unknown option"):
        GAME.setup(3, {"colour": "red"}, 1)
    with pytest.raises(RuleError):
        GAME.setup(8, {}, 1)
    same_boat = next(o for o in GAME.options if o.name == "same_boat")
    assert same_boat.seats == range(6, 8)
    assert GAME.key == "binomial" and GAME.seats == range(2, 8) and GAME.ai_levels == ("easy", "normal", "hard")


def test_numerology_roll_then_sealed_place() -> None:
    state = GAME.setup(3, {}, 1)
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.chance and prompt.kind == "roll"
    state, event = GAME.apply(state, {None: GAME.chance(state, Random(0))})
    assert isinstance(event, Rolled) and event.roll == 1
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.sealed and prompt.kind == "place" and prompt.seats == {0, 1, 2}
    assert len(GAME.legal(state, 0) or []) == 16
    assert GAME.parse(state, 1, " 3B ") == {"cell": "3b"}
    with pytest.raises(RuleError, match="not a cell"):
        GAME.parse(state, 1, "9a")
    timeout = GAME.timeout(state, frozenset({0, 2}))
    assert timeout == {0: {"cell": "1a"}, 2: {"cell": "1a"}}
    state, event = GAME.apply(state, {**timeout, 1: {"cell": "3b"}})
    assert isinstance(event, Placed) and not hasattr(event, "cells")
    state, _ = GAME.apply(state, {None: {"digit": 5}})
    with pytest.raises(RuleError, match="3b is already filled"):
        GAME.check(state, 1, {"cell": "3b"})
    assert {"cell": "1a"} in (GAME.legal(state, 1) or [])
    assert GAME.timeout(state, frozenset({0}))[0] == {"cell": "1b"}


def test_declarations_go_round_from_the_chairman_and_hide_the_number() -> None:
    state = seated(3, chairman=1)  # every sheet: 44 07 99 50 11 28 36 55
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "declare" and not prompt.sealed and prompt.seats == {1}
    assert state.card is not None and state.card.key == "two_identical"
    assert GAME.legal(state, 1) == [{"fight": False}, *({"fight": True, "number": n} for n in ("11", "44", "55", "99"))]
    assert GAME.legal(state, 0) == []
    with pytest.raises(RuleError, match="not your turn"):
        GAME.check(state, 0, {"fight": False})
    with pytest.raises(RuleError, match="07 does not fit 'two identical digits'"):
        GAME.parse(state, 1, "07")
    with pytest.raises(RuleError, match="12 is not on your sheet"):
        GAME.parse(state, 1, "12")
    action = GAME.parse(state, 1, "fight 44")
    state, event = GAME.apply(state, {1: action})
    assert event == Declared(1, 1, 1, True)
    table = GAME.view(state, None)
    assert table.declared == ((1, True),) and table.pick is None and table.sheet is None
    assert GAME.view(state, 1).pick == 44
    assert "44" not in repr(event) and 44 not in table.revealed[1]
    state, _ = GAME.apply(state, {2: GAME.parse(state, 2, "PASS")})
    state, fight = GAME.apply(state, {0: {"fight": True, "number": "99"}})
    assert isinstance(fight, Fight)
    assert fight.fighters == ((1, 44), (0, 99)) and fight.passed == (2,)
    assert fight.winner == 0 and fight.points == (4, 0, 0) and fight.chairman == 0
    assert GAME.prompt(state).seats == {0}  # type: ignore[union-attr]
    view = GAME.view(state, None)
    assert view.revealed == ((99,), (44,), ()) and view.unused == (7, 7, 8) and view.won[0] == ("two_identical",)


def test_typed_errors_for_used_numbers_and_nothing_fitting() -> None:
    state = seated(2)
    state, _ = GAME.apply(state, {0: {"fight": True, "number": "44"}})
    state, _ = GAME.apply(state, {1: {"fight": False}})
    # round 2: divisible_by_10 (0 fights with 50), then round 3 contains_0 ...
    state, _ = GAME.apply(state, {0: {"fight": False}})
    state, _ = GAME.apply(state, {1: {"fight": True, "number": "50"}})
    assert state.round == 3 and state.chairman == 1
    state, _ = GAME.apply(state, {1: {"fight": False}})
    with pytest.raises(RuleError, match="you used 44 in round 1"):
        GAME.parse(state, 0, "44")
    state, _ = GAME.apply(state, {0: {"fight": False}})
    # round 4: divisible_by_5; seat 1 has 50 used, 55 left
    state, _ = GAME.apply(state, {1: {"fight": True, "number": "55"}})
    state, _ = GAME.apply(state, {0: {"fight": False}})
    assert state.card is not None and state.card.key == "contains_5"
    with pytest.raises(RuleError, match="you have no number that fits 'contains 5': you can only pass"):
        GAME.parse(state, 1, "07")
    assert GAME.legal(state, 1) == [{"fight": False}]


def test_no_number_fits_message_for_divisible_by_10() -> None:
    deck = ("divisible_by_10", *(k for k in CARD_KEYS if k != "divisible_by_10"))
    ones = engine.Sheet(tuple([1] * 16), (0,) * 8)  # eight 11s: nothing ends in 0
    state = engine.State(2, Variants(), (deck,), 0, (ones, ones), (0, 0), rolls=(1,) * 16)
    with pytest.raises(RuleError, match="you have no number that fits 'divisible by 10': you can only pass"):
        GAME.check(state, 0, {"fight": True, "number": "11"})


def test_dark_variant_is_one_sealed_step() -> None:
    state = seated(3, variants=Variants(dark=True))
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "pick" and prompt.sealed and prompt.seats == {0, 1, 2}
    assert GAME.timeout(state, frozenset({2})) == {2: {"fight": False}}
    state, fight = GAME.apply(state, {0: {"fight": True, "number": "99"}, 1: {"fight": True, "number": "99"},
                                      2: {"fight": True, "number": "11"}})
    assert isinstance(fight, Fight) and fight.cancelled == (99,) and fight.winner == 2 and fight.points == (0, 0, 4)


def test_game_ends_when_a_sheet_is_used_up_and_reveals_every_sheet() -> None:
    state = seated(2)
    numbers = ["44", "07", "99", "50", "11", "28", "36", "55"]
    rounds = 0
    while not state.over:
        card = state.card
        assert card is not None
        seat = next(iter(state.to_act))
        fit = [n for n in numbers if card.fits(int(n)) and int(n) in state.sheets[0].unused]
        action = {"fight": True, "number": fit[0]} if seat == 0 and fit else {"fight": False}
        state, event = GAME.apply(state, {seat: action})
        rounds += isinstance(event, Fight)
    assert rounds <= 16
    assert GAME.prompt(state) is None
    assert isinstance(event, Fight) and event.game_over and event.sheets is not None
    view = GAME.view(state, None)
    assert view.sheets is not None and view.over
    result = GAME.result(state)
    assert result is not None and set(result.extra[0]) == {"cards_won", "fights", "fights_won", "points_by_card"}
    assert sum(result.extra[0]["points_by_card"].values()) == result.scores[0]
    with pytest.raises(RuleError, match="over"):
        GAME.apply(state, {0: {"fight": False}})


def test_last_card_ends_the_game() -> None:
    state = seated(2)
    while not state.over:
        state, _ = GAME.apply(state, {next(iter(state.to_act)): {"fight": False}})
    assert len(state.history) == 16 and GAME.result(state).winners == {0, 1}  # type: ignore[union-attr]


def test_a_match_adds_three_games() -> None:
    state = GAME.setup(2, {"match": True}, 3)
    rng = Random(1)
    games = set()
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            state, _ = GAME.apply(state, {None: GAME.chance(state, rng)})
            continue
        step = {s: rng.choice(list(GAME.legal(state, s) or [])) for s in prompt.seats}
        state, event = GAME.apply(state, step)
        if isinstance(event, Fight):
            games.add(event.game)
    assert games == {1, 2, 3} and len(state.finished) == 3
    result = GAME.result(state)
    assert result is not None
    assert [result.scores[s] for s in range(2)] == [sum(g.scores[s] for g in state.finished) for s in range(2)]


def test_openness_names_a_player_down_to_one_number() -> None:
    state = seated(2, variants=Variants(openness=True))
    seen: set[int] = set()
    while not state.over:
        seat = next(iter(state.to_act))
        legal = GAME.legal(state, seat) or []
        state, event = GAME.apply(state, {seat: legal[-1] if seat == 0 else legal[0]})
        if isinstance(event, Fight):
            seen.update(event.last_number)
            if event.last_number:
                assert state.sheets[0].unused_count == 1 or state.over
    assert 0 in seen


def test_apply_refuses_a_wrong_step() -> None:
    state = GAME.setup(2, {}, 1)
    with pytest.raises(RuleError):
        GAME.apply(state, {0: {"cell": "1a"}})
    state, _ = GAME.apply(state, {None: {"digit": 3}})
    with pytest.raises(RuleError):
        GAME.apply(state, {0: {"cell": "9z"}})
    with pytest.raises(RuleError):
        GAME.parse(state, 0, "pass")
