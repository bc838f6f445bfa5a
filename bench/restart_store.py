"""Restart of the store alone (bench.postgres): from process start to "every running game ready to accept choices".

A fresh interpreter (timed from just before the parent spawns it) imports the bot, builds NumberBot with
its settings, opens the store (migration check included) and does what TableTalk.restore does for games
whose turn is announced and whose status message is posted: GameService.load_open_games reads every
open game's row and each running game's deadline and reminder timers are armed on the bot's Scheduler.
Ready = that is done: every game's turn will end on time, and a choice for any game is accepted (a game
is rebuilt from its action log the first time someone acts in it; the figure "first choice after restart"
times that). Not included: logging in to Discord and the gateway's READY (network round trips).
"""

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from .common import Figure, summary


def child(db: str, spawned: float) -> None:
    marks = {"interpreter_and_main": time.time() - spawned}
    from bot.client import NumberBot
    from bot.settings import Settings

    marks["imports"] = time.time() - spawned

    async def main() -> int:
        where = {"database_url": db} if db.startswith("postgresql://") else {"database_path": Path(db)}
        bot = NumberBot(Settings(_env_file=None, **where))  # type: ignore[arg-type]  # bench.postgres: a URL
        await bot.store.open()
        try:
            marks["store_open"] = time.time() - spawned
            # What TableTalk.restore does for games whose turn was announced and whose status message is up:
            # read every open game's row, then arm its deadline and reminder timers.
            records = await bot.games.load_open_games()
            for record in records:
                if record.status == "running" and record.deadline is not None:
                    game_id, phase = record.id, record.phase
                    bot.scheduler.schedule(("deadline", game_id), record.deadline, _noop(game_id, phase))
                    remind_at = record.deadline - bot.settings.reminder_seconds
                    if bot.settings.reminder_seconds and remind_at > bot.clock.now():
                        bot.scheduler.schedule(("reminder", game_id), remind_at, _noop(game_id, phase))
            await bot.store.unannounced_finished_games()
            marks["ready"] = time.time() - spawned
            running = [r for r in records if r.status == "running"]
            timers = sum(1 for key in bot.scheduler._timers if key[0] == "deadline")
            assert len(running) == timers, (len(running), timers)
            # The first choice in a game after the restart pays for rebuilding it from its action log.
            started = time.perf_counter()
            for record in running[:200]:
                await bot.games.table(record.id)
            marks["first_choice_ms"] = (time.perf_counter() - started) / min(200, len(running)) * 1000
            return len(running)
        finally:
            bot.scheduler.cancel_all()
            await bot.store.close()

    games = asyncio.run(main())
    print(json.dumps({"games": games, **marks}), flush=True)


def _noop(game_id: int, phase: int) -> Callable[[], Awaitable[None]]:
    async def fire() -> None:  # the real callbacks reveal the turn; never due during the measurement
        return None
    return fire


def measure(db: Path | str) -> dict[str, float]:
    spawned = time.time()
    out = subprocess.run([sys.executable, "-m", "bench.restart_store", "--child", str(db), repr(spawned)], check=True,
                         capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1], timeout=120)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    result["process_total"] = time.time() - spawned  # ready + printing + interpreter shutdown
    return result


def run(db: Path, games: int, quick: bool = False) -> list[Figure]:
    runs = [measure(db) for _ in range(1 if quick else 3)]
    assert all(r["games"] == games for r in runs), runs
    ready = summary([r["ready"] for r in runs])
    phases = {k: summary([r[k] for r in runs])["median"]
              for k in ("interpreter_and_main", "imports", "store_open", "ready", "first_choice_ms")}
    note = (f"median marks (s since spawn): imports done {phases['imports']:.2f}, store open "
            f"{phases['store_open']:.2f}, every deadline armed {phases['ready']:.2f}; then each game is "
            f"rebuilt on first use: {phases['first_choice_ms']:.2f} ms")
    return [Figure(f"restart_ready_seconds_{games}", f"Restart: process start -> {games:,} games ready", "s",
                   ready, "< 3 s", ready["median"] < 3.0, note, {"runs": runs})]


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], float(sys.argv[3]))
