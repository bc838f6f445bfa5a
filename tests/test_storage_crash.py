"""Crash safety for real: a child process is SIGKILLed right after acknowledging choices."""

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import cast

from bot.games.thenumber.replay import replay_text
from bot.services.thenumber import TheNumberService, rebuild
from storage.backend import make_store
from storage.pg_connection import is_postgres_url
from tests.backends import AnyStore, Backend
from tests.reference_scorer import score_game

ROOT = Path(__file__).resolve().parents[1]


def opened(db: Path | str) -> AnyStore:
    """A store on ``db``: a SQLite file, or a PostgreSQL URL (the child process takes either)."""
    return cast(AnyStore, make_store(str(db) if is_postgres_url(str(db)) else None, db))


def run_child(db: Path | str, seed: int, kill_after: int | None) -> list[str]:
    """Run the child; with ``kill_after``, SIGKILL it as soon as it has printed that many lines."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.crash_child", str(db), str(seed)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    lines: list[str] = []
    for line in proc.stdout:
        lines.append(line.strip())
        if kill_after is not None and len(lines) >= kill_after:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=30)
    proc.stdout.close()
    return lines


async def check_database(db: Path | str, acked: list[tuple[int, int, int, str]]) -> None:
    """Every acknowledged choice is stored; no turn is half-written."""
    async with opened(db) as store:
        game_id = int(await store.get_meta("crash-test-game") or 0)
        record = await store.load_game(game_id)
        stored = {(a.phase, a.seat, a.payload["number"]) for a in record.actions if a.kind == "choose"}
        for gid, phase, seat, number in acked:
            assert gid == game_id and (phase, seat, number) in stored
        resolves = [a for a in record.actions if a.kind == "resolve"]
        assert [a.phase for a in resolves] == list(range(len(resolves)))
        assert record.phase == len(resolves)
        rebuild(record)  # the engine accepts the stored history as it is


def acks(lines: list[str]) -> list[tuple[int, int, int, str]]:
    found = []
    for line in lines:
        if line.startswith("ACK "):
            _, gid, phase, seat, number = line.split()
            found.append((int(gid), int(phase), int(seat), number))
    return found


async def final_result(db: Path | str) -> dict:
    async with opened(db) as store:
        record = await store.load_game(int(await store.get_meta("crash-test-game") or 0))
        assert record.status == "finished"
        return replay_text(json.dumps(TheNumberService.replay_script(record)))


async def test_sigkill_right_after_an_acknowledgement_loses_nothing(backend: Backend) -> None:
    db = backend.target
    lines = await asyncio.to_thread(run_child, db, 3, 7)
    assert lines[-1].startswith("ACK")  # killed right after telling someone their choice is in
    await check_database(db, acks(lines))


async def test_killed_at_random_moments_the_game_finishes_as_if_never_killed(tmp_path: Path,
                                                                           backend: Backend) -> None:
    clean = tmp_path / "clean.sqlite3"  # the reference run: never killed (the game is the same on either backend)
    await asyncio.to_thread(run_child, clean, 11, None)
    expected = await final_result(clean)

    crashed = backend.target
    rng = random.Random(11)
    all_acks: list[tuple[int, int, int, str]] = []
    for _ in range(40):
        lines = await asyncio.to_thread(run_child, crashed, 11, rng.randint(1, 6))
        all_acks += acks(lines)
        await check_database(crashed, all_acks)
        if lines and lines[-1] == "DONE":
            break
    else:
        await asyncio.to_thread(run_child, crashed, 11, None)
    result = await final_result(crashed)
    assert result == expected
    async with opened(crashed) as store:
        record = await store.load_game(int(await store.get_meta("crash-test-game") or 0))
        script = TheNumberService.replay_script(record)
    assert result == score_game(script["players"], script["rounds"])
