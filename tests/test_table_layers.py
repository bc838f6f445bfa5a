"""The shared front end (``cogs/table``) is built by composition, and the layers around it point one way.

Walks the imports of every module of ``cogs/table`` with :mod:`tests.test_layers`'s walker (an import under
``if TYPE_CHECKING:`` or inside a function counts like any other) and fails on:

* an import circle between its modules (they must form a DAG: a class depends on the ones below it, or on a
  narrow Protocol);
* a method whose ``self`` is annotated with another class (a mixin sharing another class's private state);
* a collaborator's private attribute reached into (``self.poster._spare_calls``);
* ``cogs/table`` importing a game's package (``cogs.<key>``, ``bot.games.<key>``), and ``bot/core`` or
  ``storage`` importing a cog or a game (the other arrows are :mod:`tests.test_layers`'s).
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Mapping

import pytest

from bot.games import GAMES
from tests.test_layers import MODULES, direct_imports, inside

TABLE = "cogs.table"
TABLE_MODULES = sorted(m for m in MODULES if inside(m, TABLE) and m != TABLE)


def table_graph() -> dict[str, set[str]]:
    """Each module of cogs/table and the modules of cogs/table it imports."""
    return {m: {i for i in direct_imports(m) if i in TABLE_MODULES} for m in TABLE_MODULES}


def circle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order, the first repeated at the end), or None."""
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        return list(error.args[1])
    return None


def tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


def foreign_selves(module: str) -> list[str]:
    """``Class.method: self: Other`` for every method whose ``self`` names a class other than its own."""
    found = []
    for cls in (n for n in ast.walk(tree(module)) if isinstance(n, ast.ClassDef)):
        for method in (n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
            args = method.args.posonlyargs + method.args.args
            if args and args[0].arg == "self" and args[0].annotation is not None:
                named = ast.unparse(args[0].annotation).strip("'\"")
                if named.rsplit(".", 1)[-1] != cls.name:
                    found.append(f"{module}: {cls.name}.{method.name}: self: {named}")
    return found


def private_reaches(module: str) -> list[str]:
    """``self.<collaborator>._<private>``: another object's private attribute, read or written."""
    found = []
    for node in ast.walk(tree(module)):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name)
                and node.value.value.id == "self"):
            found.append(f"{module}:{node.lineno}: {ast.unparse(node)}")
    return found


def game_packages() -> set[str]:
    return {p for game in GAMES for p in (f"cogs.{game.key}", f"bot.games.{game.key}")}


def test_the_modules_of_cogs_table_import_each_other_without_a_circle() -> None:
    found = circle(table_graph())
    assert found is None, "import circle in cogs/table: " + " -> ".join(found or ())


def test_no_mixin_annotates_self_with_another_class() -> None:
    found = [line for module in TABLE_MODULES for line in foreign_selves(module)]
    assert not found, "methods written for another class (a mixin): \n" + "\n".join(found)


def test_no_class_of_cogs_table_reaches_into_a_collaborators_privates() -> None:
    found = [line for module in TABLE_MODULES for line in private_reaches(module)]
    assert not found, "private attributes of another object: \n" + "\n".join(found)


def test_cogs_table_imports_no_game_package() -> None:
    games = game_packages()
    found = sorted(f"{m} -> {i}" for m in [TABLE, *TABLE_MODULES] for i in direct_imports(m)
                   if any(inside(i, g) for g in games))
    assert not found, "the shared front end names a game: \n" + "\n".join(found)


def test_the_core_and_the_storage_import_no_cog_and_no_game() -> None:
    games = game_packages()
    lower = [m for m in MODULES if inside(m, "bot.core") or inside(m, "storage")]
    found = sorted(f"{m} -> {i}" for m in lower for i in direct_imports(m)
                   if inside(i, "cogs") or any(inside(i, g) for g in games))
    assert not found, "arrows pointing up: \n" + "\n".join(found)


# The checks themselves, on made-up inputs: each catches what it is for. ------------------------------------
def test_a_circle_is_found_and_a_dag_passes() -> None:
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) is not None
    assert circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_walk_sees_type_checking_imports_and_the_new_classes() -> None:
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .cog import TableCog\n"
    node = ast.parse(source)
    assert any(isinstance(n, ast.ImportFrom) and n.module == "cog" for n in ast.walk(node))
    graph = table_graph()
    assert {"cogs.table.poster", "cogs.table.timers", "cogs.table.recovery", "cogs.table.inbox",
            "cogs.table.lobby", "cogs.table.table_state"} <= set(graph)
    assert "cogs.table.poster" in graph["cogs.table.timers"]  # the timers tell through the poster
    assert "cogs.table.inbox" in graph["cogs.table.cog"]  # the router hands inputs to the inbox


@pytest.mark.parametrize(("source", "bad"), [
    ("class Poster:\n    def f(self: 'Talk') -> None: ...\n", True),
    ("class Poster:\n    async def f(self: TableCog) -> None: ...\n", True),
    ("class Poster:\n    def f(self) -> None: ...\n", False),
    ("class Poster:\n    def f(self: 'Poster') -> None: ...\n", False),
])
def test_a_foreign_self_is_caught(source: str, bad: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tests.test_table_layers.tree", lambda module: ast.parse(source))
    assert bool(foreign_selves("made.up")) is bad


def test_a_reach_into_privates_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tests.test_table_layers.tree", lambda module: ast.parse(
        "class Inbox:\n    def f(self) -> None:\n        self.poster._spare_calls.clear()\n        self._own = 1\n"))
    assert private_reaches("made.up") == ["made.up:3: self.poster._spare_calls"]
