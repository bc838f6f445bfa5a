"""Binomial's presenter on its own: what the reveal, the final message and the buttons say."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from bot.core.game import Prompt
from bot.games.binomial.engine import Fight
from bot.games.binomial.game import GAME, PASS, fight
from bot.games.binomial.view import View
from cogs.binomial.render import PRESENTER, reveal_text
from cogs.table.presenter import SeatInfo

SEATS = [SeatInfo(0, "Ana"), SeatInfo(1, "Ben"), SeatInfo(2, "Cy")]


def test_a_reveal_tells_every_fighter_what_dropped_out_the_winner_and_openness() -> None:
    round_ = Fight(game=1, round=4, card="two_identical", fighters=((0, 22), (1, 88), (2, 88)), passed=(),
                   unfit=(), cancelled=(88,), winner=0, points=(4, 0, 0), chairman=0, scores=(4, 0, 3),
                   last_number=(1,))
    text = reveal_text(round_, SEATS, "en")
    assert "Reveal of round 4" in text and "Two identical digits" in text and "4 points" in text
    assert "Ana `22`" in text and "Ben `88`" in text and "Cy `88`" in text
    assert "Cancelled (picked twice or more): `88`" in text
    assert "Winner: 🔺 Ana with `22`: 4 points" in text and "Chairman: 🔺 Ana" in text
    assert "Scores: 🔺 Ana 4" in text and "Openness: 🔷 Ben has one number left." in text
    french = reveal_text(round_, SEATS, "fr")
    assert "Révélation de la manche 4" in french and "Deux chiffres identiques" in french


def test_a_round_nobody_wins_and_the_same_boat_are_told() -> None:
    nobody = Fight(1, 2, "smallest_number", ((0, 40), (1, 40)), (2,), (), (40,), None, (0, 0, 0), 2, (0, 0, 0))
    text = reveal_text(nobody, SEATS, "en")
    assert "Nobody wins the card; the chairman stays." in text and "Passed: 🟢 Cy" in text
    boat = Fight(1, 3, "largest_number", ((0, 12), (1, 12), (2, 30)), (), (), (12,), 2, (0, 0, 3), 2, (0, 0, 3))
    assert "Winner: 🟢 Cy with `30`: 3 points" in reveal_text(boat, SEATS, "en")


def test_the_public_buttons_never_depend_on_the_seats_numbers() -> None:
    state = GAME.setup(2, {}, 7)
    view = GAME.view(state, None)
    prompt = Prompt(frozenset({0}), "declare")
    none = PRESENTER.inputs(view, prompt, 0, [PASS], "en")
    some = PRESENTER.inputs(view, prompt, 0, [PASS, fight(44), fight(45)], "en")
    assert [c.label for c in none.choices] == [c.label for c in some.choices] == ["Fight", "Pass"]
    assert none.choices[0].actions == () and "no number that fits" in none.choices[0].none
    assert some.choices[0].actions == (1, 2) and some.choices[0].pick
    assert some.labels == ("Pass", "Fight with 44", "Fight with 45")


def test_the_lobby_lists_the_variants_and_the_rules_every_card() -> None:
    lobby = PRESENTER.lobby({"turn_seconds": 30, "dark": True, "match": True, "same_boat": True}, "en")
    assert "playing in the dark" in lobby and "three games" in lobby and "6 or 7 players" in lobby
    for lang in ("en", "fr"):  # sections short enough to read (issue 36): each under 1,000 characters
        sections = PRESENTER.rules(lang).embeds
        assert len(sections) == 4 and all(len(e) < 1000 and not e.fields for e in sections), lang
    sections = PRESENTER.rules("fr").embeds
    cards = "\n".join(e.description or "" for e in sections[1:3])
    assert sections[1].title == "Les 16 postulats (1/2)" and sections[2].title == "Les 16 postulats (2/2)"
    assert cards.count("\n") == 15 and "Le plus proche de 50" in cards


def test_the_last_round_of_a_game_of_a_match_reveals_every_sheet() -> None:
    last = Fight(1, 16, "contains_5", ((0, 52),), (1, 2), (), (), 0, (3, 0, 0), 0, (9, 4, 2), game_over=True,
                 sheets=((52, 11), (33, 40), (7, 99)))
    next_game = cast(View, SimpleNamespace(over=False, games=3))
    text = reveal_text(last, SEATS, "en", after=next_game)
    assert "Game 1 of 3 is over." in text and "🟢 Cy's sheet: `07` `99`" in text
    # the end of a single game (or of a match) says no "Game 1": the final message follows, sheets included
    alone = reveal_text(last, SEATS, "en", after=cast(View, SimpleNamespace(over=True, games=1)))
    assert "Game" not in alone and "sheet" not in alone
