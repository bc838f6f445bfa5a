"""One private sheet per player: the private (ephemeral) view a player opened in a sealed step is edited into the
next sealed step that awaits them (Binomial's 16 rolls) instead of them pressing the public button again for a
new private message each step. A pick on it is then the step's only click.

Kept in memory only (an interaction's token lives 15 minutes): after a restart, or past that, the player opens it
again with the turn message's button. The edit goes through the interaction's webhook, which Discord's global
rate limit does not count."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.core.table import Table

from .components import choices_view, pick_view

if TYPE_CHECKING:
    from .presenter import Presenter

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
TOKEN_LIFE = 14 * 60  # of Discord's 15 minutes, with a margin


@dataclass
class Sheet:
    interaction: Interaction
    lang: str
    step: int  # the step it shows
    ack: str  # the last line it showed (the previous pick's acknowledgement), kept above the next step
    kept: float  # when the interaction whose token edits it came


class PrivateSheets:
    def __init__(self) -> None:
        self._sheets: dict[tuple[int, int], Sheet] = {}

    def keep(self, game_id: int, user_id: int, interaction: Interaction, lang: str, step: int, ack: str) -> None:
        """``interaction`` answered a pick by editing its private message: that message is the player's sheet,
        edited later through this interaction's token (which lives from now: each pick brings a fresh one)."""
        self._sheets[(game_id, user_id)] = Sheet(interaction, lang, step, ack, time.monotonic())

    def forget(self, game_id: int) -> None:
        for key in [k for k in self._sheets if k[0] == game_id]:
            del self._sheets[key]

    async def refresh(self, table: Table, presenter: Presenter) -> None:
        """Edit each kept sheet of this game into the current step, for the players it awaits."""
        if not table.running:
            self.forget(table.id)
            return
        prompt = table.prompt
        if prompt is None or not prompt.sealed:
            return
        for (game_id, user_id), sheet in list(self._sheets.items()):
            if game_id != table.id or sheet.step >= table.step:
                continue
            seated = table.record.seat_of(user_id)
            if time.monotonic() - sheet.kept > TOKEN_LIFE or seated is None:
                del self._sheets[(game_id, user_id)]
                continue
            if seated.seat not in table.awaited():
                continue
            legal = list(table.game.legal(table.state, seated.seat) or [])
            if not legal:
                continue
            inputs = presenter.inputs(table.game.view(table.state, seated.seat), prompt, seated.seat, legal,
                                      sheet.lang)
            if inputs.text is not None or inputs.selects:
                continue  # a modal's step: the public button opens it
            kind = table.record.kind
            view = (choices_view(kind, table.id, table.step, inputs.choices) if inputs.choices
                    else pick_view(kind, table.id, table.step, list(enumerate(inputs.labels)), inputs.placeholder))
            content = "\n".join(x for x in (sheet.ack, inputs.title or "…") if x)[:2000]
            try:
                await sheet.interaction.edit_original_response(content=content, view=view, embeds=[])
                sheet.step = table.step
            except discord.HTTPException as exc:  # expired or deleted: the public button still opens one
                log.info("game %s: could not update a private sheet: %s", table.id, exc)
                del self._sheets[(game_id, user_id)]
