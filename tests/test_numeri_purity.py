"""The Numeri package stays pure: the purity walk of The Number's engine, run over bot.games.numeri."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from .test_engine_purity import FORBIDDEN, walk

PACKAGE = "bot.games.numeri"


def numeri_modules() -> list[str]:
    spec = importlib.util.find_spec(PACKAGE)
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    return [f"{PACKAGE}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]


def test_every_module_is_walked() -> None:
    assert {f"{PACKAGE}.{m}" for m in ("rules", "engine", "errors", "game", "replay", "ai", "view")} <= set(
        numeri_modules())


@pytest.mark.parametrize("module", numeri_modules())
def test_numeri_imports_nothing_impure(module: str) -> None:
    reached = walk(module, set())
    bad = sorted(m for m in reached if m.split(".")[0] in FORBIDDEN)
    assert not bad, f"{module} reaches {bad}"
