"""AI players for The Number: ``easy``, ``normal`` and ``hard`` (pure: no I/O, no clock, no global random).

An AI sees only a :class:`PublicView` (boards, scores, history, who has chosen; never a pending number)
and always answers a number its own board allows. The levels are a ladder of models of each other:

* easy writes a random legal number, mid values and three different digits preferred;
* normal weighs each candidate's expected points (first digit, bonus, last-turn doubling, digits crossed,
  the board's worth afterwards) against opponents modelled as easy players, and picks among the best
  with a little noise;
* hard models opponents as normal players, also weighs whether a bigger number from one opponent would
  survive the others (for the bonus), and takes the best expected value.
"""

import random
from dataclasses import dataclass
from functools import cache

from .ai_model import Dist, block_chances, easy_dist, sample, softmax_dist, turn_values
from .ai_tables import available_mask, number_text
from .engine import PublicView
from .errors import GameOver, NotSeated, SitsOut

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
# Softness of the normal level's choice, in points: small enough to play well, big enough to vary.
NORMAL_TEMPERATURE = 0.6


@dataclass(frozen=True, slots=True)
class AIPlayer:
    """A seat played by the computer; ``seed`` makes its whole game reproducible."""

    name: str
    level: str = DEFAULT_LEVEL
    seed: int = 0

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown AI level {self.level!r}; choose one of {', '.join(LEVELS)}")

    def choose(self, view: PublicView) -> str:
        return choose_number(view, self.name, self.level, decision_rng(self.seed, view, self.name))


def decision_rng(seed: int, view: PublicView, me: str) -> random.Random:
    """A generator fixed by seed, round, turn and seat: the same game position always plays the same."""
    seat = view.players.index(me) if me in view.players else -1
    return random.Random(f"thenumber-ai:{seed}:{view.round}:{view.turn}:{seat}")


def _opponent_masks(view: PublicView, me: str) -> tuple[int, ...]:
    """Available-digit masks of the opponents still playing this round, sorted (their order is irrelevant)."""
    return tuple(sorted(available_mask(view.crossed[p]) for p in view.players
                        if p != me and p not in view.exhausted))


@cache
def normal_dist(mine: int, turn: int, others: tuple[int, ...]) -> Dist:
    """The normal level's distribution for a board ``mine`` facing boards ``others`` (cached: it recurs)."""
    candidates, values = turn_values(mine, turn, [easy_dist(o) for o in others])
    return softmax_dist(candidates, values, NORMAL_TEMPERATURE)


def _without_one(items: tuple[int, ...], index: int) -> tuple[int, ...]:
    return items[:index] + items[index + 1:]


def hard_choice(mine: int, turn: int, others: tuple[int, ...]) -> int:
    """Best reply to opponents playing as the normal level (each sees us and the others)."""
    models = [normal_dist(o, turn, tuple(sorted((*_without_one(others, k), mine)))) for k, o in enumerate(others)]
    # A bigger number of one opponent takes the bonus from us only if the other opponents don't eliminate it.
    survivors = []
    for k, dist in enumerate(models):
        values = [row[0] for row in dist]
        alive = [1.0] * len(dist)
        for j, other in enumerate(models):
            if j != k:
                for i, b in enumerate(block_chances(values, other)):
                    alive[i] *= 1 - b
        survivors.append(tuple((v, m, w * a) for (v, m, w), a in zip(dist, alive, strict=True)))
    candidates, values = turn_values(mine, turn, models, approve_guess=survivors)
    best = max(range(len(values)), key=values.__getitem__)
    return candidates[best]


def choose_number(view: PublicView, me: str, level: str, rng: random.Random) -> str:
    """The number the AI ``me`` writes this turn: three ASCII digits, all available on its board.

    Raises :class:`NotSeated`, :class:`GameOver` or :class:`SitsOut` (no digit left) when it cannot play.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    if view.finished:
        raise GameOver()
    if me not in view.players:
        raise NotSeated(me)
    if me in view.exhausted:
        raise SitsOut(me)
    mine = available_mask(view.crossed[me])
    others = _opponent_masks(view, me)
    if level == "easy":
        value = sample(easy_dist(mine), rng.random())
    elif level == "normal":
        value = sample(normal_dist(mine, view.turn, others), rng.random())
    else:
        value = hard_choice(mine, view.turn, others)
    return number_text(value)


def choose_for_service(view: PublicView, me: str, level: str, seed: int) -> str:
    """The game service's hook: a seeded decision for seat ``me`` (the service passes a per-turn seed)."""
    return choose_number(view, me, level, decision_rng(seed, view, me))
