"""Binomial's engine stays pure: the same import walk as The Number's purity test."""

import importlib.util
from pathlib import Path

import pytest

from tests.test_engine_purity import FORBIDDEN, walk

PACKAGE = "bot.games.binomial"


def modules() -> list[str]:
    spec = importlib.util.find_spec(PACKAGE)
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    return [f"{PACKAGE}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]


def test_every_module_is_walked() -> None:
    assert {"bot.games.binomial.engine", "bot.games.binomial.game", "bot.games.binomial.ai",
            "bot.games.binomial.replay", "bot.games.binomial.rules"} <= set(modules())


@pytest.mark.parametrize("module", modules())
def test_binomial_imports_nothing_impure(module: str) -> None:
    reached = walk(module, set())
    bad = sorted(m for m in reached if m.split(".")[0] in FORBIDDEN)
    assert not bad, f"{module} reaches {bad}"
