"""Concurrent games through the full stack (fake Discord, real discord.py parsing, real SQLite) finish with
the right scores and no refused answer. Correctness only: how fast it goes is bench/load.py's business."""

from pathlib import Path

from bench.load import play_tables
from tests.fakediscord import FakeDiscord

TABLES = 4


async def test_concurrent_games_finish_with_the_right_scores(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    run = await play_tables(fake_discord, tmp_path / "load.sqlite3", TABLES, think_seconds=0.0, opening_gap=0.0)
    assert run.problems() == []
    assert len(run.latencies) == TABLES * (1 + 4 + 1 + 10 * 2)
