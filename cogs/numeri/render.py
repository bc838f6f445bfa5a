"""Numeri's presenter for the shared front end: texts, embeds and the board picture, from views and events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core.game import Action, Prompt, RuleError, Seat
from bot.games.numeri import engine
from bot.games.numeri.engine import Move, Moved, Passed, Rolled
from bot.games.numeri.rules import MAX_SEATS, MIN_SEATS, STAR, TOKENS, UNENTERED_POINTS, VALUE
from bot.games.numeri.view import NumeriView
from bot.i18n import t
from cogs.seats import seat_style
from cogs.table.presenter import Card, Choice, Happened, Inputs, Picture, Presenter, SeatInfo, who

from .picture import draw

KEY = "numeri"
BOARD_FILE = "numeri-board.png"


def duration(seconds: int, lang: str) -> str:
    minutes, rest = divmod(seconds, 60)
    if minutes and rest:
        return t("numeri.time.min_s", lang, m=minutes, s=rest)
    return t("numeri.time.min", lang, m=minutes) if minutes else t("numeri.time.s", lang, s=rest)


def who_marked(seats: Sequence[SeatInfo], seat: int, lang: str) -> str:
    """A seat's name, marked when it has left the game (its tokens stay, it no longer plays)."""
    info = next((s for s in seats if s.seat == seat), None)
    return who(seats, seat) + (t("numeri.left", lang) if info is not None and info.gone else "")


def face(roll: Any, lang: str) -> str:
    return t("numeri.star", lang) if roll == STAR else str(roll)


def square_text(square: int | None, lang: str) -> str:
    return t("numeri.off", lang) if square is None else str(square)


def move_text(move: Move, lang: str) -> str:
    if move.start is None:
        return t("numeri.move.enter", lang, token=move.token, end=move.end)
    return t("numeri.move.step", lang, token=move.token, start=move.start, end=move.end)


def moves_text(moves: Sequence[Move], lang: str) -> str:
    return t("numeri.and", lang).join(move_text(m, lang) for m in moves)


def board_line(view: NumeriView, seats: Sequence[SeatInfo], lang: str) -> str:
    """The picture's facts as one short text, for screen readers."""
    parts = []
    for seat in range(view.seats):
        tokens = " ".join(f"{token}:{square_text(sq, lang)}" for token, sq in zip(TOKENS, view.positions[seat],
                                                                                   strict=True))
        parts.append(t("numeri.board.seat", lang, name=who_marked(seats, seat, lang), tokens=tokens,
                       score=view.scores[seat]))
    barrier = t("numeri.board.barrier_passed" if view.barrier_passed else "numeri.board.barrier", lang,
                square=view.barrier)
    return t("numeri.board.line", lang, seats="; ".join(parts), barrier=barrier)


def event_line(happened: Happened, seats: Sequence[SeatInfo], lang: str) -> str | None:
    """One step told in a line (None: nothing worth telling, e.g. the roll shown on the turn message)."""
    event = happened.event
    if isinstance(event, Rolled):
        return None
    if isinstance(event, Passed):
        if event.left:  # a seat that left: its turns pass silently (the board marks it as gone)
            return None
        return t("numeri.event.passed", lang, name=who(seats, event.seat), roll=face(event.roll, lang))
    if isinstance(event, Moved):
        key = {"deadline": "numeri.event.timeout", "only": "numeri.event.only"}.get(happened.reason,
                                                                                  "numeri.event.moved")
        line = t(key, lang, name=who(seats, event.seat), roll=face(event.roll, lang),
                 moves=moves_text(event.moves, lang))
        if event.extra_turn:
            line += " " + t("numeri.event.extra", lang, name=who(seats, event.seat))
        return line
    return None


def picture(view: NumeriView, seats: Sequence[SeatInfo], lang: str) -> Picture:
    names = [s.name.replace("\\", "") for s in sorted(seats, key=lambda s: s.seat)]
    return Picture(BOARD_FILE, draw(view, names, lang), board_line(view, seats, lang)[:1000])


def legal_label(view: NumeriView, seat: int, moves: Sequence[int], lang: str) -> str:
    """A button's text: the token(s) and where they would go."""
    positions, parts = view.positions, []
    for token in moves:
        end = engine.destination(positions, seat, token)
        start = positions[seat][token - 1]
        parts.append(t("numeri.choice.part", lang, token=token, start=square_text(start, lang),
                       end="?" if end is None else end))
        if end is not None:
            positions, _ = engine.step(positions, seat, token)
    label = " + ".join(parts)
    return t("numeri.choice.ends", lang, moves=label) if engine.ended(positions) else label


def split_about(view: NumeriView, moves: Sequence[int], lang: str) -> str:
    """A split's select description: the throw it splits and the order its tokens move in."""
    first, second = moves
    return t("numeri.choice.split.about", lang, roll=face(view.roll, lang), first=first, second=second)


def winner_seats(view: NumeriView, seats: Sequence[SeatInfo]) -> list[int]:
    """The best total among the seats still at the table: a seat that left forfeited (it wins nothing)."""
    gone = {s.seat for s in seats if s.gone}
    playing = [s for s in range(view.seats) if s not in gone] or list(range(view.seats))
    best = max(view.scores[s] for s in playing)
    return [s for s in playing if view.scores[s] == best]


def winners_line(view: NumeriView, seats: Sequence[SeatInfo], lang: str) -> str:
    return t("numeri.final.winners", lang, names=", ".join(who(seats, s) for s in winner_seats(view, seats)))


def points_line(view: NumeriView, seat: int, lang: str) -> str:
    parts = []
    for token, square in zip(TOKENS, view.positions[seat], strict=True):
        if square is None:
            parts.append(t("numeri.points.off", lang, token=token, value=UNENTERED_POINTS,
                           points=token * UNENTERED_POINTS))
        else:
            parts.append(t("numeri.points.on", lang, token=token, square=square, value=VALUE[square],
                           points=engine.token_points(token, square)))
    return "\n".join(parts)


LOG_LINES = 3  # the earlier moves the living turn message keeps (about one round of turns at 3-4 seats)
LOG_CHARS = 3000  # at most, of the description's 4,000: the turn's own lines come after the log


class NumeriPresenter(Presenter):
    """One living turn message per table: every step of the game is a step of one thread, so the turn message
    is edited from move to move (the press's own answer) instead of a new post per move; it shows the board
    picture (its facts as the picture's alt text, not as a text copy) and the last moves as a short log."""

    key = KEY
    colour = discord.Colour.teal()
    threads = True
    event_line = staticmethod(event_line)  # since_text tells each step with it

    def thread(self, view: NumeriView, prompt: Prompt) -> str:
        return "table"  # the whole game is one thread: one living message

    def log_text(self, since: Sequence[Happened], seats: Sequence[SeatInfo], lang: str) -> str:
        """The last moves (the living message's ``since`` is every step since it was posted): at least the last
        ``LOG_LINES``, and every one since the last move a player was waited for, so that a run of forced moves
        (auto_play: each played at once, without a version of the message of its own) is told whole."""
        told = [(h, line) for h in since if (line := event_line(h, seats, lang)) is not None]
        waited = [i for i, (h, _) in enumerate(told) if h.reason in ("moved", "deadline")]
        first = min(len(told) - LOG_LINES, waited[-1] if waited else 0)
        lines = [line for _, line in told[max(first, 0):]]
        while len(lines) > LOG_LINES and sum(len(line) + 1 for line in lines) > LOG_CHARS:
            lines.pop(0)  # an embed holds 4,096 characters: the oldest lines of a very long run give way
        return "\n".join(lines)

    def lobby(self, options: Mapping[str, Any], lang: str) -> str:
        return t("numeri.lobby.description", lang, min=MIN_SEATS, max=MAX_SEATS,
                 per_turn=duration(int(options.get("turn_seconds", 120)), lang))

    def _board_embed(self, title: str, text: str, view: NumeriView, seats: Sequence[SeatInfo], lang: str
                     ) -> tuple[discord.Embed, Picture]:
        embed = discord.Embed(title=title, description=text[:4000], colour=self.colour)
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed, picture(view, seats, lang)

    def status(self, view: NumeriView, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
               lang: str) -> Card:
        name = who(seats, view.current)
        lines = [self.log_text(since, seats, lang),
                 t("numeri.turn.rolled", lang, name=name, roll=face(view.roll, lang)),
                 t("numeri.turn.timeout", lang)]
        away = [who(seats, s.seat) for s in seats if s.away]
        if away:
            lines.append(t("numeri.turn.away", lang, names=", ".join(away)))
        embed, pic = self._board_embed(t("numeri.turn.title", lang, name=name, turn=view.throws),
                                       "\n\n".join(x for x in lines if x), view, seats, lang)
        return Card(embeds=(embed,), pictures=(pic,))

    def done(self, happened: Happened, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        view: NumeriView = happened.after
        text = self.log_text([*since, happened], seats, lang)
        embed, pic = self._board_embed(t("numeri.done.title", lang), text, view, seats, lang)
        return Card(embeds=(embed,), pictures=(pic,))

    def final(self, view: NumeriView, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        # The end board is on the living message just above (closed with ``done``): not uploaded again.
        text = "\n\n".join(x for x in (self.since_text(since, seats, lang), winners_line(view, seats, lang)) if x)
        embed = discord.Embed(title=t("numeri.final.title", lang), description=text[:4000], colour=self.colour)
        gone = {s.seat for s in seats if s.gone}
        for seat in sorted(range(view.seats), key=lambda s: s in gone):  # a seat that left ranks last
            embed.add_field(name=t("numeri.final.seat", lang, name=who_marked(seats, seat, lang),
                                   score=view.scores[seat]), value=points_line(view, seat, lang), inline=True)
        return Card(embeds=(embed,))

    def inputs(self, view: NumeriView, prompt: Prompt, seat: Seat, legal: Sequence[Action] | None, lang: str
               ) -> Inputs:
        # A one-token move is a button; the splits (two tokens, after the barrier) are the options of one select
        # under them, each saying which token moves first. The choice indices stay the legal list's, so a
        # button of a message posted before the select came still names the same move.
        symbol = seat_style(seat).symbol
        choices = tuple(Choice(legal_label(view, seat, list(a["moves"]), lang), (i,), symbol) if len(a["moves"]) < 2
                        else Choice(legal_label(view, seat, list(a["moves"]), lang), (i,), symbol,
                                    select=t("numeri.choice.split", lang, roll=face(view.roll, lang)),
                                    description=split_about(view, list(a["moves"]), lang))
                        for i, a in enumerate(legal or ()))
        return Inputs(choices=choices, labels=tuple(c.label for c in choices), title=t("numeri.title", lang),
                      placeholder=t("numeri.choice.placeholder", lang))

    def refusal(self, error: RuleError, lang: str) -> str:
        if error.key == "blocked" and error.values.get("after") is not None:
            return t("numeri.error.blocked_after", lang, **error.values)
        return super().refusal(error, lang)

    def score(self, view: NumeriView, seats: Sequence[SeatInfo], lang: str) -> Card:
        embed = discord.Embed(title=t("numeri.score.title" if not view.over else "numeri.final.title", lang),
                              colour=self.colour)
        for seat in range(view.seats):
            info = next((s for s in seats if s.seat == seat), None)
            mark = (t("numeri.left", lang) if info and info.gone
                    else t("numeri.score.away", lang) if info and info.away else "")
            tokens = " ".join(f"{token}:{square_text(sq, lang)}" for token, sq in zip(TOKENS, view.positions[seat],
                                                                                       strict=True))
            embed.add_field(name=f"{who(seats, seat)}{mark}", value=t("numeri.score.line", lang,
                                                                      score=view.scores[seat], tokens=tokens),
                            inline=False)
        if view.over:  # after the end, /score says who won, as the final message does
            embed.description = winners_line(view, seats, lang)
        else:
            embed.set_footer(text=t("numeri.score.turn", lang, name=who(seats, view.current)))
        return Card(embeds=(embed,))

    def board(self, view: NumeriView, seat: Seat, seats: Sequence[SeatInfo], lang: str) -> Card:
        embed, pic = self._board_embed(t("numeri.board.title", lang, name=who(seats, seat)),
                                       t("numeri.board.total", lang, score=view.scores[seat]) + "\n"
                                       + points_line(view, seat, lang), view, seats, lang)
        return Card(embeds=(embed,), pictures=(pic,))


PRESENTER = NumeriPresenter()
