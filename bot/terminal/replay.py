"""``python -m bot replay``: one command for every game's replay script and for any game's envelope.

What the JSON is decides how it is read:

- a ``"format"`` key: the replay/export envelope of any game (``bot.core.fold.envelope``), folded step by
  step and summed up by :func:`envelope_result`;
- otherwise a game's own table script, read by ``replay_script(text)`` in the game's ``replay`` module (beside
  the module that defines its registered object); ``"game"`` names the game, and a script without it is the
  first registered game's (The Number's ``{"players", "rounds"}``, as it always was).

``--game KEY`` says which game the input must be. Bad input of any kind raises :class:`ReplayError` (or
EnvelopeError, RuleError); each is one line.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from types import ModuleType
from typing import Any

import bot.games
from bot.core.fold import EnvelopeError, fold_envelope
from bot.core.game import Game, RuleError
from bot.games import game_for


class ReplayError(ValueError):
    """Input no replay can read (an unknown game, a script of another game, a game's own ScriptError)."""


# Every error a replay raises for bad input: each is one line (the caller still joins stray line breaks).
ERRORS: tuple[type[Exception], ...] = (ReplayError, EnvelopeError, RuleError)


class _Duplicate(ValueError):
    pass


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise _Duplicate
    return dict(pairs)


def replay_module(game: Game[Any, Any, Any]) -> ModuleType | None:
    """The game's ``replay`` module, if it has one with a ``replay_script`` hook."""
    name = type(game).__module__.rpartition(".")[0] + ".replay"
    try:
        module = importlib.import_module(name) if importlib.util.find_spec(name) else None
    except ModuleNotFoundError:
        module = None
    return module if module is not None and hasattr(module, "replay_script") else None


def replay_any(text: str, key: str | None = None,
               games: tuple[Game[Any, Any, Any], ...] | None = None) -> dict[str, Any]:
    """The result of the script or envelope ``text`` (of the game ``key`` if given); ERRORS if bad input."""
    games = bot.games.GAMES if games is None else games  # the tuple as it is now
    try:
        data = json.loads(text, object_pairs_hook=_unique)
    except (ValueError, RecursionError):
        data = None  # not JSON we can read: the game's own replay names the fault, as it always has
    try:
        if isinstance(data, dict) and "format" in data:
            if key is not None and data.get("game") != key:
                raise ReplayError(f"game: this envelope is of {_shown(data.get('game'))}, not {key}")
            return envelope_result(data, games)
        named = data.get("game", games[0].key) if isinstance(data, dict) else games[0].key
        if key is not None and named != key:
            raise ReplayError(f"game: this script is of {_shown(named)}, not {key}")
        found = next((g for g in games if g.key == named), None) if isinstance(named, str) else None
        if found is None:
            known = ", ".join(g.key for g in games)
            raise ReplayError(f"game: {_shown(named)} is not one of {known}")
        module = replay_module(found)
        if module is None:
            raise ReplayError(f"{found.title} has no table script: replay its export envelope "
                              '({"game", "format": 1, "seats", "options", "seed", "steps"})')
        try:
            result: dict[str, Any] = module.replay_script(text)
        except getattr(module, "ScriptError", ReplayError) as error:
            raise ReplayError(str(error)) from None
        return result
    except RecursionError:
        raise ReplayError("not a replay script: the JSON is nested too deeply") from None


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, str | int | float | bool | None) else (
        "(a list)" if isinstance(value, list) else "(an object)")
    return text[:60]


def envelope_result(data: Mapping[str, Any], games: tuple[Game[Any, Any, Any], ...] | None = None) -> dict[str, Any]:
    """An envelope folded to its last step, as the JSON ``python -m bot replay`` prints::

        {"game": "numeri", "seats": ["ana", "ben"], "steps": 57, "ended": true,
         "scores": {"ana": 112, "ben": 98}, "winners": ["ana"], "figures": {"ana": {...}, "ben": {...}},
         "table": {...}}

    ``scores``, ``winners`` (in seat order) and ``figures`` (each seat's per-game figures, as the stats
    keep them) come from the game's result and are null while the game is not over (``ended`` false);
    ``table`` is what everyone at the table may see now (the game's table view), where seats are numbered
    0.. in the order of ``seats``.
    """
    games = bot.games.GAMES if games is None else games
    state = fold_envelope(data, games)
    game = game_for(data["game"], games)
    names: list[str] = data["seats"]
    result = game.result(state)
    return {
        "game": game.key,
        "seats": names,
        "steps": len(data["steps"]),
        "ended": result is not None,
        "scores": None if result is None else {name: result.scores[s] for s, name in enumerate(names)},
        "winners": None if result is None else [name for s, name in enumerate(names) if s in result.winners],
        "figures": None if result is None else {name: as_json(result.extra.get(s, {}))
                                                for s, name in enumerate(names)},
        "table": as_json(game.view(state, None)),
    }


def as_json(value: Any) -> Any:
    """A view (dataclasses, named tuples, enums, sets, mappings) as plain JSON values."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {key: as_json(item) for key, item in value._asdict().items()}
    if isinstance(value, Enum):
        return as_json(value.value)
    if isinstance(value, Mapping):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, set | frozenset):
        items = [as_json(item) for item in value]
        try:
            return sorted(items)
        except TypeError:
            return items
    if isinstance(value, list | tuple):
        return [as_json(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
