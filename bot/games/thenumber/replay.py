"""Replay a whole game of The Number from a JSON script (the table-check contract).

Input:  {"players": [...], "rounds": [[TURN x5], [TURN x5]]}, TURN = {"player": "513", ...}
Output: {"turns": [...], "round_totals": {...}, "final": {...}, "winners": [...]}

Replays follow the table rule: a number using a crossed-off digit is ``invalid``, not refused.
Numbers are read like the live bot reads them (NFKC, trimmed): full-width "５１３" is 513.
"""

import json
from collections.abc import Mapping
from typing import Any

from bot.core.game import loads_strict, script_players

from .engine import GameState, TurnOutcome, new_game, play_turn
from .errors import MalformedNumber
from .numbers import parse_number
from .rules import MAX_SEATS, MIN_SEATS, ROUNDS, TURNS_PER_ROUND

SCRIPT_HELP = '{"players", "rounds"} (no "game"): prints turns, round_totals, final, winners'  # replay --help


class ScriptError(ValueError):
    """A script that cannot be replayed; the message names where the problem is."""



def parse_script(text: str) -> tuple[list[str], list[list[dict[str, str]]]]:
    """Check a script's shape and return (players, rounds of turns); raise :class:`ScriptError`."""
    data = loads_strict(text, ScriptError)
    if not isinstance(data, dict):
        raise ScriptError("the script must be a JSON object with 'players' and 'rounds'")
    missing = [key for key in ("players", "rounds") if key not in data]
    if missing:
        raise ScriptError(f"missing {' and '.join(map(repr, missing))}: a script of The Number is "
                          '{"players": ["ana", "ben"], "rounds": [[5 turns], [5 turns]]}')
    players = script_players(data, MIN_SEATS, MAX_SEATS, ScriptError)
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or len(rounds) != ROUNDS:
        got = len(rounds) if isinstance(rounds, list) else "none"
        raise ScriptError(f"rounds: exactly {ROUNDS} rounds needed, got {got}")
    checked: list[list[dict[str, str]]] = []
    for r, turns in enumerate(rounds, start=1):
        if not isinstance(turns, list) or len(turns) != TURNS_PER_ROUND:
            got = len(turns) if isinstance(turns, list) else "not a list"
            raise ScriptError(f"round {r}: exactly {TURNS_PER_ROUND} turns needed, got {got}")
        checked.append([_turn(turn, players, f"round {r}, turn {t}") for t, turn in enumerate(turns, start=1)])
    return players, checked


def _turn(turn: Any, players: list[str], where: str) -> dict[str, str]:
    """One turn's numbers in canonical form, or :class:`ScriptError` naming the place."""
    if not isinstance(turn, dict):
        raise ScriptError(f"{where}: must be an object mapping players to numbers")
    numbers: dict[str, str] = {}
    for name, number in turn.items():
        if name not in players:
            raise ScriptError(f"{where}: {name!r} is not a player")
        try:
            if not isinstance(number, str):
                raise MalformedNumber(repr(number))
            numbers[name] = parse_number(number)
        except MalformedNumber:
            # Containers are named, not printed: a deeply nested one must not blow the stack here either.
            shown = {list: "(a list)", dict: "(an object)"}.get(type(number)) or json.dumps(number, ensure_ascii=False)
            raise ScriptError(f"{where}: {name}'s number {shown} is not three digits 0-9") from None
    return numbers


def replay(players: list[str], rounds: list[list[dict[str, str]]]) -> GameState:
    state = new_game(players)
    for turns in rounds:
        for turn in turns:
            state, _ = play_turn(state, turn)
    return state


def outcome_json(outcome: TurnOutcome) -> dict[str, Any]:
    return {
        "round": outcome.round,
        "turn": outcome.turn,
        "results": {p: {"number": r.number, "status": r.status.value, "points": r.points}
                    for p, r in outcome.results.items()},
    }


def result_json(state: GameState) -> dict[str, Any]:
    return {
        "turns": [outcome_json(o) for o in state.history],
        "round_totals": {p: list(state.round_totals(p)) for p in state.players},
        "final": state.final_scores(),
        "winners": sorted(state.winners()),
    }


def script_json(players: list[str], turns: list[Mapping[str, str]]) -> dict[str, Any]:
    """The replay script for a finished game given its 10 turns of revealed numbers."""
    per_round = [list(turns[i:i + TURNS_PER_ROUND]) for i in range(0, len(turns), TURNS_PER_ROUND)]
    return {"players": list(players), "rounds": per_round}


def replay_script(text: str) -> dict[str, Any]:
    """The result of the script ``text`` (the hook ``python -m bot replay`` finds in every game's replay)."""
    return replay_text(text)


def replay_text(text: str) -> dict[str, Any]:
    players, rounds = parse_script(text)
    return result_json(replay(players, rounds))
