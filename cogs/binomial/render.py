"""Binomial's presenter for the shared front end: texts and embeds from views and events.

Secrecy: everything drawn for the channel comes from the table's view (``view(state, None)``) or from
events, which never hold an unused number; a seat's own view reaches only that seat's private answers
(``inputs`` of a sealed step, ``ack_for``, ``timed_out``, ``sheet``). Sheet numbers are always written
with :func:`num` (two digits in code style), so a test can look for them everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core.game import Action, Prompt, RuleError, Seat
from bot.games.binomial.engine import Declared, Fight, Placed, Sheet, still_playing
from bot.games.binomial.rules import CARD_BY_KEY, CELLS, MAX_SEATS, MIN_SEATS, NUMBERS_PER_SHEET, ROLLS, show
from bot.games.binomial.view import View, fitting
from bot.i18n import catalog, t
from cogs.seats import AI_MARK
from cogs.table.presenter import Card, Choice, Happened, Inputs, Presenter, SeatInfo, who

KEY = "binomial"
VARIANTS = ("dark", "reward_for_fighting", "openness", "same_boat", "match")


def num(n: int) -> str:
    """A sheet number as every message writes it."""
    return f"`{show(n)}`"


def info(seats: Sequence[SeatInfo], seat: int) -> SeatInfo | None:
    return next((s for s in seats if s.seat == seat), None)


def name(seats: Sequence[SeatInfo], seat: int) -> str:
    found = info(seats, seat)
    return found.name if found else str(seat + 1)


def plain(seat: SeatInfo) -> str:
    """A seat's name without its symbol, an AI's marked once ("Ada 🤖")."""
    return seat.name + (AI_MARK if seat.is_ai else "")


def gone(seats: Sequence[SeatInfo], seat: int) -> bool:
    found = info(seats, seat)
    return found is not None and found.gone


def chair(seats: Sequence[SeatInfo], chairman: int, count: int) -> str:
    """The chairman's name: a seat still playing. One that left passes the chairmanship on (engine.still_playing),
    shown at once, before the engine applies its forfeit when a step next asks it."""
    return who(seats, still_playing(chairman, count, (s.seat for s in seats if s.gone)))


def who_marked(seats: Sequence[SeatInfo], seat: int, lang: str) -> str:
    """A seat's name, marked when it has left the game (it passes every card and can win nothing)."""
    return who(seats, seat) + (t("binomial.left", lang) if gone(seats, seat) else "")


def declared_line(seats: Sequence[SeatInfo], seat: int, fights: bool, lang: str) -> str:
    if gone(seats, seat):
        return t("binomial.round.left", lang, name=who(seats, seat))
    return t("binomial.round.fights" if fights else "binomial.round.passes", lang, name=who(seats, seat))


def card_title(key: str, lang: str) -> str:
    return t(f"binomial.card.{key}", lang)


def card_line(key: str, lang: str) -> str:
    """A card with what fits and its points."""
    card = CARD_BY_KEY[key]
    points = t("binomial.points.x", lang) if card.points is None else t("binomial.points.n", lang, n=card.points)
    return t("binomial.card.line", lang, card=card_title(key, lang), fits=t(f"binomial.fits.{key}", lang),
             points=points)


def game_of(view: View, lang: str) -> str:
    """" · game 2 of 3" in a match's titles; nothing in a single game (no "game 1" outside a match)."""
    return t("binomial.game_of", lang, game=view.game, games=view.games) if view.games > 1 else ""


def scores_line(scores: Sequence[int], seats: Sequence[SeatInfo], lang: str) -> str:
    return t("binomial.scores", lang, scores=" · ".join(f"{who(seats, s)} {p}" for s, p in enumerate(scores)))


def reveal_text(fight: Fight, seats: Sequence[SeatInfo], lang: str, *, after: View | None = None,
                heading: bool = True) -> str:
    """A round's reveal: every fighter's number, what dropped out, the winner, the points, chairman, scores.
    ``heading``: it opens with "Reveal of round N" (told inside another message); without it, under a title that
    names the round already, it opens with the card and its rule. The end of a game of a match is said, with every
    sheet, only when another game follows (the final message shows the last game's sheets)."""
    head = (t("binomial.reveal.title", lang, round=fight.round, card=card_line(fight.card, lang)) if heading
            else card_line(fight.card, lang))
    lines = [head]
    if fight.fighters:
        lines.append(t("binomial.reveal.fighters", lang,
                       fighters=", ".join(f"{who(seats, s)} {num(n)}" for s, n in fight.fighters)))
    else:
        lines.append(t("binomial.reveal.nobody_fought", lang))
    if fight.passed:
        lines.append(t("binomial.reveal.passed", lang, names=", ".join(who_marked(seats, s, lang)
                                                                       for s in fight.passed)))
    if fight.cancelled:
        lines.append(t("binomial.reveal.cancelled", lang, numbers=", ".join(num(n) for n in fight.cancelled)))
    if fight.unfit:
        lines.append(t("binomial.reveal.unfit", lang, names=", ".join(who(seats, s) for s in fight.unfit)))
    if fight.winner is not None:
        number = next(n for s, n in fight.fighters if s == fight.winner)
        lines.append(t("binomial.reveal.winner", lang, name=who(seats, fight.winner), number=num(number),
                       points=fight.points[fight.winner]))
        others = [s for s, p in enumerate(fight.points) if p and s != fight.winner]
        if others:  # in the same boat
            lines.append(t("binomial.reveal.also", lang, names=", ".join(
                f"{who(seats, s)} +{fight.points[s]}" for s in others)))
    elif fight.fighters:
        lines.append(t("binomial.reveal.no_winner", lang))
    lines.append(t("binomial.reveal.chairman", lang, name=chair(seats, fight.chairman, len(fight.scores))))
    lines.append(scores_line(fight.scores, seats, lang))
    for seat in fight.last_number:
        lines.append(t("binomial.reveal.last_number", lang, name=who(seats, seat)))
    if fight.game_over and after is not None and not after.over:
        lines.append(t("binomial.reveal.game_over", lang, game=fight.game, games=after.games))
        for seat, numbers in enumerate(fight.sheets or ()):  # every sheet is public once its game is over
            lines.append(t("binomial.reveal.sheet", lang, name=who(seats, seat),
                           numbers=" ".join(num(n) for n in numbers)))
    return "\n".join(lines)


def event_line(happened: Happened, seats: Sequence[SeatInfo], lang: str) -> str | None:
    """A step told in the channel (None: nothing worth a line); never a placement's cell nor a pick."""
    event = happened.event
    if isinstance(event, Fight):
        return reveal_text(event, seats, lang, after=happened.after)
    if isinstance(event, Placed) and happened.timed_out:
        names = ", ".join(name(seats, s) for s in sorted(happened.timed_out))
        return t("binomial.event.auto_placed", lang, roll=event.roll, digit=event.digit, names=names)
    if isinstance(event, Declared) and happened.reason == "deadline":
        return t("binomial.event.timed_out", lang, name=who(seats, event.seat))
    return None


def sheet_lines(sheet: Sheet, lang: str, *, history: Sequence[Fight] = ()) -> str:
    """A sheet as its owner sees it: each number's cells, the number, and whether it is used."""
    lines = []
    for k in range(NUMBERS_PER_SHEET):
        a, b = sheet.cells[2 * k], sheet.cells[2 * k + 1]
        cells = f"{CELLS[2 * k]} {'·' if a is None else a}  {CELLS[2 * k + 1]} {'·' if b is None else b}"
        number = sheet.number(k)
        if number is None:
            lines.append(f"{k + 1}. {cells}")
            continue
        used = sheet.used[k]
        state = t("binomial.sheet.unused", lang) if used == 0 else t("binomial.sheet.used", lang, round=used)
        lines.append(f"{k + 1}. {cells} → {num(number)} {state}")
    return "\n".join(lines)


def names_or_nobody(names: Sequence[str], lang: str) -> str:
    return ", ".join(names) if names else t("binomial.nobody", lang)


class BinomialPresenter(Presenter):
    key = KEY
    colour = discord.Colour.dark_gold()
    threads = True  # one message for the whole numerology, one per round of declarations (thread below)
    event_line = staticmethod(event_line)
    since_gap = "\n\n"

    def lobby(self, options: Mapping[str, Any], lang: str) -> str:
        on = [t(f"binomial.variant.{v}", lang) for v in VARIANTS if options.get(v)]
        text = t("binomial.lobby.description", lang, min=MIN_SEATS, max=MAX_SEATS,
                 seconds=int(options.get("turn_seconds", 30)))
        text += "\n" + t("binomial.lobby.variants", lang, variants=", ".join(on) if on else t("binomial.none", lang))
        if options.get("same_boat"):
            text += "\n" + t("binomial.lobby.same_boat_seats", lang)
        return text

    def rules(self, lang: str) -> Card:
        """``/binomial rules`` in sections short enough to read, one embed each (issue 36: under 1,000 characters
        apiece): how to play, the 16 postulates in two halves, the variants."""
        lines = [card_line(k, lang) for k in CARD_BY_KEY]
        half = len(lines) // 2
        return Card(embeds=(
            self.embed(t("binomial.rules.title", lang), t("binomial.rules.text", lang)),
            self.embed(t("binomial.rules.cards_part", lang, part=1), "\n".join(lines[:half])),
            self.embed(t("binomial.rules.cards_part", lang, part=2), "\n".join(lines[half:])),
            self.embed(t("binomial.rules.variants_title", lang), t("binomial.rules.variants", lang))))

    # The thread hook: one message for the whole numerology, one per round of declarations.
    def thread(self, view: View, prompt: Prompt) -> str | None:
        if prompt.kind == "place":
            return f"numerology:{view.game}"
        if prompt.kind in ("declare", "pick"):
            return f"round:{view.game}:{view.round}"
        return None

    def status(self, view: View, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
               lang: str) -> Card:
        lines = [self.since_text(since, seats, lang)]
        if prompt.kind == "place":
            placed = [plain(s) for s in seats if not s.awaited and not s.gone]
            waiting = [plain(s) for s in seats if s.awaited]
            lines.append(t("binomial.roll.line", lang, roll=len(view.rolls), rolls=ROLLS, digit=view.pending,
                           placed=names_or_nobody(placed, lang), waiting=names_or_nobody(waiting, lang)))
            lines.append(t("binomial.roll.rolls", lang, digits=" ".join(map(str, view.rolls))))
            if not view.history and view.game <= 1:  # the first chairman is drawn at the start: said at once
                lines.append(t("binomial.roll.chairman", lang, name=chair(seats, view.chairman, view.seats)))
            lines.append(t("binomial.roll.how", lang))
            title = t("binomial.roll.title", lang, game=game_of(view, lang))
        else:
            assert view.card is not None
            lines.append(card_line(view.card, lang))
            lines.append(t("binomial.round.chairman", lang, name=chair(seats, view.chairman, view.seats)))
            if prompt.kind == "pick":
                waiting = [plain(s) for s in seats if s.awaited]
                lines.append(t("binomial.round.dark", lang, waiting=names_or_nobody(waiting, lang)))
            else:
                for seat, fights in view.declared:
                    lines.append(declared_line(seats, seat, fights, lang))
                (current,) = view.to_act or (view.chairman,)
                lines.append(t("binomial.round.to_declare", lang, name=who(seats, current)))
            lines.append(self._unused_line(view, seats, lang))
            title = t("binomial.round.title", lang, round=view.round, rounds=len(CARD_BY_KEY),
                      card=card_title(view.card, lang), game=game_of(view, lang))
        away = [who(seats, s.seat) for s in seats if s.away]
        if away:
            lines.append(t("binomial.away", lang, names=", ".join(away)))
        return Card(embeds=(self.embed(title, "\n".join(x for x in lines if x)),))

    def _unused_line(self, view: View, seats: Sequence[SeatInfo], lang: str) -> str:
        return t("binomial.unused_left", lang, counts=" · ".join(
            f"{who(seats, s)} {n}" for s, n in enumerate(view.unused)))

    def done(self, happened: Happened, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        view: View = happened.after
        before: View = happened.before
        event = happened.event
        # The end of a phase keeps no line about a step it closed (a roll placed for a player, a declaration
        # passed by the timer): what is left to tell is the phase's outcome.
        lines = [self.since_text([h for h in since if not isinstance(h.event, (Placed, Declared))], seats, lang)]
        if isinstance(event, Placed):
            title = t("binomial.roll.done_title", lang, game=game_of(before, lang))
            lines.append(t("binomial.roll.done", lang, digits=" ".join(map(str, before.rolls))))
        elif isinstance(event, Fight):
            title = t("binomial.reveal.heading", lang, round=event.round, rounds=len(CARD_BY_KEY),
                      game=game_of(before, lang))
            lines.append(reveal_text(event, seats, lang, after=view, heading=False))
        else:
            title = t("binomial.round.title", lang, round=before.round, rounds=len(CARD_BY_KEY),
                      card=card_title(before.card or "", lang) if before.card else "", game=game_of(before, lang))
            if before.card:
                lines.append(card_line(before.card, lang))
            for seat, fights in view.declared:
                lines.append(declared_line(seats, seat, fights, lang))
            lines.append(event_line(happened, seats, lang) or "")
        return Card(embeds=(self.embed(title, "\n".join(x for x in lines if x)),))

    def final(self, view: View, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        # leaving forfeits: a seat that left wins nothing and ranks last
        playing = [s for s in range(view.seats) if not gone(seats, s)] or list(range(view.seats))
        best = max(view.totals[s] for s in playing)
        winners = [who(seats, s) for s in playing if view.totals[s] == best]
        text = "\n\n".join(x for x in (self.since_text(since, seats, lang),
                                       t("binomial.final.winners", lang, names=", ".join(winners))) if x)
        embed = self.embed(t("binomial.final.title", lang), text)
        records = [*view.past]
        sheets = view.sheets or ()
        for seat in sorted(range(view.seats), key=lambda s: gone(seats, s)):
            parts = []
            if len(records) > 0:
                per_game = " + ".join(str(g.scores[seat]) for g in records)
                parts.append(t("binomial.final.match", lang, games=f"{per_game} + {view.scores[seat]}"))
            if seat < len(sheets):
                parts.append(t("binomial.final.sheet", lang, numbers=" ".join(
                    num(n) + ("" if r == 0 else "✓") for n, r in zip(sheets[seat].numbers, sheets[seat].used,
                                                                     strict=True) if n is not None)))
            if view.won[seat]:
                parts.append(t("binomial.final.cards", lang, cards=", ".join(card_title(c, lang)
                                                                               for c in view.won[seat])))
            embed.add_field(name=t("binomial.final.seat", lang, name=who_marked(seats, seat, lang),
                                   score=view.totals[seat]),
                            value="\n".join(parts)[:1024] or "-", inline=False)
        return Card(embeds=(embed,))

    def inputs(self, view: View, prompt: Prompt, seat: Seat, legal: Sequence[Action] | None, lang: str) -> Inputs:
        if prompt.kind == "place":
            if legal is None or view.sheet is None:
                return Inputs(private_label=t("binomial.button.place", lang))
            choices = tuple(Choice(str(a["cell"]), (i,), primary=False) for i, a in enumerate(legal))
            title = "\n".join((t("binomial.place.title", lang, digit=view.pending, roll=len(view.rolls)),
                               sheet_lines(view.sheet, lang)))
            return Inputs(choices=choices, title=title)
        labels = tuple(self._declare_label(a, lang) for a in legal or ())
        if prompt.kind == "pick":
            if legal is None or view.sheet is None:
                return Inputs(private_label=t("binomial.button.declare", lang))
            title = "\n".join((card_line(view.card or "", lang) if view.card else "", sheet_lines(view.sheet, lang)))
            # "Fight with…" only when a number fits: with Pass alone the menu says so
            fits = any(a.get("fight") for a in legal)
            return Inputs(labels=labels, title=title, placeholder=t(
                "binomial.pick.placeholder" if fits else "binomial.pick.placeholder_pass", lang))
        # An open declaration: the buttons are public, so they never depend on the seat's numbers.
        card = card_title(view.card, lang) if view.card else ""
        fight = Choice(t("binomial.button.fight", lang), tuple(range(1, len(legal or ()))), "⚔️", pick=True,
                       none=t("binomial.error.nothing_fits", lang, card=card),
                       prompt=t("binomial.fight.prompt", lang, card=card))
        return Inputs(choices=(fight, Choice(t("binomial.button.pass", lang), (0,), primary=False)), labels=labels,
                      placeholder=t("binomial.pick.placeholder", lang), title=t("binomial.title", lang))

    @staticmethod
    def _declare_label(action: Action, lang: str) -> str:
        if action.get("fight"):
            return t("binomial.pick.fight", lang, number=action["number"])
        return t("binomial.pick.pass", lang)

    def ack(self, action: Action, changed: bool, lang: str) -> str:
        if "cell" in action:
            return t("binomial.ack.cell", lang, cell=action["cell"])
        if action.get("fight"):
            return t("binomial.ack.fight", lang, number=num(int(action["number"])))
        return t("binomial.ack.pass", lang)

    def ack_for(self, view: View, action: Action, changed: bool, lang: str) -> str:
        if "cell" in action and view.pending is not None:
            key = "binomial.ack.placed_changed" if changed else "binomial.ack.placed"
            return t(key, lang, digit=view.pending, cell=action["cell"])
        if view.card:  # a declaration names the round and the card it counts for (a late DM lands in the next)
            where = t("binomial.ack.for", lang, round=view.round, card=card_title(view.card, lang))
            return f"{where} {self.ack(action, changed, lang)}"
        return self.ack(action, changed, lang)

    def step_name(self, view: View, lang: str) -> str | None:
        if view.card:
            return t("binomial.step.round", lang, round=view.round, card=card_title(view.card, lang))
        if view.kind == "place":
            return t("binomial.step.roll", lang, roll=len(view.rolls), rolls=ROLLS)
        return None

    def timed_out(self, before: View, after: View, seat: Seat, lang: str) -> str | None:
        if before.kind == "place" and before.sheet is not None and after.sheet is not None:
            cell = next((CELLS[i] for i, d in enumerate(before.sheet.cells)
                         if d is None and after.sheet.cells[i] is not None), None)
            if cell is not None:
                return t("binomial.dm.auto_placed", lang, digit=before.pending, cell=cell)
        if before.kind in ("declare", "pick") and before.card:
            return t("binomial.dm.passed", lang, card=card_title(before.card, lang))
        return None

    def refusal(self, error: RuleError, lang: str) -> str:
        key = f"binomial.error.{error.key}"
        if key not in catalog(lang) and key not in catalog("en"):
            return str(error)
        values = dict(error.values)
        if "card" in values:
            values["card"] = card_title(str(values["card"]), lang)
        if "kind" in values:
            values["kind"] = t(f"binomial.kind.{values['kind']}", lang)
        return t(key, lang, **values)

    def _public_facts(self, view: View, seat: int, lang: str) -> str:
        lines = [t("binomial.score.points", lang, points=view.scores[seat], total=view.totals[seat])
                 if view.games > 1 else t("binomial.score.points_one", lang, points=view.scores[seat]),
                 t("binomial.score.cards", lang, cards=", ".join(card_title(c, lang) for c in view.won[seat])
                   or t("binomial.none", lang)),
                 t("binomial.score.revealed", lang, numbers=" ".join(num(n) for n in view.revealed[seat])
                   or t("binomial.none", lang)),
                 t("binomial.score.unused", lang, n=view.unused[seat])]
        return "\n".join(lines)

    def score(self, view: View, seats: Sequence[SeatInfo], lang: str) -> Card:
        if view.over:
            return self.final(view, seats, (), lang)
        chairman = t("binomial.round.chairman", lang, name=chair(seats, view.chairman, view.seats))
        match = game_of(view, lang).removeprefix(" · ")
        embed = self.embed(t("binomial.score.title", lang), "\n".join(x for x in (match, chairman) if x))
        for seat in range(view.seats):
            found = info(seats, seat)
            mark = (t("binomial.left", lang) if found and found.gone
                    else t("binomial.score.away", lang) if found and found.away else "")
            embed.add_field(name=f"{who(seats, seat)}{mark}", value=self._public_facts(view, seat, lang),
                            inline=False)
        if view.card:
            embed.set_footer(text=t("binomial.score.card", lang, card=card_title(view.card, lang)))
        return Card(embeds=(embed,))

    def board(self, view: View, seat: Seat, seats: Sequence[SeatInfo], lang: str) -> Card:
        """Public facts only, even for the asker's own seat (their sheet is ``/binomial sheet``)."""
        text = self._public_facts(view, seat, lang)
        if view.over and view.sheets:
            text += "\n" + sheet_lines(view.sheets[seat], lang)
        else:
            text += "\n" + t("binomial.board.own", lang)
        return Card(embeds=(self.embed(t("binomial.board.title", lang, name=who(seats, seat)), text),))

    def sheet(self, view: View, seats: Sequence[SeatInfo], lang: str) -> Card:
        """``/binomial sheet``: the asker's own sheet (``view`` is their own view): private only."""
        assert view.sheet is not None and view.seat is not None
        lines = [sheet_lines(view.sheet, lang)]
        if view.pending is not None:
            lines.append(t("binomial.sheet.pending", lang, digit=view.pending))
        fits = fitting(view)
        if view.card:
            lines.append(card_line(view.card, lang))
            lines.append(t("binomial.sheet.fitting", lang, numbers=" ".join(num(n) for n in fits)
                           or t("binomial.none", lang)))
        if view.pick is not None:
            lines.append(t("binomial.sheet.pick", lang, number=num(view.pick)))
        return Card(embeds=(self.embed(t("binomial.sheet.title", lang, name=who(seats, view.seat)),
                                        "\n".join(lines)),))


PRESENTER = BinomialPresenter()
