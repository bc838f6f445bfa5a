"""``python -m bot play``: one human against AI players in the terminal, line by line on stdin.

Input is read with ``readline`` (not ``input``) so a scripted stdin plays a whole game; a bad number is
refused with the very sentence the Discord bot uses, and the prompt comes back.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.games.thenumber.ai import DEFAULT_LEVEL, AIPlayer
from bot.games.thenumber.engine import GameState, choose, new_game, public_view, resolve_turn, validate_choice
from bot.games.thenumber.errors import TheNumberError, format_digits
from bot.games.thenumber.messages import refusal
from bot.games.thenumber.replay import script_json
from bot.games.thenumber.rules import TURNS_PER_ROUND

from .render import render_boards, render_round_end, render_scores, render_standings, render_tower, turn_header

HUMAN = "you"


@dataclass
class PlayResult:
    """The end of a terminal game: the state (finished or not) and every revealed turn so far."""

    state: GameState
    turns: list[Mapping[str, str]] = field(default_factory=list)
    completed: bool = False

    def script(self) -> dict[str, Any]:
        """The ``python -m bot replay`` script of the game (complete games only replay)."""
        return script_json(list(self.state.players), self.turns)


def seat_names(players: int) -> list[str]:
    return [HUMAN, *(f"bot{i}" for i in range(1, players))]


def _ask(state: GameState, out: TextIO, inp: TextIO) -> str | None:
    """The human's canonical number, asking again after each refusal; None at end of input."""
    available = state.available(HUMAN)
    while True:
        out.write(f"Your number (available digits: {format_digits(available)}): ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            return None
        if not inp.isatty():  # scripted input: echo it so the transcript reads like a session
            out.write(line if line.endswith("\n") else line + "\n")
        try:
            return validate_choice(state, HUMAN, line.rstrip("\r\n"))
        except TheNumberError as error:
            out.write(refusal(error, available) + "\n")


def play_game(players: int = 4, level: str = DEFAULT_LEVEL, seed: int = 0, *, inp: TextIO, out: TextIO) -> PlayResult:
    """Play a whole game; returns early (``completed`` False) if the input ends."""
    names = seat_names(players)
    bots = [AIPlayer(name, level, seed) for name in names[1:]]
    state = new_game(names)
    result = PlayResult(state)
    out.write(f"The Number: you against {players - 1} AI players ({level}), seed {seed}.\n")
    while not state.finished:
        round_no, turn = state.round, state.turn
        out.write("\n" + turn_header(round_no, turn) + "\n")
        view = public_view(state)  # every AI decides from the same public picture, before anyone chooses
        for bot in bots:
            if bot.name not in view.exhausted:
                state = choose(state, bot.name, bot.choose(view))
        if state.is_exhausted(HUMAN):
            out.write("You have no digit left: you sit out this turn.\n")
        else:
            number = _ask(state, out, inp)
            if number is None:
                out.write("Input ended before the game finished; game abandoned.\n")
                result.state = state
                return result
            state = choose(state, HUMAN, number)
        state, outcome = resolve_turn(state)
        result.turns.append({p: r.number for p, r in outcome.results.items() if r.number is not None})
        view = public_view(state)
        out.write(render_tower(outcome) + "\n" + render_boards(view) + "\n")
        if turn == TURNS_PER_ROUND:
            out.write(render_round_end(view, round_no) + "\n")
        out.write(render_scores(view) + "\n")
    out.write("\n" + render_standings(state.final_scores(), state.winners()) + "\n")
    result.state, result.completed = state, True
    return result


def write_script(result: PlayResult, path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(result.script(), handle, indent=1)
        handle.write("\n")
