"""Helpers that play The Number through the generic game service, shared by storage and load tests."""

import random

from bot.core.clock import Clock
from bot.core.service import GameService
from bot.games.thenumber.engine import GameState
from bot.games.thenumber.game import GAME
from storage.base import GameRecord, GameStore


def number_service(store: GameStore, clock: Clock | None = None, **options: int) -> GameService:
    """The service the bot runs, for The Number alone."""
    return GameService(store, (GAME,), clock, **options)


def legal_number(state: GameState, seat: int, rng: random.Random) -> str:
    free = sorted(state.available(str(seat)))
    return "".join(str(rng.choice(free)) for _ in range(3))


async def open_running_game(service: GameService, channel_id: int, user_ids: list[int]) -> GameRecord:
    record = await service.open_lobby(1, channel_id, user_ids[0], f"u{user_ids[0]}", {"turn_seconds": 60})
    for uid in user_ids[1:]:
        await service.join(record.id, uid, f"u{uid}")
    started = await service.start(record.id, user_ids[0])
    return started.table.record
