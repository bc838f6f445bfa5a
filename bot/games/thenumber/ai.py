"""AI players for The Number: ``easy``, ``normal`` and ``hard`` (pure: no I/O, no clock, no global random).

An AI sees only a :class:`PublicView` (boards, scores, history, who has chosen; never a pending number)
and always answers a number its own board allows. Every level that draws at random draws from the
``random.Random`` it is given; the game service seeds it from a secret per-game seed, so nobody can
predict the draw and the same stored seed replays the game exactly.

* easy writes a random legal number, mid values and three different digits preferred: it ignores what the
  others can do and spends its digits without a plan, as a beginner does;
* normal weighs each candidate's expected points (first digit, bonus, last-turn doubling, digits crossed,
  the board's worth afterwards) against opponents modelled as easy players, and picks among the best
  with a little noise;
* hard (:mod:`ai_mixed`) watches what each opponent has revealed this game, keeps Bayesian beliefs over
  player types (:mod:`ai_beliefs`), values every candidate against that prediction and draws its number
  from a mixed strategy, so it answers habits and cannot be read by someone who runs this very code. At
  three seats or more the mix is the seat's part of an approximate equilibrium of the turn between all the
  seats (:mod:`ai_equilibrium`), so that a reader's best reply to it gains little; among readers it
  plays a flatter version of that mix (they answer whatever it commits to).
  Heads-up (:mod:`ai_duel`) it plays for the lead over the one opponent: the last two turns of a round are
  valued by their exact zero-sum game, and an opponent who seems to read it meets that game's equilibrium.
"""

import random
from collections.abc import Mapping
from dataclasses import dataclass

from .ai_beliefs import NORMAL_TEMPERATURE, normal_dist
from .ai_mixed import Priors, hard_distribution
from .ai_model import easy_dist, sample
from .ai_tables import available_mask, number_text
from .engine import PublicView
from .errors import GameOver, NotSeated, SitsOut

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
# What each level does, in words the lobby and the README can show.
LEVEL_DESCRIPTIONS: Mapping[str, str] = {
    "easy": "Easy: writes a random legal number, mid values preferred; ignores the other boards and wastes "
            "good digits, like a beginner.",
    "normal": "Normal: plays soundly; weighs the points, the bonus and the digits it keeps for later against "
              "what the others can write, with a little variety.",
    "hard": "Hard: watches how each opponent plays, this game and in their finished games against the bot, "
            "answers their habits, and mixes its choices so that it cannot be read.",
}
__all__ = ["DEFAULT_LEVEL", "LEVELS", "LEVEL_DESCRIPTIONS", "NORMAL_TEMPERATURE", "AIPlayer", "choose_number",
           "decision_rng", "hard_distribution", "normal_dist"]


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


def choose_number(view: PublicView, me: str, level: str, rng: random.Random,
                  priors: Priors | None = None) -> str:
    """The number the AI ``me`` writes this turn: three ASCII digits, all available on its board.

    ``rng`` must come from a secret seed (the draw is the only thing an opponent cannot compute).
    ``priors`` (opponent -> player type -> weight, see :data:`ai_beliefs.TYPES`) lets the hard level start
    from what past games against those players showed.
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
        value = sample(hard_distribution(view, me, priors), rng.random())
    return number_text(value)
