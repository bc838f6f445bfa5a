"""``python -m bot replay``: one command for every game's replay script and for any game's envelope.

What the JSON is decides how it is read:

- no ``"game"`` key (or ``"game": "thenumber"``) and no ``"format"``: The Number's table script
  ``{"players", "rounds"}``, replayed exactly as it always was;
- ``"game": "numeri"`` or ``"game": "binomial"`` without ``"format"``: that game's own replay script;
- a ``"format"`` key: the replay/export envelope of any game (``bot.core.fold.envelope``), folded step by
  step and summed up by :func:`envelope_result`.

Bad input of any kind raises :class:`ReplayError` (or a game's own ``ScriptError``); each is one line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from bot.core.fold import EnvelopeError, fold_envelope
from bot.core.game import RuleError
from bot.games import GAMES, game_for
from bot.games.binomial import replay as binomial_replay
from bot.games.numeri import replay as numeri_replay
from bot.games.thenumber import replay as thenumber_replay

SCRIPTS = {"numeri": numeri_replay.replay, "binomial": binomial_replay.replay}  # the table scripts by key


class ReplayError(ValueError):
    """Input no replay can read (an unknown game, JSON nested too deeply for a game's checks)."""


# Every error a replay raises for bad input: each is one line (the caller still joins stray line breaks).
ERRORS: tuple[type[Exception], ...] = (ReplayError, EnvelopeError, RuleError, thenumber_replay.ScriptError,
                                       numeri_replay.ScriptError, binomial_replay.ScriptError)


class _Duplicate(ValueError):
    pass


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise _Duplicate
    return dict(pairs)


def replay_any(text: str) -> dict[str, Any]:
    """The result of the script or envelope ``text``; one of :data:`ERRORS` if it is bad input."""
    try:
        data = json.loads(text, object_pairs_hook=_unique)
    except (ValueError, RecursionError):
        data = None  # not JSON we can read: The Number's replay names the fault, as it always has
    if not isinstance(data, dict) or ("format" not in data and data.get("game", "thenumber") == "thenumber"):
        return thenumber_replay.replay_text(text)
    try:
        if "format" in data:
            return envelope_result(data)
        script = SCRIPTS.get(data["game"]) if isinstance(data["game"], str) else None
        if script is None:
            known = ", ".join(g.key for g in GAMES)
            raise ReplayError(f"game: {_shown(data['game'])} is not one of {known}")
        return script(data)
    except RecursionError:
        raise ReplayError("not a replay script: the JSON is nested too deeply") from None


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, str | int | float | bool | None) else (
        "(a list)" if isinstance(value, list) else "(an object)")
    return text[:60]


def envelope_result(data: Mapping[str, Any]) -> dict[str, Any]:
    """An envelope folded to its last step, as the JSON ``python -m bot replay`` prints::

        {"game": "numeri", "seats": ["ana", "ben"], "steps": 57, "ended": true,
         "scores": {"ana": 112, "ben": 98}, "winners": ["ana"], "figures": {"ana": {...}, "ben": {...}},
         "table": {...}}

    ``scores``, ``winners`` (in seat order) and ``figures`` (each seat's per-game figures, as the stats
    keep them) come from the game's result and are null while the game is not over (``ended`` false);
    ``table`` is what everyone at the table may see now (the game's table view), where seats are numbered
    0.. in the order of ``seats``.
    """
    state = fold_envelope(data, GAMES)
    game = game_for(data["game"])
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
