"""Is the database usable? Checked synchronously at start-up, before the bot connects to Discord.

Each problem is one sentence a person can act on. The SQLite check uses the standard ``sqlite3`` module and
no thread, so a failure leaves nothing running that could keep the process alive; the PostgreSQL check runs one
connection in its own short event loop, closed before it returns.
"""

import asyncio
import os
import sqlite3
from pathlib import Path

import asyncpg

from .base import SchemaTooNew
from .migrations import POSTGRES, check_version, latest_version

# Long enough to wait out a short write by another process, short enough never to stall a start-up.
LOCK_WAIT_S = 2.0


def database_problem(path: Path) -> str | None:
    """Why the bot could not use the SQLite file at ``path``, or None when it can."""
    if path.is_dir():
        return "is a directory, not a database file (set DATABASE_PATH to a file inside it)"
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create its folder {folder}: {exc.strerror or exc}"
    # SQLite writes its journal (-wal, -shm) next to the file, so the folder must be writable too.
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder {folder} is not writable (SQLite keeps its journal files next to the database)"
    if not path.exists():
        return None
    if not os.access(path, os.R_OK | os.W_OK):
        return "is read-only or unreadable: the bot needs to read and write it"
    return _open_problem(path)


def _open_problem(path: Path) -> str | None:
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=LOCK_WAIT_S,
                             isolation_level=None)
    except sqlite3.Error as exc:
        return f"cannot be opened: {exc}"
    try:
        db.execute("PRAGMA schema_version").fetchone()  # reads the header: garbage fails here
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchone():
            found = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()[0]
            check_version(int(found), latest_version())
        db.execute("BEGIN IMMEDIATE")  # takes the write lock without writing: a read-only file fails here
        db.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return None  # another process is writing right now: the store's busy timeout deals with that
        return f"cannot be written: {exc}"
    except sqlite3.DatabaseError as exc:
        return f"is not a SQLite database ({exc})"
    except SchemaTooNew as exc:
        return str(exc)
    finally:
        db.close()
    return None


def postgres_problem(url: str, timeout_s: float = 5.0) -> str | None:
    """Why the bot could not use the PostgreSQL database at ``url``, or None when it can (connects once, reads
    the schema version, writes nothing)."""
    return asyncio.run(_postgres_problem(url, timeout_s))


async def _postgres_problem(url: str, timeout_s: float) -> str | None:
    try:
        conn = await asyncpg.connect(url, timeout=timeout_s)
    except asyncpg.InvalidCatalogNameError:
        return "does not exist: create it first (createdb, or CREATE DATABASE), the bot creates its tables"
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError) as exc:
        return f"refused the login: {exc}"
    except (OSError, TimeoutError) as exc:
        return f"cannot be reached: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc or 'timeout'}"
    except (asyncpg.PostgresError, ValueError) as exc:
        return f"cannot be opened: {exc}"
    try:
        if await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
            found = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
            check_version(int(found), latest_version(POSTGRES))
    except SchemaTooNew as exc:
        return str(exc)
    except asyncpg.PostgresError as exc:
        return f"cannot be read: {exc}"
    finally:
        await conn.close()
    return None
