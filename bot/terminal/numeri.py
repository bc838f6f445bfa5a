"""A terminal game of Numeri: one human (seat A) against AI players, line by line on stdin.

Input is read with ``readline`` so a scripted stdin plays a whole game. The end of input or Ctrl-C
abandons the game cleanly.
"""

from __future__ import annotations

from random import Random
from typing import TextIO

from bot.core.game import RuleError
from bot.games.numeri.engine import State
from bot.games.numeri.errors import choice_text
from bot.games.numeri.game import GAME, die_rng
from bot.games.numeri.rules import RULES_TEXT

from . import read_answer, seat_names
from .numeri_render import render_event, render_final, render_tokens, render_track

HELP_WORDS = {"help", "?", "rules"}
QUIT_WORDS = {"quit", "exit"}
ABANDONED = 1


def _ask(state: State, legal: list[list[int]], stdin: TextIO, stdout: TextIO) -> list[int] | None:
    """The human's choice; None when the input ends or the player quits."""
    menu = "  ".join(f"{i}) {choice_text(c)}" for i, c in enumerate(legal, start=1))
    while True:
        line = read_answer(f"Your moves: {menu}\nPick a number from the list, or type the tokens (1 3 or 1+3); "
                           "help for the rules: ", stdin, stdout)
        if line is None:
            return None
        text = line.strip()
        if text.lower() in HELP_WORDS:
            stdout.write(RULES_TEXT + "\n")
            continue
        if text.lower() in QUIT_WORDS:
            return None
        if text.isascii() and text.isdigit():
            index = int(text)
            if 1 <= index <= len(legal):
                return legal[index - 1]
            stdout.write(f"pick a number from 1 to {len(legal)}, or type the tokens like 1 3\n")
            continue
        try:
            return list(GAME.parse(state, 0, text)["moves"])
        except RuleError as error:
            stdout.write(f"{error}\n")


def play(players: int, level: str, seed: int, stdin: TextIO, stdout: TextIO) -> int:
    """Play a whole game; 0 when it was played to the end, 1 when abandoned."""
    if players not in GAME.seats:
        stdout.write(f"Numeri is for {GAME.seats.start} to {GAME.seats.stop - 1} players\n")
        return 2
    if level not in GAME.ai_levels:
        stdout.write(f"AI level must be one of {', '.join(GAME.ai_levels)}\n")
        return 2
    names = seat_names(players)
    state = GAME.setup(players, {}, seed)
    ai_rng = Random(f"numeri-terminal:{seed}")
    stdout.write(f"Numeri (reconstructed board): you (A) against {players - 1} AI players ({level}), seed {seed}. "
                 f"{names[state.first]} begins. Type help for the rules.\n")
    stdout.write(render_track(GAME.view(state, None)) + "\n")
    try:
        while (prompt := GAME.prompt(state)) is not None:
            if prompt.chance:
                state, event = GAME.apply(state, {None: GAME.chance(state, die_rng(seed, state.throws))})
                stdout.write(render_event(event, names) + "\n")
                continue
            seat = state.current
            view = GAME.view(state, seat)
            if seat == 0:
                stdout.write(render_tokens(view, names) + "\n")
                legal = [list(a["moves"]) for a in GAME.legal(state, seat)]
                moves = _ask(state, legal, stdin, stdout)
                if moves is None:
                    stdout.write("Game abandoned.\n")
                    return ABANDONED
                action = {"moves": moves}
            else:
                action = GAME.ai(view, seat, level, ai_rng)
            state, event = GAME.apply(state, {seat: action})
            stdout.write(render_event(event, names) + "\n")
            if not state.over:
                stdout.write(render_track(GAME.view(state, None)) + "\n")
    except KeyboardInterrupt:
        stdout.write("\nGame abandoned.\n")
        return ABANDONED
    final = GAME.view(state, None)
    stdout.write("\n" + render_track(final) + "\n" + render_final(final, names) + "\n")
    return 0
