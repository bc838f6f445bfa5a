"""A child process for the crash tests: plays one scripted game, printing each acknowledgement.

Deterministic: the number a seat plays depends only on the seed, the turn and the board, so a run
killed at any instant and started again finishes with the same game as an uninterrupted one.
Usage: python -m tests.crash_child DB SEED (DB: a SQLite file or a postgresql:// URL)
"""

import asyncio
import random
import sys
from typing import cast

from bot.services.thenumber import TheNumberService
from storage.backend import make_store
from storage.pg_connection import is_postgres_url
from tests.backends import AnyStore
from tests.play_helpers import legal_number, open_running_game

USERS = [501, 502, 503, 504]


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(db: str, seed: int) -> None:
    async with cast(AnyStore, make_store(db if is_postgres_url(db) else None, db)) as store:
        service = TheNumberService(store)
        games = await service.load_open_games()
        if games:
            game_id = games[0].id
        elif await store.get_meta("crash-test-game"):
            say("DONE")
            return
        else:
            game_id = (await open_running_game(service, 42, USERS)).id
            await store.set_meta("crash-test-game", str(game_id))
        while True:
            table = await service.table(game_id)
            if table.state.finished or table.record.status != "running":
                break
            phase = table.record.phase
            for seat in table.awaiting():
                rng = random.Random(seed * 1_000 + phase * 10 + seat.seat)
                if seat.seat == 3 and rng.random() < 0.3:
                    continue  # this one forgets to choose: the timer will reveal the turn
                number = legal_number(table.state, seat.seat, rng)
                await service.choose(game_id, seat.user_id or 0, number)
                say(f"ACK {game_id} {phase} {seat.seat} {number}")
            report = await service.expire(game_id, phase)
            if report is not None:
                pts = " ".join(f"{k}={r.points}" for k, r in report.outcome.results.items())
                say(f"RESOLVED {phase} {pts}")
        say("DONE")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
