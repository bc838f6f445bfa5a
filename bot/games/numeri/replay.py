"""Replay a game of Numeri from a JSON script (the contract of issue 13, point 2).

Input:  {"game": "numeri", "players": ["ana", "ben"], "first": "ana",
         "turns": [{"roll": 2, "moves": [2]}, {"roll": 5, "moves": [1, 4]}, {"roll": 3, "moves": []}, ...]}
        one entry per roll, extra throws included; the player of each entry follows from the rules.
Output: {"turns": [{"player": "ana", "roll": 2, "moves": [[2, null, 1]], "extra_turn": false}, ...],
         "squares": {"ana": {"1": 4, "2": null, ...}}, "scores": {"ana": 12, ...}, "winners": ["ana"],
         "ended": true}
A script that stops early is scored as the position stands. Bad input raises :class:`ScriptError`, whose
message is one line naming the turn.
"""

from __future__ import annotations

import json
from typing import Any

from bot.core.game import loads_strict, script_players

from . import engine, errors
from .engine import Choice, Moved, Passed, State
from .rules import GAME_KEY, MAX_SEATS, MIN_SEATS, SPLITS, TOKENS

SCRIPT_HELP = '{"game": "numeri", "players", "first", "turns"}: prints turns, squares, scores, winners, ended'


class ScriptError(Exception):
    """A script that cannot be replayed; ``str()`` is one line saying where and why."""



def load_script(text: str) -> object:
    """The JSON of a script (for the CLI reading a file or stdin); ScriptError if it is not JSON."""
    return loads_strict(text, ScriptError)


def replay_text(text: str) -> dict[str, Any]:
    return replay(load_script(text))


replay_script = replay_text  # the hook ``python -m bot replay`` finds in every game's replay module


def _players(data: dict[str, Any]) -> tuple[list[str], int]:
    players = script_players(data, MIN_SEATS, MAX_SEATS, ScriptError)
    first = data.get("first")
    if not isinstance(first, str) or first not in players:
        raise ScriptError(f"first: {json.dumps(first)} is not one of the players")
    return players, players.index(first)


def _tokens(value: Any) -> Choice:
    if not isinstance(value, list):
        raise ScriptError(f"'moves' must be a list of token numbers, not {json.dumps(value)}")
    for token in value:
        if type(token) is not int or token not in TOKENS:
            raise errors.BadToken(token)
    return tuple(value)


def _choice(state: State, listed: Choice) -> Choice:
    """The player's choice a script's ``moves`` stands for: a split whose first part ends lists one token."""
    assert state.roll is not None
    legal = engine.legal_choices(state.positions, state.seats, state.current, state.roll)
    if listed in legal and engine.first_part_ends(state, listed):
        raise errors.EndedMidSplit(*listed)
    if len(listed) == 1 and listed not in legal and isinstance(state.roll, int):
        for pair in SPLITS.get(state.roll, ()):
            if listed[0] in pair:
                split = (listed[0], pair[1] if pair[0] == listed[0] else pair[0])
                if split in legal and engine.first_part_ends(state, split):
                    return split
    return listed


def _turn(state: State, entry: Any, names: list[str]) -> tuple[State, dict[str, Any]]:
    if state.over:
        raise errors.GameOver()
    if not isinstance(entry, dict) or "roll" not in entry or "moves" not in entry:
        raise ScriptError("must be an object with 'roll' and 'moves'")
    face, listed = engine.parse_face(entry["roll"]), _tokens(entry["moves"])
    player = names[state.current]
    state, rolled = engine.roll(state, face)
    if isinstance(rolled, Passed):
        if listed:
            raise errors.NoMovePossible(face)
        return state, {"player": player, "roll": face, "moves": [], "extra_turn": False}
    state, moved = engine.move(state, _choice(state, listed))
    assert isinstance(moved, Moved)
    moves = [[m.token, m.start, m.end] for m in moved.moves]
    return state, {"player": player, "roll": face, "moves": moves, "extra_turn": moved.extra_turn}


def replay(data: object) -> dict[str, Any]:
    """Replay a parsed script; raise :class:`ScriptError` (one line, naming the turn) on bad input."""
    if not isinstance(data, dict):
        raise ScriptError("the script must be a JSON object with 'players', 'first' and 'turns'")
    if data.get("game", GAME_KEY) != GAME_KEY:
        raise ScriptError(f"game: this is a {GAME_KEY} replay, not {json.dumps(data.get('game'))}")
    names, first = _players(data)
    turns = data.get("turns")
    if not isinstance(turns, list):
        raise ScriptError("turns: must be a list of {\"roll\": ..., \"moves\": [...]} objects")
    state = engine.new_game(len(names), first=first)
    played: list[dict[str, Any]] = []
    for number, entry in enumerate(turns, start=1):
        try:
            state, done = _turn(state, entry, names)
        except (errors.NumeriError, ScriptError) as exc:
            raise ScriptError(f"turn {number}: {exc}") from None
        played.append(done)
    return result_json(state, names, played)


def result_json(state: State, names: list[str], played: list[dict[str, Any]]) -> dict[str, Any]:
    positions = state.positions
    totals = engine.scores(positions)
    best = engine.winners(positions)
    return {
        "turns": played,
        "squares": {name: {str(t): positions[s][t - 1] for t in TOKENS} for s, name in enumerate(names)},
        "scores": {name: totals[s] for s, name in enumerate(names)},
        "winners": [name for s, name in enumerate(names) if s in best],
        "ended": state.over,
    }
