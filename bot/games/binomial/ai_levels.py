"""Binomial's AI levels, one entry point above the modules that play them.

:mod:`.ai` holds the shared tables and the easy and normal levels; :mod:`.ai_hard` builds the hard level on
them. The dispatch sits here so that neither module imports the other back.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

from . import ai, ai_hard
from .rules import CELLS
from .view import View, fitting


def decide(view: View, seat: int, level: str, rng: Random,
           fight_priors: Mapping[int, tuple[float, float]] | None = None) -> ai.Action:
    """The AI's action for ``seat`` from its own view; deterministic given ``rng``. ``fight_priors``: hard's
    prior fight rate of some opponents, from their past games (see ai_hard.past_fight_prior)."""
    if level not in ai.LEVELS:
        raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(ai.LEVELS)}")
    if view.kind == "place":
        assert view.pending is not None and view.sheet is not None
        if level == "hard":
            return ai_hard.hard_place(view, rng)
        if level == "easy" and rng.random() < 0.5:
            return {"cell": CELLS[rng.choice(ai.free_cells(view))]}
        noise = ai.normal_noise(view.seats)
        return {"cell": CELLS[ai.best_cell(view.seats, view.sheet.cells, view.pending, rng, noise)]}
    if view.kind in ("declare", "pick"):
        if level == "easy":
            options = fitting(view)
            return ai._fight(rng.choice(options)) if options and rng.random() < 0.5 else ai.PASS
        if level == "normal":
            return ai.normal_fight(view, seat, rng)
        return ai_hard.hard_fight(view, seat, rng, fight_priors)
    raise ValueError(f"nothing for seat {seat} to decide now ({view.kind})")
