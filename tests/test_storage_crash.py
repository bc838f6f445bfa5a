"""Crash safety for real: a child process is SIGKILLed right after acknowledging choices."""

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from bot.games.thenumber.replay import replay_text
from cogs.thenumber.records import rebuild, replay_script
from storage.sqlite import SQLiteStore
from tests.reference_scorer import score_game

ROOT = Path(__file__).resolve().parents[1]


def run_child(db: Path, seed: int, kill_after: int | None) -> list[str]:
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


async def check_database(db: Path, acked: list[tuple[int, int, int, str]]) -> None:
    """Every acknowledged choice is stored; no turn is half-written."""
    async with SQLiteStore(db) as store:
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


async def final_result(db: Path) -> dict:
    async with SQLiteStore(db) as store:
        record = await store.load_game(int(await store.get_meta("crash-test-game") or 0))
        assert record.status == "finished"
        return replay_text(json.dumps(replay_script(record)))


async def test_sigkill_right_after_an_acknowledgement_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    lines = await asyncio.to_thread(run_child, db, 3, 7)
    assert lines[-1].startswith("ACK")  # killed right after telling someone their choice is in
    await check_database(db, acks(lines))


async def test_killed_at_random_moments_the_game_finishes_as_if_never_killed(tmp_path: Path) -> None:
    clean = tmp_path / "clean.sqlite3"
    await asyncio.to_thread(run_child, clean, 11, None)
    expected = await final_result(clean)

    crashed = tmp_path / "crashed.sqlite3"
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
    async with SQLiteStore(crashed) as store:
        record = await store.load_game(int(await store.get_meta("crash-test-game") or 0))
        script = replay_script(record)
    assert result == score_game(script["players"], script["rounds"])
