"""Layers point one way: ``cogs/`` -> ``bot/`` -> ``storage/``; games import only the protocol.

Walks the imports of every module under bot/, cogs/ and storage/ (with the purity test's walker) and fails on:

* a game (``bot/games/*``) importing anything but ``bot.core.game``, its own package and the standard library;
* ``bot/core/game.py``, ``bot/core/fold.py`` or a game reaching discord, aiosqlite, asyncpg, asyncio, sqlite3
  or aiohttp, however indirectly;
* ``storage/`` importing ``bot`` or ``cogs``; ``bot/`` importing ``cogs``; ``bot/core`` importing the games;
* a game's name in ``bot/core``, ``storage/`` or the shared cog ``cogs/table``: in a module's name or in a module
  it imports.

Today's known violations are listed in ``KNOWN_VIOLATIONS``; one that is no longer there fails too, so the
list can only shrink.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from bot.games import GAMES
from tests.test_engine_purity import FORBIDDEN, imported_modules, walk

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("bot", "cogs", "storage")
PURE = ("bot", "bot.core", "bot.core.game", "bot.core.fold")  # besides every game (and the packages above them)
GAME_NAMES = frozenset(g.key for g in GAMES)
# Where no game may be named: the game-agnostic core, the storage and the shared Discord front end.
NAMELESS = ("bot.core", "storage", "cogs.table")


class Violation(NamedTuple):
    rule: str
    module: str
    imports: str


# Arrows that point the wrong way and are tolerated for now: none since issue 12 (keep it that way).
KNOWN_VIOLATIONS: frozenset[Violation] = frozenset()


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[module_name(path)] = path
    return found


MODULES = project_modules()


def package_of(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]


def direct_imports(module: str) -> set[str]:
    """The modules ``module`` imports, with ``from package import submodule`` resolved to the submodule."""
    path, package = MODULES[module], package_of(module)
    found = imported_modules(path, package)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            found.update(f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES)
    return found


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def names_a_game(module: str) -> bool:
    return any(part == name or part.startswith(name + "_") for part in module.split(".") for name in GAME_NAMES)


def own_package(module: str) -> str:
    """A game's own package: ``bot.games.<key>`` (for ``bot/games/__init__.py``, the whole of ``bot.games``)."""
    parts = module.split(".")
    return ".".join(parts[:3]) if len(parts) > 2 else "bot.games"


def is_stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


# Besides the standard library, a game may use numpy for numeric work (the heads-up AI's linear programmes):
# pure, deterministic, no I/O, and already installed for matplotlib. Nothing else from outside.
GAME_LIBRARIES = frozenset({"numpy"})


def arrow_violations(module: str, imports: set[str]) -> set[Violation]:
    """What is wrong with ``module`` importing ``imports`` (pure: the rules, testable on made-up modules)."""
    found: set[Violation] = set()
    for name in imports:
        stdlib = name.split(".")[0] not in LAYERS and (is_stdlib(name) or name.split(".")[0] in GAME_LIBRARIES)
        if inside(module, "bot.games") and not (
                inside(name, "bot.core.game") or inside(name, own_package(module)) or stdlib):
            found.add(Violation("a game imports only the protocol", module, name))
        if inside(module, "storage") and (inside(name, "bot") or inside(name, "cogs")):
            found.add(Violation("storage imports no bot and no cog", module, name))
        if inside(module, "bot") and inside(name, "cogs"):
            found.add(Violation("bot imports no cog", module, name))
        if inside(module, "bot.core") and inside(name, "bot.games"):
            found.add(Violation("the core imports no game (the games are handed to it)", module, name))
        if any(inside(module, p) for p in NAMELESS) and names_a_game(name):
            found.add(Violation("no game is named in the core, storage or the shared cog", module, name))
    if any(inside(module, p) for p in NAMELESS) and names_a_game(module):
        found.add(Violation("no game is named in the core, storage or the shared cog", module, module))
    return found


def purity_violations(module: str) -> set[Violation]:
    reached = walk(module, set())
    return {Violation("pure: no I/O framework, however indirectly", module, m)
            for m in reached if m.split(".")[0] in FORBIDDEN | {"asyncpg"}}


def pure_modules() -> list[str]:
    return [m for m in MODULES if m in PURE or inside(m, "bot.games")]


def all_violations() -> set[Violation]:
    found: set[Violation] = set()
    for module in MODULES:
        found |= arrow_violations(module, direct_imports(module))
    for module in pure_modules():
        found |= purity_violations(module)
    return found


def test_the_layers_point_one_way() -> None:
    found = all_violations()
    new = sorted(found - KNOWN_VIOLATIONS)
    assert not new, "arrows pointing the wrong way:\n" + "\n".join(f"  {v.rule}: {v.module} -> {v.imports}"
                                                                    for v in new)


def test_the_list_of_known_violations_only_shrinks() -> None:
    gone = sorted(KNOWN_VIOLATIONS - all_violations())
    assert not gone, "no longer violated, remove from KNOWN_VIOLATIONS:\n" + "\n".join(
        f"  {v.rule}: {v.module} -> {v.imports}" for v in gone)


def test_the_walk_sees_every_layer_and_the_protocol() -> None:
    assert {"bot.core.game", "bot.core.fold", "bot.games", "bot.games.thenumber.game", "storage.base",
            "cogs.thenumber.presenter", "bot.client"} <= set(MODULES)
    assert "bot.core.game" in direct_imports("bot.games.thenumber.game")
    assert "bot.games.thenumber.game" in direct_imports("bot.games")  # from .thenumber import game
    assert "cogs.table.cog" in direct_imports("cogs.table")  # an import inside a function counts
    assert set(pure_modules()) >= {"bot.core.game", "bot.core.fold", "bot.games", "bot.games.thenumber.engine"}


@pytest.mark.parametrize(("module", "imports", "rule"), [
    ("storage.stats", "bot.games.thenumber.engine", "storage imports no bot and no cog"),
    ("storage.stats", "cogs.table.cog", "storage imports no bot and no cog"),
    ("bot.core.service", "cogs.table.poster", "bot imports no cog"),
    ("bot.core.table", "bot.games", "the core imports no game (the games are handed to it)"),
    ("bot.core.table", "cogs.thenumber.records", "no game is named in the core, storage or the shared cog"),
    ("storage.sqlite", "storage.binomial_rows", "no game is named in the core, storage or the shared cog"),
    ("cogs.table.cog", "cogs.numeri.render", "no game is named in the core, storage or the shared cog"),
    ("bot.games.numeri.engine", "bot.i18n", "a game imports only the protocol"),
    ("bot.games.numeri.engine", "bot.games.binomial.rules", "a game imports only the protocol"),
    ("bot.games.numeri.engine", "aiohttp", "a game imports only the protocol"),
    ("bot.games.numeri.engine", "bot.core.lobby", "a game imports only the protocol"),
])
def test_each_rule_catches_its_arrow(module: str, imports: str, rule: str) -> None:
    assert rule in {v.rule for v in arrow_violations(module, {imports})}


@pytest.mark.parametrize(("module", "imports"), [
    ("bot.games.numeri.engine", "bot.core.game"),
    ("bot.games.numeri.engine", "bot.games.numeri.rules"),
    ("bot.games.numeri.engine", "collections.abc"),
    ("bot.games.thenumber.ai_duel", "numpy"),
    ("bot.games", "bot.games.thenumber.game"),
    ("bot.core.service", "storage.base"),
    ("cogs.thenumber.presenter", "bot.games.thenumber.engine"),
    ("storage.sqlite", "aiosqlite"),
    ("bot.core.lobby", "bot.core.numbers_shared"),  # "numbers" is not a game's name
])
def test_arrows_that_point_down_pass(module: str, imports: str) -> None:
    assert not arrow_violations(module, {imports})


def test_a_core_module_named_after_a_game_fails() -> None:
    assert arrow_violations("bot.core.thenumber_fold", set())
