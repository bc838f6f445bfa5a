"""What the poster, the timers, the recovery and the inbox share about the games this process tells, in one
small object the router owns and hands to each of them (nothing is shared through another class's privates)."""

from __future__ import annotations

import asyncio

from bot.core.locks import KeyedLocks

from .presenter import Happened
from .turn_messages import TurnMessage

BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)  # failed timer work (database errors), then every minute


class TableState:
    def __init__(self) -> None:
        # Per game: the turn message that is up (to edit it once its step is over).
        self.turn_messages: dict[int, TurnMessage] = {}
        # Per game: the thread it plays in, opened by this process (a game loaded from the store has its
        # record's ``thread_id``; the service's table started before the thread existed does not).
        self.threads: dict[int, int] = {}
        # One game's telling at a time (posting, editing, catching up, the reminder's edit).
        self.locks = KeyedLocks()
        # After a start, until the restore is done: the games already caught up (see Recovery.take_up).
        self.restored = False
        self.caught_up: set[int] = set()
        # Set once the start-up work is over (the restore and its sweep): heavy background jobs wait for it.
        self.settled = asyncio.Event()
        self.backoff_delays: tuple[float, ...] = BACKOFF

    def backoff(self, attempt: int) -> float:
        """How long failed work waits before its ``attempt``-th retry (then every minute)."""
        return self.backoff_delays[min(attempt, len(self.backoff_delays) - 1)]

    def since_of(self, game_id: int, step: int) -> tuple[Happened, ...]:
        """What the turn message of ``step`` told before its own step (for the edit that closes it)."""
        up = self.turn_messages.get(game_id)
        return up.since if up is not None and up.step == step else ()

    def turn_message_id(self, game_id: int) -> int | None:
        """The id of the game's turn message that is up, if this process posted or found one."""
        up = self.turn_messages.get(game_id)
        return up.message_id if up is not None else None
