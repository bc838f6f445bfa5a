"""The games' engines stay pure: walking the imports of every module of every game package (each game of the
tuple's ``bot/games/<key>``, its words included) finds no discord, aiosqlite or asyncio."""

import ast
import importlib.util
from pathlib import Path

import pytest

from bot.games import GAMES

FORBIDDEN = {"discord", "aiosqlite", "asyncio", "sqlite3", "aiohttp"}
PACKAGES = tuple(f"bot.games.{game.key}" for game in GAMES)


def imported_modules(path: Path, package: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                found.add(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                found.add(node.module)
    return found


def walk(module: str, seen: set[str]) -> set[str]:
    """Every module reachable from ``module`` through imports inside the project."""
    if module in seen:
        return seen
    spec = importlib.util.find_spec(module)
    seen.add(module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return seen
    package = module if spec.submodule_search_locations else module.rsplit(".", 1)[0]
    for name in imported_modules(Path(spec.origin), package):
        top = name.split(".")[0]
        if top in {"bot", "cogs", "storage"}:
            walk(name, seen)
        else:
            seen.add(name)
    return seen


def package_modules(package: str) -> list[str]:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    return [".".join((package, *p.relative_to(folder).with_suffix("").parts)) for p in sorted(folder.rglob("*.py"))
            if p.stem != "__init__" and "__pycache__" not in p.parts]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_is_walked(package: str) -> None:
    """Each game's protocol object and its words in every language (a subpackage) are among the walked."""
    from bot.i18n import LANGUAGES

    expected = {f"{package}.game", *(f"{package}.locales.{lang}" for lang in LANGUAGES)}
    assert expected <= set(package_modules(package))


@pytest.mark.parametrize("module", [m for package in PACKAGES for m in package_modules(package)])
def test_engine_imports_nothing_impure(module: str) -> None:
    reached = walk(module, set())
    bad = sorted(m for m in reached if m.split(".")[0] in FORBIDDEN)
    assert not bad, f"{module} reaches {bad}"


def test_the_walker_would_catch_an_impure_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import asyncio\nfrom discord import ui\n", encoding="utf-8")
    assert {"asyncio", "discord"} <= imported_modules(sample, "x")
