"""Binomial's opponent pool for the hard level (bench only; never used by the product).

Each strategy is ``(view, seat, rng) -> action``: it sees its own seat's view only (its sheet and the public
facts), like any AI seat, and draws from its own ``rng``. They are written for the bench, not tuned against
hard: simple habits of placement and of fighting, the product's easy and normal levels, a Monte Carlo
player with its own opponent model, a responder that predicts each opponent with hard's own code (it
rebuilds their sheets the way hard builds its own and runs hard's fight decision on them), and a reader that
runs hard's own placement and fight code with its own generator on the public rolls, builds its own sheet
the same way, and answers for the lead (beating, cancelling, or leaving a card hard cannot take).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from bot.games.binomial import ai, ai_hard, ai_levels
from bot.games.binomial.engine import Sheet, resolve
from bot.games.binomial.rules import CARD_BY_KEY, CELLS, Card, show
from bot.games.binomial.view import View, fitting

Action = dict[str, Any]
Strategy = Callable[[View, int, Random], Action]
PASS: Action = {"fight": False}


def _fight(n: int) -> Action:
    return {"fight": True, "number": show(n)}


def _card(view: View) -> Card:
    return CARD_BY_KEY[view.card or ""]


def _best(view: View) -> int | None:
    options = fitting(view)
    return max(options, key=_card(view).rank) if options else None


# --- placements --------------------------------------------------------------------------------------------

def place_sound(view: View, rng: Random) -> Action:
    """The product's normal placement (builds numbers good on many cards)."""
    assert view.sheet is not None and view.pending is not None
    return {"cell": CELLS[ai.best_cell(view.seats, view.sheet.cells, view.pending, rng, ai.PLACE_NOISE)]}


def place_random(view: View, rng: Random) -> Action:
    assert view.sheet is not None
    return {"cell": CELLS[rng.choice(view.sheet.free_cells)]}


def place_high_tens(view: View, rng: Random) -> Action:
    """High digits (5-9) into the first free tens cell, low ones into the first free units cell."""
    assert view.sheet is not None and view.pending is not None
    free = view.sheet.free_cells
    tens = [i for i in free if i % 2 == 0]
    units = [i for i in free if i % 2 == 1]
    want = tens if view.pending >= 5 else units
    return {"cell": CELLS[(want or free)[0]]}


def place_hoard(view: View, rng: Random) -> Action:
    """Builds specials: doubles (the digit next to the same digit) and multiples of 10 (a 0 as units)."""
    assert view.sheet is not None and view.pending is not None
    cells, d = view.sheet.cells, view.pending
    free = view.sheet.free_cells
    for i in free:  # complete a double or an x0
        other = cells[i - 1] if i % 2 else cells[i + 1]
        if other is not None and (other == d or (d == 0 and i % 2 == 1)):
            return {"cell": CELLS[i]}
    empty = [i for i in free if i % 2 == 0 and cells[i + 1] is None]
    if empty:
        return {"cell": CELLS[empty[0] + 1 if d == 0 else empty[0]]}
    return {"cell": CELLS[free[0]]}


# --- fight rules -------------------------------------------------------------------------------------------

def fight_always(view: View, seat: int, rng: Random) -> Action:
    best = _best(view)
    return PASS if best is None else _fight(best)


def fight_never(view: View, seat: int, rng: Random) -> Action:
    return PASS


def fight_high_cards(view: View, seat: int, rng: Random) -> Action:
    """Only the 3- and 4-point cards, with its best fitting number."""
    card = _card(view)
    best = _best(view)
    if best is None or card.points is None or card.points < 3:
        return PASS
    return _fight(best)


def fight_strong(view: View, seat: int, rng: Random) -> Action:
    """Its best fitting number, when that beats at least 70% of the fitting numbers."""
    card = _card(view)
    best = _best(view)
    if best is None:
        return PASS
    fit = sum(1 for n in range(100) if card.fits(n))
    beaten = ai.beat_fraction(card.key)[best] * 100
    return _fight(best) if beaten <= 0.3 * fit else PASS


def fight_specials(view: View, seat: int, rng: Random) -> Action:
    """The hoarder fights with its specials on the cards they were built for, otherwise plays soundly."""
    card = _card(view)
    if card.key in ("two_identical", "divisible_by_10", "divisible_by_5", "contains_0"):
        best = _best(view)
        return PASS if best is None else _fight(best)
    return ai.normal_fight(view, seat, rng)


def _simulate(card: Card, view: View, mine: int | None, picks: dict[int, int]) -> float:
    """What ``mine`` (None: pass) scores against the others' revealed picks."""
    if mine is None:
        return 0.0
    counts: dict[int, int] = {}
    for m in (*picks.values(), mine):
        counts[m] = counts.get(m, 0) + 1
    if counts[mine] > 1:
        return 0.0
    alive = [m for m in picks.values() if counts[m] == 1]
    x = 1 + len(picks)
    if all(card.rank(mine) > card.rank(m) for m in alive):
        return ai.card_worth(card, x) + ai.reward(view, x)
    return 0.0


def _best_reply(view: View, seat: int, profiles: Sequence[dict[int, int]], keep_weight: float) -> Action:
    card = _card(view)
    options = fitting(view)
    if not options:
        return PASS
    keep = ai.keep_value(view, seat, options)
    scored = [(sum(_simulate(card, view, n, p) for p in profiles) / len(profiles) - keep_weight * keep[n], n)
              for n in options]
    value, n = max(scored)
    return _fight(n) if value > 0 else PASS


MONTE_CARLO_SAMPLES = 40


def fight_monte_carlo(view: View, seat: int, rng: Random) -> Action:
    """Samples each opponent's numbers as a random pairing of its remaining digits; an opponent fights
    with its best fitting number when that is in the top third (known declarations are kept), and the
    player answers the samples with the best number after what it costs to spend it."""
    card = _card(view)
    said = dict(view.declared)
    profiles = []
    for _ in range(MONTE_CARLO_SAMPLES):
        picks = {}
        for s in range(view.seats):
            if s == seat or view.unused[s] == 0 or said.get(s) is False:
                continue
            digits = list(ai.remaining_digits(view, s))
            rng.shuffle(digits)
            numbers = [10 * digits[2 * i] + digits[2 * i + 1] for i in range(len(digits) // 2)]
            fit = [n for n in numbers if card.fits(n)]
            if not fit:
                continue
            best = max(fit, key=card.rank)
            if said.get(s) or ai.beat_fraction(card.key)[best] < 0.33 * rng.random() + 0.1:
                picks[s] = best
        profiles.append(picks)
    return _best_reply(view, seat, profiles, keep_weight=0.5)


RESPONDER_SAMPLES = 6


def hard_sheet(view: View, s: int, rng: Random) -> Sheet:
    """A sheet for ``s`` built the way the hard level builds its own, from the public rolls."""
    left = ai.remaining_digits(view, s)
    return ai.sheet_with(ai.built_numbers(view.seats, left, rng.randrange(ai.BUILDS)), view.revealed[s])


def predict_hard(view: View, s: int, seat: int, rng: Random) -> int | None:
    """Hard's pick for seat ``s`` on a sampled sheet (None: it passes), from what ``s`` sees or will see."""
    said = dict(view.declared)
    if said.get(s) is False:
        return None
    # It spoke already: it saw the declarations before it. It speaks after us: assume we fight.
    order = [t for t, _ in view.declared]
    declared = view.declared[: order.index(s)] if s in said else (*view.declared, (seat, True))
    seen = dataclasses.replace(view, seat=s, sheet=hard_sheet(view, s, rng), declared=declared, pick=None)
    action = ai_levels.decide(seen, s, "hard", Random(rng.random()))
    if not action.get("fight"):
        return int(rng.choice(fitting(seen))) if said.get(s) and fitting(seen) else None
    return int(action["number"])


def fight_responder(view: View, seat: int, rng: Random) -> Action:
    """Takes every opponent for the hard level, predicts its pick with hard's own code, and answers."""
    if not fitting(view):
        return PASS
    profiles = []
    for _ in range(RESPONDER_SAMPLES):
        picks = {}
        for s in range(view.seats):
            if s != seat and view.unused[s] > 0:
                got = predict_hard(view, s, seat, rng)
                if got is not None:
                    picks[s] = got
        profiles.append(picks)
    return _best_reply(view, seat, profiles, keep_weight=0.6)


READER_BUILDS = 8  # sheets it builds for each opponent by running hard's placement with its own generator
READER_GUESSES = {2: 4}  # hard's decision run on this many of them, per opponent (2 at a table: time)


def read_sheets(view: View, s: int, rng: Random) -> list[tuple[int, ...]]:
    """``s``'s unused numbers as hard would have built them from the public rolls, hard's own placement run
    with the reader's generator; builds that do not hold what ``s`` revealed are dropped (a random pairing
    of the remaining digits stands in when none is left)."""
    found = []
    for _ in range(READER_BUILDS):
        sheet = Sheet()
        for i, digit in enumerate(view.rolls):
            seen = dataclasses.replace(view, kind="place", rolls=view.rolls[:i + 1], sheet=sheet)
            cell = CELLS.index(ai_hard.hard_place(seen, rng)["cell"])
            sheet = sheet.place(cell, digit)
        numbers = [n for n in sheet.numbers if n is not None]
        for n in view.revealed[s]:
            if n not in numbers:
                break
            numbers.remove(n)
        else:
            found.append(tuple(numbers))
    return found or [tuple(ai.sample_numbers(view, s, rng))]


def _lead(card: Card, view: View, seat: int, mine: int | None, picks: dict[int, int]) -> float:
    """What ``mine`` (None: pass) gains on the best rival in the reveal against ``picks``."""
    fighters = [(s, n) for s, n in picks.items()] + ([] if mine is None else [(seat, mine)])
    if not fighters:
        return 0.0
    points = resolve(card, fighters, view.variants, view.seats).points
    return points[seat] - max(p for t, p in enumerate(points) if t != seat)


def fight_reader(view: View, seat: int, rng: Random) -> Action:
    """Reads every opponent as hard: rebuilds its sheet with hard's own placement and its own generator,
    runs hard's fight decision on it, and answers for the lead: beating its number, cancelling it with the
    same number, or leaving it a card it cannot take."""
    options = fitting(view)
    if not options:
        return PASS
    card = _card(view)
    sheets = {s: read_sheets(view, s, rng) for s in range(view.seats) if s != seat and view.unused[s] > 0}
    said = dict(view.declared)
    order = [t for t, _ in view.declared]
    predicted: dict[int, list[int | None]] = {}  # per rival, hard's pick on a few of its sheets
    for s, builds in sheets.items():
        predicted[s] = []
        for _ in range(1 if said.get(s) is False else READER_GUESSES.get(view.seats, 2)):
            if said.get(s) is False:
                predicted[s].append(None)
                continue
            numbers = rng.choice(builds)
            declared = view.declared[: order.index(s)] if s in said else (*view.declared, (seat, True))
            seen = dataclasses.replace(view, seat=s, sheet=ai.sheet_with(numbers, view.revealed[s]),
                                       declared=declared, pick=None)
            action = ai_levels.decide(seen, s, "hard", Random(rng.random()))
            if action.get("fight"):
                predicted[s].append(int(action["number"]))
            elif said.get(s) and fitting(seen):
                predicted[s].append(max(fitting(seen), key=card.rank))
            else:
                predicted[s].append(None)
    profiles = []
    for _ in range(RESPONDER_SAMPLES):
        picks = {}
        for s, guesses in predicted.items():
            got = rng.choice(guesses)
            if got is not None:
                picks[s] = got
        profiles.append(picks)
    keep: dict[int | None, float] = {None: 0.0, **ai.keep_value(view, seat, options)}
    scored = [(sum(_lead(card, view, seat, n, p) for p in profiles) / len(profiles) - 0.6 * keep[n], n)
              for n in (None, *options)]
    _, n = max(scored, key=lambda vn: (vn[0], vn[1] is None))
    return PASS if n is None else _fight(n)


def place_like_hard(view: View, rng: Random) -> Action:
    """Builds its sheet with hard's own placement (and its own generator)."""
    return dict(ai_hard.hard_place(view, rng))


def strategy(place: Callable[[View, Random], Action], fight: Strategy, doc: str) -> Strategy:
    def play(view: View, seat: int, rng: Random) -> Action:
        if view.kind == "place":
            return place(view, rng)
        return fight(view, seat, rng)
    play.__doc__ = doc
    return play


def product_level(level: str) -> Strategy:
    def play(view: View, seat: int, rng: Random) -> Action:
        return dict(ai_levels.decide(view, seat, level, rng))
    play.__doc__ = f"The product's {level} level."
    return play


POOL: dict[str, Strategy] = {
    "always_fight": strategy(place_sound, fight_always, "Sound placement; fights every card it can."),
    "never_fight": strategy(place_sound, fight_never, "Sound placement; never fights."),
    "high_cards": strategy(place_sound, fight_high_cards, "Fights only the 3- and 4-point cards."),
    "high_tens": strategy(place_high_tens, fight_strong, "High digits in the tens; fights when strong."),
    "random_place": strategy(place_random, ai.normal_fight, "Random placement; normal's fights."),
    "hoarder": strategy(place_hoard, fight_specials, "Builds doubles and x0; spends them on their cards."),
    "easy": product_level("easy"),
    "normal": product_level("normal"),
    "monte_carlo": strategy(place_sound, fight_monte_carlo, "Samples random sheets; best reply."),
    "responder": strategy(place_sound, fight_responder, "Predicts each opponent with hard's code."),
    "reader": strategy(place_like_hard, fight_reader, "Rebuilds hard's sheet with hard's code; answers."),
}
