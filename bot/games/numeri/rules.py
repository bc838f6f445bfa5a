"""Every number that defines Numeri, in one place (see shared RULES.md, section Numeri).

The printed board's values are unknown, so ``TRACK`` is the reconstructed board of RULES.md: a
correction to the board or to a barrier is a change to one row here.
"""

from typing import Final, Literal

from bot.core.game import Option

GAME_KEY: Final = "numeri"
TITLE: Final = "Numeri"
# The table's timer (/numeri start turn_seconds); the bot's TURN_SECONDS setting is the default on Discord.
TURN_SECONDS: Final = Option("turn_seconds", default=120, min=15, max=3600, server_default=True)

MIN_SEATS: Final = 2
MAX_SEATS: Final = 4

TOKENS: Final = (1, 2, 3, 4, 5)
STAR: Final = "*"
Face = int | Literal["*"]
DIE_FACES: Final[tuple[Face, ...]] = (1, 2, 3, 4, 5, STAR)

# The reconstructed board and its barriers, one row per square: (square, value, the seat count whose
# barrier follows this square, or None).
TRACK: Final[tuple[tuple[int, int, int | None], ...]] = (
    (1, -3, None), (2, -3, None), (3, -3, None), (4, -2, None), (5, -2, None), (6, -1, None),
    (7, -1, None), (8, 0, None), (9, 1, None), (10, 0, 2), (11, 2, None), (12, 0, None),
    (13, 3, None), (14, 0, 3), (15, 4, None), (16, 0, None), (17, 5, None), (18, 0, 4),
    (19, 6, None), (20, 0, None), (21, 7, None), (22, 0, None), (23, 8, None), (24, 0, None),
    (25, 9, None), (26, 0, None), (27, 10, None), (28, 0, None), (29, 12, None), (30, 0, None),
    (31, 14, None), (32, 0, None), (33, 16, None), (34, 18, None), (35, 20, None), (36, 25, None),
    (37, 30, None),
)

SQUARES: Final = len(TRACK)
START: Final = TRACK[0][0]
# VALUE[square] is the square's value; index 0 is unused so squares read as themselves.
VALUE: Final[tuple[int, ...]] = (0, *(value for _, value, _ in TRACK))
BARRIER_AFTER: Final[dict[int, int]] = {seats: square for square, _, seats in TRACK if seats is not None}

# After the active barrier is passed, a 3, 4 or 5 may move two tokens instead (in either order).
SPLITS: Final[dict[int, tuple[tuple[int, int], ...]]] = {3: ((1, 2),), 4: ((1, 3),), 5: ((1, 4), (2, 3))}

UNENTERED_POINTS: Final = -5  # per token number, for a token never brought onto the board
LAST_SQUARES: Final = (35, 36, 37)  # all three occupied: the game ends at once
CHAIN_LENGTH: Final = 3  # own tokens on consecutive squares that earn an extra throw

RULES_TEXT: Final = f"""Numeri, for {MIN_SEATS} to {MAX_SEATS} players (played on a reconstructed board: the printed \
board's values are unknown).
Each player has five tokens numbered 1 to 5, all off the board at the start. The track has {SQUARES} squares; \
START is square {START}.
On your turn the die shows 1 to 5 or a star. The number names the token that moves: it goes to the next free \
square ahead (a token off the board enters at START, or the first free square after it). One token per \
square: occupied squares are jumped over. A star moves any one of your tokens.
Barrier: after square {BARRIER_AFTER[2]} with 2 players, {BARRIER_AFTER[3]} with 3, {BARRIER_AFTER[4]} with 4. \
Once any token stands beyond it, a 3, 4 or 5 may be split over two tokens: 3 = 1+2, 4 = 1+3, 5 = 1+4 or 2+3, \
in the order you choose; both tokens must be able to move.
A new or changed chain of {CHAIN_LENGTH} or more of your tokens on consecutive squares earns an extra throw.
If the roll allows no move, the turn passes. The game ends at once when squares \
{LAST_SQUARES[0]}, {LAST_SQUARES[1]} and {LAST_SQUARES[2]} are all occupied.
Scoring: each token scores its number times its square's value; a token never entered scores its number \
times {UNENTERED_POINTS}. Highest total wins; ties share the win."""


def barrier_for(seats: int) -> int:
    """The square after which the active barrier stands for ``seats`` players."""
    return BARRIER_AFTER[seats]
