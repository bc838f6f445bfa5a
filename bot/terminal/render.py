"""Plain-text pictures of a game of The Number: the tower, the boards, the scoreboard, the standings."""

import textwrap
from collections.abc import Mapping

from bot.games.thenumber.check import SeatResult, Status
from bot.games.thenumber.engine import PublicView, TurnOutcome
from bot.games.thenumber.errors import format_digits
from bot.games.thenumber.numbers import ALL_DIGITS
from bot.games.thenumber.rules import (
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

CROSSED_MARK = "x"


def turn_header(round_no: int, turn: int) -> str:
    mult = multiplier_for(turn)
    doubled = f", first digit counts x{mult}" if mult > 1 else ""
    return f"=== Round {round_no}, turn {turn}/{TURNS_PER_ROUND} (bonus +{bonus_for(turn)}{doubled}) ==="


def _points(result: SeatResult, turn: int) -> str:
    if result.status is not Status.APPROVED:
        return "0"
    assert result.number is not None
    first, mult = int(result.number[0]), multiplier_for(turn)
    parts = f"{first}x{mult}" if mult > 1 else f"{first}"
    if result.bonus:
        return f"{result.points} ({parts} + {result.bonus} bonus)"
    return f"{result.points}"


def _why(result: SeatResult) -> str:
    if result.status is Status.ELIMINATED:
        return f"eliminated: shares {format_digits(result.shared)} with {result.blocker}"
    if result.status is Status.INVALID:
        return "invalid: uses a crossed-off digit"
    if result.status is Status.MISSING:
        return "missing: no number"
    if result.status is Status.EXHAUSTED:
        return "exhausted: no digit left this round"
    return "approved"


def render_tower(outcome: TurnOutcome, width: int = 12) -> str:
    """Biggest number on top; seats without a number listed after the tower."""
    lines = ["Tower (biggest on top):"]
    for seat, result in outcome.tower():
        lines.append(f"  {result.number}  {seat:<{width}} {_why(result):<34} points {_points(result, outcome.turn)}")
    for seat, result in outcome.results.items():
        if result.number is None:
            lines.append(f"  ---  {seat:<{width}} {_why(result):<34} points 0")
    return "\n".join(lines)


def render_boards(view: PublicView, width: int = 12) -> str:
    lines = [f"Boards (crossed digits shown as {CROSSED_MARK}):"]
    for p in view.players:
        crossed = view.crossed[p]
        cells = " ".join(CROSSED_MARK if d in crossed else str(d) for d in sorted(ALL_DIGITS))
        note = "  (sits out: every digit crossed)" if p in view.exhausted else ""
        lines.append(f"  {p:<{width}} {cells}   crossed {len(crossed)}{note}")
    return "\n".join(lines)


def render_scores(view: PublicView, width: int = 12) -> str:
    """One row per player; the round columns are padded to the longest so every row lines up."""
    texts: dict[str, list[str]] = {}
    for p in view.players:
        rounds = []
        for r, turns in enumerate(view.points[p]):
            if not turns:
                continue
            text = " ".join(str(t) for t in turns)
            if r < len(view.round_totals[p]):
                crossed_points = view.round_totals[p][r] - sum(turns)
                text += f" + {crossed_points} crossed = {view.round_totals[p][r]}"
            rounds.append(f"R{r + 1}: {text}")
        texts[p] = rounds
    columns = max((len(rounds) for rounds in texts.values()), default=0)
    widths = [max((len(rounds[c]) for rounds in texts.values() if c < len(rounds)), default=0)
              for c in range(columns)]
    lines = ["Scores:"]
    for p, rounds in texts.items():
        cells = " | ".join(cell.ljust(w) for cell, w in zip(rounds, widths, strict=False)) or "-"
        lines.append(f"  {p:<{width}} {cells}   total {view.totals[p]}")
    return "\n".join(lines)


def render_round_end(view: PublicView, round_no: int, width: int = 12) -> str:
    lines = [f"--- End of round {round_no}: crossed digits score one point each ---"]
    for p in view.players:
        turns = view.points[p][round_no - 1]
        total = view.round_totals[p][round_no - 1]
        lines.append(f"  {p:<{width}} turns {sum(turns):>3} + crossed {total - sum(turns):>2} = {total}")
    return "\n".join(lines)


def render_standings(totals: Mapping[str, int], winners: tuple[str, ...], width: int = 12) -> str:
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    lines = ["=== Final standings ==="]
    place = 0
    previous = None
    for i, (p, score) in enumerate(ranked, start=1):
        if score != previous:
            place, previous = i, score
        lines.append(f"  {place}. {p:<{width}} {score}")
    if len(winners) == 1:
        lines.append(f"Winner: {winners[0]}")
    else:
        lines.append(f"Winners (shared): {', '.join(winners)}")
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
    lines += [textwrap.fill(point, 100, initial_indent="  - ", subsequent_indent="    ") for point in points]
    return "\n".join(lines)
