"""Discord requests of a choice's hot path as discord.py sends them, without the objects nobody reads.

A modal submitted from the turn message is answered by updating that message (a type-7 callback) and then by a
private followup line (a changed choice: by a private line alone); the step it ends posts the next turn message.
discord.py builds a full message object from Discord's answer to each (the callback's ``with_response`` resource,
the followup's ``wait`` message, the posted message: components, author, member, flags...) that the bot throws
away but for an id; for a choice that is most of the library's CPU beyond the requests themselves. These helpers
send the same requests - built by discord.py's own parameter functions, through its webhook adapter or HTTP
client, so the URL, headers and JSON body are unchanged, and so are its retries and rate limits - and skip the
parsing of the answer into objects; an interaction's callback does not ask for the message back (no
``with_response``: Discord answers 204). Errors are raised as discord.py raises them (``HTTPException`` and its
kin).

They use discord.py internals (``async_context``, ``interaction_message_response_params``,
``handle_message_parameters``, ``InteractionResponse._response_type``): :data:`AVAILABLE` says whether this
discord.py has them, else the callers use the public API (cogs/table/answers.py, cogs/table/poster.py).
"""

from __future__ import annotations

import secrets
from typing import Any

import discord

try:
    from discord.enums import InteractionResponseType
    from discord.http import Route, handle_message_parameters
    from discord.ui import DynamicItem
    from discord.utils import MISSING
    from discord.webhook.async_ import async_context, interaction_message_response_params

    AVAILABLE = "_response_type" in getattr(discord.InteractionResponse, "__slots__", ())
except ImportError:  # another discord.py: the public API answers
    AVAILABLE = False

from bot.interactions import message_ref as message_ref

from .layout import Drawn

Interaction = discord.Interaction[Any]
UPDATE_FIELDS = frozenset({"content", "embed", "embeds", "view", "attachments", "allowed_mentions"})
EPHEMERAL = 1 << 6  # MessageFlags.ephemeral


def _needs_store(state: Any, view: discord.ui.BaseView) -> bool:
    """Whether discord.py's view store must learn ``view`` (``edit_message`` tells it every view with inputs
    that is not finished): not when its inputs are all DynamicItems without a timeout whose patterns the store
    already knows (registered at start-up, cogs/table/__init__.py): those are dispatched by pattern, never per
    message."""
    if view.is_finished():
        return False
    known = getattr(getattr(state, "_view_store", None), "_dynamic_items", {})
    for item in view.walk_children():
        if not item.is_dispatchable():
            continue
        if (not isinstance(item, DynamicItem) or view.timeout is not None
                or item.__discord_ui_compiled_template__ not in known):
            return True
    return False


def _store(state: Any, view: Any, message_id: int) -> None:
    """What discord.py does after editing a message with ``view``: its view store learns the view when it must
    (``_needs_store``; a Drawn layout's items are its inputs')."""
    shown = view.inputs if isinstance(view, Drawn) else view
    if shown and _needs_store(state, shown):  # (is_dispatchable's walk, with what the store knows)
        state.store_view(view.layout() if isinstance(view, Drawn) else view, message_id)


async def _callback(interaction: Interaction, params: Any) -> None:
    """The interaction's answer. discord.py asks for the message back (``?with_response=1``), which nothing here
    reads: the callback goes without that flag, and Discord answers 204 instead of the whole message (a refusal is
    answered the same)."""
    http = interaction._state.http
    route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=interaction.id,
                  webhook_token=interaction.token)
    await async_context.get().request(route, session=interaction._session, proxy=http.proxy,
                                      proxy_auth=http.proxy_auth, payload=None if params.files else params.payload,
                                      multipart=params.multipart if params.files else None, files=params.files)


async def private_message(interaction: Interaction, text: str) -> None:
    """``interaction.response.send_message(text, ephemeral=True)``: the same answer (a changed choice's line, a
    refusal), without building the message object of Discord's answer."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    params = interaction_message_response_params(
        type=InteractionResponseType.channel_message.value, content=text, tts=False,
        previous_allowed_mentions=interaction._state.allowed_mentions,
        flags=discord.MessageFlags._from_value(EPHEMERAL))
    await _callback(interaction, params)
    response._response_type = InteractionResponseType.channel_message


async def update_message(interaction: Interaction, **fields: Any) -> None:
    """``interaction.response.edit_message(**fields)`` for an interaction that carries its message (a
    component's or a modal's opened from it): the same request, without building the callback's message object."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    ref = message_ref(interaction)
    if ref is None or interaction.type not in (discord.InteractionType.component,
                                               discord.InteractionType.modal_submit):
        raise ValueError("update_message answers a component's or modal's interaction on its message")
    state, message_id = interaction._state, ref[0]
    view = fields.get("view", MISSING)
    if view is not MISSING:
        state.prevent_view_updates_for(message_id)
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value, content=fields.get("content", MISSING),
        embed=fields.get("embed", MISSING), embeds=fields.get("embeds", MISSING), view=view,
        attachments=fields.get("attachments", MISSING), previous_allowed_mentions=state.allowed_mentions,
        allowed_mentions=fields.get("allowed_mentions", MISSING), flags=MISSING)
    await _callback(interaction, params)
    response._response_type = InteractionResponseType.message_update
    _store(state, view, message_id)


async def edit_original(interaction: Interaction, **fields: Any) -> None:
    """``interaction.edit_original_response(**fields)`` for an interaction answered by updating its message
    (that message is its original response): the same request through the interaction's webhook, which
    Discord's global rate limit does not count, without building the message object from the answer."""
    state = interaction._state
    http = state.http
    view = fields.get("view", MISSING)
    with handle_message_parameters(
            content=fields.get("content", MISSING), attachments=fields.get("attachments", MISSING),
            embeds=fields.get("embeds", MISSING), view=view,
            previous_allowed_mentions=state.allowed_mentions) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart, files=params.files)
    ref = message_ref(interaction)
    if ref is not None:
        _store(state, view, ref[0])


async def private_followup(interaction: Interaction, text: str) -> None:
    """``interaction.followup.send(text, ephemeral=True)``: the same request (discord.py waits for the message
    of an application webhook), without building the message object from the answer."""
    state = interaction._state
    http = state.http
    flags = discord.MessageFlags._from_value(EPHEMERAL)
    with handle_message_parameters(content=text, tts=False, flags=flags,
                                   previous_allowed_mentions=getattr(state, "allowed_mentions", None)) as params:
        await async_context.get().execute_webhook(
            interaction.application_id, interaction.token, session=interaction._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart, files=params.files,
            thread_id=None, wait=True, with_components=False)


async def post(channel: discord.PartialMessageable, view: Drawn, files: list[discord.File],
               nonce: str | int | None) -> discord.PartialMessage:
    """``channel.send(view=view.layout(), files=files, nonce=nonce)``: the same request, the message known by its
    id only (a turn message or a report: the poster keeps its id)."""
    state = channel._state
    with handle_message_parameters(
            content=None, tts=False, files=files, nonce=secrets.randbits(64) if nonce is None else nonce,
            allowed_mentions=None, previous_allowed_mentions=state.allowed_mentions, mention_author=None,
            view=view, poll=None) as params:
        data = await state.http.send_message(channel.id, params=params)
    message = channel.get_partial_message(int(data["id"]))
    if view.inputs is not None and _needs_store(state, view.inputs):
        state.store_view(view.layout(), message.id)
    return message
