"""Fast playouts of Numeri for the hard AI: the rules on plain mutable lists, every seat playing normal.

The engine's immutable states are right for the game but too slow to play thousands of throws per
decision; this module replays the same rules on lists (the rules numbers all come from ``rules``), with
every seat following a policy: the normal level's greedy one, or ``strong`` (points blended with the
squares still within reach, ending only to win), hard's model of an opponent that plays well. It serves
only the look-ahead: the move that is played is always chosen among the engine's legal choices. Squares
know their owner and seats keep their running score, so a throw costs a few list reads.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from .engine import Positions
from .rules import CHAIN_LENGTH, LAST_SQUARES, SPLITS, SQUARES, START, TOKENS, UNENTERED_POINTS, VALUE

EXTRA_THROW = 9.0  # the normal level's guess of what one throw gains
WIN = 1000.0  # the normal level's worth of winning by ending the game (losing: minus this)
FACES = 6  # 0-4: tokens 1-5; 5: the star
FREE = -1  # owner of an empty square
_A, _B, _C = LAST_SQUARES
# a token's worth on a square; index 0 is off the board (so a moving token's gain is one subtraction)
_WORTH = (UNENTERED_POINTS, *VALUE[1:])
LOOK = 8  # squares ahead whose values a token may still reach (the strong model and hard's judgement)
END_ZONE = range(27, SQUARES + 1)  # how open the end is decides how much the squares ahead count
HOPE_PER_SQUARE = 1.0 / len(END_ZONE)  # the squares ahead weigh all while the end zone is all free


def _ahead_table() -> tuple[float, ...]:
    """Per square, the mean value of the ``LOOK`` squares after it (its own value on the last square); off
    the board, the value of a token that still has the whole track before it counts as the start's."""
    table = [0.0] * (SQUARES + 1)
    for square in range(1, SQUARES + 1):
        ahead = VALUE[square + 1:square + 1 + LOOK] or (VALUE[square],)
        table[square] = sum(ahead) / len(ahead)
    return tuple(table)


AHEAD = _ahead_table()
_AHEAD = (float(UNENTERED_POINTS), *AHEAD[1:])  # off the board: what it scores if it never enters
_END = END_ZONE.start


class Board:
    """A position being played out: squares per seat and token, each square's owner, each seat's score."""

    __slots__ = ("barrier", "end_free", "hopes", "open", "owner", "points", "pos", "seats")

    def __init__(self, positions: Positions, seats: int, barrier: int) -> None:
        self.pos = [[0 if q is None else q for q in seat] for seat in positions]  # 0: off the board
        # squares 0 and SQUARES + 1 stay free: they end every walk along a run without a bounds check
        self.owner = [FREE] * (SQUARES + 2)
        for seat, squares in enumerate(self.pos):
            for q in squares:
                if q:
                    self.owner[q] = seat
        self.points = [sum(t * _WORTH[q] for t, q in zip(TOKENS, squares, strict=True)) for squares in self.pos]
        # what the strong model counts besides the points: each seat's squares ahead, the end zone's free squares
        self.hopes = [sum(t * _AHEAD[q] for t, q in zip(TOKENS, squares, strict=True)) for squares in self.pos]
        self.end_free = sum(1 for q in END_ZONE if self.owner[q] == FREE)
        self.seats = seats
        self.barrier = barrier
        self.open = any(q > barrier for squares in self.pos for q in squares)

    def dest(self, here: int) -> int:
        """The next free square after ``here`` (0: off the board, enters at START); 0 when none."""
        owner = self.owner
        q = START if here == 0 else here + 1
        while q <= SQUARES:
            if owner[q] == FREE:
                return q
            q += 1
        return 0

    def ended(self) -> bool:
        owner = self.owner
        return owner[_A] != FREE and owner[_B] != FREE and owner[_C] != FREE

    def score(self, seat: int) -> int:
        return self.points[seat]

    def put(self, seat: int, token: int, to: int) -> int:
        mine = self.pos[seat]
        here = mine[token - 1]
        if here:
            self.owner[here] = FREE
        self.owner[to] = seat
        mine[token - 1] = to
        self.points[seat] += token * (_WORTH[to] - _WORTH[here])
        self.hopes[seat] += token * (_AHEAD[to] - _AHEAD[here])
        self.end_free += (here >= _END) - (to >= _END)
        if to > self.barrier:
            self.open = True
        return here

    def undo(self, seat: int, token: int, here: int, was_open: bool) -> None:
        mine = self.pos[seat]
        to = mine[token - 1]
        self.owner[to] = FREE
        if here:
            self.owner[here] = seat
        mine[token - 1] = here
        self.points[seat] -= token * (_WORTH[to] - _WORTH[here])
        self.hopes[seat] -= token * (_AHEAD[to] - _AHEAD[here])
        self.end_free -= (here >= _END) - (to >= _END)
        self.open = was_open

    def in_chain(self, seat: int, square: int) -> bool:
        """Whether ``square`` belongs to a run of CHAIN_LENGTH or more of the seat's tokens."""
        owner = self.owner
        low = square
        while owner[low - 1] == seat:
            low -= 1
        high = square
        while owner[high + 1] == seat:
            high += 1
        return high - low + 1 >= CHAIN_LENGTH


def choices(board: Board, seat: int, face: int) -> list[tuple[int, ...]]:
    """The legal choices for a face (0-4: token face + 1; 5: the star), as the engine lists them."""
    mine = board.pos[seat]
    dest = board.dest
    if face == 5:
        return [(t,) for t in TOKENS if dest(mine[t - 1])]
    roll = face + 1
    found: list[tuple[int, ...]] = [(roll,)] if dest(mine[roll - 1]) else []
    if board.open and roll in SPLITS:
        for a, b in SPLITS[roll]:
            if dest(mine[a - 1]) and dest(mine[b - 1]):
                for first, second in ((a, b), (b, a)):
                    was_open = board.open
                    here = board.put(seat, first, dest(mine[first - 1]))
                    works = board.ended() or dest(mine[second - 1]) != 0
                    board.undo(seat, first, here, was_open)
                    if works:
                        found.append((first, second))
    return found


def make(board: Board, seat: int, choice: tuple[int, ...]) -> tuple[bool, bool]:
    """Make a choice; returns (game over, extra throw)."""
    mine = board.pos[seat]
    for token in choice:
        board.put(seat, token, board.dest(mine[token - 1]))
        if board.ended():
            return True, False
    # every run holding a token just moved is new or changed: a moved token stands elsewhere now
    return False, any(board.in_chain(seat, mine[token - 1]) for token in choice)


def outcome(board: Board, seat: int) -> float:
    """Over: WIN for a (shared) win, -WIN for a loss, plus the margin."""
    totals = board.points
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return (WIN if margin >= 0 else -WIN) + margin


def _best(board: Board, seat: int, legal: list[tuple[int, ...]],
          value: Callable[[Board, int, bool], float]) -> tuple[int, ...]:
    """The choice of ``legal`` worth most: each is made on the board and undone; a choice that ends the game is
    worth its ``outcome``, any other ``value(board, seat, extra)`` (``extra``: it earned an extra throw)."""
    if len(legal) == 1:
        return legal[0]
    best, best_value = legal[0], -1e18
    mine = board.pos[seat]
    was_open = board.open
    for choice in legal:
        made: list[tuple[int, int]] = []
        over = False
        for token in choice:
            made.append((token, board.put(seat, token, board.dest(mine[token - 1]))))
            if board.ended():
                over = True
                break
        if over:
            worth = outcome(board, seat)
        else:
            worth = value(board, seat, any(board.in_chain(seat, mine[token - 1]) for token, _ in made))
        for token, here in reversed(made):
            board.undo(seat, token, here, was_open)
        if worth > best_value:
            best, best_value = choice, worth
    return best


def _greedy_value(board: Board, seat: int, extra: bool) -> float:
    return board.points[seat] + (EXTRA_THROW if extra else 0.0)


def _strong_value(board: Board, seat: int, extra: bool) -> float:
    hope = board.end_free * HOPE_PER_SQUARE
    return (1 - hope) * board.points[seat] + hope * board.hopes[seat] + (EXTRA_THROW if extra else 0.0)


def greedy(board: Board, seat: int, legal: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The normal level's choice: most points at once, an extra throw's worth, a won or lost end."""
    return _best(board, seat, legal, _greedy_value)


def strong(board: Board, seat: int, legal: list[tuple[int, ...]]) -> tuple[int, ...]:
    """A stronger model of a seat than ``greedy``: a token is worth its square blended with the squares it
    may still reach (``AHEAD``, weighted by how open the end of the track is), an extra throw counts, and the
    game is ended only when that wins it, and by the margin."""
    return _best(board, seat, legal, _strong_value)


Policy = Callable[[Board, int, list[tuple[int, ...]]], tuple[int, ...]]


def play_out(board: Board, current: int, rng: Random, limit: int, policy: Policy = greedy) -> int:
    """Play on with every seat following ``policy`` (greedy unless told) until the end or ``limit`` throws;
    returns the throws made."""
    throws = 0
    seats = board.seats
    while throws < limit:
        throws += 1
        legal = choices(board, current, rng.randrange(FACES))
        if not legal:
            current = (current + 1) % seats
            continue
        over, extra = make(board, current, policy(board, current, legal))
        if over:
            break
        if not extra:
            current = (current + 1) % seats
    return throws
