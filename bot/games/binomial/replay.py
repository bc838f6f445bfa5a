"""Replay a game of Binomial from a JSON script (the table-check contract of issue 14).

Input:  {"game": "binomial", "players": [...], "options": {...}, "chairman": NAME, "rolls": [16 digits],
         "placements": {NAME: [16 cells in roll order]}, "deck": [16 card keys, top first],
         "rounds": [{NAME: "44", ...}, ...]}   (a player absent from a round passed)
Output: {"sheets": {...}, "rounds": [...], "scores": {...}, "winners": [...]}

Replays keep the table rule: a number that does not fit drops its fighter out (it is still used up).
The script may stop before the end; a round after the game's end is bad input.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bot.core.game import loads_strict, script_players

from .engine import State, Variants, new_game, place, play_round, roll
from .errors import BinomialError
from .rules import CARD_BY_KEY, CARD_KEYS, CELLS, DIE, GAME_KEY, ROLLS, SAME_BOAT_SEATS, SEATS, show

_PICK = re.compile(r"[0-9]{2}")
OPTION_KEYS = ("dark", "openness", "reward_for_fighting", "same_boat")


SCRIPT_HELP = ('{"game": "binomial", "players", "chairman", "rolls", "placements", "deck", "rounds", '
               '"options"?}: prints sheets, rounds, scores, winners')


class ScriptError(Exception):
    """A script that cannot be replayed; ``str()`` is one line naming where."""

    def __init__(self, message: str) -> None:
        # a player's name may hold a line break: the message stays one line whatever the script holds
        super().__init__(message.replace("\r", "\\r").replace("\n", "\\n"))



def load(text: str | bytes) -> object:
    return loads_strict(text, ScriptError)


def replay_script(text: str) -> dict[str, Any]:
    """The result of the script ``text`` (the hook ``python -m bot replay`` finds in every game's replay)."""
    return replay(text)


def _variants(data: dict[str, Any], seats: int) -> Variants:
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ScriptError("options: must be an object")
    for key, value in options.items():
        if key not in OPTION_KEYS:
            raise ScriptError(f"options: unknown option {key!r} (known: {', '.join(OPTION_KEYS)})")
        if not isinstance(value, bool):
            raise ScriptError(f"options: {key} must be true or false")
    if options.get("same_boat") and seats not in SAME_BOAT_SEATS:
        raise ScriptError(f"options: same_boat needs {SAME_BOAT_SEATS.start} or more players, got {seats}")
    return Variants(**{k: options.get(k, False) for k in OPTION_KEYS})


def _rolls(data: dict[str, Any]) -> list[int]:
    rolls = data.get("rolls")
    if not isinstance(rolls, list) or len(rolls) != ROLLS:
        got = len(rolls) if isinstance(rolls, list) else "none"
        raise ScriptError(f"rolls: exactly {ROLLS} rolls needed, got {got}")
    for i, digit in enumerate(rolls, start=1):
        if isinstance(digit, bool) or not isinstance(digit, int) or digit not in DIE:
            raise ScriptError(f"rolls: roll {i} is {json.dumps(digit)}, not a digit 0-9")
    return rolls


def _placements(data: dict[str, Any], players: list[str]) -> dict[str, list[int]]:
    placements = data.get("placements")
    if not isinstance(placements, dict):
        raise ScriptError("placements: must be an object mapping each player to 16 cells")
    for name in placements:
        if name not in players:
            raise ScriptError(f"placements: {name!r} is not a player")
    cells: dict[str, list[int]] = {}
    for name in players:
        where = f"placements: {name}"
        if name not in placements:
            raise ScriptError(f"{where}: missing")
        row = placements[name]
        if not isinstance(row, list) or len(row) != ROLLS:
            got = len(row) if isinstance(row, list) else "none"
            raise ScriptError(f"{where}: exactly {ROLLS} cells needed, got {got}")
        for i, cell in enumerate(row, start=1):
            if not isinstance(cell, str) or cell not in CELLS:
                raise ScriptError(f"{where}: placement {i} is {json.dumps(cell)}, not a cell {CELLS[0]}-{CELLS[-1]}")
        twice = sorted({c for c in row if row.count(c) > 1}, key=CELLS.index)
        if twice:
            raise ScriptError(f"{where}: cell {twice[0]} is used more than once")
        cells[name] = [CELLS.index(c) for c in row]
    return cells


def _deck(data: dict[str, Any]) -> list[str]:
    deck = data.get("deck")
    if not isinstance(deck, list) or len(deck) != len(CARD_KEYS):
        got = len(deck) if isinstance(deck, list) else "none"
        raise ScriptError(f"deck: exactly {len(CARD_KEYS)} cards needed, got {got}")
    for i, key in enumerate(deck, start=1):
        if not isinstance(key, str) or key not in CARD_BY_KEY:
            raise ScriptError(f"deck: card {i} {json.dumps(key)} is not a postulate card")
    twice = sorted({k for k in deck if deck.count(k) > 1})
    if twice:
        raise ScriptError(f"deck: {twice[0]} appears more than once")
    return deck


def _picks(state: State, r: int, picks: object, players: list[str]) -> dict[int, int]:
    where = f"round {r}"
    if not isinstance(picks, dict):
        raise ScriptError(f"{where}: must be an object mapping fighters to numbers")
    for name in picks:
        if name not in players:
            raise ScriptError(f"{where}: {name!r} is not a player")
    chosen: dict[int, int] = {}
    for seat, name in enumerate(players):
        if name not in picks:
            continue
        text = picks[name]
        if not isinstance(text, str) or not _PICK.fullmatch(text):
            raise ScriptError(f"{where}: {name}'s pick {json.dumps(text)} is not two digits 0-9")
        number = int(text)
        sheet = state.sheets[seat]
        if number not in sheet.numbers:
            raise ScriptError(f"{where}: {name} has no {text} on their sheet")
        if number not in sheet.unused:
            used_in = max(u for n, u in zip(sheet.numbers, sheet.used, strict=True) if n == number)
            raise ScriptError(f"{where}: {name} used {text} in round {used_in}")
        chosen[seat] = number
    return chosen


def replay(data: object) -> dict[str, Any]:
    """Replay a script (its JSON text, or the parsed object); :class:`ScriptError` names what is wrong."""
    if isinstance(data, str | bytes):
        data = load(data)
    if not isinstance(data, dict):
        raise ScriptError("the script must be a JSON object")
    if data.get("game") != GAME_KEY:
        got = json.dumps(data["game"]) if "game" in data else "missing"
        raise ScriptError(f'game: must be "{GAME_KEY}", got {got}')
    players = script_players(data, SEATS.start, SEATS.stop - 1, ScriptError)
    variants = _variants(data, len(players))
    chairman = data.get("chairman")
    if chairman not in players:
        raise ScriptError(f"chairman: {json.dumps(chairman)} is not a player")
    rolls = _rolls(data)
    cells = _placements(data, players)
    deck = _deck(data)
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise ScriptError("rounds: must be a list of rounds")
    try:
        state = new_game(len(players), variants, [deck], players.index(chairman))
        for i, digit in enumerate(rolls):
            state, _ = roll(state, digit)
            state, _ = place(state, {seat: cells[name][i] for seat, name in enumerate(players)})
        out_rounds = []
        for r, picks in enumerate(rounds, start=1):
            if state.over:
                raise ScriptError(f"round {r}: the game ended after round {r - 1}")
            chosen = _picks(state, r, picks, players)
            state, fight = play_round(state, chosen, table_rule=True)
            winner = fight.winner
            out_rounds.append({
                "round": r,
                "card": fight.card,
                "fighters": {players[s]: show(n) for s, n in sorted(fight.fighters)},
                "cancelled": [show(n) for n in fight.cancelled],
                "unfit": sorted(players[s] for s in fight.unfit),
                "winner": None if winner is None else players[winner],
                "points": 0 if winner is None else fight.points[winner],
                "chairman": players[fight.chairman],
            })
    except BinomialError as error:  # the checks above should leave nothing for the engine to refuse
        raise ScriptError(f"script: {error}") from None
    sheets, totals = state.sheets, state.totals
    return {
        "sheets": {name: [show(n) for n in sheets[s].numbers if n is not None] for s, name in enumerate(players)},
        "rounds": out_rounds,
        "scores": {name: totals[s] for s, name in enumerate(players)},
        "winners": sorted(players[s] for s in state.winners()),
    }


def replay_text(text: str | bytes) -> dict[str, Any]:
    return replay(load(text))
