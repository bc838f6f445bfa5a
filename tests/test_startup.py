"""``python -m bot`` start-up: bad settings, a bad database or an unreachable Discord end in one line, fast."""

import contextlib
import logging
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.run import configure_logging
from bot.settings import Settings, env_file
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def listener() -> Iterator[tuple[str, Callable[[], bool]]]:
    """A local TCP port standing in for Discord, and a function telling whether anything connected to it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)

    def contacted() -> bool:
        try:
            server.accept()[0].close()
        except BlockingIOError:
            return False
        return True

    try:
        yield f"127.0.0.1:{server.getsockname()[1]}", contacted
    finally:
        server.close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_bot(cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_LEVEL"))}
    env.update({"DISCORD_TOKEN": "a-token", **settings})
    # The timeout is the "never hangs" check: every case here ends by itself within a few seconds.
    return subprocess.run([sys.executable, "-m", "bot"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


@pytest.fixture
def unwritable() -> Iterator[Callable[[Path], None]]:
    """Make a file or folder unwritable, even for root (immutable flag), and undo it afterwards."""
    marked: list[Path] = []

    def make(path: Path) -> None:
        if os.geteuid() != 0:
            path.chmod(0o555 if path.is_dir() else 0o444)
        elif shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)],
                                                              capture_output=True).returncode != 0:
            pytest.skip("running as root on a file system without the immutable flag")
        marked.append(path)

    yield make
    for path in marked:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o755 if path.is_dir() else 0o644)


def _database(path: Path) -> Path:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE t (x)")
        db.commit()
    return path


@pytest.mark.parametrize("case", ["random bytes", "directory", "folder is a file", "read-only file",
                                  "read-only folder", "newer schema"])
def test_an_unusable_database_is_named_in_one_line_before_discord_is_contacted(
        case: str, tmp_path: Path, unwritable: Callable[[Path], None]) -> None:
    db = tmp_path / "games.sqlite3"
    expected = {"random bytes": "not a SQLite database", "directory": "is a directory",
                "folder is a file": "cannot create its folder", "read-only file": "read-only",
                "read-only folder": "not writable", "newer schema": "run a newer version of the bot"}[case]
    if case == "random bytes":
        db.write_bytes(os.urandom(8192))
    elif case == "directory":
        db.mkdir()
    elif case == "folder is a file":
        (tmp_path / "data").write_text("not a folder")
        db = tmp_path / "data" / "games.sqlite3"
    elif case == "read-only file":
        unwritable(_database(db))
    elif case == "newer schema":
        with contextlib.closing(sqlite3.connect(db)) as raw:
            raw.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at REAL)")
            raw.execute("INSERT INTO schema_migrations VALUES (999, 'from_the_future.sql', 0)")
            raw.commit()
    else:
        _database(db)
        unwritable(tmp_path)
    with listener() as (address, contacted):
        done = start_bot(tmp_path, DATABASE_PATH=str(db), DISCORD_API_BASE=f"http://{address}/api/v10",
                         DISCORD_GATEWAY_URL=f"ws://{address}/gateway")
        assert not contacted()
    assert done.returncode == 2
    line = one_line(done)
    assert line.startswith(f"database {db}: ") and expected in line, line


def test_a_bad_log_level_is_one_line(tmp_path: Path) -> None:
    done = start_bot(tmp_path, LOG_LEVEL="LOUD", DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 2
    assert one_line(done) == "invalid setting LOG_LEVEL: must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, " \
                             "not 'LOUD'"


def test_a_utf16_env_file_is_one_line_naming_it(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\n", encoding="utf-16")
    done = start_bot(tmp_path, DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 2
    assert one_line(done) == f"cannot read {tmp_path / '.env'}: it is not UTF-8 text (save it as UTF-8)"


def test_an_empty_environment_token_says_it_hides_the_env_files(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\n", encoding="utf-8")
    done = start_bot(tmp_path, DISCORD_TOKEN="", DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 2
    line = one_line(done)
    assert line.startswith("DISCORD_TOKEN is set but empty in the environment, which hides the token in "), line
    assert str(tmp_path / ".env") in line and "unset DISCORD_TOKEN" in line
    # with nothing in the file either, the usual line
    (tmp_path / ".env").write_text("TURN_SECONDS=45\n", encoding="utf-8")
    done = start_bot(tmp_path, DISCORD_TOKEN="", DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 2 and one_line(done).startswith("DISCORD_TOKEN is not set: put DISCORD_TOKEN=")


def test_env_file_is_read_from_the_working_directory_then_next_to_the_project(tmp_path: Path) -> None:
    here, project = tmp_path / "here", tmp_path / "project"
    here.mkdir()
    project.mkdir()
    assert env_file(here, project) is None
    (project / ".env").write_text("TURN_SECONDS=45\n", encoding="utf-8")
    assert env_file(here, project) == project / ".env"
    (here / ".env").write_text("\ufeffTURN_SECONDS=30\n", encoding="utf-8")  # a BOM, as Windows editors write
    assert env_file(here, project) == here / ".env"
    assert Settings.load(here / ".env").turn_seconds == 30
    assert Settings.load(project / ".env").turn_seconds == 45


def test_refused_connection_to_discord_is_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    port = closed_port()
    done = start_bot(tmp_path, DATABASE_PATH=str(tmp_path / "db.sqlite3"),
                     DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10")
    assert done.returncode == 1
    assert one_line(done).startswith(f"cannot reach Discord at http://127.0.0.1:{port}/api/v10: ")


async def test_unreachable_gateway_is_one_line_and_no_voice_warnings(fake_discord: FakeDiscord,
                                                                     tmp_path: Path) -> None:
    import asyncio

    port = closed_port()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))},
             "DISCORD_TOKEN": fake_discord.token, "DISCORD_API_BASE": fake_discord.api_base,
             "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway", "DATABASE_PATH": str(tmp_path / "db.sqlite3")})
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    log = err.decode()
    assert proc.returncode == 1, log
    assert log.strip().splitlines()[-1].startswith(f"cannot reach the Discord gateway at ws://127.0.0.1:{port}/")
    assert "Traceback" not in log and "PyNaCl" not in log and "davey" not in log, log
    assert fake_discord.requests_to("GET", r"/users/@me$")  # it did log in over REST first


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    saved = {name: logging.getLogger(name).level for name in ("bot", "cogs", "storage")}
    level = root.level
    yield
    root.setLevel(level)
    for name, value in saved.items():
        logging.getLogger(name).setLevel(value)


def test_debug_keeps_library_loggers_at_info_unless_asked(restore_logging: None) -> None:
    configure_logging(Settings(log_level="debug", _env_file=None))  # type: ignore[call-arg]
    assert logging.getLogger("bot.core.service").isEnabledFor(logging.DEBUG)
    assert logging.getLogger("cogs.table.cog").isEnabledFor(logging.DEBUG)
    for library in ("discord.http", "discord.gateway", "aiosqlite"):
        assert not logging.getLogger(library).isEnabledFor(logging.DEBUG), library
        assert logging.getLogger(library).isEnabledFor(logging.INFO), library
    configure_logging(Settings(log_level="DEBUG", log_level_third_party="DEBUG", _env_file=None))  # type: ignore[call-arg]
    assert logging.getLogger("discord.http").isEnabledFor(logging.DEBUG)
    configure_logging(Settings(log_level="WARNING", _env_file=None))  # type: ignore[call-arg]
    assert not logging.getLogger("discord.client").isEnabledFor(logging.INFO)


async def test_at_debug_the_libraries_stay_at_info_and_no_pending_number_is_logged(fake_discord: FakeDiscord,
                                                                                   tmp_path: Path) -> None:
    import asyncio
    import re

    from tests.discord_world import eventually
    from tests.test_bot_process import bot_env

    fake = fake_discord
    ana, ben = fake.add_user("ana", display_name="Ana"), fake.add_user("ben", display_name="Ben")
    general = fake.add_channel(fake.add_guild("Number Night", members=[ana, ben]), "general")
    env = {**bot_env(fake, tmp_path / "bot.sqlite3"), "LOG_LEVEL": "DEBUG"}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        await eventually(lambda: fake.gateway.active and fake.requests_to("PUT", r"/commands$"), timeout=30,
                         what="the bot to connect and sync its commands")
        opened = await (await ana.slash(general, "thenumber start")).wait(timeout=5)
        await (await ben.click(opened.message, "Join")).wait(timeout=5)
        await (await ana.click(opened.message, "Start")).wait(timeout=5)
        await ana.send_dm("513")
        await eventually(lambda: fake.dms(ana) and "Locked in 513" in fake.dms(ana)[-1].content, timeout=5)
        await ben.send_dm("240")
        await eventually(lambda: [m for m in fake.messages(general) if " · reveal" in fake.visible_text(m)],
                         timeout=5, what="the reveal")
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 20)
    log = err.decode()
    assert "Traceback" not in log, log
    assert not re.search(r" DEBUG (discord|aiosqlite|asyncio)", log), log
    assert not re.search(r"(?<![0-9a-f])(513|240)(?![0-9a-f])", log), log
