"""The public view of a game of Numeri: nothing is secret, so every seat and the table see the same."""

from __future__ import annotations

from dataclasses import dataclass

from . import engine
from .engine import Move, Positions, State
from .rules import VALUE, Face, barrier_for


@dataclass(frozen=True, slots=True)
class NumeriView:
    """Everything about a game of Numeri (nothing is secret): the same for every seat and the table."""

    seats: int
    board: tuple[int, ...]  # board[i] is the value of square i + 1
    positions: Positions  # positions[seat][token - 1]: square, or None off the board
    roll: Face | None
    current: int
    first: int
    barrier: int  # the active barrier stands after this square
    barrier_passed: bool
    scores: tuple[int, ...]
    last: tuple[Move, ...]
    last_seat: int | None
    over: bool
    throws: int
    extra_turns: tuple[int, ...]

    def state(self) -> State:
        """The engine state this view shows (for the AI's look-ahead)."""
        return State(seats=self.seats, first=self.first, positions=self.positions, current=self.current,
                     roll=self.roll, throws=self.throws, over=self.over, last=self.last,
                     last_seat=self.last_seat, extra_turns=self.extra_turns)


def view_of(state: State) -> NumeriView:
    return NumeriView(
        seats=state.seats, board=VALUE[1:], positions=state.positions, roll=state.roll, current=state.current,
        first=state.first, barrier=barrier_for(state.seats),
        barrier_passed=engine.barrier_passed(state.positions, state.seats),
        scores=engine.scores(state.positions), last=state.last, last_seat=state.last_seat, over=state.over,
        throws=state.throws, extra_turns=state.extra_turns,
    )
