"""Issue 36, one voice: a reveal line says a plain score once ("**+8**", not "**8** (8)"), and /digits gives the
crossed-off count as a count of digits (not "crossed off: 0", which reads as the digit 0), in both languages."""

from __future__ import annotations

import pytest

from bot.games.thenumber.check import SeatResult, Status
from bot.games.thenumber.engine import new_game, public_view
from cogs.table.presenter import SeatInfo
from cogs.thenumber import render

ANA = SeatInfo(0, "Ana")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_plain_approved_score_is_said_once(lang: str) -> None:
    line = render.result_line(ANA, SeatResult("813", Status.APPROVED, points=8), lang)
    assert line.endswith("**+8**") and line.count("8") == 2, line  # the number 813 and its score, once
    with_bonus = render.result_line(ANA, SeatResult("813", Status.APPROVED, points=11, bonus=3), lang)
    assert "(8 + 3" in with_bonus, with_bonus


@pytest.mark.parametrize(("lang", "words"), [("en", "0 digits crossed off"), ("fr", "0 chiffre barré")])
def test_digits_gives_a_count_of_digits(lang: str, words: str) -> None:
    view = public_view(new_game(("0", "1")))
    text = render.digits_embed(ANA, view, lang).description or ""
    assert words in text and "crossed off: 0" not in text and "barrés : 0" not in text, text
