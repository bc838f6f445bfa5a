"""The Binomial rules engine: immutable state, one function per kind of step, no I/O.

Stage 1 (numerology): 16 rolls; after each, every seat writes the digit in a free cell (a sealed step).
Stage 2 (colloquium): the top card of the shuffled deck; declarations from the chairman in seat order (or,
in the dark, all at once); the reveal (:func:`resolve`). A match plays several games with points added up.
Seats are 0..n-1. Numbers are ints 0-99 (written with two digits); cells are indexes 0-15 (``1a`` .. ``8b``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from .errors import (
    BadSetup,
    CellTaken,
    DoesNotFit,
    GameOver,
    NothingFits,
    NotOnSheet,
    NotYourTurn,
    NumberUsed,
    WrongStep,
)
from .rules import (
    CARD_BY_KEY,
    CARD_KEYS,
    CELLS,
    DIE,
    MATCH_GAMES,
    NUMBERS_PER_SHEET,
    REWARD_MIN_FIGHTERS,
    REWARD_POINTS,
    ROLLS,
    SAME_BOAT_SEATS,
    SEATS,
    Card,
)

_EMPTY_CELLS: tuple[int | None, ...] = (None,) * ROLLS
_UNUSED: tuple[int, ...] = (0,) * NUMBERS_PER_SHEET


@dataclass(frozen=True, slots=True)
class Variants:
    dark: bool = False
    reward_for_fighting: bool = False
    openness: bool = False
    same_boat: bool = False


@dataclass(frozen=True, slots=True)
class Sheet:
    """16 cells (a digit or None) and, per number 1-8, the round it was used in (0: unused)."""

    cells: tuple[int | None, ...] = _EMPTY_CELLS
    used: tuple[int, ...] = _UNUSED

    def number(self, k: int) -> int | None:
        a, b = self.cells[2 * k], self.cells[2 * k + 1]
        return None if a is None or b is None else 10 * a + b

    @property
    def numbers(self) -> tuple[int | None, ...]:
        return tuple(self.number(k) for k in range(NUMBERS_PER_SHEET))

    @property
    def free_cells(self) -> tuple[int, ...]:
        return tuple(i for i, d in enumerate(self.cells) if d is None)

    @property
    def unused(self) -> tuple[int, ...]:
        """Unused numbers in sheet order, each copy separately."""
        return tuple(n for n, r in zip(self.numbers, self.used, strict=True) if n is not None and r == 0)

    @property
    def unused_count(self) -> int:
        return self.used.count(0)

    def place(self, cell: int, digit: int) -> Sheet:
        if self.cells[cell] is not None:
            raise CellTaken(CELLS[cell])
        return replace(self, cells=(*self.cells[:cell], digit, *self.cells[cell + 1:]))

    def check_unused(self, n: int) -> int:
        """The index of the first unused copy of ``n``; NotOnSheet or NumberUsed otherwise."""
        numbers = self.numbers
        copies = [k for k in range(NUMBERS_PER_SHEET) if numbers[k] == n]
        if not copies:
            raise NotOnSheet(n)
        for k in copies:
            if self.used[k] == 0:
                return k
        raise NumberUsed(n, max(self.used[k] for k in copies))

    def use(self, n: int, round_no: int) -> Sheet:
        k = self.check_unused(n)
        return replace(self, used=(*self.used[:k], round_no, *self.used[k + 1:]))


@dataclass(frozen=True, slots=True)
class Outcome:
    """A reveal: what dropped out, who owns the card, what each seat scored."""

    unfit: tuple[int, ...]  # seats whose number did not fit, sorted
    cancelled: tuple[int, ...]  # numbers picked by two or more fitting fighters, each once, sorted
    winner: int | None  # the card's owner (the new chairman)
    points: tuple[int, ...]  # per seat


def resolve(card: Card, fighters: Sequence[tuple[int, int]], variants: Variants, seats: int) -> Outcome:
    """The reveal of RULES.md: unfit numbers drop out, identical numbers cancel, the best by the measure
    (ties: the largest number) wins X or the card's points; "in the same boat" read literally."""
    x = len(fighters)  # cancelled and unfit fighters count for X
    unfit = tuple(sorted(s for s, n in fighters if not card.fits(n)))
    fit = [(s, n) for s, n in fighters if card.fits(n)]
    copies = Counter(n for _, n in fit)
    cancelled = tuple(sorted(n for n, c in copies.items() if c > 1))
    left = [(s, n) for s, n in fit if copies[n] == 1]
    points = [0] * seats
    if not left:
        return Outcome(unfit, cancelled, None, tuple(points))
    worth = card.worth(x)
    bonus = REWARD_POINTS if variants.reward_for_fighting and x >= REWARD_MIN_FIGHTERS else 0
    if variants.same_boat:
        owner = max(left, key=lambda sn: sn[1])[0]  # the largest number, whatever the card's measure
        for s, _ in (left if cancelled else [(owner, 0)]):
            points[s] += worth
    else:
        owner = max(left, key=lambda sn: card.rank(sn[1]))[0]
        points[owner] += worth
    points[owner] += bonus
    return Outcome(unfit, cancelled, owner, tuple(points))


@dataclass(frozen=True, slots=True)
class Fight:
    """One colloquium round, as revealed to the table."""

    game: int  # 1-based, within the match
    round: int  # 1-based, within the game
    card: str
    fighters: tuple[tuple[int, int], ...]  # (seat, number) in declaration order
    passed: tuple[int, ...]
    unfit: tuple[int, ...]
    cancelled: tuple[int, ...]
    winner: int | None
    points: tuple[int, ...]  # what each seat scored this round
    chairman: int  # after the round
    scores: tuple[int, ...]  # the game's scores after the round
    last_number: tuple[int, ...] = ()  # openness: seats just down to their last unused number
    game_over: bool = False
    sheets: tuple[tuple[int, ...], ...] | None = None  # every sheet's numbers, once the game is over


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game of a match: everything about it is public."""

    scores: tuple[int, ...]
    sheets: tuple[Sheet, ...]
    history: tuple[Fight, ...]


@dataclass(frozen=True, slots=True)
class Rolled:
    game: int
    roll: int  # 1-based
    digit: int


@dataclass(frozen=True, slots=True)
class Placed:
    game: int
    roll: int
    digit: int
    seats: tuple[int, ...]  # who placed it (where stays secret)


@dataclass(frozen=True, slots=True)
class Declared:
    game: int
    round: int
    seat: int
    fight: bool  # the number stays secret until the reveal


Event = Rolled | Placed | Declared | Fight


@dataclass(frozen=True, slots=True)
class State:
    seats: int
    variants: Variants
    decks: tuple[tuple[str, ...], ...]  # one shuffled deck per game of the match, top first
    chairman: int
    sheets: tuple[Sheet, ...]
    scores: tuple[int, ...]  # this game
    game: int = 0  # index into ``decks``
    rolls: tuple[int, ...] = ()
    pending: int | None = None  # the digit rolled and not yet placed
    history: tuple[Fight, ...] = ()  # this game's rounds
    declared: tuple[tuple[int, int | None], ...] = ()  # this round so far: (seat, number or None for pass)
    finished: tuple[GameRecord, ...] = ()
    over: bool = False
    gone: frozenset[int] = frozenset()  # seats that left the game (or were kicked): they play no more

    @property
    def games(self) -> int:
        return len(self.decks)

    @property
    def numerology(self) -> bool:
        return len(self.rolls) < ROLLS or self.pending is not None

    @property
    def round(self) -> int:
        """The colloquium round being played (1-based); 0 during numerology."""
        return 0 if self.numerology else len(self.history) + 1

    @property
    def card(self) -> Card | None:
        if self.over or self.numerology:
            return None
        return CARD_BY_KEY[self.decks[self.game][len(self.history)]]

    @property
    def kind(self) -> str | None:
        if self.over:
            return None
        if self.pending is not None:
            return "place"
        if len(self.rolls) < ROLLS:
            return "roll"
        return "pick" if self.variants.dark else "declare"

    def order(self) -> tuple[int, ...]:
        """Declaring order: from the chairman, or, once a round's declarations began, from the seat that declared
        first (the chairman then; the chairmanship may pass on meanwhile when the chairman leaves)."""
        first = self.declared[0][0] if self.declared else self.chairman
        return tuple((first + i) % self.seats for i in range(self.seats))

    @property
    def to_act(self) -> frozenset[int]:
        kind = self.kind
        if kind in ("place", "pick"):
            return frozenset(range(self.seats))
        if kind == "declare":
            return frozenset({self.order()[len(self.declared)]})
        return frozenset()

    @property
    def totals(self) -> tuple[int, ...]:
        """Match totals: finished games plus the game in progress."""
        games = [g.scores for g in self.finished]
        if not self.over:
            games.append(self.scores)
        return tuple(sum(col) for col in zip(*games, strict=True)) if games else self.scores

    def winners(self) -> frozenset[int]:
        totals = self.totals
        best = max(totals)
        return frozenset(s for s, t in enumerate(totals) if t == best)


def new_game(seats: int, variants: Variants = Variants(), decks: Iterable[Sequence[str]] | None = None,
             chairman: int = 0, games: int = 1) -> State:
    """A fresh table; ``decks`` (top first, one per game) default to the cards in table order."""
    if seats not in SEATS:
        raise BadSetup(f"Binomial needs {SEATS.start} to {SEATS.stop - 1} players, not {seats}")
    if variants.same_boat and seats not in SAME_BOAT_SEATS:
        raise BadSetup(f"'in the same boat' needs {SAME_BOAT_SEATS.start} or more players, not {seats}")
    if not 0 <= chairman < seats:
        raise BadSetup(f"the chairman must be one of the {seats} seats")
    deck_list = [tuple(d) for d in decks] if decks is not None else [CARD_KEYS] * games
    for deck in deck_list:
        if sorted(deck) != sorted(CARD_KEYS):
            raise BadSetup("a deck must hold each of the 16 postulate cards once")
    if not deck_list:
        raise BadSetup("a match needs at least one game")
    return State(seats, variants, tuple(deck_list), chairman, (Sheet(),) * seats, (0,) * seats)


def still_playing(chairman: int, seats: int, gone: Iterable[int]) -> int:
    """Who holds the chairmanship: ``chairman``, or when that seat has left, the next seat in declaring order
    still playing (RULES: a seat that left cannot chair). Everyone gone: ``chairman`` (the game is over then)."""
    out = frozenset(gone)
    return next((s for s in ((chairman + i) % seats for i in range(seats)) if s not in out), chairman)


def leave(state: State, seats: Iterable[int]) -> State:
    """``seats`` left the game (their forfeit was just applied): they play no more, and a chairman among them
    passes the chairmanship on at once."""
    gone = state.gone | frozenset(seats)
    if gone == state.gone:
        return state
    return replace(state, gone=gone, chairman=still_playing(state.chairman, state.seats, gone))


def _expect(state: State, kind: str) -> None:
    if state.over:
        raise GameOver()
    if state.kind != kind:
        raise WrongStep(state.kind or "roll")


def roll(state: State, digit: int) -> tuple[State, Rolled]:
    _expect(state, "roll")
    if isinstance(digit, bool) or digit not in DIE:
        raise WrongStep("roll")
    new = replace(state, rolls=(*state.rolls, digit), pending=digit)
    return new, Rolled(state.game + 1, len(new.rolls), digit)


def first_free(sheet: Sheet) -> int:
    return sheet.free_cells[0]


def place(state: State, cells: Mapping[int, int]) -> tuple[State, Placed]:
    """Every seat's cell for the pending digit; a seat left out gets its first free cell (the timeout rule)."""
    _expect(state, "place")
    assert state.pending is not None
    for seat in cells:
        if seat not in range(state.seats):
            raise NotYourTurn("place")
    sheets = tuple(sheet.place(cells.get(seat, first_free(sheet)), state.pending)
                   for seat, sheet in enumerate(state.sheets))
    new = replace(state, sheets=sheets, pending=None)
    return new, Placed(state.game + 1, len(state.rolls), state.pending, tuple(range(state.seats)))


def check_pick(state: State, seat: int, number: int | None, *, table_rule: bool = False) -> None:
    """Refuse a number the seat may not fight with now (``table_rule``: an unfit number is allowed)."""
    card = state.card
    if number is None or card is None:
        return
    state.sheets[seat].check_unused(number)
    if not table_rule and not card.fits(number):
        if not any(card.fits(n) for n in state.sheets[seat].unused):
            raise NothingFits(card)
        raise DoesNotFit(number, card)


def declare(state: State, seat: int, number: int | None) -> tuple[State, Declared | Fight]:
    """The seat whose turn it is fights with ``number`` or passes (None); the last declaration reveals."""
    _expect(state, "declare")
    if seat not in state.to_act:
        raise NotYourTurn("declare")
    check_pick(state, seat, number)
    declared = (*state.declared, (seat, number))
    if len(declared) < state.seats:
        return replace(state, declared=declared), Declared(state.game + 1, state.round, seat, number is not None)
    return play_round(state, dict(declared))


def pick_all(state: State, picks: Mapping[int, int | None]) -> tuple[State, Fight]:
    """The dark variant: every seat's number or pass at once (a seat left out passes)."""
    _expect(state, "pick")
    for seat, number in picks.items():
        if seat not in range(state.seats):
            raise NotYourTurn("pick")
        check_pick(state, seat, number)
    return play_round(state, picks)


def play_round(state: State, picks: Mapping[int, int | None], *, table_rule: bool = False) -> tuple[State, Fight]:
    """Reveal the round: ``picks`` maps seats to a number or None (pass); missing seats pass."""
    if state.over:
        raise GameOver()
    card = state.card
    if card is None:
        raise WrongStep(state.kind or "roll")
    for seat, number in picks.items():
        check_pick(state, seat, number, table_rule=table_rule)
    order = state.order()
    fighters = tuple((s, n) for s in order if (n := picks.get(s)) is not None)
    passed = tuple(s for s in order if picks.get(s) is None)
    outcome = resolve(card, fighters, state.variants, state.seats)
    round_no = len(state.history) + 1
    sheets = list(state.sheets)
    for s, n in fighters:
        sheets[s] = sheets[s].use(n, round_no)
    scores = tuple(a + b for a, b in zip(state.scores, outcome.points, strict=True))
    chairman = still_playing(state.chairman if outcome.winner is None else outcome.winner, state.seats, state.gone)
    fought = {s for s, _ in fighters}
    last = tuple(s for s in sorted(fought) if sheets[s].unused_count == 1) if state.variants.openness else ()
    ended = round_no == len(state.decks[state.game]) or any(sh.unused_count == 0 for sh in sheets)
    fight = Fight(state.game + 1, round_no, card.key, fighters, passed, outcome.unfit, outcome.cancelled,
                  outcome.winner, outcome.points, chairman, scores, last, ended,
                  tuple(tuple(n for n in sh.numbers if n is not None) for sh in sheets) if ended else None)
    new = replace(state, sheets=tuple(sheets), scores=scores, chairman=chairman,
                  history=(*state.history, fight), declared=())
    if ended:
        new = _end_game(new)
    return new, fight


def _end_game(state: State) -> State:
    record = GameRecord(state.scores, state.sheets, state.history)
    finished = (*state.finished, record)
    if len(finished) == state.games:
        return replace(state, finished=finished, over=True)
    # The next game of the match: fresh sheets and rolls, the next deck; the chairman token stays.
    return replace(state, finished=finished, game=state.game + 1, rolls=(), pending=None, history=(),
                   sheets=(Sheet(),) * state.seats, scores=(0,) * state.seats)


@dataclass(frozen=True, slots=True)
class SeatStats:
    cards_won: int = 0
    fights: int = 0
    fights_won: int = 0
    points_by_card: Mapping[str, int] = field(default_factory=dict)


def seat_stats(state: State, seat: int) -> SeatStats:
    """Cards taken, fights declared, fights that scored, and points per card, over the whole match."""
    rounds = [f for g in state.finished for f in g.history]
    if not state.over:
        rounds += state.history
    by_card: dict[str, int] = {}
    cards = fights = scored = 0
    for f in rounds:
        cards += f.winner == seat
        fights += any(s == seat for s, _ in f.fighters)
        scored += f.points[seat] > 0
        if f.points[seat]:
            by_card[f.card] = by_card.get(f.card, 0) + f.points[seat]
    return SeatStats(cards, fights, scored, by_card)


def match_games(match: bool | int) -> int:
    """The ``match`` option as a number of games: True -> three, False -> one, an int as given."""
    if isinstance(match, bool):
        return MATCH_GAMES if match else 1
    return int(match)
