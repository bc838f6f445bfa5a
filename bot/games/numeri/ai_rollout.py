"""Fast playouts of Numeri for the hard AI: the rules on plain mutable lists, every seat playing normal.

The engine's immutable states are right for the game but too slow to play thousands of throws per
decision; this module replays the same rules on lists (the rules numbers all come from ``rules``), with
every seat following the normal level's greedy policy, which is the best model of an unknown opponent we
have. It serves only the look-ahead: the move that is played is always chosen among the engine's legal
choices.
"""

from __future__ import annotations

from random import Random

from .engine import Positions
from .rules import CHAIN_LENGTH, LAST_SQUARES, SPLITS, SQUARES, START, TOKENS, UNENTERED_POINTS, VALUE

EXTRA_THROW = 9.0  # the normal level's guess of what one throw gains
WIN = 1000.0  # the normal level's worth of winning by ending the game (losing: minus this)
FACES = 6  # 0-4: tokens 1-5; 5: the star


class Board:
    """A position being played out: squares per seat and token, and which squares are taken."""

    __slots__ = ("barrier", "open", "pos", "seats", "taken")

    def __init__(self, positions: Positions, seats: int, barrier: int) -> None:
        self.pos = [[0 if q is None else q for q in seat] for seat in positions]  # 0: off the board
        self.taken = [False] * (SQUARES + 2)
        for seat in self.pos:
            for q in seat:
                if q:
                    self.taken[q] = True
        self.seats = seats
        self.barrier = barrier
        self.open = any(q > barrier for seat in self.pos for q in seat)

    def dest(self, here: int) -> int:
        """The next free square after ``here`` (0: off the board, enters at START); 0 when none."""
        taken = self.taken
        q = START if here == 0 else here + 1
        while q <= SQUARES:
            if not taken[q]:
                return q
            q += 1
        return 0

    def ended(self) -> bool:
        taken = self.taken
        return taken[LAST_SQUARES[0]] and taken[LAST_SQUARES[1]] and taken[LAST_SQUARES[2]]

    def score(self, seat: int) -> int:
        return sum(t * (UNENTERED_POINTS if q == 0 else VALUE[q]) for t, q in zip(TOKENS, self.pos[seat], strict=True))

    def put(self, seat: int, token: int, to: int) -> int:
        mine = self.pos[seat]
        here = mine[token - 1]
        if here:
            self.taken[here] = False
        self.taken[to] = True
        mine[token - 1] = to
        if to > self.barrier:
            self.open = True
        return here

    def undo(self, seat: int, token: int, here: int, was_open: bool) -> None:
        mine = self.pos[seat]
        self.taken[mine[token - 1]] = False
        if here:
            self.taken[here] = True
        mine[token - 1] = here
        self.open = was_open

    def in_chain(self, seat: int, square: int) -> bool:
        """Whether ``square`` belongs to a run of CHAIN_LENGTH or more of the seat's tokens."""
        mine = set(self.pos[seat]) - {0}
        low = square
        while low - 1 in mine:
            low -= 1
        high = square
        while high + 1 in mine:
            high += 1
        return high - low + 1 >= CHAIN_LENGTH


def choices(board: Board, seat: int, face: int) -> list[tuple[int, ...]]:
    """The legal choices for a face (0-4: token face + 1; 5: the star), as the engine lists them."""
    mine = board.pos[seat]
    movable = [t for t in TOKENS if board.dest(mine[t - 1])]
    if face == 5:
        return [(t,) for t in movable]
    roll = face + 1
    found: list[tuple[int, ...]] = [(roll,)] if roll in movable else []
    if board.open and roll in SPLITS:
        for a, b in SPLITS[roll]:
            if a in movable and b in movable:
                for first, second in ((a, b), (b, a)):
                    was_open = board.open
                    here = board.put(seat, first, board.dest(mine[first - 1]))
                    works = board.ended() or board.dest(mine[second - 1]) != 0
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
    totals = [board.score(s) for s in range(board.seats)]
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return (WIN if margin >= 0 else -WIN) + margin


def greedy(board: Board, seat: int, legal: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The normal level's choice: most points at once, an extra throw's worth, a won or lost end."""
    if len(legal) == 1:
        return legal[0]
    best, best_value = legal[0], -1e18
    mine = board.pos[seat]
    for choice in legal:
        saved = list(mine)
        taken = list(board.taken)
        was_open = board.open
        over, extra = make(board, seat, choice)
        value = outcome(board, seat) if over else board.score(seat) + (EXTRA_THROW if extra else 0.0)
        board.pos[seat] = mine = saved
        board.taken = taken
        board.open = was_open
        if value > best_value:
            best, best_value = choice, value
    return best


def play_out(board: Board, current: int, rng: Random, limit: int) -> int:
    """Play on with every seat greedy until the end or ``limit`` throws; returns the throws made."""
    throws = 0
    seats = board.seats
    while throws < limit:
        throws += 1
        legal = choices(board, current, rng.randrange(FACES))
        if not legal:
            current = (current + 1) % seats
            continue
        over, extra = make(board, current, greedy(board, current, legal))
        if over:
            break
        if not extra:
            current = (current + 1) % seats
    return throws
