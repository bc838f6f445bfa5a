"""A table in a thread of its own (issue 36, point 1): asked by the ``thread`` option of ``/<game> start``, else
by the server's ``/server threads`` setting (stored in ``meta`` like the time zone).

On Start the bot starts a public thread from the lobby message ("The Number · table 12"); its id is stored in
the game's row (``thread_id``) before the first turn message is posted, so every turn message, reminder and
catch-up goes to the thread, after a restart too (:meth:`~cogs.table.poster.Poster.where`). The lobby and the
final result stay in the channel; a command typed in the thread finds the table by the thread's id.

Where no thread can be opened (the bot lacks Create Public Threads or Send Messages in Threads, the channel is
itself a thread, a forum, a DM), the channel is told so in one line and the game is played there.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.core.deadlines import THREAD
from bot.i18n import t
from storage.base import GameRecord, GameStore

from .language import Languages
from .poster import Poster
from .presenter import Presenters
from .table_state import TableState

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
THREADS_META = "threads:{guild}"  # "on" / "off": a server's default for new tables
TEXT_CHANNELS = (discord.ChannelType.text, discord.ChannelType.news)  # where a message can start a thread
WRONG_CHANNEL_TYPE = 50024  # Discord's "Cannot execute action on this channel type"
ARCHIVE_MINUTES = 10080  # a week: a daily table's thread must not be archived between two turns


class ServerThreads:
    """Each server's default (``/server threads``): off until a Manage Server member turns it on."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._cache: dict[int, bool] = {}

    async def of(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return False
        if guild_id not in self._cache:
            self._cache[guild_id] = await self.store.get_meta(THREADS_META.format(guild=guild_id)) == "on"
        return self._cache[guild_id]

    async def set(self, guild_id: int, on: bool) -> None:
        await self.store.set_meta(THREADS_META.format(guild=guild_id), "on" if on else "off")
        self._cache[guild_id] = on


class TableThreads:
    """Opens a table's thread on Start, or says in the channel why the table plays there."""

    def __init__(self, store: GameStore, poster: Poster, state: TableState, languages: Languages,
                 presenters: Presenters, servers: ServerThreads) -> None:
        self.store = store
        self.poster = poster
        self.state = state
        self.languages = languages
        self.presenters = presenters
        self.servers = servers

    async def with_default(self, guild_id: int | None, options: dict[str, Any]) -> dict[str, Any]:
        """A new lobby's options with the server's default when the host did not say (stored only when on,
        so a table in its channel keeps the options it had before threads)."""
        if THREAD.name not in options and await self.servers.of(guild_id):
            return {**options, THREAD.name: True}
        return options

    async def open(self, interaction: Interaction, record: GameRecord) -> int | None:
        """On Start: the table's thread from its lobby message, stored before any turn is posted (its id); or
        the one line saying why not (None: the game plays in the channel)."""
        if not record.options.get(THREAD.name) or not record.lobby_message_id:
            return None
        lang = await self.languages.for_game(record)
        why = self._cannot(interaction)
        if why is None:
            title = self.presenters[record.kind].title(lang)
            try:
                # by id (POST /channels/{channel}/messages/{lobby}/threads): the guild need not be cached
                thread = await self.poster.bot.http.start_thread_with_message(
                    record.channel_id, record.lobby_message_id, auto_archive_duration=ARCHIVE_MINUTES,
                    name=t("threads.name", lang, game=title, id=record.id)[:100])
            except discord.Forbidden:
                why = "permission"
            except discord.HTTPException as exc:
                log.warning("game %s: could not open its thread: %s", record.id, exc)
                why = "channel" if exc.code == WRONG_CHANNEL_TYPE else "failed"
            else:
                await self.store.set_message(record.id, "thread", int(thread["id"]))
                self.state.threads[record.id] = int(thread["id"])
                return int(thread["id"])
        text = t("threads.refused", lang, why=t(f"threads.why.{why}", lang))
        try:
            await self.poster.send(self.poster.channel(record.channel_id), nonce=f"th{record.id}", content=text)
        except discord.HTTPException as exc:
            log.info("game %s: could not say why it has no thread: %s", record.id, exc)
        return None

    @staticmethod
    def _cannot(interaction: Interaction) -> str | None:
        """Why no thread can be opened here, as far as the interaction tells (None: try)."""
        kind = getattr(interaction.channel, "type", None)
        if kind is not None and kind not in TEXT_CHANNELS:
            return "channel"  # a thread, a forum post, a voice channel's chat, a DM
        granted = interaction.app_permissions
        if granted.value and not (granted.create_public_threads and granted.send_messages_in_threads):
            return "permission"
        return None
