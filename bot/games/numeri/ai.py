"""Numeri's AI players, deciding from the public view only; deterministic given ``rng``."""

from __future__ import annotations

from random import Random

from . import engine
from .engine import Choice
from .view import NumeriView


def choose(view: NumeriView, seat: int, level: str, rng: Random) -> Choice:
    state = view.state()
    assert view.roll is not None
    legal = engine.legal_choices(state.positions, state.seats, seat, view.roll)
    return rng.choice(legal)
