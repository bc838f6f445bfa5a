"""Binomial's hard level: fight or pass from a simulated reveal against opponents modelled from what is public.

What it sees: its own sheet and the public facts (rolls, revealed numbers, who fought which card, how many
unused numbers each seat has). Nothing else: every opponent's sheet is sampled from whole builds of the
public rolls that hold every number that opponent revealed (:mod:`.ai_read`), or from the rolls minus what
it revealed, paired the way a builder would (sometimes at random).

* Opponent model: each opponent's fight rate this match (fights per round played, from a prior of about
  one round in two, or, in Discord, from how often that player fought in their finished games against this
  bot), so a seat that fights every card is expected to fight, and one that never fights is expected to
  pass; within that rate a strong number is likelier to fight than a weak one.
* The length of the game: it ends after the round in which a seat uses its last number, so a seat with
  few numbers left that fights often ends it soon. A number kept for later is worth only the cards that
  are likely to be played (``reach``), and at most as many numbers as there are rounds left are useful.
* Placement: the builder's table, drawn from the seat's generator among near-equal cells (see
  :func:`place_mix`), so that the sheet cannot be rebuilt from the public rolls.
* The value of an option is the lead it gains: its points less what the rivals score in the same reveal
  (passing included: a rival that fights alone takes the card), then less what the number is worth later.
* The choice is mixed: near-equal options (pass included) are drawn with the seat's generator, so a
  reader that runs this code on a guessed sheet cannot be sure of the pick.
* Heads-up the round is solved as a zero-sum game instead (:func:`heads_up_mix`): the rival's sheet sampled
  from particles (sheets built roll by roll during the placements), the rival answering this seat's mix with
  its best option on each, and this seat drawing from the mix that leaves it the most.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from random import Random

from . import ai, ai_read
from .engine import resolve
from .rules import CARD_BY_KEY, CELLS, ROLLS, Card
from .view import View, fitting

SAMPLES = 144  # sampled reveals per decision, shared among the rivals (600 did no better at 4 seats)
SAMPLES_MIN = 24
PRIOR_RATE = 0.55  # fights per round before anything is seen
PRIOR_WEIGHT = 3.0  # the prior counts as this many rounds
# A kept number's worth later (keep_values) against the lead gained now (see keep_weight). Heads-up, 400
# games seed 1 (with DENY_WEIGHT 1), vs normal / monte_carlo: 0.6 -> 0.507 / 0.559, 0.9 -> 0.506 / 0.599,
# 1.2 -> 0.530 / 0.627, 1.6 -> 0.534 / 0.625, 2.2 -> 0.497 / 0.561: the old 0.6 spent numbers on 1- and
# 2-point cards, which heads-up are worth 1 or 2.
KEEP_WEIGHT = 1.2
# At three seats or more the game ends sooner (any rival running out ends it) and every later card has more
# contenders: numbers kept go unused. A normal seat with three hard seats (200 games seed 1) wins 0.464
# with 1.2, 0.421 with 0.9, 0.373 with 0.6, 0.349 with 0.45, 0.357 with 0.3 (its hard seats had held 1.2
# unused numbers each at the end, the normal seat 0.3); hard with three normal seats 0.69-0.74 throughout.
KEEP_WEIGHT_TABLE = 0.45
# What the rivals score counts against an option, this much of it per rival (their mean): a card a rival
# takes is a point lost on the lead, so beating its number (or cancelling it) is worth more than the card's
# points alone, and passing costs what the rival then takes. Heads-up vs normal, 400 games seed 1 (keep
# weight 0.6): 0 (the old own-points-only value) -> 0.450, 1 -> 0.507; vs monte_carlo 0.496 -> 0.559.
DENY_WEIGHT = 1.0
TEMPERATURE = 0.12  # in points: how far apart two options may be and still both be played
MIX_WINDOW = 0.35  # options further than this below the best are never drawn
# (window, temperature) of the placement draw, heads-up and at a table of three or more (see place_mix). On
# six random roll sequences, 30 generators each, the builder with 0.3 noise made 8-28 different sheets, this
# draw 16-30 heads-up and 27-30 at a table.
PLACE_MIX = (1.0, 0.4)
PLACE_MIX_TABLE = (1.5, 0.6)
# Past games (the game adapter's ai_priors) move the prior, counting as at most this many rounds more than
# the default one: a player's habit is expected at once, while this match's own rounds soon weigh as much.
PAST_WEIGHT_CAP = 6.0

# How much likelier a rival is to fight for a card of this worth (None: an X card) than its rate says. Every
# opponent level fights for the rare 4-point cards and passes the X cards more than an even rate gives
# (measured over hard's own predictions at 4 seats, 60 games each against responder, normal, monte_carlo:
# X cards fought 0.51-0.65 of the time where 0.71-0.77 was predicted, 4-point cards 0.57-0.79 against
# 0.42-0.53); weighted by the deck's cards the factors average about 1, so the rate keeps its meaning.
RIVAL_CARD_FACTOR: Mapping[int | None, float] = {None: 0.78, 2: 1.0, 3: 1.05, 4: 1.3}

# At a table of three or more, this share of a sampled rival's picks comes from this very decision run on the
# rival's sampled sheet (with INNER_SAMPLES reveals and the rate model for its own rivals), the rest from the
# rate model. Seats that think alike pick alike numbers and cancel each other, and a rate model does not
# see it: a fourth player then takes what three hard seats fight over. Seed 1, 4 seats: normal with three
# hard seats 0.353 -> 0.255 (300 games); the responder (hard's code used to predict it) with three hard
# 0.470 -> 0.378 (150); the cost: hard with three normal 0.740 -> 0.684 (300).
LIKE_ME_SHARE = 0.5
# Heads-up too, for a rival that has not declared yet, since it may read this seat by running its code:
# against the bench's reader (hard's own placement and fight code with its own generator), 200 games seed 1 on
# the same deals, 0 -> 0.403, 0.5 for every rival -> 0.470 (the reader's decisions are lead-based like hard's,
# and a rate model does not see them coming). A rival that declared first is left to the rate model.
LIKE_ME_HEADS_UP = 0.5
INNER_SAMPLES = 72  # a rival's own decision: this many reveals shared among its rivals (at least 12 each)
INNER_SAMPLES_MIN = 12

# The share of a sampled rival's sheets drawn from the builds that agree with its reveals (ai_read); the rest
# from the older sampler, which also covers builders unlike any of ours.
BELIEF_SHARE = 0.75

# How often a rival that declares after this seat's pass, with nobody fighting before it, takes the card with
# a fitting number (it wins it uncontested).
UNCONTESTED = 0.85

# A rival's cancels of this seat's number in a match beyond what chance gives (see read_by), less
# READ_CHANCE, over READ_SURE: how surely that rival reads it. Chance is the other pairs' rate of cancels once
# they met READ_BASE_ROUNDS times, else READ_BASE.
# Against a reader, the option hard would take anyway loses READ_COST of its worth (the reader's cancel),
# and the mix of near-equal options widens by READ_MIX.
READ_BASE = 0.2
READ_BASE_ROUNDS = 3
READ_CHANCE = 0.25
READ_SURE = 1.5
READ_COST = 0.6
READ_MIX = 2.0

FightPriors = Mapping[int, tuple[float, float]]  # opponent seat -> (prior fight rate, rounds it counts as)


def past_fight_prior(rounds: int, fights: int) -> tuple[float, float]:
    """The prior (rate, weight) of a player who fought in ``fights`` of ``rounds`` rounds of past games."""
    rate = (fights + PRIOR_RATE * PRIOR_WEIGHT) / (rounds + PRIOR_WEIGHT)
    return rate, PRIOR_WEIGHT + min(float(rounds), PAST_WEIGHT_CAP)


def place_mix(seats: int) -> tuple[float, float]:
    """How far below the best cell's gain a cell may still be drawn, and the temperature of the draw (in
    number-value points). Every sheet holds the same digits: a sheet that follows the builder's table can
    be rebuilt from the public rolls, and seats that build alike pick alike numbers and cancel each other.
    At a table of three or more hard builds further from the table."""
    return PLACE_MIX if seats <= 2 else PLACE_MIX_TABLE


def hard_place(view: View, rng: Random) -> ai.Action:
    """Hard's cell for the pending digit: drawn from the seat's generator (the game's secret seed) among the
    cells whose gain is near the best, likelier the nearer. Running this code on the public rolls without
    the seed rebuilds many sheets, rarely this one; and two hard seats at one table build apart."""
    assert view.sheet is not None and view.pending is not None
    gains = ai.cell_gains(view.seats, view.sheet.cells, view.pending)
    best = max(g for _, g in gains)
    window, temperature = place_mix(view.seats)
    if view.seats == 2:
        _particles(view.seats, view.rolls)  # the rival's sheets, a digit at a time (see heads_up_mix)
    near = [(i, g) for i, g in gains if g >= best - window]
    weights = [math.exp((g - best) / temperature) for _, g in near]
    return {"cell": CELLS[rng.choices([i for i, _ in near], weights)[0]]}


def keep_weight(seats: int) -> float:
    """How much a kept number's later worth weighs against the lead gained now (see KEEP_WEIGHT)."""
    return KEEP_WEIGHT if seats <= 2 else KEEP_WEIGHT_TABLE


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
    return ai.spend_costs(mine, candidates, cards, rivals, reach, max(0, math.ceil(later)))


def believed_numbers(view: View, s: int) -> tuple[tuple[int, ...], ...]:
    """The builds of rival ``s``'s sheet from the public rolls that hold every number it revealed (see
    :mod:`.ai_read`), drawn as this level draws its own cells."""
    return ai_read.believed(view.seats, view.rolls, view.revealed[s], place_mix(view.seats))


def sample_holding(view: View, s: int, rng: Random, digits: tuple[int, ...],
                   belief: Sequence[tuple[int, ...]]) -> Sequence[int]:
    """A plausible set of ``s``'s unused numbers: a build that agrees with its reveals (BELIEF_SHARE of the
    time when there is one), else the older sampler (a builder on its remaining digits, or a random
    pairing)."""
    if belief and rng.random() < BELIEF_SHARE:
        return belief[rng.randrange(len(belief))]
    return ai.sample_numbers(view, s, rng, digits)


def _rival_pick(card: Card, numbers: Sequence[int], fights: bool | None, rate: float, rng: Random) -> int | None:
    """What a sampled rival fights with: its best fitting number, if it fights at all. (Drawing some other
    fitting number 30% of the time, as hard itself does at four seats, was tried: heads-up no different,
    at three and five seats worse, e.g. 3 seats vs responder 0.682 -> 0.568, 200 games seed 1.)"""
    if fights is False:
        return None
    fit = [n for n in numbers if card.fits(n)]
    if not fit:
        return None
    best = max(fit, key=card.rank)
    if fights:
        return best
    # Its number's standing among the fitting ones (0: unbeatable, 1: the worst) shifts its rate.
    standing = ai.beat_fraction(card.key)[best] / ai.fit_share(card.key)
    return best if rng.random() < rate * RIVAL_CARD_FACTOR.get(card.points, 1.0) * (1.5 - standing) else None


def _speak_after(view: View, seat: int) -> list[int]:
    """The rivals that declare after ``seat`` in this round, in order (none in the dark: all pick at once)."""
    if view.kind != "declare":
        return []
    order = [(view.chairman + i) % view.seats for i in range(view.seats)]
    return [s for s in order[order.index(seat) + 1:] if view.unused[s] > 0]


def _seen_pass(card: Card, picks: Mapping[int, int], holds: Mapping[int, Sequence[int]], after_me: Sequence[int],
               said: Mapping[int, bool], rng: Random) -> dict[int, int]:
    """The sampled picks if this seat passes: a rival that speaks later and sees nobody fighting before it
    takes the card uncontested with any fitting number it holds (``UNCONTESTED`` of the time), whatever its
    habit; the others pick as sampled. Passing first hands that win over; this is what it costs."""
    if any(said.values()):
        return dict(picks)
    out = dict(picks)
    for s in after_me:
        if any(t in out for t in after_me[:after_me.index(s)]):
            break  # someone before it fights: it picks as sampled
        if s not in out and any(card.fits(n) for n in holds.get(s, ())) and rng.random() < UNCONTESTED:
            out[s] = max((n for n in holds[s] if card.fits(n)), key=card.rank)
    return out


def _points(view: View, card: Card, seat: int, n: int | None, picks: Mapping[int, int],
            order: Sequence[int]) -> tuple[float, float]:
    """The reveal with ``seat`` fighting ``n`` (None: passing) against the sampled ``picks``: what the seat
    scores and what its rivals score in all."""
    fighters = [(s, n if s == seat else picks[s]) for s in order if (s == seat and n is not None) or s in picks]
    if not fighters:
        return 0.0, 0.0
    points = resolve(card, fighters, view.variants, view.seats).points
    return float(points[seat]), float(sum(points) - points[seat])


def _pick_like_me(view: View, s: int, numbers: Sequence[int], rng: Random) -> int | None:
    """What rival ``s`` picks (None: it passes) if it holds ``numbers`` and decides the way this level does,
    from the declarations it saw (all so far, if it has not spoken yet)."""
    said = dict(view.declared)
    if said.get(s) is False:
        return None
    spoke = [t for t, _ in view.declared]
    declared = view.declared[: spoke.index(s)] if s in said else view.declared
    sheet = ai.sheet_with(numbers, view.revealed[s])
    seen = dataclasses.replace(view, seat=s, sheet=sheet, declared=declared, pick=None)
    values = option_values(seen, s, rng, inner=True)
    if said.get(s):  # it declared fight: it picks a number even where passing looked better
        values.pop(None)
    return max(values, key=values.__getitem__) if values else None


def option_values(view: View, seat: int, rng: Random, priors: FightPriors | None = None,
                  inner: bool = False) -> dict[int | None, float]:
    """Each option's value against passing (None, worth 0): the expected lead it gains now (its points,
    less ``DENY_WEIGHT`` of what the rivals score, on average per rival), less what the number is worth
    later. ``inner``: this runs for a rival (fewer reveals, the rate model alone, no deeper)."""
    card = CARD_BY_KEY[view.card or ""]
    options = fitting(view)
    if not options:
        return {None: 0.0}
    said = dict(view.declared)
    rates = fight_rates(view, seat, priors)
    rivals = [s for s in ai.opponents(view, seat) if view.unused[s] > 0]
    deny = DENY_WEIGHT / max(1, len(rivals))
    order = [(view.chairman + i) % view.seats for i in range(view.seats)]
    least, share = (INNER_SAMPLES_MIN, INNER_SAMPLES) if inner else (SAMPLES_MIN, SAMPLES)
    samples = max(least, share // max(1, len(rivals)))  # fewer per rival at a big table: bounded time
    lead = dict.fromkeys((None, *options), 0.0)
    unfit = next((m for m in range(100) if not card.fits(m)), 0)  # only "any number" cards fit all 100
    mine = dict.fromkeys(options, 0.0)
    like_me = 0.0 if inner else LIKE_ME_SHARE if view.seats > 2 else LIKE_ME_HEADS_UP
    thought: dict[tuple[int, int], int | None] = {}  # (rival, build) -> its pick, at most BUILDS per rival
    digits = {s: ai.remaining_digits(view, s) for s in rivals}
    belief = {s: believed_numbers(view, s) for s in rivals}
    # the builds a rival like me is thought through on (at most ai.BUILDS each: every one costs a decision)
    thinkable = {s: rng.sample(belief[s], min(len(belief[s]), ai.BUILDS)) for s in rivals}
    reveals: dict[tuple[int | None, tuple[tuple[int, int], ...]], tuple[float, float]] = {}  # samples repeat
    after_me = _speak_after(view, seat)
    for _ in range(samples):
        picks: dict[int, int] = {}
        holds: dict[int, Sequence[int]] = {}
        for s in rivals:
            # a rival like me decides like me (on a builder's sheet); heads-up only one still to speak: one
            # that reads this seat answers what it will do
            if like_me and (view.seats > 2 or s not in said) and rng.random() < like_me:
                build = rng.randrange(len(thinkable[s]) or ai.BUILDS)
                holds[s] = thinkable[s][build] if thinkable[s] else ai.built_numbers(view.seats, digits[s], build)
                if (s, build) not in thought:
                    thought[s, build] = _pick_like_me(view, s, holds[s], Random(rng.random()))
                got = thought[s, build]
            else:
                holds[s] = sample_holding(view, s, rng, digits[s], belief[s])
                got = _rival_pick(card, holds[s], said.get(s), rates[s], rng)
            if got is None and said.get(s):  # it fights, though this sample holds nothing that fits:
                got = unfit  # a fighter that counts for X and cannot win
            if got is not None:
                picks[s] = got
        passing = _seen_pass(card, picks, holds, after_me, said, rng)
        for n in (None, *options):
            faced = passing if n is None else picks
            key = (n, tuple(sorted(faced.items())))
            if key not in reveals:
                reveals[key] = _points(view, card, seat, n, faced, order)
            own, theirs = reveals[key]
            lead[n] += own - deny * theirs
            if n is not None:
                mine[n] += own
    keep = keep_values(view, seat, options, rounds_left(view, seat, rates))
    values: dict[int | None, float] = {None: 0.0}
    for n in options:
        gain = (lead[n] - lead[None]) / samples
        values[n] = gain - keep_weight(view.seats) * keep[n] + ai.ending_bonus(view, seat, mine[n] / samples) - 0.05
    return values


def read_by(view: View, seat: int) -> float:
    """How surely some rival reads this seat, from the revealed picks of the match: a rival that fought with
    the very number this seat fought with (both cancelled) more often than chance says is predicting it.
    Chance is how often the other pairs of seats cancelled when both fought (sheets hold the same digits, and
    sound builders make alike numbers), or ``READ_BASE`` heads-up. Only the revealed picks are read, as The
    Number's hard reads its rivals' past picks."""
    rounds = [f for g in view.past for f in g.history] + list(view.history)
    cancels: dict[int, int] = {}
    met: dict[int, int] = {}
    others = [0, 0]  # cancels and meetings between two other seats
    for f in rounds:
        for i, (s, n) in enumerate(f.fighters):
            for t, m in f.fighters[i + 1:]:
                if seat in (s, t):
                    rival = t if s == seat else s
                    met[rival] = met.get(rival, 0) + 1
                    cancels[rival] = cancels.get(rival, 0) + (n == m)
                else:
                    others[0] += n == m
                    others[1] += 1
    base = others[0] / others[1] if others[1] >= READ_BASE_ROUNDS else READ_BASE
    most = max((cancels[s] - base * met[s] for s in met), default=0.0)
    return min(1.0, max(0.0, most - READ_CHANCE) / READ_SURE)


def hard_fight(view: View, seat: int, rng: Random, priors: FightPriors | None = None) -> ai.Action:
    if view.seats == 2 and view.kind == "declare":  # heads-up: the round solved as a game
        mix = heads_up_mix(view, seat, rng)
        pick = rng.choices(list(mix), list(mix.values()))[0]
        return ai.PASS if pick is None else ai._fight(pick)
    values = option_values(view, seat, rng, priors)
    read = read_by(view, seat)
    if read > 0:  # a reader cancels the pick it predicts: the best number is worth less, the mix widens
        top = max((n for n in values if n is not None), key=values.__getitem__, default=None)
        if top is not None and values[top] > 0:
            values[top] -= read * READ_COST * values[top]
    temperature, window = TEMPERATURE * (1 + READ_MIX * read), MIX_WINDOW * (1 + READ_MIX * read)
    best = max(values.values())
    near = [(n, v) for n, v in values.items() if v >= best - window]
    weights = [math.exp((v - best) / temperature) for _, v in near]
    pick = rng.choices([n for n, _ in near], weights)[0]
    return ai.PASS if pick is None else ai._fight(pick)


# --- heads-up: each round's declaration solved as a zero-sum game --------------------------------------------

# Heads-up, a declaration is the move of a two-player zero-sum game of the round, solved (heads_up_mix): the
# rate model above best-responds to a guess of the rival's habit, and a reader that runs this code answers that
# best response (issue 40: 16 variants of it, none beyond noise, the reader at 0.456-0.487). Hard's share, seed
# 1, 300 paired games unless said: the solved round with the old belief (ai_read, 48 builds) 0.495 against the
# reader (the committed hard 0.443 on the same games), monte_carlo 0.622; told the reader's true sheet, 0.622 --
# so in a solved round what the rival holds matters, and the belief became the particles below: 320 + 80 0.540,
# 800 + 120 0.547 (seed 2: 0.580); 1000 games seed 1: reader 0.565 (0.534-0.595), monte_carlo 0.608.
# Tried and not kept (reader, 300 games, seed 1): RIVAL_KEEP 0 0.465, 1.2 0.490; KEEP_WEIGHT heads-up 0.8 and
# 1.6 0.517 each; GAME_FLOOR 0.12 0.483; 64 samples 0.522 (all with the old belief); a price on becoming
# chairman (the first to declare is answered: it loses about 0.3 a round) 0.3 0.487, 0.6 0.465; every
# particle drawn (no other sampler) 0.508; particles that held a fitting number on a card the rival let go
# uncontested weighted 0.25 0.518 (0.547 without; seed 2 0.580 either way).
GAME_SAMPLES = 32  # sampled rival sheets a decision (sheets with the same fitting numbers merge)
GAME_ITERATIONS = 120  # rounds of regret matching against the rival's best reply (the mean mix is played)
# What the rival's spent number is worth to this seat, per point of ai.keep_value on the rival's sheet: the
# bench's reader weighs its own numbers so, and at this weight the rival's best reply in the game is its.
RIVAL_KEEP = 0.6
GAME_FLOOR = 0.03  # options the solved mix plays less often than this are dropped (the rest scaled up)

# The particles: sheets built from the public rolls roll by roll, PARTICLES the way this level draws its own
# cells, SOUND_PARTICLES by the sound builder's table with normal's noise; a rival's sheet is one that holds
# every number it revealed. 48 whole builds (ai_read) held the sheet of a rival that places like hard 12% of
# the time at hard's declarations (30 games), left no build 39% of the time; 400 particles 33% and 12%.
PARTICLES = 800
SOUND_PARTICLES = 120
PARTICLE_SHARE = 0.9  # the share of sampled rival sheets drawn from the particles (the rest: ai.sample_numbers)


@lru_cache(maxsize=64)  # a chain of 16 prefixes per heads-up game in play (about 0.2 MB each); bounded
def _particles(seats: int, rolls: tuple[int, ...]) -> tuple[tuple[int | None, ...], ...]:
    """Sheets (cells) built from ``rolls``, one roll at a time from the sheets of the shorter prefix (so each
    placement pays for one digit), with one generator seeded by the rolls: deterministic."""
    before = _particles(seats, rolls[:-1]) if len(rolls) > 1 else ((None,) * ROLLS,) * (PARTICLES + SOUND_PARTICLES)
    rng = Random(f"binomial-particles:{rolls}")
    digit = rolls[-1]
    out = []
    for k, cells in enumerate(before):
        grown = list(cells)
        if k < PARTICLES:
            grown[ai_read.draw_cell(seats, cells, digit, rng, place_mix(seats))] = digit
        else:
            grown[ai.best_cell(seats, cells, digit, rng, ai.PLACE_NOISE)] = digit
        out.append(tuple(grown))
    return tuple(out)


def particle_belief(view: View, s: int) -> list[tuple[int, ...]]:
    """The unused numbers of every particle that holds all ``s`` revealed (a particle counts once each)."""
    if len(view.rolls) != ROLLS:
        return []
    shown = Counter(view.revealed[s])
    out = []
    for held in _particle_numbers(view.seats, view.rolls):
        if all(held[n] >= c for n, c in shown.items()):
            out.append(tuple(sorted((held - shown).elements())))
    return out


@lru_cache(maxsize=16)
def _particle_numbers(seats: int, rolls: tuple[int, ...]) -> tuple[Counter[int], ...]:
    """Each whole particle's numbers, counted."""
    return tuple(Counter(10 * cells[2 * i] + cells[2 * i + 1] for i in range(ROLLS // 2))  # type: ignore[operator]
                 for cells in _particles(seats, rolls))


def _rival_keep(numbers: Sequence[int], cards: Sequence[Card], fits: Sequence[int],
                cache: dict[tuple[int, ...], dict[int, float]]) -> dict[int, float]:
    """What spending each fitting number costs a rival that holds ``numbers`` (ai.keep_value, heads-up)."""
    key = tuple(sorted(numbers))
    got = cache.get(key)
    if got is None:
        got = cache[key] = ai.spend_costs(key, fits, cards, 1)
    return got


def heads_up_mix(view: View, seat: int, rng: Random) -> dict[int | None, float]:
    """This seat's mixed declaration heads-up (None: pass), from a zero-sum game of the round.

    The payoff is the lead of the reveal (own points less the rival's), less what this seat's number is worth
    later, plus what the rival's number was worth to it. The rival knows its sheet (sampled), sees whether
    this seat fought when it declares second, and answers the mix with its best option; the mix maximises what
    is left (regret matching against that best reply). A reader that runs this code finds a mix, not a pick."""
    card = CARD_BY_KEY[view.card or ""]
    options = fitting(view)
    if not options:
        return {None: 1.0}
    rival = 1 - seat
    said = dict(view.declared)
    mine: list[int | None] = [None, *options]
    rates = fight_rates(view, seat)
    keep = keep_values(view, seat, options, rounds_left(view, seat, rates))
    weight = keep_weight(view.seats)
    base = [0.0] + [-weight * keep[n] for n in options]
    if view.unused[seat] == 1:  # the last number ends the game
        for i in range(1, len(base)):
            base[i] += ai.ending_bonus(view, seat, float(card.worth(1)))
    if said.get(rival) is False or view.unused[rival] == 0:  # alone: the card for the cheapest number
        alone = [0.0] + [b + card.worth(1) for b in base[1:]]
        best = max(range(len(mine)), key=alone.__getitem__)
        return {mine[best]: 1.0}
    order = [(view.chairman + i) % view.seats for i in range(view.seats)]
    leads: dict[tuple[int | None, int | None], float] = {}

    def lead(a: int | None, b: int | None) -> float:
        got = leads.get((a, b))
        if got is None:
            fighters = [(s, n) for s, n in ((order[0], a if order[0] == seat else b),
                                            (order[1], a if order[1] == seat else b)) if n is not None]
            points = resolve(card, fighters, view.variants, view.seats).points if fighters else (0, 0)
            got = leads[a, b] = float(points[seat] - points[rival])
        return got

    cards = ai.later_cards(view)
    digits = ai.remaining_digits(view, rival)
    belief = particle_belief(view, rival)
    keeps: dict[tuple[int, ...], dict[int, float]] = {}
    groups: dict[tuple[tuple[int | None, float], ...], int] = {}  # the rival's options and costs -> samples
    fought = said.get(rival) is True
    tries = 0
    while sum(groups.values()) < GAME_SAMPLES and tries < 4 * GAME_SAMPLES:
        tries += 1
        if belief and rng.random() < PARTICLE_SHARE:
            holding: Sequence[int] = belief[rng.randrange(len(belief))]
        else:
            holding = ai.sample_numbers(view, rival, rng, digits)
        fits = sorted({n for n in holding if card.fits(n)})
        if fought and not fits:
            continue  # it fought: this sheet is not its
        cost = _rival_keep(holding, cards, fits, keeps)
        key = (*(((None, 0.0),) if not fought else ()), *((n, RIVAL_KEEP * cost[n]) for n in fits))
        groups[key] = groups.get(key, 0) + 1
    if not groups:  # it fought with nothing any sample holds: a fighter that cannot win
        groups[((-1, 0.0),)] = 1
        leads.update({(a, -1): float(card.worth(2)) if a is not None else 0.0 for a in mine})
    total = sum(groups.values())
    # Per group, its information sets: a list of rows (one per rival option: hard's payoff per own option),
    # the rival answering each set with one row. Heads-up second (it fought): one set, every own option.
    # First: the rival sees pass or fight; its answer to a pass is a constant on the pass option.
    sets: list[tuple[float, list[list[float]]]] = []
    for key, count in groups.items():
        w = count / total
        rows = [[lead(a, b) + c for a in mine] for b, c in key]
        if fought:
            sets.append((w, rows))
        else:
            base[0] += w * min(r[0] for r in rows)
            sets.append((w, [[0.0, *r[1:]] for r in rows]))
    n = len(mine)
    regret = [0.0] * n
    x = [1.0 / n] * n
    mean = [0.0] * n
    for t in range(1, GAME_ITERATIONS + 1):
        u = list(base)
        for w, rows in sets:
            reply = min(rows, key=lambda r: sum(p * v for p, v in zip(x, r, strict=True)))
            for i in range(n):
                u[i] += w * reply[i]
        ev = sum(p * v for p, v in zip(x, u, strict=True))
        regret = [max(0.0, r + v - ev) for r, v in zip(regret, u, strict=True)]
        for i in range(n):
            mean[i] += t * x[i]
        s = sum(regret)
        x = [r / s for r in regret] if s > 0 else [1.0 / n] * n
    s = sum(mean)
    kept = {a: p for a, p in zip(mine, mean, strict=True) if p / s >= GAME_FLOOR}
    s = sum(kept.values())
    return {a: p / s for a, p in kept.items()} if kept else {None: 1.0}
