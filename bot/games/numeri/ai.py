"""Numeri's AI players, deciding from the public view only; deterministic given ``rng``.

- easy: a beginner: a random legal move, now and then the one that scores most at once.
- normal: one sound ply: the points each legal choice scores at once, an extra throw's worth, and whether
  ending the game now wins or loses it.
- hard: while the game is long, judges a token by what it scores now and by the squares it may still
  reach (more of the latter while the end of the track is open), and looks ahead over the die when a
  choice earns an extra throw. Near the end, where timing decides (whether to end the game, which token
  takes the last high squares), it plays each legal choice out to the end many times, every seat playing
  normal (``ai_rollout``), on the same dice for every choice so the comparison is fair, and takes the
  choice that wins most often (ties share the win; the margin breaks near-ties). The work is bounded by
  a number of simulated throws, never a clock, and the simulated dice come only from the generator it is
  given, so a decision is the same on any machine for the same generator.
"""

from __future__ import annotations

from random import Random

from . import ai_rollout, engine
from .ai_rollout import EXTRA_THROW, WIN
from .engine import Choice, Positions, State
from .rules import DIE_FACES, TOKENS, UNENTERED_POINTS, VALUE, barrier_for
from .view import NumeriView

EASY_GREED = 0.3  # how often the beginner takes the move that scores most at once
# Hard searches once the game may end within this many throws (by one probe playout): from there on who takes
# the last squares, and when, decides the game. Before, a throw's choice is judged (see hope_worth).
HORIZON = 60
BUDGET = 4000  # simulated throws per hard decision, over all its choices and playouts (p99 time)
MIN_PLAYOUTS = 4  # playouts per choice however long the game still is
MAX_PLAYOUTS = 200  # enough near the end, where playouts are short
ROLLOUT_LIMIT = 400  # a safety bound: a game of Numeri ends long before
MARGIN = 0.002  # share of a win per point of expected final margin: it decides between near-equal choices
HOPE = 1.0  # hard's weight of the squares ahead while the end of the track is all free
AHEAD = ai_rollout.AHEAD
END_ZONE = ai_rollout.END_ZONE


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


def _remaining(state: State, rng: Random) -> int:
    """How many throws the game may still last: one playout's length, every seat playing strong."""
    board = ai_rollout.Board(state.positions, state.seats, barrier_for(state.seats))
    return ai_rollout.play_out(board, state.current, Random(rng.getrandbits(64)), ROLLOUT_LIMIT,
                               ai_rollout.strong)


def _win_share(totals: list[int] | tuple[int, ...], seat: int) -> float:
    """A finished game's worth for ``seat``: its share of the win, the margin breaking near-ties."""
    best = max(totals)
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return (1 / totals.count(best) if totals[seat] == best else 0.0) + MARGIN * margin


def _ending_now(positions: Positions, seat: int) -> float:
    """Ending the game: a sure loss ranks below playing on, where some chance is left."""
    totals = engine.scores(positions)
    lost = totals[seat] < max(totals)
    return _win_share(totals, seat) - (1.0 if lost else 0.0)


def hard(state: State, rng: Random) -> Choice:
    legal = _legal(state)
    if len(legal) == 1:
        return legal[0]
    seat = state.current
    if _remaining(state, rng) > HORIZON:
        return max(legal, key=lambda c: _hard_value(state, c, seat, True))
    return legal[_searched(state, legal, seat, rng)]


def _searched(state: State, legal: list[Choice], seat: int, rng: Random) -> int:
    """The index of the choice with the best expected end: every choice played out to the end many times on
    the same dice (so the comparison is fair), every seat modelled as a strong player (``ai_rollout.strong``:
    it takes the squares still within reach and ends the game only to win it). A choice's worth is its share
    of the win plus ``MARGIN`` per point of final margin, so ending the game now (a known margin) is weighed
    against playing on (the margins to come), and leaving the end to a rival counts what it costs."""
    afters: list[tuple[State, bool]] = []
    for choice in legal:
        after, moved = engine.move(state, choice)
        afters.append((after, moved.ended))
    totals = [0.0] * len(legal)
    done = [_ending_now(after.positions, seat) if over else 0.0 for after, over in afters]
    live = [i for i, (_, over) in enumerate(afters) if not over]
    spent, playouts = 0, 0
    barrier = barrier_for(state.seats)
    while live and (playouts < MIN_PLAYOUTS or spent < BUDGET) and playouts < MAX_PLAYOUTS:
        seed = rng.getrandbits(64)  # the simulated dice come only from the seat's generator
        playouts += 1
        for i in live:
            after = afters[i][0]
            board = ai_rollout.Board(after.positions, after.seats, barrier)
            spent += ai_rollout.play_out(board, after.current, Random(seed), ROLLOUT_LIMIT, ai_rollout.strong)
            totals[i] += _win_share(board.points, seat)
    values = [done[i] if afters[i][1] else totals[i] / max(playouts, 1) for i in range(len(legal))]
    return max(range(len(legal)), key=lambda i: values[i])


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
        return hard(state, rng)
    raise ValueError(f"unknown AI level {level!r}: easy, normal or hard")
