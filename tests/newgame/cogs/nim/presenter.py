"""Nim's messages: only what differs from the shared presenter's defaults."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core.game import Action, Prompt, Seat
from bot.games.nim.game import GAME, State, Took
from bot.i18n import t
from cogs.table.presenter import Card, Choice, Happened, Inputs, Presenter, SeatInfo


class NimPresenter(Presenter):
    key = GAME.key
    colour = discord.Colour.green()

    def lobby(self, options: Mapping[str, Any], lang: str) -> str:
        return t("nim.lobby.description", lang, min=GAME.seats.start, max=GAME.seats.stop - 1,
                 pile=options.get("pile", 21), seconds=int(options.get("turn_seconds", 60)))

    def event_line(self, happened: Happened, seats: Sequence[SeatInfo], lang: str) -> str | None:
        event = happened.event
        if not isinstance(event, Took):
            return None
        return t("nim.took", lang, name=self.who(seats, event.seat), count=event.count, left=event.left)

    def status(self, view: State, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
               lang: str) -> Card:
        title = t("nim.turn.title", lang, name=self.who(seats, view.turn), pile=view.pile)
        return Card(embeds=(self.embed(title, self.since_text(since, seats, lang) or "●" * view.pile),))

    def done(self, happened: Happened, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        text = self.since_text((*since, happened), seats, lang)
        return Card(embeds=(self.embed(t("nim.done.title", lang, left=happened.after.pile), text),))

    def final(self, view: State, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        winner = t("nim.final.winner", lang, name=self.who(seats, view.winner if view.winner is not None else 0))
        text = "\n\n".join(x for x in (self.since_text(since, seats, lang), winner) if x)
        return Card(embeds=(self.embed(t("nim.final.title", lang), text),))

    def inputs(self, view: State, prompt: Prompt, seat: Seat, legal: Sequence[Action] | None, lang: str) -> Inputs:
        labels = tuple(t("nim.take", lang, count=a["take"]) for a in legal or ())
        return Inputs(choices=tuple(Choice(label, (i,)) for i, label in enumerate(labels)), labels=labels)

    def score(self, view: State, seats: Sequence[SeatInfo], lang: str) -> Card:
        line = t("nim.score.line", lang, pile=view.pile, name=self.who(seats, view.turn))
        return Card(embeds=(self.embed(t("nim.score.title", lang), line),))

    def board(self, view: State, seat: Seat, seats: Sequence[SeatInfo], lang: str) -> Card:
        return self.score(view, seats, lang)


PRESENTER = NimPresenter()
