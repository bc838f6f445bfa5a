"""Answering interactions on time: Discord forgets an interaction not answered within 3 s.

Every handler runs under a :class:`SlowAnswer`: if it has not answered after ``SLOW_ANSWER_AFTER``
seconds (the database is busy), the interaction is deferred, and the answer given later replaces the
"thinking" state. The helpers below answer in whichever way is still open, after any deferral in flight.
"""

import asyncio
import logging
from typing import Any, Literal

import discord

from . import lean
from .layout import Drawn

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
Deferral = Literal["ephemeral", "public", "update"]
SLOW_ANSWER_AFTER = 1.5  # of Discord's 3 s: the deferral itself must arrive in time on a busy machine
_KEY = "slow-answer"


class SlowAnswer:
    """Defers ``interaction`` if nothing answered it in time. ``kind``: how the answer will look: a private
    line ("ephemeral"), a public message ("public"), or an edit of the component's message ("update")."""

    def __init__(self, interaction: Interaction, kind: Deferral, after: float = SLOW_ANSWER_AFTER) -> None:
        self.interaction, self.kind = interaction, kind
        self._deferring: asyncio.Task[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(after, self._start)
        interaction.extras[_KEY] = self

    def _start(self) -> None:
        if not self.interaction.response.is_done():
            self._deferring = asyncio.create_task(self._defer(), name="defer a slow answer")

    async def _defer(self) -> None:
        response = self.interaction.response
        try:
            if self.kind == "update":
                await response.defer()
            else:
                await response.defer(ephemeral=self.kind == "ephemeral", thinking=True)
        except discord.HTTPException as exc:
            log.warning("could not defer a slow answer: %s", exc)

    async def settle(self) -> None:
        """Stop the timer and wait for a deferral in flight: then ``response.is_done()`` is the truth."""
        self._timer.cancel()
        if self._deferring is not None:
            await asyncio.shield(self._deferring)

    def stop(self) -> None:
        self._timer.cancel()


async def settled(interaction: Interaction) -> None:
    guard = interaction.extras.get(_KEY)
    if isinstance(guard, SlowAnswer):
        await guard.settle()


MESSAGE_LIMIT = 2000  # Discord's limit for a message's content


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A private line cut to Discord's limit: a refusal is answered even if something in it ran long."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


async def reply(interaction: Interaction, text: str, **kwargs: Any) -> None:
    """Answer privately, whether or not the interaction was already answered (or deferred)."""
    text = fit(text)
    await settled(interaction)
    if interaction.response.is_done():
        if not kwargs and lean.AVAILABLE:  # a private line after the update (a choice's hot path)
            await lean.private_followup(interaction, text)
            return
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    elif not kwargs and lean.AVAILABLE:  # a line alone (a changed choice's answer, a refusal)
        await lean.private_message(interaction, text)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def send(interaction: Interaction, **fields: Any) -> int | None:
    """Answer with a new message (public unless ``ephemeral=True``); returns its id when known."""
    await settled(interaction)
    if interaction.response.is_done():
        message = await interaction.followup.send(wait=True, **fields)
        return message.id
    response = await interaction.response.send_message(**fields)
    return getattr(response, "message_id", None)


async def edit(interaction: Interaction, **fields: Any) -> None:
    """Answer a component by editing its message (``view`` may be a layout already :class:`Drawn`)."""
    await settled(interaction)
    if (not interaction.response.is_done() and lean.AVAILABLE and lean.message_ref(interaction) is not None
            and fields.keys() <= lean.UPDATE_FIELDS):
        await lean.update_message(interaction, **fields)  # the same update, its answer left unparsed
        return
    if isinstance(fields.get("view"), Drawn):
        fields["view"] = fields["view"].layout()
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)
