"""The Number in the terminal (``python -m bot play``): the tower, the boards, the scores and the standings.

The screen the shared terminal front end (``bot/terminal``) finds beside this game: pure text from views and
events, in the Discord table's words where it has them (``words``, duck-typed: this package imports only the
protocol). Inside, the engine names the seats "0".."n-1"; ``seats.name`` shows them. Every line fits 80
columns: the tower and the scores are tables whose columns follow the longest name.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.core.game import Action, Prompt, Result, RuleError

from .check import SeatResult, Status
from .engine import PublicView, TurnOutcome
from .errors import GameOver, MalformedNumber, NotSeated, SitsOut, UnavailableDigit, example_number, format_digits
from .game import SeatView, player, table_of
from .numbers import ALL_DIGITS
from .replay import script_json
from .rules import (
    BEST_SEATS,
    LAST_TURN_MULTIPLIER,
    MAX_SEATS,
    MIN_SEATS,
    NUMBER_LENGTH,
    ROUNDS,
    TURN_BONUS,
    TURNS_PER_ROUND,
    bonus_for,
    multiplier_for,
)

HUMAN = 0
WIDTH = 80
CROSSED_MARK = "x"


def _names(view: PublicView, seats: Any) -> dict[str, str]:
    return {p: seats.name(int(p)) for p in view.players}


def _width(names: Mapping[str, str]) -> int:
    return max(len(n) for n in names.values())


def _fit(line: str, indent: int) -> str:
    """A table row longer than the terminal goes on below, under its second column."""
    if len(line) <= WIDTH:
        return line
    return textwrap.fill(line, WIDTH, subsequent_indent=" " * indent)


def turn_header(round_no: int, turn: int) -> str:
    mult = multiplier_for(turn)
    doubled = f", first digit counts x{mult}" if mult > 1 else ""
    return (f"=== Round {round_no} of {ROUNDS}, turn {turn} of {TURNS_PER_ROUND} (bonus +{bonus_for(turn)}{doubled})"
            " ===")  # the words of Discord's titles (The Number · round 1 of 2 · turn 1 of 5)


def _points(result: SeatResult, turn: int) -> str:
    if result.status is not Status.APPROVED:
        return "0"
    assert result.number is not None
    first, mult = int(result.number[0]), multiplier_for(turn)
    parts = f"{first}x{mult}" if mult > 1 else f"{first}"
    if result.bonus:
        return f"{result.points} ({parts} + {result.bonus} bonus)"
    return f"{result.points}"


def _why(result: SeatResult, names: Mapping[str, str]) -> str:
    if result.status is Status.ELIMINATED:
        blocker = names.get(str(result.blocker), str(result.blocker))
        return f"eliminated: shares {format_digits(result.shared)} with {blocker}"
    if result.status is Status.INVALID:
        return "invalid: uses a crossed-off digit"
    if result.status is Status.MISSING:  # the words of Discord's reveal
        return "missing: no number in time"
    if result.status is Status.EXHAUSTED:
        return "sits out: no digit left"
    return "approved"


def render_tower(outcome: TurnOutcome, names: Mapping[str, str]) -> str:
    """Biggest number on top; seats without a number after the tower. Columns: number, name, points, why."""
    width = _width(names)
    rows = [(str(result.number), p, result) for p, result in outcome.tower()]
    rows += [("---", p, result) for p, result in outcome.results.items() if result.number is None]
    pts = max(len(_points(r, outcome.turn)) for _, _, r in rows)
    lines = ["Tower (biggest on top):"]
    for number, p, result in rows:
        line = f"  {number}  {names[p]:<{width}}  {_points(result, outcome.turn):>{pts}}  {_why(result, names)}"
        lines.append(_fit(line.rstrip(), 7 + width))
    return "\n".join(lines)


def render_boards(view: PublicView, names: Mapping[str, str]) -> str:
    width = _width(names)
    lines = [f"Boards (crossed digits shown as {CROSSED_MARK}):"]
    for p in view.players:
        crossed = view.crossed[p]
        cells = " ".join(CROSSED_MARK if d in crossed else str(d) for d in sorted(ALL_DIGITS))
        note = "  (sits out: every digit crossed)" if p in view.exhausted else ""
        lines.append(f"  {names[p]:<{width}}  {cells}   crossed {len(crossed)}{note}")
    return "\n".join(lines)


def render_scores(view: PublicView, names: Mapping[str, str]) -> str:
    """A table: each round's five turns, its crossed digits and its sum, in columns; then the total."""
    width = _width(names)
    block = 3 * TURNS_PER_ROUND + 4 + 5  # five turns, "  +5", " = 32"

    def round_cells(p: str, r: int) -> str:
        turns = view.points[p][r] if r < len(view.points[p]) else ()
        text = "".join(f"{t:>3}" for t in turns).ljust(3 * TURNS_PER_ROUND)
        if r < len(view.round_totals[p]):
            total = view.round_totals[p][r]
            text += f"{'+' + str(total - sum(turns)):>4}{'= ' + str(total):>5}"
        return text.ljust(block)

    heads = [f"{f'R{r + 1}: turns 1-{TURNS_PER_ROUND}':<{3 * TURNS_PER_ROUND}}{'+x':>4}{'= R' + str(r + 1):>5}"
             for r in range(ROUNDS)]
    lead = max(width + 2, len("Scores: "))
    lines = ["Scores:".ljust(lead) + " | ".join(heads) + " | total"]
    for p in view.players:
        rounds = " | ".join(round_cells(p, r) for r in range(ROUNDS))
        lines.append(f"  {names[p]}".ljust(lead) + rounds + f" | {view.totals[p]:>5}")
    return "\n".join(lines)


def render_round_end(view: PublicView, round_no: int, names: Mapping[str, str]) -> str:
    width = _width(names)
    lines = [f"--- End of round {round_no}: crossed digits score one point each ---"]
    for p in view.players:
        turns = view.points[p][round_no - 1]
        total = view.round_totals[p][round_no - 1]
        lines.append(f"  {names[p]:<{width}}  turns {sum(turns):>3} + crossed {total - sum(turns):>2} = {total}")
    return "\n".join(lines)


def render_standings(totals: Mapping[str, int], winners: Iterable[str], names: Mapping[str, str]) -> str:
    width = _width(names)
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    lines = ["=== Final standings ==="]
    place, previous = 0, None
    for i, (p, score) in enumerate(ranked, start=1):
        if score != previous:
            place, previous = i, score
        lines.append(f"  {place}. {names[p]:<{width}}  {score}")
    shown = [names[p] for p in winners]
    lines.append(f"Winner: {shown[0]}" if len(shown) == 1 else f"Winners (shared): {', '.join(shown)}")
    return "\n".join(lines)


def render_rules() -> str:
    """The rules in a few lines, from the rules module (what ``help``, ``?`` or ``rules`` shows)."""
    bonuses = ", ".join(f"turn {i} +{b}" for i, b in enumerate(TURN_BONUS, start=1))
    points = [
        f"{MIN_SEATS}-{MAX_SEATS} players, {ROUNDS} rounds of {TURNS_PER_ROUND} turns. Each turn everyone secretly "
        f"writes a {NUMBER_LENGTH}-digit number (000-999, repeats allowed) with digits still on their board.",
        "The numbers are revealed together. A number is eliminated if it shares a digit with any smaller "
        "number; the others are approved (identical numbers do not eliminate each other).",
        "An approved number scores its first digit and crosses its digits off its player's board.",
        f"Bonus for the biggest approved number: {bonuses}.",
        f"On turn {TURNS_PER_ROUND} the first digit counts x{LAST_TURN_MULTIPLIER} (the bonus is added after).",
        "At the end of each round every crossed-off digit scores 1 point; then the boards are reset.",
        "A player with every digit crossed off sits out the rest of the round.",
        f"The highest total after {ROUNDS} rounds wins; tied players share the win.",
    ]
    lines = ["--- How to play The Number ---"]
    lines += [textwrap.fill(point, WIDTH, initial_indent="  - ", subsequent_indent="    ") for point in points]
    return "\n".join(lines)


def boards_as_they_stand(before: PublicView, outcome: TurnOutcome, after: PublicView) -> PublicView:
    """The public view with the boards as the turn left them, before a new round resets them."""
    from dataclasses import replace

    crossed = {p: before.crossed[p] | outcome.results[p].crossed for p in before.players}
    return replace(after, crossed=crossed, exhausted=frozenset())


def _spaced(digits: Iterable[int], words: Any) -> str:
    return " ".join(str(d) for d in sorted(digits)) or str(words("thenumber.digits.none"))


def _listed(digits: Sequence[int], words: Any) -> str:
    items = [str(d) for d in digits]
    return items[0] if len(items) < 2 else ", ".join(items[:-1]) + words("thenumber.list.and") + items[-1]


class TheNumberScreen:
    def introduction(self, view: PublicView, seats: Any, words: Any) -> str:
        if len(view.players) >= BEST_SEATS[0]:
            return ""
        return (f"{len(view.players)} seats work, but The Number plays best with {BEST_SEATS[0]} to "
                f"{BEST_SEATS[1]} (--players).")

    def rules(self, options: Mapping[str, Any], words: Any) -> str:
        return render_rules()

    def header(self, view: PublicView, prompt: Prompt, seats: Any, words: Any) -> str | None:
        text = turn_header(view.round, view.turn)
        names = _names(view, seats)
        if view.turn == 1 and view.round > 1:
            text += ("\nNew round: every board is reset, all ten digits are available again.\n"
                     + render_boards(view, names))
        if HUMAN not in prompt.seats:
            text += "\nYou have no digit left: you sit out this turn."
        return text

    def question(self, view: SeatView, prompt: Prompt, words: Any) -> tuple[str, str]:
        available = ALL_DIGITS - table_of(view).crossed[player(HUMAN)]
        return "", f"Your number (available digits: {format_digits(available)})"

    def event(self, outcome: TurnOutcome, before: PublicView, after: PublicView, seats: Any, words: Any) -> str:
        names = _names(after, seats)
        last = before.turn == TURNS_PER_ROUND
        shown = boards_as_they_stand(before, outcome, after) if last else after
        parts = [render_tower(outcome, names), render_boards(shown, names)]
        if last:
            parts.append(render_round_end(after, before.round, names))
        parts.append(render_scores(after, names))
        return "\n".join(parts)

    def board(self, view: SeatView, seats: Any, words: Any) -> str:
        table = table_of(view)
        names = _names(table, seats)
        return render_boards(table, names) + "\n" + render_scores(table, names)

    def final(self, view: PublicView, result: Result, seats: Any, words: Any) -> str:
        names = _names(view, seats)
        return render_standings(view.totals, sorted(view.winners, key=int), names)

    def refusal(self, error: RuleError, view: SeatView, words: Any) -> str:
        """Why a number was refused, with what the player can play instead (as the Discord table says it)."""
        available = ALL_DIGITS - table_of(view).crossed[player(HUMAN)]
        if isinstance(error, MalformedNumber):
            return (words("thenumber.refuse.malformed", example=example_number(available))
                    + words("thenumber.refuse.available", digits=_spaced(available, words)))
        if isinstance(error, UnavailableDigit):
            left = _spaced(error.available, words)
            if len(error.crossed_used) == 1:
                return words("thenumber.refuse.unavailable.one", number=error.number,
                             digit=error.crossed_used[0], available=left)
            return words("thenumber.refuse.unavailable.many", number=error.number,
                         digits=_listed(error.crossed_used, words), available=left)
        for kind, key in ((SitsOut, "sits_out"), (GameOver, "game_over"), (NotSeated, "not_seated")):
            if isinstance(error, kind):
                return str(words(f"thenumber.refuse.{key}"))
        return str(error)

    def choice(self, view: SeatView, action: Action, words: Any) -> tuple[str, str]:
        return str(action["number"]), ""

    def script(self, names: Sequence[str], options: Mapping[str, Any], seed: int,
               steps: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The Number's own table script ({"players", "rounds"}), which ``python -m bot replay`` reads."""
        turns = [{names[int(seat)]: action["number"] for seat, action in step.items()} for step in steps]
        return script_json(list(names), turns)


SCREEN = TheNumberScreen()
