"""Numbered SQL migrations (``migrations/NNNN_name.sql`` for SQLite, ``migrations_pg/`` for PostgreSQL), applied in
one transaction at start-up."""

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

from .base import SchemaTooNew

_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def split_statements(script: str) -> tuple[str, ...]:
    """Split a script into complete statements (executescript would COMMIT our transaction)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement: {buffer.strip()[:60]!r}")
    return tuple(statements)


SQLITE = "migrations"
POSTGRES = "migrations_pg"


def load_migrations(folder: str = SQLITE) -> list[Migration]:
    found = []
    for entry in resources.files("storage").joinpath(folder).iterdir():
        match = _NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, split_statements(entry.read_text("utf-8"))))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def latest_version(folder: str = SQLITE) -> int:
    return len(load_migrations(folder))


def check_version(found: int, known: int) -> None:
    if found > known:
        raise SchemaTooNew(found, known)
