"""Binomial as the core's ``Game``: prompts, actions, views and results over the pure engine.

Actions: ``{"cell": "3b"}`` while placing; ``{"fight": False}`` or ``{"fight": True, "number": "44"}``
while declaring (one seat at a time, open) or picking (the dark variant, sealed). A declaration's number is
kept in the state but never in ``view(state, None)`` nor in an event before the reveal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from bot.core.game import Action, History, Option, Prompt, Result, Seat, Step

from . import engine
from .ai_hard import past_fight_prior
from .ai_levels import decide
from .engine import Event, State, Variants
from .errors import BadCell, BadNumber, BadSetup, GameOver, NotYourTurn, WrongStep
from .rules import CELLS, DIE, GAME_KEY, MATCH_GAMES, SAME_BOAT_SEATS, SEATS, TITLE, TURN_SECONDS, show
from .view import View, view_of

_NUMBER = re.compile(r"(?:fight\s+)?([0-9]{2})")
_PASS_WORDS = frozenset({"pass", "p", "-"})
VARIANT_OPTIONS = ("dark", "reward_for_fighting", "openness", "same_boat")
FRONT_END_OPTIONS = frozenset({"language"})  # stored with the table's options by the Discord front end


def _number_of(action: Action) -> int | None:
    """The number of a declare/pick action (None: pass); BadNumber for anything else."""
    if not isinstance(action, Mapping) or not isinstance(action.get("fight"), bool):
        raise BadNumber(str(action))
    if not action["fight"]:
        return None
    text = action.get("number")
    if not isinstance(text, str) or not re.fullmatch(r"[0-9]{2}", text):
        raise BadNumber(str(text))
    return int(text)


def _cell_of(action: Action) -> int:
    cell = action.get("cell") if isinstance(action, Mapping) else None
    if not isinstance(cell, str) or cell not in CELLS:
        raise BadCell(str(cell))
    return CELLS.index(cell)


def fight(number: int) -> dict[str, Any]:
    return {"fight": True, "number": show(number)}


PASS: Mapping[str, Any] = {"fight": False}
# The mark of a forfeit (a seat that left or was kicked) on its action in the log: folded, it takes the seat out
# of the game for good (engine.leave). Logs written before it simply have no such mark.
LEFT = "left"


class BinomialGame:
    key = GAME_KEY
    title = TITLE
    seats = SEATS
    options = (
        TURN_SECONDS,
        Option("dark", False),
        Option("reward_for_fighting", False),
        Option("openness", False),
        Option("same_boat", False, seats=SAME_BOAT_SEATS),
        Option("match", False),  # True: a match of three games, points added up
        # no auto_play (bot.core.game.AUTO_PLAY): a declaration is forced only by a secret sheet
    )
    ai_levels = ("easy", "normal", "hard")
    # Only hard models its opponents (how often each fights): only a table with a hard seat reads past games.
    ai_learning_levels = frozenset({"hard"})

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        known = {o.name for o in self.options} | FRONT_END_OPTIONS
        unknown = sorted(set(options) - known)
        if unknown:
            raise BadSetup(f"unknown option {unknown[0]!r}")
        variants = Variants(**{k: bool(options.get(k, False)) for k in VARIANT_OPTIONS})
        match = options.get("match", False)
        games = engine.match_games(match)
        if not 1 <= games <= MATCH_GAMES:
            raise BadSetup(f"a match is 1 to {MATCH_GAMES} games, not {games}")
        rng = Random(seed)
        chairman = rng.randrange(seats) if seats in SEATS else 0
        decks = [tuple(rng.sample(list(engine.CARD_KEYS), len(engine.CARD_KEYS))) for _ in range(games)]
        return engine.new_game(seats, variants, decks, chairman)

    def prompt(self, state: State) -> Prompt | None:
        kind = state.kind
        if kind is None:
            return None
        return Prompt(state.to_act, kind, sealed=kind in ("place", "pick"), chance=kind == "roll")

    def legal(self, state: State, seat: Seat) -> Sequence[Action] | None:
        if seat not in state.to_act:
            return []
        if state.kind == "place":
            return [{"cell": CELLS[i]} for i in state.sheets[seat].free_cells]
        card = state.card
        assert card is not None
        numbers = sorted({n for n in state.sheets[seat].unused if card.fits(n)})
        return [dict(PASS), *(fight(n) for n in numbers)]

    def parse(self, state: State, seat: Seat, text: str) -> Action:
        # NFKC as every game reads typed text: full-width "３ｂ" is 3b
        word = " ".join(unicodedata.normalize("NFKC", text).strip().lower().split())
        if state.kind == "place":
            return self.check(state, seat, {"cell": word})
        if state.kind in ("declare", "pick"):
            if word in _PASS_WORDS:
                return self.check(state, seat, PASS)
            match = _NUMBER.fullmatch(word)
            if match is None:
                raise BadNumber(text)
            return self.check(state, seat, fight(int(match.group(1))))
        raise GameOver() if state.over else WrongStep("roll")

    def check(self, state: State, seat: Seat, action: Action) -> Action:
        kind = state.kind
        if kind is None:
            raise GameOver()
        if kind == "roll":
            raise WrongStep("roll")
        if seat not in state.to_act:
            raise NotYourTurn(kind)
        if kind == "place":
            cell = _cell_of(action)
            state.sheets[seat].place(cell, 0)  # raises CellTaken
            return {"cell": CELLS[cell]}
        number = _number_of(action)
        engine.check_pick(state, seat, number)
        return dict(PASS) if number is None else fight(number)

    def chance(self, state: State, rng: Random) -> Action:
        return {"digit": rng.choice(DIE)}

    def apply(self, state: State, step: Step) -> tuple[State, Event]:
        kind = state.kind
        if kind is None:
            raise GameOver()
        if kind == "roll":
            action = step.get(None)
            digit = action.get("digit") if isinstance(action, Mapping) else None
            if not isinstance(digit, int):
                raise WrongStep("roll")
            return engine.roll(state, digit)
        actions = {seat: a for seat, a in step.items() if seat is not None}
        for seat in actions:
            if seat not in state.to_act:
                raise NotYourTurn(kind)
        after: State
        event: Event
        if kind == "place":
            after, event = engine.place(state, {seat: _cell_of(a) for seat, a in actions.items()})
        elif kind == "pick":
            after, event = engine.pick_all(state, {seat: _number_of(a) for seat, a in actions.items()})
        else:
            (seat,) = state.to_act
            if seat not in actions:
                raise NotYourTurn("declare")
            after, event = engine.declare(state, seat, _number_of(actions[seat]))
        # the seats that left are out once their forfeit is applied (the round they were in is played first)
        return engine.leave(after, (s for s, a in actions.items() if a.get(LEFT) is True)), event

    def timeout(self, state: State, missing: frozenset[Seat]) -> Step:
        if state.kind == "place":
            return {s: {"cell": CELLS[engine.first_free(state.sheets[s])]} for s in missing}
        if state.kind in ("declare", "pick"):
            return {s: dict(PASS) for s in missing}
        return {}

    def forfeit(self, state: State, seats: frozenset[Seat]) -> Step:
        """Seats that left or were kicked: the deadline's default (first free cell, pass), marked as a forfeit so
        that the engine takes them out (a chairman among them passes the chairmanship on)."""
        return {s: {**action, LEFT: True} for s, action in self.timeout(state, seats).items()}

    def view(self, state: State, seat: Seat | None) -> View:
        return view_of(state, seat)

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        extra = {}
        for seat in range(state.seats):
            st = engine.seat_stats(state, seat)
            extra[seat] = {"cards_won": st.cards_won, "fights": st.fights, "fights_won": st.fights_won,
                           "points_by_card": dict(st.points_by_card)}
        return Result(dict(enumerate(state.totals)), state.winners(), extra)

    def ai_priors(self, history: History) -> dict[str, dict[str, int]] | None:
        """How often each human fought in their past games: rounds played and rounds fought, by seat now.

        Only the revealed picks are read (who fought which card), never a sheet, though a finished game's
        view shows every sheet."""
        found = {}
        for seat, games in history.items():
            rounds = fights = 0
            for past in games:
                view: View = past.view
                for fight in (*(f for g in view.past for f in g.history), *view.history):
                    rounds += 1
                    fights += any(s == past.seat for s, _ in fight.fighters)
            if rounds:
                found[str(seat)] = {"rounds": rounds, "fights": fights}
        return found or None

    def ai(self, view: View, seat: Seat, level: str, rng: Random, priors: Mapping[str, Any] | None = None
           ) -> Action:
        return decide(view, seat, level, rng, fight_priors(priors))


def fight_priors(priors: object) -> dict[int, tuple[float, float]] | None:
    """Stored priors (``ai_priors``) as hard's prior fight rate per seat; anything malformed is left out."""
    if not isinstance(priors, Mapping):
        return None
    found = {}
    for key, counts in priors.items():
        if not (isinstance(key, str) and key.isdigit() and isinstance(counts, Mapping)):
            continue
        rounds, fights = counts.get("rounds"), counts.get("fights")
        if (isinstance(rounds, int) and isinstance(fights, int) and not isinstance(rounds, bool)
                and not isinstance(fights, bool) and 0 <= fights <= rounds and rounds > 0):
            found[int(key)] = past_fight_prior(rounds, fights)
    return found or None


GAME = BinomialGame()
