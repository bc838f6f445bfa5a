"""``python -m bot play``: one human against AI players at any registered game, in the terminal.

One loop over the game protocol (``bot.core.game``) plays every game: chance is drawn and the AI seats
choose as the bot and the arena do (``bot.core.fold.step_rng``: the same seed and the same answers give the
same game), the human sits in seat 0. The commands are the same in every game:

- a move, typed the way the rules name it (the menu shows how, and what each choice does);
- ``help``, ``?`` or ``rules``: the rules and the variants in play; ``board``: the table now;
- ``quit``, ``exit`` or ``q`` (or Ctrl-D): leave the game, status 1; Ctrl-C: leave at once, status 130.

What is shown comes from the game's screen (:mod:`bot.terminal.screen`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.core.fold import step_rng, step_to_json
from bot.core.game import Action, Game, RuleError, Seat

from .console import Console, Seats
from .screen import Screen, Words, screen_for, wrap

HUMAN: Seat = 0
HELP = frozenset({"help", "?", "rules"})
BOARD = frozenset({"board", "sheet"})  # "sheet": what Binomial's terminal called it before
QUIT = frozenset({"quit", "exit", "q"})
COMMANDS = ("help", "rules", "board", "quit", "exit")
MENU_LIMIT = 12  # more choices than this are not listed one by one (a Binomial sheet's 16 cells)
FINISHED, ABANDONED, INTERRUPTED = 0, 1, 130  # exit statuses: 130 is the shells' status for Ctrl-C
HINT = "Commands: help (or ? or rules), board, quit (or q). Ctrl-D and Ctrl-C leave too."


class Quit(Exception):
    """The player left (quit, or the end of input)."""


@dataclass
class Played:
    """A game as the terminal played it: its steps (stored form), for --script-out."""

    names: list[str]
    options: Mapping[str, Any]
    seed: int
    steps: list[dict[str, Action]] = field(default_factory=list)
    finished: bool = False


def opponents(count: int) -> str:
    return f"{count} AI player{'s' if count != 1 else ''}"


def variants(game: Game[Any, Any, Any], options: Mapping[str, Any], words: Words) -> list[str] | None:
    """The on/off options that are on, in the Discord lobby's words; None for a game without any."""
    flags = [o.name for o in game.options if isinstance(o.default, bool)]
    if not flags:
        return None
    keys = {n: f"{game.key}.variant.{n}" for n in flags}
    return [words(keys[n]) if words.has(keys[n]) else n.replace("_", " ") for n in flags if options.get(n) is True]


def introduction(game: Game[Any, Any, Any], seats: Seats, level: str, seed: int, options: Mapping[str, Any],
                 words: Words) -> str:
    text = f"{game.title}: {seats.name(HUMAN)} against {opponents(len(seats) - 1)} ({level}).\n"
    text += f"Seed {seed}: play this game again with --seed {seed}."
    if on := variants(game, options, words):
        text += "\nVariants: " + ", ".join(on) + "."
    return wrap(text) + "\n" + HINT


class Table:
    """One game in progress at the terminal."""

    def __init__(self, game: Game[Any, Any, Any], seats: Seats, level: str, seed: int,
                 options: Mapping[str, Any], console: Console, screen: Screen | None = None) -> None:
        self.game, self.seats, self.level, self.seed = game, seats, level, seed
        self.options, self.console = dict(options), console
        self.screen = screen or screen_for(game)
        self.words = Words()
        self.played = Played(list(seats.plain), self.options, seed)

    def play(self) -> int:
        """Play to the end; the exit status (0 finished, 1 left, 130 Ctrl-C; 2 options the game refuses)."""
        console, game = self.console, self.game
        try:
            state = game.setup(len(self.seats), self.options, self.seed)
        except RuleError as error:
            console.refusal(str(error))
            return 2
        console.paint_seats([[self.seats.name(s), self.seats.plain[s], *self.screen.marks(s)]
                             for s in range(len(self.seats))])
        console.show(introduction(game, self.seats, self.level, self.seed, self.options, self.words))
        console.show(self.screen.introduction(game.view(state, None), self.seats, self.words))
        try:
            state = self._loop(state)
        except Quit:
            console.show("Game abandoned.")
            return ABANDONED
        except KeyboardInterrupt:
            console.end_line()
            console.show("Interrupted (Ctrl-C): game abandoned.")
            return INTERRUPTED
        result = game.result(state)
        assert result is not None, "the game asks nothing more but has no result"
        console.heading(self.screen.final(game.view(state, None), result, self.seats, self.words))
        self.played.finished = True
        return FINISHED

    def _loop(self, state: Any) -> Any:
        game, screen, words = self.game, self.screen, self.words
        while (prompt := game.prompt(state)) is not None:
            before = game.view(state, None)
            number = len(self.played.steps)
            step: dict[Seat | None, Action] = {}
            if prompt.chance:
                step[None] = game.chance(state, step_rng(self.seed, number))
            else:
                self.console.heading(screen.header(before, prompt, self.seats, words))
                for seat in sorted(prompt.seats):  # an open step takes the first awaited seat, as the core does
                    if seat == HUMAN:
                        step[seat] = self._ask(state, prompt)
                    else:
                        rng = step_rng(self.seed, number, seat)
                        step[seat] = game.check(state, seat, game.ai(game.view(state, seat), seat, self.level, rng))
                    if not prompt.sealed:
                        break
            state, event = game.apply(state, step)
            self.played.steps.append(step_to_json(step))
            self.console.show(screen.event(event, before, game.view(state, None), self.seats, words))
        return state

    def _menu(self, state: Any, view: Any) -> list[tuple[str, str]]:
        legal = self.game.legal(state, HUMAN)
        if legal is None:
            return []
        return [self.screen.choice(view, action, self.words) for action in legal]

    def _ask(self, state: Any, prompt: Any) -> Action:
        """The human's move, after any number of commands and refusals."""
        game, console, words = self.game, self.console, self.words
        view = game.view(state, HUMAN)
        details, label = self.screen.question(view, prompt, words)
        menu = self._menu(state, view)
        listed = menu if 0 < len(menu) <= MENU_LIMIT and self.screen.listed(view, prompt) else []
        console.show(details)
        console.show(menu_text(listed))
        while True:
            line = console.ask(f"{label} [? help, q quit]: ", [typed for typed, _ in menu] + list(COMMANDS))
            if line is None:
                raise Quit
            word = line.strip().lower()
            if word in QUIT:
                raise Quit
            if word in HELP:
                console.show(self.screen.rules(self.options, words))
                console.note(self._variants() + HINT)
                continue
            if word in BOARD:
                console.show(self.screen.board(game.view(state, HUMAN), self.seats, words))
                continue
            if not word:
                console.show(details)
                console.show(menu_text(listed))
                console.note(HINT)
                continue
            try:
                return game.parse(state, HUMAN, line)
            except RuleError as error:
                console.refusal(wrap("Refused: " + self.screen.refusal(error, view, words)))

    def _variants(self) -> str:
        on = variants(self.game, self.options, self.words)
        if on is None:
            return ""
        return wrap("Variants in play: " + (", ".join(on) if on else "none") + ".") + "\n"

    def script(self) -> Any:
        return self.screen.script(self.played.names, self.options, self.seed, self.played.steps)


def menu_text(menu: Sequence[tuple[str, str]]) -> str:
    """The moves on offer, one a line: how to type each and what it does."""
    if not menu:
        return ""
    width = max(len(typed) for typed, _ in menu)
    lines = ["Your moves (type one as shown):"]
    lines += [f"  {typed:<{width}}  {what}".rstrip() for typed, what in menu]
    return "\n".join(lines)


def write_script(table: Table, path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(table.script(), handle, indent=1)
        handle.write("\n")
