"""Binomial's hard level: fight or pass from a simulated reveal against opponents modelled from what is public.

What it sees: its own sheet and the public facts (rolls, revealed numbers, who fought which card, how many
unused numbers each seat has). Nothing else: every opponent's sheet is sampled from the rolls minus what
that opponent revealed, paired the way a builder would (sometimes at random).

* Opponent model: each opponent's fight rate this match (fights per round played, from a prior of about
  one round in two, or, in Discord, from how often that player fought in their finished games against this
  bot), so a seat that fights every card is expected to fight, and one that never fights is expected to
  pass; within that rate a strong number is likelier to fight than a weak one.
* The length of the game: it ends after the round in which a seat uses its last number, so a seat with
  few numbers left that fights often ends it soon. A number kept for later is worth only the cards that
  are likely to be played (``reach``), and at most as many numbers as there are rounds left are useful.
* Placement: the builder's, looser at a table of three or more (see :func:`place_noise`).
* The choice is mixed: near-equal options (pass included) are drawn with the seat's generator, so a
  reader that runs this code on a guessed sheet cannot be sure of the pick.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from random import Random

from . import ai
from .rules import CARD_BY_KEY, Card
from .view import View, fitting

PRIOR_RATE = 0.55  # fights per round before anything is seen
PRIOR_WEIGHT = 3.0  # the prior counts as this many rounds
KEEP_WEIGHT = 0.6
TEMPERATURE = 0.12  # in points: how far apart two options may be and still both be played
MIX_WINDOW = 0.35  # options further than this below the best are never drawn
HARD_PLACE_NOISE = 1.0  # in number-value points, with three seats or more (see place_noise)
# Past games (the game adapter's ai_priors) move the prior, counting as at most this many rounds more than
# the default one: a player's habit is expected at once, while this match's own rounds soon weigh as much.
PAST_WEIGHT_CAP = 6.0

FightPriors = Mapping[int, tuple[float, float]]  # opponent seat -> (prior fight rate, rounds it counts as)


def past_fight_prior(rounds: int, fights: int) -> tuple[float, float]:
    """The prior (rate, weight) of a player who fought in ``fights`` of ``rounds`` rounds of past games."""
    rate = (fights + PRIOR_RATE * PRIOR_WEIGHT) / (rounds + PRIOR_WEIGHT)
    return rate, PRIOR_WEIGHT + min(float(rounds), PAST_WEIGHT_CAP)


def place_noise(seats: int) -> float:
    """How loosely hard follows the builder's table when placing. Every sheet holds the same digits, so
    at a table of three or more, seats that build alike pick alike numbers and cancel each other: hard
    builds further from the table (less predictable, rarely a copy). Heads-up a cancel only helps the
    rival's next card, and the sound sheet is worth more."""
    return ai.PLACE_NOISE if seats <= 2 else HARD_PLACE_NOISE


def fight_rates(view: View, seat: int, priors: FightPriors | None = None) -> dict[int, float]:
    """Each opponent's share of rounds it fought, this match, shrunk towards its prior (``priors``: from
    past games, by seat; the default prior for a seat without)."""
    rounds = [f for g in view.past for f in g.history] + list(view.history)
    out = {}
    for s in ai.opponents(view, seat):
        fights = sum(1 for f in rounds if any(t == s for t, _ in f.fighters))
        rate, weight = (priors or {}).get(s, (PRIOR_RATE, PRIOR_WEIGHT))
        out[s] = (fights + rate * weight) / (len(rounds) + weight)
    return out


def rounds_left(view: View, seat: int, rates: Mapping[int, float]) -> float:
    """Rounds still to play, this one included: the deck, or the first opponent to run out of numbers."""
    left = 1.0 + len(view.unplayed)
    for s, rate in rates.items():
        if view.unused[s] > 0:
            left = min(left, view.unused[s] / max(rate, 0.15))
    return max(1.0, left)


def keep_values(view: View, seat: int, candidates: Sequence[int], left: float) -> dict[int, float]:
    """Per candidate, what spending it now costs on the cards that are likely still to be played."""
    assert view.sheet is not None
    mine = list(view.sheet.unused)
    cards = ai.later_cards(view)
    rivals = sum(1 for s in ai.opponents(view, seat) if view.unused[s] > 0) or 1
    later = left - 1.0  # rounds after this one
    reach = min(1.0, later / len(cards)) if cards else 0.0
    limit = max(0, math.ceil(later))
    whole = ai.portfolio(mine, cards, rivals, reach, limit)
    out = {}
    for n in candidates:
        rest = list(mine)
        rest.remove(n)
        out[n] = whole - ai.portfolio(rest, cards, rivals, reach, limit)
    return out


def _rival_pick(card: Card, numbers: Sequence[int], fights: bool | None, rate: float, rng: Random) -> int | None:
    """What a sampled rival fights with: its best fitting number, if it fights at all."""
    if fights is False:
        return None
    fit = [n for n in numbers if card.fits(n)]
    if not fit:
        return None
    best = max(fit, key=card.rank)
    if fights:
        return best
    # Its number's standing among the fitting ones (0: unbeatable, 1: the worst) shifts its rate.
    share = sum(1 for n in range(100) if card.fits(n)) / 100
    standing = ai.beat_fraction(card.key)[best] / share
    return best if rng.random() < rate * (1.5 - standing) else None


def _gain(view: View, card: Card, n: int, picks: Mapping[int, int], x: int) -> float:
    counts: dict[int, int] = {}
    for m in (*picks.values(), n):
        counts[m] = counts.get(m, 0) + 1
    if counts[n] > 1:
        return 0.0
    alive = [m for m in picks.values() if counts[m] == 1]
    if view.variants.same_boat:
        cancelled = any(c > 1 for c in counts.values())
        top = all(n > m for m in alive)
        return (ai.card_worth(card, x) if (cancelled or top) else 0.0) + (ai.reward(view, x) if top else 0.0)
    top = all(card.rank(n) > card.rank(m) for m in alive)
    return (ai.card_worth(card, x) + ai.reward(view, x)) if top else 0.0


def option_values(view: View, seat: int, rng: Random, priors: FightPriors | None = None
                  ) -> dict[int | None, float]:
    """Each option's value (None: pass, worth 0): expected points now, less what the number is worth later."""
    card = CARD_BY_KEY[view.card or ""]
    options = fitting(view)
    if not options:
        return {None: 0.0}
    said = dict(view.declared)
    rates = fight_rates(view, seat, priors)
    rivals = [s for s in ai.opponents(view, seat) if view.unused[s] > 0]
    samples = max(24, 144 // max(1, len(rivals)))  # fewer per rival at a big table: the time stays bounded
    points = dict.fromkeys(options, 0.0)
    for _ in range(samples):
        picks = {}
        for s in rivals:
            got = _rival_pick(card, ai.sample_numbers(view, s, rng), said.get(s), rates[s], rng)
            if got is not None:
                picks[s] = got
        x = 1 + len(picks) + sum(1 for s in said if said[s] and s not in picks)
        for n in options:
            points[n] += _gain(view, card, n, picks, x)
    keep = keep_values(view, seat, options, rounds_left(view, seat, rates))
    values: dict[int | None, float] = {None: 0.0}
    for n in options:
        gain = points[n] / samples
        values[n] = gain - KEEP_WEIGHT * keep[n] + ai.ending_bonus(view, seat, gain) - 0.05
    return values


def hard_fight(view: View, seat: int, rng: Random, priors: FightPriors | None = None) -> ai.Action:
    values = option_values(view, seat, rng, priors)
    best = max(values.values())
    near = [(n, v) for n, v in values.items() if v >= best - MIX_WINDOW]
    weights = [math.exp((v - best) / TEMPERATURE) for _, v in near]
    pick = rng.choices([n for n, _ in near], weights)[0]
    return ai.PASS if pick is None else ai._fight(pick)
