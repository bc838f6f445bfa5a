"""The Number's presenter for the shared front end (cogs/table): every message, from views and events.

The Number tells each turn in a report (the reveal: see the ``report`` hook in cogs/table/presenter.py),
posted at the top of the next turn message when both fit in one; the turn message is closed once its turn
is over (``closed``) and reminds in the channel (``reminder_line``). What it kept from before the shared front
end (nonces, the modal's field id, its wording of shared sentences) is in legacy.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core.game import Action, Prompt, RuleError, Seat
from bot.games.thenumber import rules
from bot.games.thenumber.engine import GameState, PublicView, new_game, play_turn
from bot.games.thenumber.errors import SitsOut, TheNumberError
from bot.games.thenumber.game import FIELD, SeatView, table_of
from bot.i18n import LANGUAGES, t
from bot.i18n.thenumber import refusal
from cogs.table.layout import embeds_of
from cogs.table.presenter import Card, Happened, Inputs, Picture, Presenter, SeatInfo, SelectInput, TextInput
from storage.base import GameRecord

from . import render
from .chart import chart_filename, final_chart_png
from .legacy import TheNumberLegacy

KEY = rules.GAME_KEY


def state_of(view: PublicView) -> GameState:
    """The engine state behind a table's view, replayed from its revealed turns (public: every number in the
    history was revealed), for the score-race chart."""
    state = new_game(view.players)
    for outcome in view.history:
        state, _ = play_turn(state, {k: r.number for k, r in outcome.results.items() if r.number is not None})
    return state


class TheNumberPresenter(TheNumberLegacy, Presenter):
    key = KEY
    colour = render.ACCENT
    reports = True  # each turn's reveal is a message of its own
    closes_turn = True  # the turn message of a revealed turn says who missed it
    reminds_in_channel = True  # one edit of the turn message instead of a DM to each player awaited

    def title(self, lang: str) -> str:
        return "The Number"

    def lobby(self, options: Mapping[str, Any], lang: str) -> str:
        seconds = int(options.get("turn_seconds", 120))
        return t("thenumber.lobby.description", lang, min=rules.MIN_SEATS, max=rules.MAX_SEATS, rounds=rules.ROUNDS,
                 turns=rules.TURNS_PER_ROUND, per_turn=render.duration(seconds, lang))

    def lobby_embed(self, record: GameRecord, lang: str, headline: str | None,
                    passed: tuple[str, str] | None) -> discord.Embed:
        if headline is not None:
            return render.lobby_closed_embed(record, headline, lang)
        return render.lobby_embed(record, int(record.options.get("turn_seconds", 120)), lang, host_passed=passed)

    def rules(self, lang: str) -> Card:
        return Card(embeds=render.rules_embeds(lang))

    def join_dm(self, channel_id: int, lang: str) -> str:
        return render.join_dm_text(channel_id, lang)

    # The turn message -----------------------------------------------------------------------------------
    def status(self, view: Any, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
               lang: str) -> Card:
        return self.status_at(view, prompt, seats, since, None, lang)

    def status_at(self, view: Any, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
                  deadline: float | None, lang: str) -> Card:
        """The turn message, with when the turn is revealed."""
        return Card(embeds=(render.status_embed(table_of(view), seats, deadline, lang),))

    def reminder_line(self, view: Any, awaited: Sequence[SeatInfo], seconds: int, lang: str) -> str:
        """The reminder, shown on the turn message (one edit for everyone awaited, instead of a DM each)."""
        return render.reminder_line(awaited, seconds, lang)

    def closed(self, happened: Happened, seats: Sequence[SeatInfo], lang: str) -> Card:
        """The turn message once its turn is over: its reveal follows (``seats``: awaited = missed it)."""
        return Card(embeds=(render.closed_embed(table_of(happened.before), seats, happened.reason == "deadline",
                                                lang),))

    def report(self, happened: Happened, seats: Sequence[SeatInfo], lang: str) -> Card:
        """A turn's reveal, posted as its own message (the last one tells the end)."""
        return Card(embeds=tuple(render.reveal_embeds(happened.event, table_of(happened.before),
                                                      table_of(happened.after), seats, happened.game_id,
                                                      happened.reason == "deadline", lang)))

    def reported(self, message: discord.Message, happened: Happened) -> bool:
        """Whether ``message`` is this turn's reveal (after a restart: it may have been posted before the stop)."""
        outcome = happened.event
        titles = {render.reveal_title(outcome.round, outcome.turn, lang) for lang in LANGUAGES}
        titles |= {t("thenumber.reveal.title", lang, round=outcome.round, turn=outcome.turn)  # posted before
                   for lang in LANGUAGES}  # issue 36's titles
        footers = {render.reveal_footer(happened.game_id, lang) for lang in LANGUAGES}
        return any(e.title in titles and e.footer.text in footers for e in embeds_of(message))

    async def report_pictures(self, happened: Happened, record: GameRecord, lang: str) -> tuple[Picture, ...]:
        """The score race, attached to the final reveal."""
        if not happened.finished:
            return ()
        data = await final_chart_png(record, state_of(table_of(happened.after)), lang)
        return (Picture(chart_filename(record.id), data),) if data else ()

    def done(self, happened: Happened, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        return self.report(happened, seats, lang)

    def final(self, view: Any, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        return Card(embeds=(render.final_embed(seats, table_of(view), lang),))

    # Inputs and private answers -------------------------------------------------------------------------
    def inputs(self, view: Any, prompt: Prompt, seat: Seat, legal: Sequence[Action] | None, lang: str) -> Inputs:
        """The private form: three digit selects, each listing only this seat's available digits (``view`` is
        the seat's own view: its board is public anyway, the digits it picks are not shown to anyone)."""
        table = table_of(view)
        form = self.modal_for(table.round, table.turn, lang)
        available = [d for d in range(10) if d not in table.crossed.get(str(seat), frozenset())]
        if not available:  # sits out: the form's text input is refused with the reason (never an empty select)
            return form
        options = tuple((str(d), str(d)) for d in available)
        selects = tuple(SelectInput(t(f"thenumber.modal.digit{i}", lang), options,
                                    t("thenumber.modal.digit_placeholder", lang))
                        for i in range(1, rules.NUMBER_LENGTH + 1))
        typed = TextInput(t("thenumber.modal.or_type", lang), t("thenumber.modal.placeholder", lang),
                          rules.NUMBER_LENGTH, rules.NUMBER_LENGTH)
        return Inputs(private_label=form.private_label, title=form.title, selects=selects, text=typed)

    def sealed_label(self, view: Any, prompt: Prompt, seat: Seat, lang: str) -> str:
        return t("thenumber.button.choose", lang)  # the form's own label (``modal_for``), whatever the turn

    def modal_for(self, round_no: int, turn: int, lang: str) -> Inputs:
        return Inputs(private_label=t("thenumber.button.choose", lang), title=t("thenumber.modal.title", lang,
                                                                                round=round_no, turn=turn),
                      text=TextInput(t("thenumber.modal.label", lang), t("thenumber.modal.placeholder", lang),
                                     rules.NUMBER_LENGTH,
                                     rules.NUMBER_LENGTH))

    def modal_for_step(self, step: int, lang: str) -> Inputs:
        """The modal of ``step`` without its table (the database is slow: the submission is checked anyway)."""
        round_no, turn = divmod(step, rules.TURNS_PER_ROUND)
        return self.modal_for(round_no + 1, turn + 1, lang)

    def not_asked(self, view: Any, seat: Seat | None, lang: str) -> str | None:
        """Why this turn does not ask ``seat``: not a player (None), or every digit of its board is crossed off."""
        if seat is None:
            return t("core.error.not_in_game", lang)
        return t("thenumber.error.sits_out", lang) if str(seat) in table_of(view).exhausted else None

    def ack(self, action: Action, changed: bool, lang: str) -> str:
        return t("thenumber.ack.changed" if changed else "thenumber.ack.locked", lang, number=action[FIELD],
                 channel="", round=0, turn=0)

    def acknowledge(self, view: Any, action: Action, changed: bool, complete: bool, channel_id: int,
                    lang: str) -> str:
        """Sent ONLY to the author of the number; names the turn it counts for (a DM may cross a reveal)."""
        table = table_of(view)
        return render.ack_text(str(action[FIELD]), channel_id, changed, complete, lang, round_no=table.round,
                               turn=table.turn)

    def step_name(self, view: Any, lang: str) -> str | None:
        table = table_of(view)
        return t("thenumber.step", lang, round=table.round, turn=table.turn)

    def refusal(self, error: RuleError, lang: str) -> str:
        return refusal(error, None, lang) if isinstance(error, TheNumberError) else str(error)

    def refusal_for(self, error: RuleError, view: Any, lang: str) -> str:
        """A refused number, with the digits the seat may still use (``view``: that seat's own)."""
        if not isinstance(error, TheNumberError):
            return str(error)
        if isinstance(error, SitsOut):
            return t("thenumber.refuse.sits_out", lang)
        available = None
        if isinstance(view, SeatView):
            available = frozenset(render.DIGITS) - view.table.crossed[str(view.seat)]
        return refusal(error, available, lang)

    def turn_over(self, view: Any, prompt: Prompt, seats: Sequence[SeatInfo], deadline: float | None,
                  lang: str) -> Card:
        """A number sent for a turn already revealed: not saved, and the turn open now."""
        table = table_of(view)
        return Card(t("thenumber.error.turn_over_now", lang, round=table.round, turn=table.turn),
                    (render.status_embed(table, seats, deadline, lang),))

    def reminder(self, view: Any, seat: Seat, seconds: int, channel_id: int, lang: str) -> str:
        table = table_of(view)
        return t("thenumber.dm.reminder", lang, seconds=seconds, turn=table.turn, round=table.round,
                 channel=f"<#{channel_id}>")

    # /score and /digits -------------------------------------------------------------------------------
    def score(self, view: Any, seats: Sequence[SeatInfo], lang: str) -> Card:
        return self.score_at(view, seats, "running", lang)

    def score_at(self, view: Any, seats: Sequence[SeatInfo], status: str, lang: str) -> Card:
        """The scoreboard; ``status``: the game's (who is awaited while it runs, "final" once over)."""
        return Card(embeds=(render.score_embed(table_of(view), seats, status, lang),))

    def board(self, view: Any, seat: Seat, seats: Sequence[SeatInfo], lang: str) -> Card:
        info = next(s for s in seats if s.seat == seat)
        return Card(embeds=(render.digits_embed(info, table_of(view), lang),))


PRESENTER = TheNumberPresenter()
