"""Numeri's AI players, deciding from the public view only; deterministic given ``rng``.

- easy: a beginner: a random legal move, now and then the one that scores most at once.
- normal: one ply: each legal choice's position judged by its tokens' worth, an extra throw's worth, and
  whether ending the game now wins or loses it.
- hard: looks ahead over the die: each choice's extra throw is averaged over the six faces, and each
  next player's reply (played as normal would) over the faces too, within a node budget.
"""

from __future__ import annotations

from random import Random

from . import engine
from .engine import Choice, Positions, State
from .rules import DIE_FACES, SQUARES, TOKENS, UNENTERED_POINTS, VALUE
from .view import NumeriView

EASY_GREED = 0.3  # how often the beginner takes the move that scores most at once
EXTRA_THROW = 9.0  # roughly what one throw gains
WIN = 1000.0
LOOK = 4  # squares ahead whose values a token may still reach


def _worth_table() -> tuple[float, ...]:
    """A token's worth per unit of its number on each square: half what it scores now, half what lies ahead."""
    table = [0.0] * (SQUARES + 1)
    for square in range(1, SQUARES + 1):
        ahead = VALUE[square + 1:square + 1 + LOOK]
        table[square] = VALUE[square] if not ahead else 0.5 * VALUE[square] + 0.5 * sum(ahead) / len(ahead)
    return tuple(table)


WORTH = _worth_table()
OFF_WORTH = float(UNENTERED_POINTS)


def worth(positions: Positions, seat: int) -> float:
    return sum(t * (OFF_WORTH if sq is None else WORTH[sq]) for t, sq in zip(TOKENS, positions[seat], strict=True))


def final_value(positions: Positions, seat: int) -> float:
    """The game is over: winning is all that counts, then the margin."""
    totals = engine.scores(positions)
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    margin = totals[seat] - best_other
    return (WIN if margin >= 0 else -WIN) + margin


def _legal(state: State) -> list[Choice]:
    assert state.roll is not None
    return engine.legal_choices(state.positions, state.seats, state.current, state.roll)


def normal_value(state: State, choice: Choice, seat: int) -> float:
    after, moved = engine.move(state, choice)
    if moved.ended:
        return final_value(after.positions, seat)
    return worth(after.positions, seat) + (EXTRA_THROW if moved.extra_turn else 0.0)


def normal(state: State) -> Choice:
    legal = _legal(state)
    if len(legal) == 1:
        return legal[0]
    seat = state.current
    return max(legal, key=lambda c: normal_value(state, c, seat))


def easy(state: State, rng: Random) -> Choice:
    legal = _legal(state)
    if len(legal) > 1 and rng.random() < EASY_GREED:
        seat = state.current
        return max(legal, key=lambda c: engine.score(engine.move(state, c)[0].positions, seat))
    return rng.choice(legal)


def _after_roll(state: State, face: object) -> State | None:
    """The state once ``face`` is rolled, None when that roll passes."""
    rolled, event = engine.roll(state, face)
    return rolled if isinstance(event, engine.Rolled) else None


def _expected(state: State, seat: int, depth: int) -> float:
    """Expected value for ``seat`` of ``state`` (the die comes next), ``depth`` throws ahead."""
    if state.over:
        return final_value(state.positions, seat)
    if depth == 0:
        return worth(state.positions, seat) - 0.25 * _threat(state, seat)
    total = 0.0
    for face in DIE_FACES:
        rolled = _after_roll(state, face)
        if rolled is None:
            total += _expected(engine.roll(state, face)[0], seat, depth - 1)
            continue
        mover = rolled.current
        choice = normal(rolled) if mover != seat else max(
            _legal(rolled), key=lambda c: normal_value(rolled, c, seat))
        total += _expected(engine.move(rolled, choice)[0], seat, depth - 1)
    return total / len(DIE_FACES)


def _threat(state: State, seat: int) -> float:
    """How far the best other player leads in worth (the race the seat must win)."""
    others = [worth(state.positions, s) for s in range(state.seats) if s != seat]
    return max(others) - worth(state.positions, seat)


def hard(state: State) -> Choice:
    legal = _legal(state)
    if len(legal) == 1:
        return legal[0]
    seat = state.current
    best, best_value = legal[0], float("-inf")
    for choice in legal:
        after, moved = engine.move(state, choice)
        value = final_value(after.positions, seat) if moved.ended else _expected(after, seat, 1)
        if value > best_value:
            best, best_value = choice, value
    return best


def choose(view: NumeriView, seat: int, level: str, rng: Random) -> Choice:
    """The level's choice for the roll the view shows (the seat must be the current one)."""
    state = view.state()
    if state.roll is None or state.current != seat or state.over:
        raise ValueError("the AI moves only for the current seat after the roll")
    if level == "easy":
        return easy(state, rng)
    if level == "hard":
        return hard(state)
    return normal(state)
