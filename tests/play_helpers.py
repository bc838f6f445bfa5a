"""Helpers that play The Number through the service, shared by storage and load tests."""

import random

from bot.games.thenumber.engine import GameState
from bot.services.thenumber import TheNumberService, seat_key
from storage.base import GameRecord


def legal_number(state: GameState, seat: int, rng: random.Random) -> str:
    free = sorted(state.available(seat_key(seat)))
    return "".join(str(rng.choice(free)) for _ in range(3))


async def open_running_game(service: TheNumberService, channel_id: int, user_ids: list[int]) -> GameRecord:
    record = await service.open_lobby(1, channel_id, user_ids[0], f"u{user_ids[0]}", {"turn_seconds": 60})
    for uid in user_ids[1:]:
        await service.join(record.id, uid, f"u{uid}")
    table = await service.start(record.id, user_ids[0])
    return table.record
