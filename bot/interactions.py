"""Interactions whose message is built when first read, and answered through the bot's untraced session.

discord.py builds, for every component's or modal's interaction, the whole message object it carries (its
components, embeds, author, member...): a large part of what an interaction costs the library. A choice made
through the turn message needs only that message's id and flags, read from the payload
(:func:`message_ref`); the object is built the first time ``interaction.message`` is read, exactly as discord.py
builds it. :func:`install` swaps discord.py's INTERACTION_CREATE parser for one that makes such interactions, the
rest of the parser unchanged; with another discord.py (its ``Interaction`` or parser not as expected) it leaves
the library alone and every interaction is built as before.

Their answers (callbacks, followups, edits of the original response) go through the client's ``answer_session``
when it has one (bot/http_pacing.py ``untraced_session``): Discord's global limit does not count them, and the
pace's aiohttp trace would cost each of them its signals for nothing.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.message import Message


class LeanInteraction(discord.Interaction):  # type: ignore[type-arg]
    """A :class:`discord.Interaction` whose ``message`` is built from the payload when first read, and whose
    answers go through the client's ``answer_session`` when it has one."""

    __slots__ = ("_built_message", "_message_guild", "_raw_message")

    def _from_data(self, data: Any) -> None:
        answers = getattr(self._client, "answer_session", None)  # (discord.py set _session before this)
        if answers is not None:
            self._session = answers
        self._raw_message: dict[str, Any] | None = None
        raw = data.get("message")
        if raw is None:
            super()._from_data(data)
            return
        super()._from_data({k: v for k, v in data.items() if k != "message"})  # sets message to None
        self._raw_message = raw
        # as discord.py does: a message without its guild gets the interaction's
        self._message_guild = self._state._get_guild(self.guild_id) if self.guild_id else None

    @property  # type: ignore[override]
    def message(self) -> Message | None:
        raw = self._raw_message
        if raw is not None:
            self._raw_message = None
            message = Message(state=self._state, channel=self.channel, data=raw)  # type: ignore[arg-type]
            if message.guild is None and self._message_guild is not None:
                message.guild = self._message_guild
            self._built_message = message
        return self._built_message

    @message.setter
    def message(self, value: Message | None) -> None:
        self._raw_message = None
        self._built_message = value


def message_ref(interaction: discord.Interaction[Any]) -> tuple[int, int] | None:
    """The id and flags of the message ``interaction`` carries (None: none), without building it."""
    raw = getattr(interaction, "_raw_message", None)
    if raw is not None:
        return int(raw["id"]), int(raw.get("flags") or 0)
    message = interaction.message
    return None if message is None else (message.id, message.flags.value)


def install(client: discord.Client) -> bool:
    """Make ``client``'s interactions :class:`LeanInteraction`; False (nothing changed) when this discord.py's
    parser is not the one this module knows."""
    state = getattr(client, "_connection", None)
    parsers = getattr(state, "parsers", None)
    original = getattr(state, "parse_interaction_create", None)
    if state is None or not isinstance(parsers, dict) or "INTERACTION_CREATE" not in parsers or original is None:
        return False
    if "message" not in discord.Interaction.__slots__:
        return False

    def parse_interaction_create(data: Any) -> None:
        # discord.py's ConnectionState.parse_interaction_create, the interaction built lazily
        interaction = LeanInteraction(data=data, state=state)
        if data["type"] in (2, 4) and state._command_tree:  # application command and autocomplete
            state._command_tree._from_interaction(interaction)
        elif data["type"] == 3:  # a component
            inner = data["data"]
            state._view_store.dispatch_view(inner["component_type"], inner["custom_id"], interaction)
        elif data["type"] == 5:  # a modal submitted
            inner = data["data"]
            state._view_store.dispatch_modal(inner["custom_id"], interaction, inner["components"],
                                             inner.get("resolved", {}))
        state.dispatch("interaction", interaction)

    parsers["INTERACTION_CREATE"] = parse_interaction_create
    return True
