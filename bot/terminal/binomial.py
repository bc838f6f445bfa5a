"""``python -m bot play --game binomial``: one human against AI players in the terminal, line by line.

Input is read with ``readline`` so a scripted stdin plays a whole game; a refused input gets the very
sentence the bot uses, and the question comes back. ``help``, ``?`` or ``rules`` explain; ``sheet`` shows
your sheet. End of input or Ctrl-C abandon the game cleanly.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, TextIO

from bot.core.game import RuleError
from bot.games.binomial.ai import LEVELS
from bot.games.binomial.engine import Declared, Fight, Sheet, State
from bot.games.binomial.game import GAME
from bot.games.binomial.rules import CARD_BY_KEY, CARDS, CELLS, DECK_SIZE, ROLLS, Card, show
from bot.games.binomial.view import View, fitting

from . import read_answer, seat_names

HUMAN = 0

RULES_TEXT = f"""Binomial, in short:
- Numerology: a ten-sided die is rolled {ROLLS} times. After each roll write the digit in a free cell of your
  sheet ({CELLS[0]} {CELLS[1]} ... {CELLS[-1]}: a = first digit, b = second), building eight two-digit numbers.
- Colloquium: each round a postulate card is turned. From the chairman on, each player fights (with one of
  their unused numbers that fits the card, kept secret) or passes. Then the fighters' numbers are revealed:
  numbers picked twice or more cancel out, the best by the card's measure wins (ties: the largest number),
  takes the card's points and becomes chairman. Every fighter's number is used up.
- X points = the number of fighters. The game ends after the last card, or when a player has used their
  last number. Most points wins.
Commands: a cell like 3b while placing; pass, or a number like 44 to fight; sheet; help, ? or rules.
Cards:
""" + "\n".join(f"  {c.title}: {c.fits_text}; {c.points_text} points" for c in CARDS)


def is_chairman(name: str) -> str:
    return f"{name} {'are' if name == 'you' else 'is'} chairman"


def render_sheet(sheet: Sheet) -> str:
    """``1:37 2:0_ [3:44] ...``: brackets mark a used number."""
    parts = []
    for k in range(len(sheet.used)):
        a, b = sheet.cells[2 * k], sheet.cells[2 * k + 1]
        text = f"{k + 1}:{'_' if a is None else a}{'_' if b is None else b}"
        parts.append(f"[{text}]" if sheet.used[k] else text)
    return " ".join(parts)


def render_card(card: Card, round_no: int) -> str:
    return f"Card {round_no} of {DECK_SIZE}: {card.title} ({card.fits_text}); {card.points_text} points"


def render_scores(view: View, names: list[str]) -> str:
    parts = [f"{names[s]} {view.scores[s]}" + (f" (match {view.totals[s]})" if view.games > 1 else "")
             + f", {view.unused[s]} numbers left" for s in range(view.seats)]
    return "Scores: " + "; ".join(parts)


def render_fight(fight: Fight, names: list[str]) -> str:
    lines = []
    picks = ", ".join(f"{names[s]} {show(n)}" for s, n in fight.fighters) or "nobody fought"
    passed = ", ".join(names[s] for s in fight.passed)
    lines.append(f"Reveal: {picks}" + (f"; passed: {passed}" if passed else ""))
    if fight.cancelled:
        lines.append("Cancelled: " + " ".join(show(n) for n in fight.cancelled))
    if fight.unfit:
        lines.append("Did not fit: " + ", ".join(names[s] for s in fight.unfit))
    if fight.winner is None:
        stays = "stay" if names[fight.chairman] == "you" else "stays"
        lines.append(f"Nobody wins the card; {names[fight.chairman]} {stays} chairman.")
    else:
        number = dict(fight.fighters)[fight.winner]
        others = [f"{names[s]} +{p}" for s, p in enumerate(fight.points) if p and s != fight.winner]
        lines.append(f"{names[fight.winner]} wins with {show(number)}: {fight.points[fight.winner]} points"
                     + (f" (also scoring: {', '.join(others)})" if others else "")
                     + f"; {is_chairman(names[fight.chairman])}.")
    for s in fight.last_number:
        lines.append(f"{names[s]} {'have' if names[s] == 'you' else 'has'} one number left.")
    return "\n".join(lines)


def render_end(state: State, names: list[str]) -> str:
    view = GAME.view(state, None)
    lines = ["Game over. Every sheet:"]
    for s in range(state.seats):
        assert view.sheets is not None
        lines.append(f"  {names[s]}: {render_sheet(view.sheets[s])}")
    lines.append("Final: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(view.totals)))
    winners = sorted(state.winners())
    lines.append(("Shared win: " if len(winners) > 1 else "Winner: ") + ", ".join(names[s] for s in winners))
    return "\n".join(lines)


class _Abandon(Exception):
    pass


def _ask(state: State, question: str, inp: TextIO, out: TextIO) -> Mapping[str, Any]:
    """The human's canonical action, asking again after a refusal or a help request."""
    while True:
        line = read_answer(question, inp, out)
        if line is None:
            raise _Abandon
        word = line.strip().lower()
        if word in ("help", "?", "rules"):
            out.write(RULES_TEXT + "\n")
            continue
        if word == "sheet":
            out.write("Your sheet: " + render_sheet(state.sheets[HUMAN]) + "\n")
            continue
        try:
            return GAME.parse(state, HUMAN, line)
        except RuleError as error:
            out.write(f"Refused: {error}\n")


def _human_question(state: State) -> str:
    view = GAME.view(state, HUMAN)
    assert view.sheet is not None
    if view.kind == "place":
        return (f"Your sheet: {render_sheet(view.sheet)}\nPlace {view.pending} in a free cell (like "
                f"{CELLS[view.sheet.free_cells[0]]}): ")
    options = fitting(view)
    choices = " ".join(show(n) for n in options) if options else "none: you can only pass"
    return f"Your sheet: {render_sheet(view.sheet)}\nFight with a number that fits ({choices}), or pass: "


def play(players: int, level: str, seed: int, stdin: TextIO, stdout: TextIO,
         options: Mapping[str, Any] | None = None) -> int:
    """Play a whole game (or match) against ``players - 1`` AI players; 0 when finished, 1 if abandoned."""
    if level not in LEVELS:
        stdout.write(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}\n")
        return 2
    names = seat_names(players)
    try:
        state = GAME.setup(players, dict(options or {}), seed)
    except RuleError as error:
        stdout.write(f"{error}\n")
        return 2
    dice = Random(f"binomial-dice:{seed}")
    rngs = [Random(f"binomial-ai:{seed}:{s}") for s in range(players)]
    stdout.write(f"Binomial: you against {players - 1} AI players ({level}), seed {seed}. "
                 f"{is_chairman(names[state.chairman])}. Type help for the rules.\n")
    shown_card = None
    try:
        while (prompt := GAME.prompt(state)) is not None:
            if prompt.chance:
                state, event = GAME.apply(state, {None: GAME.chance(state, dice)})
                stdout.write(f"\nGame {event.game}, roll {event.roll} of {ROLLS}: {event.digit}\n")
                continue
            view = GAME.view(state, None)
            if view.card is not None and (view.game, view.round) != shown_card:
                shown_card = (view.game, view.round)
                stdout.write(f"\n{render_card(CARD_BY_KEY[view.card], view.round)}; "
                             f"{is_chairman(names[view.chairman])}.\n")
            step: dict[int | None, Mapping[str, Any]] = {}
            for seat in sorted(prompt.seats):
                if seat == HUMAN:
                    step[seat] = _ask(state, _human_question(state), stdin, stdout)
                else:
                    step[seat] = GAME.ai(GAME.view(state, seat), seat, level, rngs[seat])
            state, event = GAME.apply(state, step)
            if isinstance(event, Declared) and event.seat != HUMAN:
                stdout.write(f"{names[event.seat]} {'fights' if event.fight else 'passes'}.\n")
            if isinstance(event, Fight):
                stdout.write(render_fight(event, names) + "\n" + render_scores(GAME.view(state, None), names) + "\n")
                if event.game_over and not state.over:
                    stdout.write(f"Game {event.game} is over; the next game of the match begins.\n")
    except (_Abandon, KeyboardInterrupt):
        stdout.write("Input ended before the game finished: game abandoned.\n")
        return 1
    stdout.write("\n" + render_end(state, names) + "\n")
    return 0
