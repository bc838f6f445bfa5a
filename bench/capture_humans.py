"""How a simulated human plays in a captured game (bench/capture.py): one small strategy per game key.

A human acts only on what the bot really sent: the enabled buttons and selects of the messages it can see (the
channel's, its own private answers, its DMs) whose custom_id belongs to the step being played, the modal the bot
opened, and, when nothing can be pressed, a DM. The strategy only picks among those; what a modal's text field
needs (The Number's three digits) comes from the game's weakest AI playing that seat from its own view, which is
always a legal choice. A game with no strategy of its own gets :class:`FirstChoice` (the first enabled control,
a select's first option); the three games play :class:`RandomChoice` (a legal random choice, as a casual player
would), seeded, so that one seed gives one game; in The Number the third human and on type their number by DM.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, Protocol

Json = dict[str, Any]


@dataclass(frozen=True)
class Turn:
    """What the human knows when acting: its own seat's view, and the legal list the rules give that seat."""

    game: Any  # bot.core.game.Game
    seat: int
    view: Any
    legal: Sequence[Mapping[str, Any]] | None
    rng: Random
    human: int = 0  # which of the simulated humans (0: the host)

    def ai_text(self) -> str:
        """A legal choice as the human would type it: the weakest AI's action for this seat, its one value."""
        level = self.game.ai_levels[0] if self.game.ai_levels else "easy"
        action = self.game.ai(self.view, self.seat, level, self.rng)
        values = [str(v) for v in action.values()]
        return values[0] if len(values) == 1 else " ".join(values)


class Human(Protocol):
    def control(self, controls: Sequence[Json], turn: Turn) -> Json:
        """Which of the step's enabled controls (buttons, type 2; selects, type 3) to use."""
        ...

    def options(self, select: Json, turn: Turn) -> list[str]:
        """The values picked in a select (a message's or a modal's)."""
        ...

    def text(self, field: Json, turn: Turn) -> str:
        """What is typed in a modal's text input, or sent by DM."""
        ...

    def by_dm(self, turn: Turn) -> bool:
        """Whether this human sends the move by DM even though something can be pressed."""
        ...


def _count(select: Json) -> int:
    return max(1, int(select.get("min_values", 1) or 1))


class FirstChoice:
    """The fallback for a game with no strategy: the first enabled control, a select's first option(s)."""

    def control(self, controls: Sequence[Json], turn: Turn) -> Json:
        return controls[0]

    def options(self, select: Json, turn: Turn) -> list[str]:
        return [o["value"] for o in (select.get("options") or [])][: _count(select)]

    def text(self, field: Json, turn: Turn) -> str:
        return turn.ai_text()

    def by_dm(self, turn: Turn) -> bool:
        return False


class RandomChoice(FirstChoice):
    """A legal random choice: any control of the step, any option(s) of a select."""

    def control(self, controls: Sequence[Json], turn: Turn) -> Json:
        return turn.rng.choice(list(controls))

    def options(self, select: Json, turn: Turn) -> list[str]:
        values = [o["value"] for o in (select.get("options") or [])]
        return turn.rng.sample(values, min(_count(select), len(values)))


STRATEGIES: dict[str, Human] = {}


def register(key: str, human: Human) -> None:
    STRATEGIES[key] = human


def strategy(key: str) -> Human:
    return STRATEGIES.get(key, FirstChoice())


class TypesByDM(RandomChoice):
    """A legal random choice; from the ``from_human``-th human on, typed by DM (as the join DM offers) instead of
    through the turn message's form: both ways are shown, and what the others see of a DM choice."""

    def __init__(self, from_human: int) -> None:
        self.from_human = from_human

    def by_dm(self, turn: Turn) -> bool:
        return turn.human >= self.from_human


register("thenumber", TypesByDM(from_human=2))  # the third human and on
register("numeri", RandomChoice())
register("binomial", RandomChoice())
