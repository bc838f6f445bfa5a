"""Shared helpers of the Numeri tests: positions built by hand, whole games played through GAME."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from bot.games.numeri.engine import State
from bot.games.numeri.game import GAME, die_rng


def position(*seats: dict[int, int]) -> tuple[tuple[int | None, ...], ...]:
    """``position({1: 35, 4: 36}, {1: 20})``: each seat's tokens by number (absent: off the board)."""
    return tuple(tuple(seat.get(t) for t in range(1, 6)) for seat in seats)


def state_at(*seats: dict[int, int], roll: int | str | None = None, current: int = 0) -> State:
    return State(seats=len(seats), first=0, positions=position(*seats), current=current, roll=roll,
                 extra_turns=(0,) * len(seats))


Policy = Callable[[State, Random], list[int]]


def random_policy(state: State, rng: Random) -> list[int]:
    return list(rng.choice(GAME.legal(state, state.current))["moves"])


def play_game(seats: int, seed: int, policy: Policy = random_policy,
              watch: Callable[[State, object, State], None] | None = None) -> State:
    """A whole game through GAME's prompt/chance/apply; ``watch(before, event, after)`` sees every step."""
    state = GAME.setup(seats, {}, seed)
    rng = Random(seed)
    while (prompt := GAME.prompt(state)) is not None:
        if prompt.chance:
            step = {None: GAME.chance(state, die_rng(seed, state.throws))}
        else:
            step = {state.current: {"moves": policy(state, rng)}}
        after, event = GAME.apply(state, step)
        if watch is not None:
            watch(state, event, after)
        state = after
    return state
