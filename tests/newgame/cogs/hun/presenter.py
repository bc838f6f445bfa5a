"""Highest unique number's messages: only what differs from the shared presenter's defaults."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core.game import Action, Prompt, Seat
from bot.games.hun.game import GAME, Revealed, State
from bot.i18n import t
from cogs.table.presenter import Card, Choice, Happened, Inputs, Presenter, SeatInfo


class HunPresenter(Presenter):
    key = GAME.key
    colour = discord.Colour.purple()

    def lobby(self, options: Mapping[str, Any], lang: str) -> str:
        return t("hun.lobby.description", lang, min=GAME.seats.start, max=GAME.seats.stop - 1,
                 seconds=int(options.get("turn_seconds", 60)))

    def event_line(self, happened: Happened, seats: Sequence[SeatInfo], lang: str) -> str | None:
        event = happened.event
        if not isinstance(event, Revealed):
            return None
        picks = ", ".join(f"{self.who(seats, s)} {n}" for s, n in event.picks.items()) or "-"
        line = t("hun.revealed", lang, round=event.round, picks=picks)
        outcome = (t("hun.revealed.winner", lang, name=self.who(seats, event.winner), value=event.value)
                   if event.winner is not None else t("hun.revealed.nobody", lang))
        return f"{line} {outcome}"

    def status(self, view: State, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
               lang: str) -> Card:
        waiting = ", ".join(s.name for s in seats if s.awaited) or "-"
        text = "\n\n".join(x for x in (self.since_text(since, seats, lang),
                                       t("hun.status.waiting", lang, names=waiting)) if x)
        return Card(embeds=(self.embed(t("hun.status.title", lang, round=view.round), text),))

    def done(self, happened: Happened, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        text = self.since_text((*since, happened), seats, lang)
        return Card(embeds=(self.embed(t("hun.done.title", lang, round=happened.before.round), text),))

    def final(self, view: State, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        top = max(view.scores)
        winners = ", ".join(self.who(seats, s) for s, v in enumerate(view.scores) if v == top)
        text = "\n\n".join(x for x in (self.since_text(since, seats, lang),
                                       t("hun.final.winners", lang, names=winners)) if x)
        return Card(embeds=(self._scores(self.embed(t("hun.final.title", lang), text), view, seats, lang),))

    def inputs(self, view: State, prompt: Prompt, seat: Seat, legal: Sequence[Action] | None, lang: str) -> Inputs:
        labels = tuple(str(a["number"]) for a in legal or ())
        return Inputs(choices=tuple(Choice(label, (i,)) for i, label in enumerate(labels)), labels=labels,
                      private_label=t("hun.button.choose", lang), title=t("hun.private.title", lang, round=view.round))

    def score(self, view: State, seats: Sequence[SeatInfo], lang: str) -> Card:
        return Card(embeds=(self._scores(self.embed(t("hun.score.title", lang), ""), view, seats, lang),))

    def board(self, view: State, seat: Seat, seats: Sequence[SeatInfo], lang: str) -> Card:
        return Card(embeds=(self.embed(t("hun.board.title", lang, name=self.who(seats, seat)),
                                       t("hun.score.line", lang, points=view.scores[seat])),))

    def _scores(self, embed: discord.Embed, view: State, seats: Sequence[SeatInfo], lang: str) -> discord.Embed:
        for seat, points in enumerate(view.scores):
            embed.add_field(name=self.who(seats, seat), value=t("hun.score.line", lang, points=points))
        return embed


PRESENTER = HunPresenter()
