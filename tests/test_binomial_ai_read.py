"""Binomial's hard level reads its rivals from public facts only: the sheets it believes a rival holds are
builds from the public rolls that hold every number that rival revealed."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from random import Random

from bot.games.binomial import ai_hard, ai_read
from bot.games.binomial.game import GAME
from bot.games.binomial.view import View
from tests.test_binomial_ai_hard import declare_points

ROLLS = (9, 0, 5, 5, 1, 9, 3, 0, 7, 2, 8, 4, 6, 1, 9, 0)
MIX = ai_hard.place_mix(2)


def test_the_builds_are_whole_sheets_of_the_rolled_digits_and_the_same_for_the_same_rolls() -> None:
    builds = ai_read.full_builds(2, ROLLS, MIX)
    assert len(builds) == ai_read.SOUND_BUILDS + ai_read.DRAWN_BUILDS
    for numbers in builds:
        assert sorted(d for n in numbers for d in divmod(n, 10)) == sorted(ROLLS)
    ai_read.full_builds.cache_clear()
    assert ai_read.full_builds(2, ROLLS, MIX) == builds  # drawn from the rolls, not from a hidden generator


def test_a_belief_holds_what_is_left_of_a_build_that_holds_every_revealed_number() -> None:
    builds = ai_read.full_builds(2, ROLLS, MIX)
    revealed = (builds[0][0], builds[0][3])
    believed = ai_read.believed(2, ROLLS, revealed, MIX)
    assert believed and len(believed) <= len(builds)
    for held in believed:
        assert len(held) == 8 - len(revealed)
        assert Counter(held) + Counter(revealed) in [Counter(b) for b in builds]
    assert ai_read.believed(2, ROLLS[:15], (), MIX) == ()  # numerology not over: nothing to believe yet


def test_a_rival_that_fits_no_build_leaves_the_belief_empty() -> None:
    impossible = (99, 99, 99)  # three 99s need six 9s; the rolls hold three
    assert ai_read.believed(2, ROLLS, impossible, MIX) == ()


def view_for(card_key: str) -> View:
    """A heads-up view at the colloquium's first round with ``card_key`` face up."""
    for state, seat in declare_points(2, 3, lambda v, s, r: ai_hard.hard_place(v, r) if v.kind == "place"
                                      else {"fight": False}):
        view = GAME.view(state, seat)
        if view.kind == "declare":
            return replace(view, card=card_key, unplayed=tuple(k for k in view.unplayed if k != card_key))
    raise AssertionError("no declaration reached")


def test_hard_samples_a_rival_from_the_builds_that_agree_with_its_reveals() -> None:
    view = view_for("largest_number")
    rival = 1 - (view.seat or 0)
    belief = ai_hard.believed_numbers(view, rival)
    assert belief == ai_read.believed(2, view.rolls, view.revealed[rival], MIX)
    rng = Random(4)
    drawn = [tuple(ai_hard.sample_holding(view, rival, rng, (), belief)) for _ in range(400)]
    share = sum(1 for d in drawn if d in belief) / len(drawn)
    assert share > 0.65, share  # BELIEF_SHARE, plus older samples that happen to match a build
