"""The rules of Numeri as pure functions over an immutable state (see shared RULES.md, section Numeri).

A turn is one throw: ``roll`` records the die (and passes at once when no move is possible), ``move`` makes
the chosen token moves. Extra throws are simply further turns of the same seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from random import Random

from . import errors
from .rules import (
    CHAIN_LENGTH,
    DIE_FACES,
    LAST_SQUARES,
    MAX_SEATS,
    MIN_SEATS,
    SPLITS,
    SQUARES,
    STAR,
    START,
    TOKENS,
    UNENTERED_POINTS,
    VALUE,
    Face,
    barrier_for,
)

# positions[seat][token - 1]: the token's square, or None while it is off the board
Positions = tuple[tuple[int | None, ...], ...]
Choice = tuple[int, ...]  # the tokens moved by one throw, in order


@dataclass(frozen=True, slots=True)
class Move:
    token: int
    start: int | None  # None: the token entered the board
    end: int


@dataclass(frozen=True, slots=True)
class State:
    seats: int
    first: int
    positions: Positions
    current: int
    roll: Face | None = None  # rolled and waiting for the move; None: the die comes next
    throws: int = 0  # dice rolled so far
    over: bool = False
    last: tuple[Move, ...] = ()  # the previous throw's moves
    last_seat: int | None = None
    extra_turns: tuple[int, ...] = ()  # per seat, extra throws earned so far


@dataclass(frozen=True, slots=True)
class Rolled:
    seat: int
    roll: Face


@dataclass(frozen=True, slots=True)
class Passed:
    """The roll allowed no move: the turn went to the next seat."""

    seat: int
    roll: Face
    next_seat: int
    left: bool = False  # the seat has left the game: its tokens stay where they are and no longer move


@dataclass(frozen=True, slots=True)
class Moved:
    seat: int
    roll: Face
    moves: tuple[Move, ...]
    extra_turn: bool
    ended: bool
    next_seat: int | None  # None once the game is over


Event = Rolled | Passed | Moved


def new_game(seats: int, seed: int = 0, first: int | None = None) -> State:
    """A new game; the first player is drawn from ``seed`` unless given."""
    if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise errors.BadSeats(seats)
    if first is None:
        first = Random(seed).randrange(seats)
    empty = tuple(None for _ in TOKENS)
    return State(seats=seats, first=first, positions=tuple(empty for _ in range(seats)), current=first,
                 extra_turns=(0,) * seats)


def parse_face(value: object) -> Face:
    """A die face given as data (1-5 or "*", nothing that merely compares equal), or BadRoll."""
    if isinstance(value, str) and value == STAR:
        return STAR
    if type(value) is int and value in DIE_FACES:
        return value
    raise errors.BadRoll(value)


# --- the board ------------------------------------------------------------------------------------------

def occupied(positions: Positions) -> frozenset[int]:
    return frozenset(square for seat in positions for square in seat if square is not None)


def destination(positions: Positions, seat: int, token: int) -> int | None:
    """Where ``token`` of ``seat`` would go: the next free square ahead (from START when off); None if none."""
    here = positions[seat][token - 1]
    taken = occupied(positions)
    for square in range(START if here is None else here + 1, SQUARES + 1):
        if square not in taken:
            return square
    return None


def barrier_passed(positions: Positions, seats: int) -> bool:
    barrier = barrier_for(seats)
    return any(square > barrier for square in occupied(positions))


def ended(positions: Positions) -> bool:
    return set(LAST_SQUARES) <= occupied(positions)


def step(positions: Positions, seat: int, token: int) -> tuple[Positions, Move]:
    """Move one token (it must be able to move)."""
    end = destination(positions, seat, token)
    if end is None:
        raise errors.TokenBlocked(token)
    mine = list(positions[seat])
    move = Move(token, mine[token - 1], end)
    mine[token - 1] = end
    return (*positions[:seat], tuple(mine), *positions[seat + 1:]), move


def runs(positions: Positions, seat: int) -> set[frozenset[tuple[int, int]]]:
    """The maximal runs of ``CHAIN_LENGTH`` or more of the seat's tokens on consecutive squares."""
    mine = sorted((square, token) for token, square in enumerate(positions[seat], start=1) if square is not None)
    found: set[frozenset[tuple[int, int]]] = set()
    group: list[tuple[int, int]] = []
    for square, token in mine:
        if group and square != group[-1][1] + 1:
            if len(group) >= CHAIN_LENGTH:
                found.add(frozenset(group))
            group = []
        group.append((token, square))
    if len(group) >= CHAIN_LENGTH:
        found.add(frozenset(group))
    return found


def new_chain(before: Positions, after: Positions, seat: int, moved: Sequence[int]) -> bool:
    """A maximal run of three or more that holds a moved token and did not exist in that form before."""
    old = runs(before, seat)
    return any(run not in old and any(token in moved for token, _ in run) for run in runs(after, seat))


# --- what a roll allows ------------------------------------------------------------------------------------

def legal_choices(positions: Positions, seats: int, seat: int, roll: Face) -> list[Choice]:
    """Every legal choice for ``roll``, in a stable order: the single move, then the splits in both orders."""
    movable = [token for token in TOKENS if destination(positions, seat, token) is not None]
    if roll == STAR:
        return [(token,) for token in movable]
    assert isinstance(roll, int)
    choices: list[Choice] = [(roll,)] if roll in movable else []
    if roll in SPLITS and barrier_passed(positions, seats):
        for a, b in SPLITS[roll]:
            if a in movable and b in movable:
                choices.extend(order for order in ((a, b), (b, a)) if _split_works(positions, seat, order))
    return choices


def _split_works(positions: Positions, seat: int, order: Choice) -> bool:
    """Both parts possible when made, unless the first part ends the game (then the second is not made)."""
    after, _ = step(positions, seat, order[0])
    return ended(after) or destination(after, seat, order[1]) is not None


def validate(state: State, choice: Sequence[int]) -> Choice:
    """``choice`` as a tuple if it is legal for the current roll; else the error that says why."""
    if state.over:
        raise errors.GameOver()
    face = state.roll
    if face is None:
        raise errors.RollFirst()
    tokens = tuple(choice)
    for token in tokens:
        if isinstance(token, bool) or not isinstance(token, int) or token not in TOKENS:
            raise errors.BadToken(token)
    legal = legal_choices(state.positions, state.seats, state.current, face)
    if tokens in legal:
        return tokens
    if not legal:
        raise errors.NoMovePossible(face)
    if not tokens:
        raise errors.MoveRequired(legal)
    if len(tokens) > 2:
        raise errors.TooManyTokens(len(tokens))
    if len(tokens) == 2:
        _refuse_split(state, tokens)
    token = tokens[0]
    if face == STAR or token == face:
        raise errors.TokenBlocked(token)
    partner = _partner(face, token)
    if partner is not None and barrier_passed(state.positions, state.seats):
        if (token, partner) in legal:
            raise errors.SplitPartMissing(token, partner)
        _refuse_split(state, (token, partner))
    if face in SPLITS and not barrier_passed(state.positions, state.seats):
        raise errors.BarrierClosed(barrier_for(state.seats), face)
    raise errors.WrongToken(face, token)


def _refuse_split(state: State, tokens: Choice) -> None:
    """Raise the reason why the split ``tokens`` is not legal now."""
    face, seat, positions = state.roll, state.current, state.positions
    a, b = tokens
    if face == STAR:
        raise errors.StarMovesOne()
    if a == b:
        raise errors.SameTokenTwice(a)
    if face not in SPLITS:
        raise errors.SplitNeedsThreeToFive(face)
    assert isinstance(face, int)
    if not barrier_passed(positions, state.seats):
        raise errors.BarrierClosed(barrier_for(state.seats), face)
    if tuple(sorted(tokens)) not in SPLITS[face]:
        raise errors.WrongPair(face, tokens)
    for token in tokens:
        if destination(positions, seat, token) is None:
            raise errors.TokenBlocked(token)
    raise errors.TokenBlocked(b, after=a)


def _partner(roll: int, token: int) -> int | None:
    for pair in SPLITS.get(roll, ()):
        if token in pair:
            return pair[1] if pair[0] == token else pair[0]
    return None


def first_part_ends(state: State, choice: Choice) -> bool:
    """Whether a split's first part ends the game (so its second part is not made)."""
    if len(choice) < 2:
        return False
    after, _ = step(state.positions, state.current, choice[0])
    return ended(after)


# --- the two steps of a turn ---------------------------------------------------------------------------

def roll(state: State, face: object) -> tuple[State, Rolled | Passed]:
    """Record the die; when it allows no move the turn passes at once."""
    if state.over:
        raise errors.GameOver()
    if state.roll is not None:
        raise errors.AlreadyRolled(state.roll)
    die = parse_face(face)
    seat = state.current
    rolled = replace(state, roll=die, throws=state.throws + 1)
    if legal_choices(state.positions, state.seats, seat, die):
        return rolled, Rolled(seat, die)
    nxt = (seat + 1) % state.seats
    return replace(rolled, roll=None, current=nxt, last=(), last_seat=seat), Passed(seat, die, nxt)


def forfeit_turn(state: State) -> tuple[State, Passed]:
    """The current seat has left the game: its rolled turn passes, nothing moves (no extra throw)."""
    if state.over:
        raise errors.GameOver()
    if state.roll is None:
        raise errors.RollFirst()
    seat, nxt = state.current, (state.current + 1) % state.seats
    return (replace(state, roll=None, current=nxt, last=(), last_seat=seat),
            Passed(seat, state.roll, nxt, left=True))


def move(state: State, choice: Sequence[int]) -> tuple[State, Moved]:
    """Make a legal choice for the current roll."""
    tokens = validate(state, choice)
    seat, before = state.current, state.positions
    positions, made = before, []
    for token in tokens:
        positions, done = step(positions, seat, token)
        made.append(done)
        if ended(positions):
            break  # the game ends at once: a split's second part is not made
    over = ended(positions)
    extra = not over and new_chain(before, positions, seat, [m.token for m in made])
    nxt = None if over else seat if extra else (seat + 1) % state.seats
    earned = tuple(n + (extra and s == seat) for s, n in enumerate(state.extra_turns or (0,) * state.seats))
    after = replace(state, positions=positions, roll=None, over=over, current=seat if nxt is None else nxt,
                    last=tuple(made), last_seat=seat, extra_turns=earned)
    assert state.roll is not None
    return after, Moved(seat, state.roll, tuple(made), extra, over, nxt)


# --- scoring ----------------------------------------------------------------------------------------------

def token_points(token: int, square: int | None) -> int:
    return token * (UNENTERED_POINTS if square is None else VALUE[square])


def score(positions: Positions, seat: int) -> int:
    return sum(token_points(token, square) for token, square in enumerate(positions[seat], start=1))


def scores(positions: Positions) -> tuple[int, ...]:
    return tuple(score(positions, seat) for seat in range(len(positions)))


def winners(positions: Positions) -> frozenset[int]:
    totals = scores(positions)
    best = max(totals)
    return frozenset(seat for seat, total in enumerate(totals) if total == best)


def never_entered(positions: Positions, seat: int) -> int:
    return sum(1 for square in positions[seat] if square is None)
