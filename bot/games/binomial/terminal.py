"""Binomial in the terminal (``python -m bot play --game binomial``): the rolls, your sheet, each round.

The screen the shared terminal front end (``bot/terminal``) finds beside this game: pure text from views and
events, in the Discord table's words (``words``, duck-typed: this package imports only the protocol).
Every line fits 80 columns.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from bot.core.game import Action, Prompt, Result, RuleError

from .engine import Declared, Fight, Rolled, Sheet
from .rules import CARD_BY_KEY, CARDS, CELLS, NUMBERS_PER_SHEET, ROLLS, show
from .view import View

HUMAN = 0
WIDTH = 80
# What each variant does, for ``play --help`` (the rules' words, where Discord's option text is only a name).
OPTION_HELP = {
    "dark": "playing in the dark: everybody declares fight or pass, and picks, at once and secretly",
    "reward_for_fighting": "reward for fighting: with 3 or more fighters the round's winner scores 1 more point",
    "openness": "openness: the table is told when a player is down to one unused number",
    "same_boat": ("in the same boat (6 or 7 players only): when a number is cancelled, every remaining fighter "
                  "whose number fits scores the card's points; the largest remaining number takes the card"),
    "match": "a match of three games, points added up",
}


def _wrap(text: str) -> str:
    """Each line folded to the terminal's width, the rest of a line indented two more than its start."""
    return "\n".join(textwrap.fill(p, WIDTH, subsequent_indent=" " * (len(p) - len(p.lstrip()) + 2)) if p else ""
                     for p in text.split("\n"))


def card_title(key: str, words: Any) -> str:
    return str(words(f"binomial.card.{key}"))


def card_line(key: str, words: Any) -> str:
    card = CARD_BY_KEY[key]
    points = words("binomial.points.x") if card.points is None else words("binomial.points.n", n=card.points)
    return str(words("binomial.card.line", card=card_title(key, words), fits=words(f"binomial.fits.{key}"),
                     points=points))


def sheet_line(sheet: Sheet) -> str:
    """``1:42 2:5· 3:·· 4:37✓``: each number (· an empty cell), ✓ once used."""
    parts = []
    for k in range(NUMBERS_PER_SHEET):
        a, b = sheet.cells[2 * k], sheet.cells[2 * k + 1]
        text = f"{k + 1}:{'·' if a is None else a}{'·' if b is None else b}"
        parts.append(text + ("✓" if sheet.used[k] else ""))
    return " ".join(parts)


def scores_line(scores: tuple[int, ...], seats: Any, words: Any) -> str:
    return str(words("binomial.scores", scores=" · ".join(f"{seats.name(s)} {p}" for s, p in enumerate(scores))))


def game_of(view: View) -> str:
    return f"game {view.game} of {view.games}, " if view.games > 1 else ""


class BinomialScreen:
    def introduction(self, view: View, seats: Any, words: Any) -> str:
        return words("binomial.round.chairman", name=seats.name(view.chairman)) + (
            f". A match of {view.games} games." if view.games > 1 else ".")

    def rules(self, options: Mapping[str, Any], words: Any) -> str:
        text = words("binomial.rules.text").rsplit("\n", 1)[0]  # the last line is about Discord's commands
        text += ("\nIn the terminal: type a cell like 3b to place a digit; pass, or a number like 44 to fight; "
                 "board shows your sheet and the scores.")
        cards = [f"  {card_title(c.key, words)}: {words(f'binomial.fits.{c.key}')}; "
                 + (words("binomial.points.x") if c.points is None else words("binomial.points.n", n=c.points))
                 for c in CARDS]
        return _wrap(f"{words('binomial.rules.title')}\n{text}\n{words('binomial.rules.cards')}:") + "\n" + \
            "\n".join(_wrap(line) for line in cards) + "\n" + _wrap(
                f"{words('binomial.rules.variants_title')}: {words('binomial.rules.variants')}")

    def header(self, view: View, prompt: Prompt, seats: Any, words: Any) -> str | None:
        if view.kind not in ("declare", "pick") or view.declared or view.card is None:
            return None  # a round is announced once, before its first declaration
        title = f"Round {view.round} of {len(CARDS)}" + (f" (game {view.game} of {view.games})"
                                                          if view.games > 1 else "")
        return _wrap(f"{title}: {card_line(view.card, words)}\n"
                     + words("binomial.round.chairman", name=seats.name(view.chairman)))

    def question(self, view: View, prompt: Prompt, words: Any) -> tuple[str, str]:
        assert view.sheet is not None
        sheet = "Your sheet: " + sheet_line(view.sheet)
        if view.kind == "place":
            free = view.sheet.free_cells
            return sheet, f"Roll {len(view.rolls)}: place your {view.pending} (a free cell, like {CELLS[free[0]]})"
        return sheet, "Fight with a number that fits, or pass"

    def listed(self, view: View, prompt: Prompt) -> bool:
        return view.kind != "place"  # the free cells are on the sheet line already

    def choice(self, view: View, action: Action, words: Any) -> tuple[str, str]:
        if "cell" in action:
            return str(action["cell"]), f"your {view.pending} goes in {action['cell']}"
        number = action.get("number")
        if number is None:
            return "pass", words("binomial.pick.pass")
        return show(int(number)), words("binomial.pick.fight", number=show(int(number)))

    def event(self, event: Any, before: View, after: View, seats: Any, words: Any) -> str | None:
        if isinstance(event, Rolled):
            roll = f"roll {event.roll} of {ROLLS}: {event.digit}"
            return f"Game {event.game} of {after.games}, {roll}" if after.games > 1 else roll.capitalize()
        if isinstance(event, Declared):
            if before.variants.dark:
                return None
            return words("binomial.round.fights" if event.fight else "binomial.round.passes",
                         name=seats.name(event.seat)) + "."
        if isinstance(event, Fight):
            return self._reveal(event, before, after, seats, words)
        return None

    def _reveal(self, fight: Fight, before: View, after: View, seats: Any, words: Any) -> str:
        lines = []
        declared = {s for s, _ in before.declared}
        if not before.variants.dark:  # the declaration that closed the round is told like the others
            fighters = {s for s, _ in fight.fighters}
            for seat in sorted(fighters | set(fight.passed), key=lambda s: (s - fight.chairman) % before.seats):
                if seat not in declared:
                    lines.append(words("binomial.round.fights" if seat in fighters else "binomial.round.passes",
                                       name=seats.name(seat)) + ".")
        lines.append(words("binomial.reveal.title", round=fight.round, card=card_line(fight.card, words)))
        if fight.fighters:
            lines.append(words("binomial.reveal.fighters", fighters=", ".join(
                f"{seats.name(s)} {show(n)}" for s, n in fight.fighters)))
        else:
            lines.append(words("binomial.reveal.nobody_fought"))
        if fight.passed:
            lines.append(words("binomial.reveal.passed", names=", ".join(seats.name(s) for s in fight.passed)))
        if fight.cancelled:
            lines.append(words("binomial.reveal.cancelled", numbers=", ".join(show(n) for n in fight.cancelled)))
        if fight.unfit:
            lines.append(words("binomial.reveal.unfit", names=", ".join(seats.name(s) for s in fight.unfit)))
        if fight.winner is not None:
            number = next(n for s, n in fight.fighters if s == fight.winner)
            points = fight.points[fight.winner]
            line = words("binomial.reveal.winner", name=seats.name(fight.winner), number=show(number), points=points)
            reward = points - CARD_BY_KEY[fight.card].worth(len(fight.fighters))
            if reward > 0:
                line += f" ({points - reward} + {reward} reward for fighting, {len(fight.fighters)} fighters)"
            lines.append(line)
            others = [s for s, p in enumerate(fight.points) if p and s != fight.winner]
            if others:
                lines.append(words("binomial.reveal.also", names=", ".join(
                    f"{seats.name(s)} +{fight.points[s]}" for s in others)))
        elif fight.fighters:
            lines.append(words("binomial.reveal.no_winner"))
        lines.append(words("binomial.reveal.chairman", name=seats.name(fight.chairman)))
        lines.append(scores_line(fight.scores, seats, words))  # the game's scores, even when the next begins
        for seat in fight.last_number:
            lines.append(words("binomial.reveal.last_number", name=seats.name(seat)))
        if fight.game_over and not after.over:  # a game of a match: the final tells the last one, sheets included
            lines.append(words("binomial.reveal.game_over", game=fight.game, games=after.games))
            for seat, numbers in enumerate(fight.sheets or ()):
                lines.append(words("binomial.reveal.sheet", name=seats.name(seat),
                                   numbers=" ".join(show(n) for n in numbers)))
            lines.append("Match so far: " + " · ".join(f"{seats.name(s)} {t}" for s, t in enumerate(after.totals))
                         + f". Game {fight.game + 1} of {after.games} begins.")
        return "\n".join(_wrap(line) for line in lines)

    def board(self, view: View, seats: Any, words: Any) -> str:
        lines = []
        if view.sheet is not None:
            lines.append("Your sheet: " + sheet_line(view.sheet) + "  (✓ used)")
        lines.append(scores_line(view.scores, seats, words))
        if view.games > 1:
            lines.append("Match: " + " · ".join(f"{seats.name(s)} {t}" for s, t in enumerate(view.totals)))
        lines.append(words("binomial.unused_left", counts=" · ".join(
            f"{seats.name(s)} {n}" for s, n in enumerate(view.unused))))
        if view.card is not None:
            lines.append(words("binomial.score.card", card=card_line(view.card, words)))
        lines.append(words("binomial.round.chairman", name=seats.name(view.chairman)))
        return "\n".join(_wrap(line) for line in lines)

    def final(self, view: View, result: Result, seats: Any, words: Any) -> str:
        lines = [words("binomial.final.title")]
        for seat in range(view.seats):
            lines.append(words("binomial.final.seat", name=seats.name(seat), score=view.totals[seat]))
            if view.past:
                games = " + ".join(str(g.scores[seat]) for g in view.past)
                lines.append("    " + words("binomial.final.match", games=f"{games} + {view.scores[seat]}"))
            if view.sheets is not None:
                sheet = view.sheets[seat]
                lines.append("    " + words("binomial.final.sheet", numbers=" ".join(
                    show(n) + ("✓" if r else "") for n, r in zip(sheet.numbers, sheet.used, strict=True)
                    if n is not None)))
            if view.won[seat]:
                lines.append(_wrap("    " + words("binomial.final.cards", cards=", ".join(
                    card_title(c, words) for c in view.won[seat]))))
        winners = ", ".join(seats.name(s) for s in sorted(result.winners))
        lines.append(words("binomial.final.winners", names=winners))
        return "\n".join(lines)

    def refusal(self, error: RuleError, view: View, words: Any) -> str:
        values = dict(error.values)
        if "card" in values:
            values["card"] = card_title(str(values["card"]), words)
        if "kind" in values:
            values["kind"] = words(f"binomial.kind.{values['kind']}")
        key = f"binomial.error.{error.key}"
        try:
            return str(words(key, **values)) if words.has(key) else str(error)
        except (KeyError, IndexError):
            return str(error)

    def option_help(self, name: str, words: Any) -> str:
        return OPTION_HELP.get(name, name.replace("_", " "))


SCREEN = BinomialScreen()
