"""An independent restatement of RULES.md's Numeri, written apart from the engine, to cross-check it.

A board is a dict {(seat, token): square}; a token off the board is absent.
"""

from __future__ import annotations

BOARD = [-3, -3, -3, -2, -2, -1, -1, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 12, 0,
         14, 0, 16, 18, 20, 25, 30]  # squares 1..37
BARRIER = {2: 10, 3: 14, 4: 18}
PAIRS = {3: [(1, 2)], 4: [(1, 3)], 5: [(1, 4), (2, 3)]}

Board = dict[tuple[int, int], int]


def target(board: Board, seat: int, token: int) -> int | None:
    taken = set(board.values())
    square = board.get((seat, token), 0) + 1
    while square <= 37 and square in taken:
        square += 1
    return square if square <= 37 else None


def over(board: Board) -> bool:
    return {35, 36, 37} <= set(board.values())


def chains(board: Board, seat: int) -> list[frozenset[tuple[int, int]]]:
    mine = {sq: t for (s, t), sq in board.items() if s == seat}
    out = []
    for sq in mine:
        if sq - 1 in mine:
            continue
        run = []
        while sq in mine:
            run.append((mine[sq], sq))
            sq += 1
        if len(run) >= 3:
            out.append(frozenset(run))
    return out


def options(board: Board, players: int, seat: int, roll: int | str) -> list[tuple[int, ...]]:
    """Every legal choice (order free here; compare as sets)."""
    can = {t for t in range(1, 6) if target(board, seat, t) is not None}
    if roll == "*":
        return [(t,) for t in sorted(can)]
    result = [(roll,)] if roll in can else []
    if roll in PAIRS and any(sq > BARRIER[players] for sq in board.values()):
        for a, b in PAIRS[roll]:
            if a not in can or b not in can:
                continue
            for first, second in ((a, b), (b, a)):
                trial = dict(board)
                trial[(seat, first)] = target(board, seat, first)
                if over(trial) or target(trial, seat, second) is not None:
                    result.append((first, second))
    return result


def play(board: Board, seat: int, choice: tuple[int, ...]) -> tuple[Board, bool, bool]:
    """(board after, extra throw, game over) for a legal choice."""
    after = dict(board)
    moved = []
    for token in choice:
        after[(seat, token)] = target(after, seat, token)
        moved.append(token)
        if over(after):
            return after, False, True
    before = chains(board, seat)
    extra = any(c not in before and any(t in moved for t, _ in c) for c in chains(after, seat))
    return after, extra, False


def totals(board: Board, players: int) -> list[int]:
    points = [0] * players
    for seat in range(players):
        for token in range(1, 6):
            sq = board.get((seat, token))
            points[seat] += token * (-5 if sq is None else BOARD[sq - 1])
    return points
