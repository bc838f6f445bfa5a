"""The Number as a pure state machine: seat, choose, resolve, score.

No I/O and no clock: every function takes a state and returns a new one, so the same inputs
always give the same game. The secret part of the state (this turn's pending numbers) is kept in
one field and only :func:`secret_view` hands it out, one player at a time.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from .check import Entry, SeatResult, Status, check_turn
from .errors import BadSeating, GameOver, NotSeated, SitsOut
from .numbers import ALL_DIGITS, NUMBERS, check_available, parse_number
from .rules import MAX_SEATS, MIN_SEATS, ROUNDS, TURNS_PER_ROUND


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


_EMPTY: frozenset[int] = frozenset()
_NO_PENDING: Mapping[str, str] = MappingProxyType({})
_MISSING = Entry(None, Status.MISSING)
_EXHAUSTED = Entry(None, Status.EXHAUSTED)


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """A revealed turn: public from the moment it exists."""

    round: int
    turn: int
    results: Mapping[str, SeatResult]

    def tower(self) -> list[tuple[str, SeatResult]]:
        """Seats with a number, biggest number first (ties keep seat order)."""
        shown = [(seat, r) for seat, r in self.results.items() if r.number is not None]
        return sorted(shown, key=lambda item: -int(item[1].number or 0))


@dataclass(frozen=True, slots=True)
class GameState:
    players: tuple[str, ...]
    round: int = 1
    turn: int = 1
    finished: bool = False
    crossed: Mapping[str, frozenset[int]] = field(default_factory=dict)
    # points[player][round_index] -> the turn scores so far in that round
    points: Mapping[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    # crossed-digit count credited at each finished round's end
    round_bonus: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    history: tuple[TurnOutcome, ...] = ()
    pending: Mapping[str, str] = field(default_factory=dict)  # SECRET until the reveal

    def __repr__(self) -> str:  # never let a pending number slip into a log line or a traceback
        return (f"GameState(players={self.players!r}, round={self.round}, turn={self.turn}, "
                f"finished={self.finished}, chosen={sorted(self.pending)!r})")

    # Public, derived figures ------------------------------------------------------------------
    def available(self, player: str) -> frozenset[int]:
        return ALL_DIGITS - self.crossed[player]

    def is_exhausted(self, player: str) -> bool:
        return not self.finished and len(self.crossed[player]) == len(ALL_DIGITS)

    def round_totals(self, player: str) -> tuple[int, ...]:
        """Totals of the rounds that have ended (turn scores + crossed-digit count)."""
        return tuple(sum(self.points[player][r]) + self.round_bonus[player][r]
                     for r in range(len(self.round_bonus[player])))

    def running_total(self, player: str) -> int:
        """Everything scored so far, crossed digits counted only once their round has ended."""
        return sum(sum(turns) for turns in self.points[player]) + sum(self.round_bonus[player])

    def final_scores(self) -> dict[str, int]:
        return {p: self.running_total(p) for p in self.players}

    def winners(self) -> tuple[str, ...]:
        """Every player on the top score (ties share the win); empty until the game is over."""
        if not self.finished:
            return ()
        scores = self.final_scores()
        best = max(scores.values())
        return tuple(sorted(p for p, s in scores.items() if s == best))

    def awaiting(self, excluded: frozenset[str] = frozenset()) -> tuple[str, ...]:
        """Players the turn still waits for, in seat order (not the exhausted, not ``excluded``)."""
        if self.finished:
            return ()
        return tuple(p for p in self.players
                     if p not in self.pending and p not in excluded and not self.is_exhausted(p))


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything any player may see (the front of every board, scores, who has chosen)."""

    players: tuple[str, ...]
    round: int
    turn: int
    finished: bool
    crossed: Mapping[str, frozenset[int]]
    points: Mapping[str, tuple[tuple[int, ...], ...]]
    round_totals: Mapping[str, tuple[int, ...]]
    totals: Mapping[str, int]
    chosen: frozenset[str]
    exhausted: frozenset[str]
    history: tuple[TurnOutcome, ...]
    winners: tuple[str, ...]


def new_game(players: Sequence[str]) -> GameState:
    """Seat 2-5 distinct players, every board full."""
    seats = tuple(players)
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise BadSeating(f"The Number needs {MIN_SEATS} to {MAX_SEATS} players, not {len(seats)}")
    if len(set(seats)) != len(seats):
        raise BadSeating("each player can take only one seat")
    return GameState(
        players=seats,
        crossed=_frozen({p: frozenset() for p in seats}),
        points=_frozen({p: ((),) for p in seats}),
        round_bonus=_frozen({p: () for p in seats}),
        pending=_frozen({}),
    )


def _check_can_choose(state: GameState, player: str) -> None:
    if state.finished:
        raise GameOver()
    if player not in state.crossed:
        raise NotSeated(player)
    if state.is_exhausted(player):
        raise SitsOut(player)


def validate_choice(state: GameState, player: str, text: str) -> str:
    """The canonical number ``player`` may play now, or a typed error; the state is untouched."""
    _check_can_choose(state, player)
    number = parse_number(text)
    check_available(number, state.crossed[player])
    return number


def choose(state: GameState, player: str, text: str) -> GameState:
    """Record (or replace) a player's secret number for this turn, refusing crossed-off digits."""
    number = validate_choice(state, player, text)
    return replace(state, pending=_frozen({**state.pending, player: number}))


def withdraw(state: GameState, player: str) -> GameState:
    """Forget a player's pending number (a kicked player, say)."""
    if player not in state.pending:
        return state
    return replace(state, pending=_frozen({p: n for p, n in state.pending.items() if p != player}))


def resolve_turn(state: GameState) -> tuple[GameState, TurnOutcome]:
    """Reveal this turn's pending numbers; whoever has none is missing (or exhausted)."""
    return play_turn(state, state.pending)


def play_turn(state: GameState, numbers: Mapping[str, str | None]) -> tuple[GameState, TurnOutcome]:
    """Resolve a turn from canonical numbers, with the table rule for crossed-off digits.

    A number that uses a crossed-off digit is ``invalid`` (out before the check, crosses nothing);
    a player absent from ``numbers`` is ``missing``; a player with no digit left is ``exhausted``
    whatever ``numbers`` says.
    """
    if state.finished:
        raise GameOver()
    for player in numbers:
        if player not in state.crossed:
            raise NotSeated(player)
    entries: dict[str, Entry] = {}
    for p in state.players:
        number = numbers.get(p)
        crossed = state.crossed[p]
        if len(crossed) == len(ALL_DIGITS):
            entries[p] = _EXHAUSTED
        elif number is None:
            entries[p] = _MISSING
        else:
            number = parse_number(number)
            entries[p] = Entry(number, Status.INVALID if NUMBERS[number][2] & crossed else None)
    results = check_turn(state.turn, entries)
    outcome = TurnOutcome(state.round, state.turn, MappingProxyType(results))

    crossed_after = {p: state.crossed[p] | results[p].crossed for p in state.players}
    r = state.round - 1
    points = {p: (*state.points[p][:r], (*state.points[p][r], results[p].points)) for p in state.players}
    round_bonus = state.round_bonus
    next_round, next_turn, finished = state.round, state.turn + 1, False
    if state.turn == TURNS_PER_ROUND:
        round_bonus = MappingProxyType({p: (*round_bonus[p], len(crossed_after[p])) for p in state.players})
        if state.round == ROUNDS:
            finished, next_turn = True, state.turn
        else:
            next_round, next_turn = state.round + 1, 1
            crossed_after = {p: _EMPTY for p in state.players}
            points = {p: (*points[p], ()) for p in state.players}
    # Built directly (not dataclasses.replace, and no defensive copies of dicts made just above): this
    # is the engine's hot path, also run for every game when the bot restarts.
    new_state = GameState(state.players, next_round, next_turn, finished, MappingProxyType(crossed_after),
                          MappingProxyType(points), round_bonus, (*state.history, outcome), _NO_PENDING)
    return new_state, outcome


def public_view(state: GameState) -> PublicView:
    return PublicView(
        players=state.players,
        round=state.round,
        turn=state.turn,
        finished=state.finished,
        crossed=state.crossed,
        points=state.points,
        round_totals=_frozen({p: state.round_totals(p) for p in state.players}),
        totals=_frozen(state.final_scores()),
        chosen=frozenset(state.pending),
        exhausted=frozenset(p for p in state.players if state.is_exhausted(p)),
        history=state.history,
        winners=state.winners(),
    )


def secret_view(state: GameState, player: str) -> str | None:
    """The pending number of ``player``: to be shown to that player only."""
    return state.pending.get(player)
