"""What hard believes of a rival's unused numbers: sheets built from the public rolls, kept when they agree
with what the rival revealed (pure: no I/O, no clock, no global random).

Every sheet holds the same 16 digits, rolled in public order, and a rival's revealed numbers are facts. A
sound player (or one running this very code) builds its sheet cell by cell from the rolls as they come: so
the likely sheets are builds from the whole roll sequence, by a few plausible placements, and a build that
does not hold every number the rival revealed is not its sheet (rejection sampling: what is left is drawn
in proportion to how likely each build is before the reveals). A rival that fits none of them (a random or
odd builder) is sampled as a random pairing of its remaining digits by the caller.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from random import Random

from . import ai

SOUND_BUILDS = 16  # builds by the sound builder's table with normal's noise
DRAWN_BUILDS = 32  # builds drawn among near-equal cells, as hard places its own digits


def draw_cell(seats: int, cells: Sequence[int | None], digit: int, rng: Random, mix: tuple[float, float]) -> int:
    """A free cell for ``digit`` drawn among those whose gain is within ``mix[0]`` of the best, with
    temperature ``mix[1]`` (likelier the nearer the best)."""
    gains = ai.cell_gains(seats, cells, digit)
    best = max(g for _, g in gains)
    window, temperature = mix
    near = [(i, g) for i, g in gains if g >= best - window]
    weights = [math.exp((g - best) / temperature) for _, g in near]
    return rng.choices([i for i, _ in near], weights)[0]


@lru_cache(maxsize=2048)  # one entry per game's rolls (and seat count); bounded for a long-running bot
def full_builds(seats: int, rolls: tuple[int, ...], mix: tuple[float, float]) -> tuple[tuple[int, ...], ...]:
    """Whole sheets (8 numbers each) built from ``rolls``: SOUND_BUILDS by the builder's table with noise,
    DRAWN_BUILDS drawn the way hard draws its own cells (``mix``). Deterministic given the rolls."""
    out = []
    for k in range(SOUND_BUILDS + DRAWN_BUILDS):
        rng = Random(f"binomial-belief:{k}:{rolls}")
        cells: list[int | None] = [None] * len(rolls)
        for d in rolls:
            if k < SOUND_BUILDS:
                cells[ai.best_cell(seats, cells, d, rng, ai.PLACE_NOISE)] = d
            else:
                cells[draw_cell(seats, cells, d, rng, mix)] = d
        out.append(tuple(10 * cells[2 * i] + cells[2 * i + 1] for i in range(len(rolls) // 2)))  # type: ignore[operator]
    return tuple(out)


def believed(seats: int, rolls: tuple[int, ...], revealed: tuple[int, ...],
             mix: tuple[float, float]) -> tuple[tuple[int, ...], ...]:
    """The unused numbers of every build that holds all of ``revealed`` (none may be left)."""
    if len(rolls) != 16:
        return ()
    shown = Counter(revealed)
    out = []
    for build in full_builds(seats, rolls, mix):
        held = Counter(build)
        if all(held[n] >= c for n, c in shown.items()):
            out.append(tuple(sorted((held - shown).elements())))
    return tuple(out)
