"""What one seat, or the whole table, may see of a Binomial game.

The table's view holds public facts only: cards won, points, numbers revealed in fights, how many unused
numbers each seat has, who declared fight or pass this round. A seat's view adds its own sheet and its
own pick. Every sheet is shown to all once the game (or the match) is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import Fight, GameRecord, Sheet, State, Variants
from .rules import CARD_BY_KEY, CARD_KEYS


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    seats: int
    variants: Variants
    games: int
    game: int  # 1-based
    chairman: int
    rolls: tuple[int, ...]  # this game's rolls (every sheet holds exactly these digits)
    kind: str | None  # roll, place, declare, pick; None when over
    to_act: frozenset[int]
    round: int  # the colloquium round (1-based), 0 during numerology
    card: str | None  # the face-up card
    unplayed: tuple[str, ...]  # cards still in the deck after the face-up one, in table order (not deck order)
    declared: tuple[tuple[int, bool], ...]  # this round so far: (seat, fights)
    history: tuple[Fight, ...]  # this game's rounds
    scores: tuple[int, ...]  # this game
    totals: tuple[int, ...]  # the match
    unused: tuple[int, ...]  # how many unused numbers each seat has
    revealed: tuple[tuple[int, ...], ...]  # per seat, the numbers it fought with this game
    won: tuple[tuple[str, ...], ...]  # per seat, the cards it took this game
    past: tuple[GameRecord, ...]  # earlier games of the match (public once finished)
    over: bool
    sheet: Sheet | None = None  # the viewer's own sheet
    pick: int | None = None  # the viewer's own number declared this round (normal variant)
    sheets: tuple[Sheet, ...] | None = None  # every sheet, once the game is over

    @property
    def pending(self) -> int | None:
        return self.rolls[-1] if self.kind == "place" else None


def view_of(state: State, seat: int | None) -> View:
    deck = state.decks[state.game]
    played = len(state.history) + (0 if state.numerology or state.over else 1)
    later = set(deck[played:])
    revealed = [[] for _ in range(state.seats)]  # type: list[list[int]]
    won = [[] for _ in range(state.seats)]  # type: list[list[str]]
    for f in state.history:
        for s, n in f.fighters:
            revealed[s].append(n)
        if f.winner is not None:
            won[f.winner].append(f.card)
    own_pick = None
    if seat is not None:
        own_pick = next((n for s, n in state.declared if s == seat), None)
    card = state.card
    return View(
        seat=seat, seats=state.seats, variants=state.variants, games=state.games, game=state.game + 1,
        chairman=state.chairman, rolls=state.rolls, kind=state.kind, to_act=state.to_act, round=state.round,
        card=card.key if card else None, unplayed=tuple(k for k in CARD_KEYS if k in later),
        declared=tuple((s, n is not None) for s, n in state.declared), history=state.history,
        scores=state.scores, totals=state.totals, unused=tuple(sh.unused_count for sh in state.sheets),
        revealed=tuple(map(tuple, revealed)), won=tuple(map(tuple, won)),
        past=state.finished[:-1] if state.over else state.finished, over=state.over,
        sheet=state.sheets[seat] if seat is not None else None, pick=own_pick,
        sheets=state.sheets if state.over else None,
    )


def fitting(view: View) -> tuple[int, ...]:
    """The viewer's unused numbers that fit the face-up card, distinct, ascending."""
    if view.sheet is None or view.card is None:
        return ()
    card = CARD_BY_KEY[view.card]
    return tuple(sorted({n for n in view.sheet.unused if card.fits(n)}))
