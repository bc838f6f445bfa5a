"""The Number's stored games as its front end reads them: the engine state of a record (through the core's one
fold), unique seat names, and the table script of ``python -m bot replay``."""

from collections.abc import Mapping
from typing import Any

from bot.core.table import fold, stored_steps
from bot.games.thenumber.engine import GameState
from bot.games.thenumber.game import GAME, turn_numbers
from bot.games.thenumber.replay import script_json
from storage.base import GameRecord, SeatRecord


def seat_key(seat: SeatRecord | int) -> str:
    """The engine names players by seat number."""
    return str(seat if isinstance(seat, int) else seat.seat)


def rebuild(record: GameRecord) -> GameState:
    """The engine state of ``record`` after its stored steps (the core's fold; drafts are not in it)."""
    state, _ = fold(GAME, record)
    return state  # type: ignore[no-any-return]


def unique_names(seats: tuple[SeatRecord, ...]) -> dict[int, str]:
    """Seat -> a name no other seat has (two "Alex" become "Alex" and "Alex (2)")."""
    used: set[str] = set()
    names: dict[int, str] = {}
    for seat in seats:
        name, n = seat.name, 1
        while name in used:
            n += 1
            name = f"{seat.name} ({n})"
        used.add(name)
        names[seat.seat] = name
    return names


def replay_script(record: GameRecord) -> dict[str, Any]:
    """The game as a ``python -m bot replay`` table script (players named by unique display names)."""
    names = unique_names(record.seats)
    turns: list[Mapping[str, str]] = [{names[int(k)]: n for k, n in turn_numbers(p).items()}
                                      for p in stored_steps(record)]
    return script_json([names[s.seat] for s in record.seats], turns)
