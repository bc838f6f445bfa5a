"""AI players for Binomial: ``easy``, ``normal`` and ``hard`` (pure: no I/O, no clock, no global random).

An AI sees only its own :class:`View` (its sheet, the rolls, the public facts) and always answers a legal
action: a free cell, a pass, or an unused number that fits the face-up card.

* easy places half its digits at random and fights on a whim with a random fitting number;
* normal places to build numbers that are strong on many cards (pairs, x0, x5, digit sum 10, extremes),
  and fights when the expected points of its best fitting number, against opponents holding random
  numbers, beat what that number is worth later on;
* hard (:mod:`.ai_hard`, built on this module) samples the opponents' numbers from the rolled digits
  (every sheet holds the same 16 digits) minus what they revealed, models how often each opponent fights,
  simulates the reveal (cancelling included) and values each option by the lead it gains over the rivals,
  values kept numbers by the rounds likely left, and mixes near-equal options.

The level dispatch (``decide``) sits above both modules, in :mod:`.ai_levels`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from random import Random
from typing import Any

from .engine import Sheet
from .rules import ALL_NUMBERS, CARD_BY_KEY, CARDS, REWARD_MIN_FIGHTERS, Card, show
from .view import View, fitting

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
PLACE_NOISE = 0.3  # in number-value points (a good number is worth 3 to 6)
# Normal's noise at a table of three or more: every sheet holds the same digits, and AI seats of one level
# that build alike fight with the same numbers and cancel one another (6 seats, three normal seats: two
# seeds of six built a pair of identical sheets with 0.3; none with this).
TABLE_PLACE_NOISE = 0.8

Action = Mapping[str, Any]
PASS: Action = {"fight": False}


def _fight(n: int) -> Action:
    return {"fight": True, "number": show(n)}


# --- tables over the 100 numbers (computed once) ---------------------------------------------------------

@cache
def beat_fraction(card_key: str) -> tuple[float, ...]:
    """Per number: the share of all 100 numbers that fit the card and beat it (1.0 if it does not fit)."""
    card = CARD_BY_KEY[card_key]
    ranks = sorted((card.rank(n) for n in ALL_NUMBERS if card.fits(n)), reverse=True)
    out = []
    for n in ALL_NUMBERS:
        if not card.fits(n):
            out.append(1.0)
        else:
            out.append(sum(r > card.rank(n) for r in ranks) / 100)
    return tuple(out)


@cache
def fit_share(card_key: str) -> float:
    """The share of all 100 numbers that fit the card."""
    card = CARD_BY_KEY[card_key]
    return sum(1 for n in ALL_NUMBERS if card.fits(n)) / 100


def card_worth(card: Card, fighters: float) -> float:
    return fighters if card.points is None else float(card.points)


@cache
def number_value(seats: int) -> tuple[float, ...]:
    """How good a number is to hold, before the deck is known: its best cards against random opponents."""
    rivals = max(1, seats - 1)
    values = []
    for n in ALL_NUMBERS:
        per_card = sorted(
            (card_worth(c, 1 + 0.5 * rivals) * (1 - beat_fraction(c.key)[n]) ** (4 * rivals)
             for c in CARDS if c.fits(n)), reverse=True)
        values.append(per_card[0] + 0.3 * sum(per_card[1:3]))
    return tuple(values)


@cache
def partial_value(seats: int, a: int | None, b: int | None) -> float:
    """A number with a missing digit: the mean of its better half of completions (the missing digit is
    still ours to place)."""
    table = number_value(seats)
    if a is not None and b is not None:
        return table[10 * a + b]
    options = sorted((table[10 * x + y] for x in (range(10) if a is None else (a,))
                      for y in (range(10) if b is None else (b,))), reverse=True)
    top = options[: max(1, len(options) // 2)]
    return sum(top) / len(top)


# --- placing ---------------------------------------------------------------------------------------------

def free_cells(view: View) -> list[int]:
    assert view.sheet is not None
    return list(view.sheet.free_cells)


def normal_noise(seats: int) -> float:
    return PLACE_NOISE if seats <= 2 else TABLE_PLACE_NOISE


def cell_gains(seats: int, cells: Sequence[int | None], digit: int) -> list[tuple[int, float]]:
    """Per free cell, how much writing ``digit`` there raises the sheet's value."""
    out = []
    for i, d in enumerate(cells):
        if d is not None:
            continue
        k = i // 2
        a, b = cells[2 * k], cells[2 * k + 1]
        before = partial_value(seats, a, b)
        after = partial_value(seats, digit if i % 2 == 0 else a, digit if i % 2 == 1 else b)
        out.append((i, after - before))
    return out


def best_cell(seats: int, cells: Sequence[int | None], digit: int, rng: Random, noise: float) -> int:
    """The free cell that most raises the sheet's value, give or take some noise (so that two AI players
    given the same rolls do not build the same numbers and cancel each other)."""
    best, best_gain = -1, -1e9
    for i, gain in cell_gains(seats, cells, digit):
        gain += rng.gauss(0, noise) if noise else 0.0
        if gain > best_gain:
            best, best_gain = i, gain
    return best


# --- fighting --------------------------------------------------------------------------------------------

def opponents(view: View, seat: int) -> list[int]:
    return [s for s in range(view.seats) if s != seat]


def fight_chances(view: View, seat: int, undecided: float) -> dict[int, float]:
    """Per opponent, how likely it fights this card: 1 declared, 0 passed, ``undecided`` still to say."""
    said = dict(view.declared)
    return {s: (1.0 if said[s] else 0.0) if s in said else undecided for s in opponents(view, seat)}


def expected_fighters(chances: Mapping[int, float]) -> float:
    return 1 + sum(chances.values())


def win_chance_uniform(view: View, card: Card, n: int, chances: Mapping[int, float]) -> float:
    """Chance that ``n`` wins if opponents hold random numbers (their best fitting one fights)."""
    beat = beat_fraction(card.key)[n]
    p = 1.0
    for s, f in chances.items():
        held = view.unused[s]
        p *= 1 - f * (1 - (1 - beat) ** held)
    return p


def later_cards(view: View) -> list[Card]:
    return [CARD_BY_KEY[k] for k in view.unplayed]


def portfolio(numbers: Sequence[int], cards: Sequence[Card], rivals: float, reach: float = 1.0,
              limit: int | None = None) -> float:
    """What a set of numbers is worth on the cards still to come: a greedy matching, one card per number, at
    most ``limit`` pairs (hard: the rounds likely left), each worth ``reach`` of itself (its chance of being
    played)."""
    pairs = []
    for i, n in enumerate(numbers):
        for j, c in enumerate(cards):
            if c.fits(n):
                v = card_worth(c, 1 + 0.5 * rivals) * (1 - beat_fraction(c.key)[n]) ** (4 * rivals)
                pairs.append((v, i, j))
    pairs.sort(reverse=True)
    used_n: set[int] = set()
    used_c: set[int] = set()
    total = 0.0
    for v, i, j in pairs:
        if limit is not None and len(used_n) >= limit:
            break
        if i not in used_n and j not in used_c:
            used_n.add(i)
            used_c.add(j)
            total += v * reach
    return total


def spend_costs(numbers: Sequence[int], candidates: Sequence[int], cards: Sequence[Card], rivals: float,
                reach: float = 1.0, limit: int | None = None) -> dict[int, float]:
    """Per candidate (one of ``numbers``), what spending it costs: the portfolio of ``numbers`` less the
    portfolio without it."""
    whole = portfolio(numbers, cards, rivals, reach, limit)
    out = {}
    for n in candidates:
        rest = list(numbers)
        rest.remove(n)
        out[n] = whole - portfolio(rest, cards, rivals, reach, limit)
    return out


def keep_value(view: View, seat: int, candidates: Sequence[int]) -> dict[int, float]:
    """Per candidate number, what spending it now costs on the cards still to come."""
    assert view.sheet is not None
    rivals = sum(1 for s in opponents(view, seat) if view.unused[s] > 0) or 1
    return spend_costs(list(view.sheet.unused), candidates, later_cards(view), rivals)


def reward(view: View, fighters: float) -> float:
    return 1.0 if view.variants.reward_for_fighting and fighters >= REWARD_MIN_FIGHTERS else 0.0


def normal_fight(view: View, seat: int, rng: Random, keep_weight: float = 0.6) -> Action:
    card = CARD_BY_KEY[view.card or ""]
    options = fitting(view)
    if not options:
        return PASS
    chances = fight_chances(view, seat, 0.55)
    x = expected_fighters(chances)
    worth = card_worth(card, x) + reward(view, x)
    keep = keep_value(view, seat, options)
    scored = [(win_chance_uniform(view, card, n, chances) * worth - keep_weight * keep[n], n) for n in options]
    value, n = max(scored)
    return _fight(n) if value > 0.05 + 0.1 * rng.random() else PASS


# --- what hard samples of the opponents -----------------------------------------------------------------------------

def remaining_digits(view: View, s: int) -> tuple[int, ...]:
    """The digits of ``s``'s unused numbers, in roll order: the rolls minus the digits it revealed."""
    left = list(view.rolls)
    for n in view.revealed[s]:
        for d in divmod(n, 10):
            del left[len(left) - 1 - left[::-1].index(d)]
    return tuple(left)


BUILDS = 8  # distinct noisy builds per digit sequence (cached, so the sampling stays cheap)


@lru_cache(maxsize=50_000)  # bounded: a long-running bot sees many roll sequences
def built_numbers(seats: int, digits: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The numbers a builder like ours makes from ``digits`` rolled in this order (build ``k`` of BUILDS)."""
    rng = Random(f"binomial-build:{k}:{digits}")
    cells: list[int | None] = [None] * len(digits)
    for d in digits:
        cells[best_cell(seats, cells, d, rng, PLACE_NOISE)] = d
    return tuple(10 * cells[2 * i] + cells[2 * i + 1] for i in range(len(digits) // 2))  # type: ignore[operator]


def sheet_with(numbers: Sequence[int], spent: Sequence[int]) -> Sheet:
    """A sheet holding ``numbers`` unused and ``spent`` used: an opponent's sheet as a sampler imagines it."""
    cells = tuple(d for n in (*numbers, *spent) for d in divmod(n, 10))
    return Sheet(cells, (0,) * len(numbers) + (1,) * len(spent))


def sample_numbers(view: View, s: int, rng: Random, digits: tuple[int, ...] | None = None) -> list[int]:
    """A plausible set of ``s``'s unused numbers: mostly a builder's, sometimes a random pairing
    (``digits``: its remaining digits, when the caller has them already)."""
    digits = remaining_digits(view, s) if digits is None else digits
    if rng.random() < 0.75:
        return list(built_numbers(view.seats, digits, rng.randrange(BUILDS)))
    shuffled = list(digits)
    rng.shuffle(shuffled)
    return [10 * shuffled[2 * i] + shuffled[2 * i + 1] for i in range(len(shuffled) // 2)]


def ending_bonus(view: View, seat: int, expected_gain: float) -> float:
    """Fighting with one's last number ends the game: welcome when ahead, costly when behind."""
    if view.unused[seat] != 1:
        return 0.0
    lead = view.totals[seat] + expected_gain - max(t for s, t in enumerate(view.totals) if s != seat)
    return 1.0 if lead > 0 else -2.0
