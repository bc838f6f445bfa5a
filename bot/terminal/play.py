"""``python -m bot play``: one human against AI players of The Number in the terminal, line by line on stdin.

The game runs over the protocol (``bot.games.thenumber.game.GAME``: setup, prompt, parse, apply, view, ai).
Inside, the adapter names the seats "0".."n-1"; the terminal shows them as you, bot1, bot2...
Input is read with ``readline`` (not ``input``) so a scripted stdin plays a whole game; a bad number is
refused with the very sentence the Discord bot uses, and the prompt comes back.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TextIO, TypeVar

from bot.core.game import Action, RuleError, Seat
from bot.games.thenumber.ai import DEFAULT_LEVEL, decision_rng
from bot.games.thenumber.engine import GameState, PublicView, TurnOutcome
from bot.games.thenumber.errors import TheNumberError, format_digits
from bot.games.thenumber.game import GAME, player, table_of
from bot.games.thenumber.numbers import ALL_DIGITS
from bot.games.thenumber.replay import script_json
from bot.games.thenumber.rules import BEST_SEATS, TURNS_PER_ROUND
from bot.i18n.thenumber import refusal

from . import read_answer, seat_names
from .render import (
    render_boards,
    render_round_end,
    render_rules,
    render_scores,
    render_standings,
    render_tower,
    turn_header,
)

HUMAN_SEAT: Seat = 0
HELP_WORDS = frozenset({"help", "?", "rules"})
T = TypeVar("T")


# The adapter's seat names ("0", "1", ...) as the terminal shows them ------------------------------------
class Names:
    def __init__(self, players: int) -> None:
        self.of = {player(seat): name for seat, name in enumerate(seat_names(players))}

    def keys(self, mapping: Mapping[str, T]) -> dict[str, T]:
        return {self.of[p]: value for p, value in mapping.items()}

    def all(self, players: Any) -> Any:
        return type(players)(self.of[p] for p in players)

    def outcome(self, outcome: TurnOutcome) -> TurnOutcome:
        return replace(outcome, results=self.keys(outcome.results))

    def view(self, view: PublicView) -> PublicView:
        return replace(view, players=self.all(view.players), crossed=self.keys(view.crossed),
                       points=self.keys(view.points), round_totals=self.keys(view.round_totals),
                       totals=self.keys(view.totals), chosen=self.all(view.chosen),
                       exhausted=self.all(view.exhausted), history=tuple(map(self.outcome, view.history)),
                       winners=self.all(view.winners))

    def state(self, state: GameState) -> GameState:
        return replace(state, players=self.all(state.players), crossed=self.keys(state.crossed),
                       points=self.keys(state.points), round_bonus=self.keys(state.round_bonus),
                       history=tuple(map(self.outcome, state.history)), pending=self.keys(state.pending))


@dataclass
class PlayResult:
    """The end of a terminal game: the state (finished or not, seats named) and every revealed turn so far."""

    state: GameState
    turns: list[Mapping[str, str]] = field(default_factory=list)
    completed: bool = False

    def script(self) -> dict[str, Any]:
        """The ``python -m bot replay`` script of the game (complete games only replay)."""
        return script_json(list(self.state.players), self.turns)


def _ask(state: GameState, available: frozenset[int], out: TextIO, inp: TextIO) -> Action | None:
    """The human's canonical action, asking again after each refusal; None at end of input."""
    while True:
        line = read_answer(f"Your number (available digits: {format_digits(available)}): ", inp, out)
        if line is None:
            return None
        if line.strip().lower() in HELP_WORDS:
            out.write(render_rules() + "\n")
            continue
        try:
            return GAME.parse(state, HUMAN_SEAT, line.rstrip("\r\n"))
        except RuleError as error:
            assert isinstance(error, TheNumberError)  # the adapter keeps the engine's error types
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


def boards_as_they_stand(before: PublicView, outcome: TurnOutcome, after: PublicView) -> PublicView:
    """The public view with the boards as the turn left them, before a new round resets them."""
    crossed = {p: before.crossed[p] | outcome.results[p].crossed for p in before.players}
    return replace(after, crossed=crossed, exhausted=frozenset())


def play_game(players: int = 4, level: str = DEFAULT_LEVEL, seed: int = 0, *, inp: TextIO, out: TextIO) -> PlayResult:
    """Play a whole game; returns early (``completed`` False) if the input ends or the player presses Ctrl-C."""
    names = Names(players)
    state = GAME.setup(players, {}, seed)
    result = PlayResult(names.state(state))
    out.write(introduction(players, level, seed))
    try:
        _play(state, result, names, level, seed, inp, out)
    except KeyboardInterrupt:
        out.write("\nInterrupted; game abandoned.\n")
        out.flush()
    return result


def _table(state: GameState) -> PublicView:
    return table_of(GAME.view(state, None))


def _play(state: GameState, result: PlayResult, names: Names, level: str, seed: int, inp: TextIO,
          out: TextIO) -> None:
    while (prompt := GAME.prompt(state)) is not None:
        before = _table(state)  # every AI decides from the same public picture, before anyone chooses
        round_no, turn = before.round, before.turn
        out.write("\n" + turn_header(round_no, turn) + "\n")
        if turn == 1 and round_no > 1:
            out.write("New round: every board is reset, all ten digits are available again.\n"
                      + render_boards(names.view(before)) + "\n")
        step: dict[Seat | None, Action] = {
            seat: GAME.ai(GAME.view(state, seat), seat, level, decision_rng(seed, before, player(seat)))
            for seat in sorted(prompt.seats - {HUMAN_SEAT})}
        if HUMAN_SEAT not in prompt.seats:
            out.write("You have no digit left: you sit out this turn.\n")
        else:
            action = _ask(state, ALL_DIGITS - before.crossed[player(HUMAN_SEAT)], out, inp)
            if action is None:
                out.write("Input ended before the game finished; game abandoned.\n")
                return
            step[HUMAN_SEAT] = action
        state, outcome = GAME.apply(state, step)
        result.state = names.state(state)
        shown_outcome = names.outcome(outcome)
        result.turns.append({p: r.number for p, r in shown_outcome.results.items() if r.number is not None})
        view = names.view(_table(state))
        shown = boards_as_they_stand(names.view(before), shown_outcome, view) if turn == TURNS_PER_ROUND else view
        out.write(render_tower(shown_outcome) + "\n" + render_boards(shown) + "\n")
        if turn == TURNS_PER_ROUND:
            out.write(render_round_end(view, round_no) + "\n")
        out.write(render_scores(view) + "\n")
    final = result.state
    out.write("\n" + render_standings(final.final_scores(), final.winners()) + "\n")
    result.completed = True


def write_script(result: PlayResult, path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(result.script(), handle, indent=1)
        handle.write("\n")
