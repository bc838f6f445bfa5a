"""The lobby of every game: ``/<key> start`` opens it (with AI seats), its buttons (Join, Leave, Start, Cancel,
an AI level), a finished game's "Play again", and the lobby message kept up to date. Starting a game hands
it to the :class:`~cogs.table.poster.Poster`, which posts its first turn."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.core.errors import UnknownLevel
from bot.core.service import GameService
from bot.http_pacing import in_background
from bot.i18n import t
from cogs.seats import marked_name, safe_name, seat_style
from storage.base import ChannelBusy, GameRecord, GameStore

from .answering import InteractionAnswers
from .answers import edit, reply, send
from .components import lobby_view
from .language import Languages
from .layout import edit_fields as v2_edit
from .layout import send_fields
from .permissions import check_channel_permissions
from .poster import Poster
from .presenter import Card, Presenters
from .refusals import Refused, word
from .threads import TableThreads
from .timers import Timers

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
AI_NAMES = ("Ada", "Blaise", "Carl", "Dora", "Emmy", "Fermat")


class Lobby:
    def __init__(self, client: discord.Client, store: GameStore, service: GameService, presenters: Presenters,
                 languages: Languages, answers: InteractionAnswers, poster: Poster, timers: Timers,
                 threads: TableThreads, kinds: frozenset[str]) -> None:
        self.client = client
        self.store = store
        self.service = service
        self.presenters = presenters
        self.languages = languages
        self.answers = answers
        self.poster = poster
        self.timers = timers
        self.threads = threads
        self.kinds = kinds

    async def open_table(self, interaction: Interaction, kind: str, options: Mapping[str, Any], ai_players: int,
                         ai_level: str) -> None:
        """``/<game> start``: the game's package gives its options; the lobby itself is shared."""
        async with self.answers.answering(interaction, "public"):
            game = self.service.game_of(kind)
            if not 0 <= ai_players <= game.seats.stop - 2:
                lang = await self.answers.lang(interaction)
                raise Refused(t("core.error.ai_players", lang, high=game.seats.stop - 2))
            if game.ai_levels and ai_level not in game.ai_levels:
                raise UnknownLevel(tuple(game.ai_levels))  # Discord checks the choices; a forged request does not
            check_channel_permissions(interaction)
            await self._open_lobby(interaction, kind, options, [ai_level] * ai_players)

    async def _open_lobby(self, interaction: Interaction, kind: str, options: Mapping[str, Any],
                          ai_levels: list[str], invited: tuple[int, ...] = ()) -> None:
        """A lobby hosted by whoever asked, with AI seats of ``ai_levels``; ``invited``: players mentioned once
        in it (``allowed_mentions`` pings only them), each confirming by pressing Join."""
        channel_id = interaction.channel_id or 0
        playing = await self.store.open_game_in_channel(channel_id)
        if playing is not None and playing.channel_id != channel_id:
            raise ChannelBusy(playing.id)  # a thread a table plays in is that table's: no second one there
        lang = await self.languages.for_channel(interaction)
        options = await self.threads.with_default(interaction.guild_id, {**options, "language": lang})
        record = await self.service.open_lobby(interaction.guild_id, interaction.channel_id or 0,
                                               interaction.user.id, interaction.user.display_name, options, kind=kind)
        try:
            for i, level in enumerate(ai_levels):
                record = await self.service.add_ai(record.id, interaction.user.id, level, self._ai_name(record, i))
            extra: dict[str, Any] = {}
            if invited:
                extra["content"] = t("core.again.invite", lang, names=" ".join(f"<@{u}>" for u in invited),
                                     game=self.presenters[kind].title(lang))
                extra["allowed_mentions"] = discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(id=u) for u in invited])
            message_id = await send(interaction, **send_fields(Card(extra.pop("content", None), (
                self.lobby_embed(record, lang),)), self._lobby_view(record, lang)), **extra)
            if message_id:
                await self.store.set_message(record.id, "lobby", message_id)
        except BaseException:
            # Nobody can see this lobby: close it rather than leave it blocking the channel.
            await asyncio.shield(self.service.abandon(record.id, "the lobby could not be shown"))
            raise
        await self.explain_by_dm(interaction, record)

    async def play_again(self, interaction: Interaction, kind: str, game_id: int) -> None:
        """A finished game's "Play again" (any message, however old): a new lobby in this channel with the same
        options and AI seats, hosted by the presser (one of its players); the others are invited to Join."""
        async with self.answers.answering(interaction, "public", self.presenters.by_key.get(kind)):
            lang = await self.answers.lang(interaction)
            try:
                old = await self.store.load_game(game_id)
            except Exception:
                old = None
            if old is None or old.kind not in self.kinds:
                raise Refused(t("core.again.gone", lang, start=f"`/{kind} start`"))
            if old.seat_of(interaction.user.id) is None:
                raise Refused(t("core.error.not_in_game", lang))
            if await self.store.open_game_in_channel(interaction.channel_id or 0) is not None:
                raise Refused(t("core.again.busy", lang))
            check_channel_permissions(interaction)
            options = {k: v for k, v in old.options.items() if k != "language"}
            levels = [s.ai_level for s in old.seats if s.ai_level is not None]
            invited = tuple(s.user_id for s in old.seats if s.user_id is not None and not s.is_ai
                            and s.user_id != interaction.user.id)
            await self._open_lobby(interaction, old.kind, options, levels, invited)

    async def explain_by_dm(self, interaction: Interaction, record: GameRecord) -> None:
        """Tell a new player how to play by DM (a game whose presenter says it); a blocked DM is explained
        privately, never an error."""
        presenter = self.presenters[record.kind]
        lang = await self.languages.for_user(interaction)
        text = presenter.join_dm(record.channel_id, lang)
        if text is None:
            return
        if not await in_background(self.poster.send_dm(interaction.user.id, text)):
            await reply(interaction, word(self.presenters[record.kind], "core.dm.blocked", lang))

    def lobby_embed(self, record: GameRecord, lang: str, headline: str | None = None,
                    passed: tuple[str, str] | None = None) -> discord.Embed:
        presenter = self.presenters[record.kind]
        own = presenter.lobby_embed(record, lang, headline, passed)
        if own is not None:
            return own
        game = self.service.game_of(record.kind)
        embed = discord.Embed(title=t("core.lobby.title", lang, game=presenter.title(lang)),
                              description=headline or presenter.lobby(record.options, lang), colour=presenter.colour)
        names = [f"{seat_style(s.seat).symbol} {marked_name(s.name, s.is_ai)}"
                 + (t("core.lobby.host", lang) if s.user_id == record.host_id else "") for s in record.seated]
        embed.add_field(name=t("core.lobby.seats", lang, taken=len(names), max=game.seats.stop - 1),
                        value="\n".join(names) or t("core.lobby.nobody", lang), inline=False)
        return embed

    def _lobby_view(self, record: GameRecord, lang: str) -> discord.ui.View:
        game = self.service.game_of(record.kind)
        return lobby_view(record.kind, record.id, tuple(game.ai_levels), lang,
                          open_seats=len(record.seated) < game.seats.stop - 1)

    @staticmethod
    def _ai_name(record: GameRecord, index: int) -> str:
        taken = {s.name for s in record.seats}
        free = [n for n in AI_NAMES if f"{n} (AI)" not in taken] or [f"Bot {index + 1}"]
        return f"{free[0]} (AI)"

    async def lobby_action(self, interaction: Interaction, action: str, game_id: int) -> None:
        async with self.answers.answering(interaction, "update"):
            if action == "join":
                record = await self.service.join(game_id, interaction.user.id, interaction.user.display_name)
                await self._show_lobby(interaction, record)
                await self.explain_by_dm(interaction, record)
            elif action == "leave":
                before = await self.store.load_game(game_id)
                record = await self.service.leave_lobby(game_id, interaction.user.id)
                await self._show_lobby(interaction, record, host_passed(before, record))
            elif action == "start":
                check_channel_permissions(interaction)  # a game must not die at its first post
                outcome = await self.service.start(game_id, interaction.user.id)
                try:
                    record = outcome.table.record
                    lang = await self.languages.for_game(record)
                    # the thread first: stored before the first turn message is posted, and named by the lobby
                    thread = await self.threads.open(interaction, record)
                    started = (t("threads.started", lang, thread=f"<#{thread}>") if thread is not None
                               else word(self.presenters[record.kind], "core.lobby.started", lang))
                    await edit(interaction, **v2_edit(Card(embeds=(self.lobby_embed(record, lang, started),))))
                finally:  # the game runs: it gets its turn message and timers whatever happened above
                    await self.poster.announce(outcome.table, outcome.reports)
            elif action == "cancel":
                await self.cancel(interaction, game_id, via_button=True)

    async def add_ai(self, interaction: Interaction, game_id: int, level: str) -> None:
        async with self.answers.answering(interaction, "update"):
            record = await self.store.load_game(game_id)
            record = await self.service.add_ai(game_id, interaction.user.id, level,
                                               self._ai_name(record, len(record.seats)))
            await self._show_lobby(interaction, record)

    async def _show_lobby(self, interaction: Interaction, record: GameRecord,
                          passed: tuple[str, str] | None = None) -> None:
        lang = await self.languages.for_game(record)
        if record.status == "cancelled":
            left = word(self.presenters[record.kind], "core.lobby.everyone_left", lang)
            await edit(interaction, **v2_edit(Card(embeds=(self.lobby_embed(record, lang, left),))))
            return
        await edit(interaction, **v2_edit(Card(embeds=(self.lobby_embed(record, lang, passed=passed),)),
                                          self._lobby_view(record, lang)))

    async def refresh(self, record: GameRecord, passed: tuple[str, str] | None = None) -> None:
        if not record.lobby_message_id:
            return
        lang = await self.languages.for_game(record)
        if record.status == "cancelled":
            left = word(self.presenters[record.kind], "core.lobby.everyone_left", lang)
            await self._edit_quietly(record.channel_id, record.lobby_message_id,
                                     **v2_edit(Card(embeds=(self.lobby_embed(record, lang, left),))))
            return
        await self._edit_quietly(record.channel_id, record.lobby_message_id,
                                 **v2_edit(Card(embeds=(self.lobby_embed(record, lang, passed=passed),)),
                                           self._lobby_view(record, lang)))

    async def _edit_quietly(self, channel_id: int, message_id: int, **fields: Any) -> None:
        try:
            await self.client.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**fields)
        except discord.HTTPException as exc:
            log.info("could not edit message %s: %s", message_id, exc)

    async def cancel(self, interaction: Interaction, game_id: int, *, via_button: bool) -> None:
        can_manage = bool(interaction.permissions.manage_guild) if interaction.guild_id else False
        record = await self.service.cancel(game_id, interaction.user.id, can_manage)
        self.timers.cancel(game_id)
        lang = await self.languages.for_game(record)
        closed = self.lobby_embed(record, lang, word(self.presenters[record.kind], "core.lobby.cancelled_by", lang,
                                                     name=safe_name(interaction.user.display_name)))
        if via_button and record.lobby_message_id == getattr(interaction.message, "id", None):
            await edit(interaction, **v2_edit(Card(embeds=(closed,))))
            return
        await send(interaction, **send_fields(Card(embeds=(closed,))))
        if record.lobby_message_id and record.phase == 0:
            await self._edit_quietly(record.channel_id, record.lobby_message_id, **v2_edit(Card(embeds=(closed,))))


def host_passed(before: GameRecord, after: GameRecord) -> tuple[str, str] | None:
    """(old host, new host) when leaving passed the host role on, for the lobby message to say so."""
    if after.status != "lobby" or after.host_id == before.host_id:
        return None
    old = next((s.name for s in before.seats if s.user_id == before.host_id), "?")
    new = next((s.name for s in after.seats if s.user_id == after.host_id), "?")
    return old, new
