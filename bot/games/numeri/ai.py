"""Numeri's AI players, deciding from the public view only; deterministic given ``rng``.

- easy: a beginner: a random legal move, now and then the one that scores most at once.
- normal: one sound ply: the points each legal choice scores at once, an extra throw's worth, and whether
  ending the game now wins or loses it.
- hard: judges a token by what it scores now and by the squares it may still reach (more of the latter
  while the end of the track is open), and looks ahead over the die: a choice that earns an extra throw
  is worth the average, over the six faces, of the best choice that throw would allow.
"""

from __future__ import annotations

from random import Random

from . import engine
from .engine import Choice, Positions, State
from .rules import DIE_FACES, SQUARES, TOKENS, UNENTERED_POINTS, VALUE
from .view import NumeriView

EASY_GREED = 0.3  # how often the beginner takes the move that scores most at once
EXTRA_THROW = 9.0  # normal's guess of what one throw gains
WIN = 1000.0
LOOK = 8  # squares ahead whose values a token may still reach (hard)
HOPE = 1.0  # hard's weight of the squares ahead while the end of the track is all free
END_ZONE = range(27, SQUARES + 1)  # how open the end is decides how much the squares ahead count


def _ahead_table() -> tuple[float, ...]:
    """Per square, the mean value of the ``LOOK`` squares after it (its own value on the last square)."""
    table = [0.0] * (SQUARES + 1)
    for square in range(1, SQUARES + 1):
        ahead = VALUE[square + 1:square + 1 + LOOK] or (VALUE[square],)
        table[square] = sum(ahead) / len(ahead)
    return tuple(table)


AHEAD = _ahead_table()


def final_value(positions: Positions, seat: int) -> float:
    """The game is over: winning is all that counts, then the margin."""
    totals = engine.scores(positions)
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return (WIN if margin >= 0 else -WIN) + margin


def hope_worth(positions: Positions, seat: int) -> float:
    """Hard's worth of a seat's tokens: points now blended with the squares ahead, by how open the end is."""
    taken = engine.occupied(positions)
    hope = HOPE * sum(1 for q in END_ZONE if q not in taken) / len(END_ZONE)
    return sum(t * (UNENTERED_POINTS if q is None else (1 - hope) * VALUE[q] + hope * AHEAD[q])
               for t, q in zip(TOKENS, positions[seat], strict=True))


def _legal(state: State) -> list[Choice]:
    assert state.roll is not None
    return engine.legal_choices(state.positions, state.seats, state.current, state.roll)


def _normal_value(state: State, choice: Choice, seat: int) -> float:
    after, moved = engine.move(state, choice)
    if moved.ended:
        return final_value(after.positions, seat)
    return engine.score(after.positions, seat) + (EXTRA_THROW if moved.extra_turn else 0.0)


def normal(state: State) -> Choice:
    legal = _legal(state)
    if len(legal) == 1:
        return legal[0]
    return max(legal, key=lambda c: _normal_value(state, c, state.current))


def easy(state: State, rng: Random) -> Choice:
    legal = _legal(state)
    if len(legal) > 1 and rng.random() < EASY_GREED:
        seat = state.current
        return max(legal, key=lambda c: engine.score(engine.move(state, c)[0].positions, seat))
    return rng.choice(legal)


def _hard_value(state: State, choice: Choice, seat: int, look: bool) -> float:
    after, moved = engine.move(state, choice)
    if moved.ended:
        return final_value(after.positions, seat)
    if not moved.extra_turn:
        return hope_worth(after.positions, seat)
    if not look:  # an extra throw further down the look-ahead: roughly one more move's gain
        return hope_worth(after.positions, seat) + EXTRA_THROW
    total = 0.0
    for face in DIE_FACES:
        rolled, event = engine.roll(after, face)
        if isinstance(event, engine.Passed):
            total += hope_worth(after.positions, seat)
        else:
            total += max(_hard_value(rolled, c, seat, False) for c in _legal(rolled))
    return total / len(DIE_FACES)


def hard(state: State) -> Choice:
    legal = _legal(state)
    if len(legal) == 1:
        return legal[0]
    return max(legal, key=lambda c: _hard_value(state, c, state.current, True))


def choose(view: NumeriView, seat: int, level: str, rng: Random) -> Choice:
    """The level's choice for the roll the view shows (the seat must be the current one)."""
    state = view.state()
    if state.roll is None or state.current != seat or state.over:
        raise ValueError("the AI moves only for the current seat after the roll")
    if level == "easy":
        return easy(state, rng)
    if level == "normal":
        return normal(state)
    if level == "hard":
        return hard(state)
    raise ValueError(f"unknown AI level {level!r}: easy, normal or hard")
