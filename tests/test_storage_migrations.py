"""Schema migrations, pragmas, refusal of a database from the future, and settings."""

import sqlite3
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE, PROJECT_ROOT, Settings
from storage.base import SchemaTooNew
from storage.migrations import latest_version, split_statements
from storage.sqlite import SQLiteStore


async def test_migrates_an_empty_database(db_path: Path) -> None:
    assert not db_path.parent.exists()
    async with SQLiteStore(db_path, busy_timeout_ms=4321) as store:
        assert await store.schema_version() == latest_version() >= 1
        pragmas = {name: (await (await store.db.execute(f"PRAGMA {name}")).fetchone())[0]
                   for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")}
    assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 4321, "synchronous": 2}
    with sqlite3.connect(db_path) as raw:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"games", "seats", "actions", "meta", "schema_migrations"} <= tables
        assert raw.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == latest_version()


async def test_reopening_applies_nothing_twice(db_path: Path) -> None:
    async with SQLiteStore(db_path) as store:
        await store.set_meta("k", "v")
    async with SQLiteStore(db_path) as store:
        assert await store.get_meta("k") == "v"
        assert await store.schema_version() == latest_version()


async def test_notify_settings_default_on_and_survive_a_reopen(db_path: Path) -> None:
    async with SQLiteStore(db_path) as store:
        assert await store.get_notify(7) == (True, True)  # nobody chose: DM reminders and mentions on
        await store.set_notify(7, False, True)
        await store.set_notify(7, False, False)
    async with SQLiteStore(db_path) as store:
        assert await store.get_notify(7) == (False, False)
        assert await store.get_notify(8) == (True, True)


async def test_a_database_from_the_future_is_refused_and_left_untouched(db_path: Path) -> None:
    async with SQLiteStore(db_path):
        pass
    with sqlite3.connect(db_path) as raw:
        raw.execute("INSERT INTO schema_migrations VALUES (?, 'from_the_future.sql', 0)", (latest_version() + 1,))
    before = _dump(db_path)
    with pytest.raises(SchemaTooNew) as info:
        await SQLiteStore(db_path).open()
    assert f"version {latest_version() + 1}" in str(info.value) and "newer version" in str(info.value)
    assert _dump(db_path) == before


def _dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as raw:
        return list(raw.iterdump())


def test_statement_splitter_keeps_statements_whole() -> None:
    script = "-- comment\nCREATE TABLE a (x TEXT DEFAULT ';');\nCREATE INDEX i ON a (x);\n"
    assert split_statements(script) == ("CREATE TABLE a (x TEXT DEFAULT ';');", "CREATE INDEX i ON a (x);")


def test_settings_default_database_lives_under_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DATABASE_PATH", "DISCORD_TOKEN", "TURN_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert settings.database_path == DEFAULT_DATABASE == PROJECT_ROOT / "data" / DEFAULT_DATABASE.name
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "x.db"))
    (tmp_path / ".env").write_text("TURN_SECONDS=45\n", encoding="utf-8")
    settings = Settings()
    assert settings.database_path == tmp_path / "x.db" and settings.turn_seconds == 45


def test_env_example_documents_every_setting() -> None:
    text = (PROJECT_ROOT / ".env.example").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert name.upper() in text, name
