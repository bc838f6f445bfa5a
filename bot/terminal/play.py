"""``python -m bot play``: one human against AI players in the terminal, line by line on stdin.

Input is read with ``readline`` (not ``input``) so a scripted stdin plays a whole game; a bad number is
refused with the very sentence the Discord bot uses, and the prompt comes back.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from bot.games.thenumber.ai import DEFAULT_LEVEL, AIPlayer
from bot.games.thenumber.engine import (
    GameState,
    PublicView,
    TurnOutcome,
    choose,
    new_game,
    public_view,
    resolve_turn,
    validate_choice,
)
from bot.games.thenumber.errors import TheNumberError, format_digits
from bot.games.thenumber.messages import refusal
from bot.games.thenumber.replay import script_json
from bot.games.thenumber.rules import BEST_SEATS, TURNS_PER_ROUND

from .render import (
    render_boards,
    render_round_end,
    render_rules,
    render_scores,
    render_standings,
    render_tower,
    turn_header,
)

HUMAN = "you"
HELP_WORDS = frozenset({"help", "?", "rules"})


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
        if line.strip().lower() in HELP_WORDS:
            out.write(render_rules() + "\n")
            continue
        try:
            return validate_choice(state, HUMAN, line.rstrip("\r\n"))
        except TheNumberError as error:
            out.write(refusal(error, available) + "\n")


def introduction(players: int, level: str, seed: int) -> str:
    opponents = players - 1
    text = (f"The Number: you against {opponents} AI player{'s' if opponents != 1 else ''} ({level}), "
            f"seed {seed} (play this game again with --seed {seed}).\n"
            "Type help, ? or rules at the prompt to see the rules.\n")
    if players < BEST_SEATS[0]:
        text += (f"{players} seats work, but The Number plays best with {BEST_SEATS[0]} to {BEST_SEATS[1]}"
                 " (--players).\n")
    return text


def boards_as_they_stand(before: GameState, outcome: TurnOutcome, after: PublicView) -> PublicView:
    """The public view with the boards as the turn left them, before a new round resets them."""
    crossed = {p: before.crossed[p] | outcome.results[p].crossed for p in before.players}
    return replace(after, crossed=crossed, exhausted=frozenset())


def play_game(players: int = 4, level: str = DEFAULT_LEVEL, seed: int = 0, *, inp: TextIO, out: TextIO) -> PlayResult:
    """Play a whole game; returns early (``completed`` False) if the input ends or the player presses Ctrl-C."""
    names = seat_names(players)
    result = PlayResult(new_game(names))
    out.write(introduction(players, level, seed))
    try:
        _play(result, [AIPlayer(name, level, seed) for name in names[1:]], inp, out)
    except KeyboardInterrupt:
        out.write("\nInterrupted; game abandoned.\n")
        out.flush()
    return result


def _play(result: PlayResult, bots: list[AIPlayer], inp: TextIO, out: TextIO) -> None:
    state = result.state
    while not state.finished:
        round_no, turn = state.round, state.turn
        out.write("\n" + turn_header(round_no, turn) + "\n")
        if turn == 1 and round_no > 1:
            out.write("New round: every board is reset, all ten digits are available again.\n"
                      + render_boards(public_view(state)) + "\n")
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
                return
            state = choose(state, HUMAN, number)
        before = state
        state, outcome = resolve_turn(state)
        result.state = state
        result.turns.append({p: r.number for p, r in outcome.results.items() if r.number is not None})
        view = public_view(state)
        shown = boards_as_they_stand(before, outcome, view) if turn == TURNS_PER_ROUND else view
        out.write(render_tower(outcome) + "\n" + render_boards(shown) + "\n")
        if turn == TURNS_PER_ROUND:
            out.write(render_round_end(view, round_no) + "\n")
        out.write(render_scores(view) + "\n")
    out.write("\n" + render_standings(state.final_scores(), state.winners()) + "\n")
    result.completed = True


def write_script(result: PlayResult, path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(result.script(), handle, indent=1)
        handle.write("\n")
