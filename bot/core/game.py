"""The game protocol: what the core needs from a game, and nothing about any one game.

Pure (no discord, asyncio or sqlite; the purity test walks it). A game is one object, ``GAME``, in its
package ``bot/games/<key>/game.py``; the bot is handed an explicit tuple of them (``bot.games.GAMES``).

The core runs every game with one sequence: ``prompt(state)`` says who may act now and how; the players'
actions (or a chance draw, or the rules' default for who did not act in time) form a ``Step`` that
``apply`` turns into the next state and an event; ``view`` gives what one seat, or the whole table, may
see. Seats are numbered 0..n-1 in seating order. Actions are small JSON-able mappings, so a step can be
stored in the log as it is and folded again: folding the same steps from the same seed gives the same game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

Seat = int
Action = Mapping[str, Any]
# What one step applies: each acting seat's action; the key None is chance (a die, a card drawn).
# Stored in the log as JSON, where the seat keys become strings; the core turns them back into ints.
Step = Mapping[Seat | None, Action]

S = TypeVar("S")  # the engine's state
V = TypeVar("V", covariant=True)  # a view of it
E = TypeVar("E", covariant=True)  # what a step made public


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the current step asks, of whom.

    ``sealed``: the seats submit privately, may change their mind, and the step is applied when all are
    in (or the deadline passes). Not sealed: the first (only) seat's action is applied at once.
    ``chance``: nobody chooses; the core draws the outcome with ``Game.chance`` and records it.
    ``kind`` names the input ("number", "place", "declare", "pick", "move"), for the presenter.
    """

    seats: frozenset[Seat]
    kind: str
    sealed: bool = False
    chance: bool = False


@dataclass(frozen=True, slots=True)
class Option:
    """A table option of ``start`` (after python-chess's engine options): its type follows ``default``."""

    name: str
    default: int | bool | str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    # seat counts for which the option may be on (Binomial's "in the same boat": 6-7 only)
    seats: range | None = None
    # True: when the host gives no value, the bot's setting of the same name (TURN_SECONDS) is used instead of
    # ``default``; ``default`` stays the value a table gets outside the bot (terminal, replays)
    server_default: bool = False


# Shared by the games that declare it: a step whose one awaited human has a single legal move plays it at once
# (told like any move) unless the host turns it off with ``start auto_play:False``. Only a game whose forced
# moves are public facts may declare it: Numeri (no secrets). Binomial does not: its only open step is a
# declaration, forced only when no unused number fits the card, and playing it at once would tell the table
# something about a secret sheet. The Number's step is sealed, and sealed steps are never played for anyone.
AUTO_PLAY = Option("auto_play", True)


@dataclass(frozen=True, slots=True)
class Result:
    """A finished (or stopped) game's outcome; ``extra`` holds per-seat figures for the stats, as JSON."""

    scores: Mapping[Seat, int]
    winners: frozenset[Seat]
    extra: Mapping[Seat, Mapping[str, Any]] = field(default_factory=dict)


def forfeited(result: Result, gone: frozenset[Seat]) -> Result:
    """``result`` once the seats in ``gone`` (left or kicked) forfeit: they win nothing, and the best total of
    the seats still at the table wins (ties share). Scores are kept as they stand."""
    playing = [s for s in result.scores if s not in gone]
    if not gone or not playing:
        return result
    best = max(result.scores[s] for s in playing)
    return Result(result.scores, frozenset(s for s in playing if result.scores[s] == best), result.extra)


class RuleError(Exception):
    """A request the rules refuse, changing nothing.

    ``str()`` is the English sentence a player reads ("token 4 cannot move: every square ahead is
    taken"); ``key`` names it in the game's message area (``<game>.error.<key>``) and ``values`` fill it,
    so a front end can say it in another language.
    """

    def __init__(self, message: str, key: str = "rule", **values: Any) -> None:
        # A value may be what the player typed (a DM of any length): only a short excerpt is ever quoted back,
        # so every refusal fits Discord's 2,000 characters whatever was sent.
        self.key = key
        self.values = {k: excerpt(v) if isinstance(v, str) else v for k, v in values.items()}
        super().__init__(message)


QUOTE_LIMIT = 40  # characters of a player's text quoted back in a refusal


def excerpt(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a refusal may quote it: at most ``limit`` characters, an ellipsis when cut."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


# Optional: AI that starts from what the players' past games showed -----------------------------------
@dataclass(frozen=True, slots=True)
class PastGame:
    """One finished game a player played against this bot (an AI seat was at the table): what the whole
    table saw at its end, ``Game.view(final state, None)`` (public by this protocol's definition, so never a
    pending choice or a hidden sheet), and which seat in it was that player."""

    view: Any = field(repr=False)
    seat: Seat


# Each human seat of a game that starts -> that player's past games of the same kind, newest first.
History = Mapping[Seat, Sequence[PastGame]]


@runtime_checkable
class LearningGame(Protocol):
    """What a game adds so that its AI may start from the players' finished games against this bot.

    The core reads the history when the game starts (only when a seat of a level in ``ai_learning_levels``
    is at the table), asks ``ai_priors`` for what the AI should believe, stores that with the game's start
    (so that a restart, and anyone re-deriving the AI's moves for a replay, uses the very same priors), and
    hands it back to ``ai`` at every AI move. The core never looks inside the priors.
    """

    ai_learning_levels: frozenset[str]

    def ai_priors(self, history: History) -> Mapping[str, Any] | None:
        """JSON-able priors from ``history`` (None: nothing to say, the AI plays as without history)."""
        ...

    def ai(self, view: Any, seat: Seat, level: str, rng: Random,
           priors: Mapping[str, Any] | None = None) -> Action:
        """As :meth:`Game.ai`, starting from ``priors`` (what :meth:`ai_priors` gave, or None)."""
        ...


class Game(Protocol, Generic[S, V, E]):
    key: str  # "thenumber": games.kind, the command group, the message area
    title: str  # "The Number"
    seats: range  # how many seats a table may have
    options: tuple[Option, ...]
    ai_levels: tuple[str, ...]  # weakest first; tests use the first to find a legal action when legal is None

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> S:
        """A new game; ``seed`` fixes every random draw the rules make (first player, deck)."""
        ...

    def prompt(self, state: S) -> Prompt | None:
        """What the current step asks; None when the game is over."""
        ...

    def legal(self, state: S, seat: Seat) -> Sequence[Action] | None:
        """Every action ``seat`` may take now, in a stable order; None when there are too many to list."""
        ...

    def parse(self, state: S, seat: Seat, text: str) -> Action:
        """Typed input (a DM, a modal) as a canonical action, or RuleError."""
        ...

    def check(self, state: S, seat: Seat, action: Action) -> Action:
        """The canonical form of ``action`` if ``seat`` may take it now, else RuleError."""
        ...

    def chance(self, state: S, rng: Random) -> Action:
        """The outcome of a chance step (only when ``prompt(state).chance``)."""
        ...

    def apply(self, state: S, step: Step) -> tuple[S, E]:
        """The next state and what the step made public; never mutates ``state``. RuleError if illegal."""
        ...

    def timeout(self, state: S, missing: frozenset[Seat]) -> Step:
        """The rules' default actions for the awaited seats in ``missing`` when the deadline passes.

        The core merges them with the actions already in (a sealed step's drafts). A seat left out of the
        result takes no part in the step (The Number's missing player).
        """
        ...

    # Optional: ``forfeit(state, seats) -> Step``, the actions of seats that left (or were kicked) when a step
    # asks them; a game without it gets ``timeout``. Leaving forfeits: see :func:`forfeited` for the result.

    def view(self, state: S, seat: Seat | None) -> V:
        """What ``seat`` may see (None: the table, what everyone may see).

        A seat's view may define ``secrets() -> tuple[str, ...]``: what it shows that the table's view does
        not (a pending number, a hidden sheet), as text. The conformance test checks that none of it appears
        in the table's view, in another seat's view, or in an event made before it was revealed.
        """
        ...

    def result(self, state: S) -> Result | None:
        """Scores and winners once the game is over (None before)."""
        ...

    def ai(self, view: V, seat: Seat, level: str, rng: Random) -> Action:
        """An AI seat's action, from that seat's own view only."""
        ...


# Replay scripts: every game reads its own, and each refuses a key given twice (json would silently keep the
# last one, so {"a": "123", "a": "456"} would replay a choice its author never meant).
def loads_strict(text: str | bytes, error: Callable[[str], Exception]) -> object:
    """``text`` parsed as JSON; anything unreadable raises ``error(one line saying why)``."""

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise error(f"{key!r} appears twice in the same object")
            seen[key] = value
        return seen

    try:
        return json.loads(text, object_pairs_hook=unique)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise error(f"not valid JSON: {str(exc).splitlines()[0]}") from None
    except RecursionError:
        raise error("not a replay script: the JSON is nested too deeply") from None


def script_players(data: Mapping[str, Any], low: int, high: int, error: Callable[[str], Exception]) -> list[str]:
    """A replay script's ``players``: ``low`` to ``high`` distinct non-empty names; else ``error(why)``."""
    if "players" not in data:
        raise error("players: missing (the list of the players' names)")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise error("players: must be a list of non-empty names")
    if not low <= len(players) <= high:
        raise error(f"players: {low} to {high} players needed, got {len(players)}")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise error(f"players: {twice[0]!r} is listed more than once")
    return players
