"""Slash commands, buttons, the modal and DMs for The Number. Thin: parse, check who may act, call the
service, render. Every user-facing refusal is a private (ephemeral) line."""

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import GameError, NoGameHere, NotInGame, NotRunning, TurnRevealed
from bot.core.throttle import ReplyThrottle
from bot.games.thenumber import rules
from bot.games.thenumber.errors import TheNumberError
from bot.games.thenumber.messages import refusal
from bot.i18n import DEFAULT, language_of, t
from bot.services.thenumber import ABANDONED, Table, check_ai_level, seat_key
from storage.base import AlreadyPlaying, ChannelBusy, GameFull, GameRecord, StalePhase, StoreError, WrongStatus

from . import render
from .answers import Deferral, SlowAnswer, edit, reply, send
from .components import MODAL_ID, NUMBER_FIELD_ID, ChoiceModal, lobby_view, turn_view
from .language import AUTO, Languages
from .table_talk import TableTalk

if TYPE_CHECKING:
    from bot.client import NumberBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
AI_NAMES = ("Ada", "Blaise", "Carl", "Dora", "Emmy", "Fermat")
USER_ERRORS = (GameError, StoreError, TheNumberError)
RECENT_GAMES = 20  # /score after a game looks this far back for the channel's last finished game
MODAL_CHECK_WITHIN = 1.5  # a modal cannot follow a deferral: past this, open it and check at submission
# What a game needs of its channel: post the turns (Send Messages), as embeds (Embed Links), and the final
# score race as a PNG (Attach Files). A thread needs Send Messages in Threads instead of Send Messages.
CHANNEL_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                discord.ChannelType.news_thread)


def cmd(text: str, key: str) -> app_commands.locale_str:
    """A command name or description, translated from the catalogs (see CatalogTranslator)."""
    return app_commands.locale_str(text, key=key)


def explain(error: Exception, lang: str) -> str:
    """A refused request, in the user's words."""
    if isinstance(error, GameError):
        return error.say(lang)
    if isinstance(error, TheNumberError):
        return refusal(error, None, lang)
    if isinstance(error, ChannelBusy):
        return t("error.channel_busy", lang)
    if isinstance(error, AlreadyPlaying):
        return t("error.already_playing", lang, channel=f"<#{error.channel_id}>")
    if isinstance(error, GameFull):
        return t("error.full", lang)
    if isinstance(error, WrongStatus):
        return NotRunning(error.status).say(lang)
    if isinstance(error, StalePhase):
        return t("error.turn_over", lang)
    return t("error.generic", lang)


class MissingPermissions(GameError):
    """The bot lacks channel permissions a game needs (named in the user's language)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        super().__init__("error.missing_permissions", permissions=", ".join(t(f"perm.{n}", "en") for n in names))

    def say(self, language: str) -> str:
        return t(self.key, language, permissions=", ".join(f"**{t(f'perm.{n}', language)}**" for n in self.names))


def check_channel_permissions(interaction: Interaction) -> None:
    """Refuse up front what would make a game die later: a channel where the bot cannot post its messages.

    Discord sends the bot's permissions in the channel with every interaction (``app_permissions``); a
    payload without them (0) is not judged here."""
    granted = interaction.app_permissions
    if not granted.value:
        return
    needed = list(CHANNEL_PERMISSIONS)
    if getattr(interaction.channel, "type", None) in THREAD_TYPES:
        needed[needed.index("send_messages")] = "send_messages_in_threads"
    missing = [name for name in needed if not getattr(granted, name)]
    if missing:
        raise MissingPermissions(missing)


class TheNumberCog(commands.Cog, name="TheNumber"):
    # A game belongs to a server channel: the commands are not offered in DMs (and refused if forged).
    group = app_commands.Group(name=cmd("thenumber", "cmd.thenumber"),
                               description=cmd("Play The Number, the secret three-digit numbers game",
                                               "cmd.thenumber.desc"),
                               guild_only=True, allowed_contexts=app_commands.AppCommandContext(guild=True))

    def __init__(self, bot: "NumberBot") -> None:
        self.bot = bot
        self.games = bot.games
        self.store = bot.store
        self.languages = Languages(bot.store)
        self.talk = TableTalk(bot, self.languages)
        self.throttle = ReplyThrottle(burst=bot.settings.dm_replies_per_window,
                                      window=bot.settings.dm_reply_window_seconds)
        self._flushing: dict[int, asyncio.Task[None]] = {}

    async def cog_load(self) -> None:
        self._restoring = asyncio.create_task(self._restore_when_ready(), name="restore games")

    async def cog_unload(self) -> None:
        self._restoring.cancel()

    async def _restore_when_ready(self) -> None:
        await self.bot.wait_until_ready()
        for attempt in itertools.count():
            try:
                await self.talk.restore()
                return
            except Exception as exc:  # a locked or failing database: nothing was announced twice, try again
                delay = self.talk.backoff(attempt)
                log.warning("could not restore the games (%s); trying again in %.0f s", exc, delay)
                await asyncio.sleep(delay)

    @asynccontextmanager
    async def answering(self, interaction: Interaction, defer: Deferral | None = "ephemeral", *,
                        anywhere: bool = False) -> AsyncIterator[None]:
        """Answer within Discord's 3 s whatever the database does (``defer``: how to defer when slow; None
        for a handler that answers with a modal), and turn a refused request into a friendly private line
        instead of "This interaction failed". Only ``anywhere`` requests (/score, /digits) may come from
        outside a server."""
        self.languages.remember(interaction)
        guard = SlowAnswer(interaction, defer) if defer is not None else None
        try:
            if interaction.guild_id is None and not anywhere:
                raise GameError("error.guild_only")  # a forged request: Discord never offers it in DMs
            yield
        except USER_ERRORS as error:
            await reply(interaction, explain(error, await self.languages.for_user(interaction)))
        except discord.HTTPException:
            raise  # Discord itself failed; nothing sensible to answer through it
        except Exception:
            log.exception("unexpected error while handling an interaction")
            await reply(interaction, t("error.generic", await self._lang_or_default(interaction)))
        finally:
            if guard is not None:
                guard.stop()

    async def _lang_or_default(self, interaction: Interaction) -> str:
        try:
            return await self.languages.for_user(interaction)
        except Exception:  # the database is failing: the user's Discord language will do
            return language_of(str(interaction.locale))

    # Lobby --------------------------------------------------------------------------------------
    @group.command(name=cmd("start", "cmd.start"), description=cmd("Open a table of The Number in this channel",
                                                                    "cmd.start.desc"))
    @app_commands.rename(turn_seconds=cmd("turn_seconds", "cmd.opt.turn_seconds"),
                         ai_players=cmd("ai_players", "cmd.opt.ai_players"),
                         ai_level=cmd("ai_level", "cmd.opt.ai_level"))
    @app_commands.describe(turn_seconds=cmd("Seconds per turn (15-3600)", "cmd.opt.turn_seconds.desc"),
                           ai_players=cmd("AI players to seat now (0-4)", "cmd.opt.ai_players.desc"),
                           ai_level=cmd("How well the AI players play", "cmd.opt.ai_level.desc"))
    @app_commands.guild_only()
    async def start(self, interaction: Interaction, turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
                    ai_players: app_commands.Range[int, 0, 4] = 0,
                    ai_level: Literal["easy", "normal", "hard"] = "normal") -> None:
        async with self.answering(interaction, "public"):
            seconds = turn_seconds or self.bot.settings.turn_seconds
            if not 15 <= seconds <= 3600 or not 0 <= ai_players <= rules.MAX_SEATS - 1:
                raise GameError("error.options")  # Discord checks the ranges too; a forged request does not
            check_ai_level(ai_level)  # nor the choices
            check_channel_permissions(interaction)
            lang = await self.languages.for_channel(interaction)
            record = await self.games.open_lobby(interaction.guild_id, interaction.channel_id or 0,
                                                 interaction.user.id, interaction.user.display_name,
                                                 {"turn_seconds": seconds, "language": lang})
            try:
                for i in range(ai_players):
                    record = await self.games.add_ai(record.id, interaction.user.id, ai_level,
                                                     self._ai_name(record, i))
                message_id = await send(interaction, embed=render.lobby_embed(record, seconds, lang),
                                        view=self._lobby_view(record, lang))
                if message_id:
                    await self.store.set_message(record.id, "lobby", message_id)
            except BaseException:
                # Nobody can see this lobby: close it rather than leave it blocking the channel.
                await self._undo_lobby(record.id)
                raise
            await self._explain_by_dm(interaction, record)

    async def _undo_lobby(self, game_id: int) -> None:
        try:
            await asyncio.shield(self.games.abandon(game_id, "the lobby could not be shown"))
        except Exception:
            log.exception("could not close the unshown lobby of game %s", game_id)

    @group.command(name=cmd("join", "cmd.join"), description=cmd("Take a seat at the table in this channel",
                                                                  "cmd.join.desc"))
    @app_commands.guild_only()
    async def join_cmd(self, interaction: Interaction) -> None:
        async with self.answering(interaction):
            record = await self._game_here(interaction)
            await self._join(interaction, record.id, via_button=False)

    @group.command(name=cmd("leave", "cmd.leave"),
                   description=cmd("Leave the table in this channel (forfeits a running game)", "cmd.leave.desc"))
    @app_commands.guild_only()
    async def leave_cmd(self, interaction: Interaction) -> None:
        async with self.answering(interaction):
            record = await self._game_here(interaction)
            if record.status == "running":
                table = await self.games.remove(record.id, interaction.user.id, interaction.user.id, kicked=False)
                abandoned = table.record.end_reason == ABANDONED
                await reply(interaction, t("reply.left_abandoned" if abandoned else "reply.left_game",
                                           await self.languages.for_user(interaction)))
                await self._after_removal(table)
                return
            before = record
            record = await self.games.leave_lobby(record.id, interaction.user.id)
            await reply(interaction, t("reply.left_table", await self.languages.for_user(interaction)))
            if record.status == "cancelled":
                await self._close_lobby(record)
            else:
                await self._refresh_lobby(record, _host_passed(before, record))

    @group.command(name=cmd("cancel", "cmd.cancel"),
                   description=cmd("Cancel the game in this channel (host or Manage Server)", "cmd.cancel.desc"))
    @app_commands.guild_only()
    async def cancel_cmd(self, interaction: Interaction) -> None:
        async with self.answering(interaction, "public"):
            record = await self._game_here(interaction)
            await self._cancel(interaction, record.id, via_button=False)

    @group.command(name=cmd("kick", "cmd.kick"),
                   description=cmd("Remove a player from the game in this channel (host only)", "cmd.kick.desc"))
    @app_commands.rename(player=cmd("player", "cmd.opt.player"))
    @app_commands.describe(player=cmd("The player to remove", "cmd.opt.kick_player.desc"))
    @app_commands.guild_only()
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        async with self.answering(interaction):
            record = await self._game_here(interaction)
            if record.status == "lobby":
                raise GameError("error.kick_in_lobby")
            table = await self.games.remove(record.id, interaction.user.id, player.id, kicked=True)
            abandoned = table.record.end_reason == ABANDONED
            await reply(interaction, t("reply.kicked_abandoned" if abandoned else "reply.kicked",
                                       await self.languages.for_user(interaction),
                                       name=render.safe_name(player.display_name)))
            await self._after_removal(table)

    @group.command(name=cmd("rules", "cmd.rules"), description=cmd("How to play The Number", "cmd.rules.desc"))
    async def rules_cmd(self, interaction: Interaction) -> None:
        lang = await self.languages.for_user(interaction)
        await interaction.response.send_message(embed=render.rules_embed(lang), ephemeral=True)

    @group.command(name=cmd("language", "cmd.language"),
                   description=cmd("The bot's language in this server (Manage Server)", "cmd.language.desc"))
    @app_commands.rename(language=cmd("language", "cmd.opt.language"))
    @app_commands.describe(language=cmd("auto follows each person's Discord language", "cmd.opt.language.desc"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def language_cmd(self, interaction: Interaction, language: Literal["auto", "en", "fr"]) -> None:
        async with self.answering(interaction):
            if not interaction.permissions.manage_guild or interaction.guild_id is None:
                raise GameError("error.need_manage")
            await self.languages.force(interaction.guild_id, language)
            lang = await self.languages.for_user(interaction)
            text = (t("reply.language_auto", lang) if language == AUTO
                    else t("reply.language_set", lang, language=t(f"language.{language}", lang)))
            await reply(interaction, text)

    async def lobby_action(self, interaction: Interaction, action: str, game_id: int) -> None:
        """A lobby button was pressed (possibly on an old message, possibly after a restart)."""
        async with self.answering(interaction, "update"):
            if action == "join":
                await self._join(interaction, game_id, via_button=True)
            elif action == "leave":
                before = await self.store.load_game(game_id)
                record = await self.games.leave_lobby(game_id, interaction.user.id)
                await self._show_lobby(interaction, record, _host_passed(before, record))
            elif action == "start":
                check_channel_permissions(interaction)  # a game must not die at its first post
                table = await self.games.start(game_id, interaction.user.id)
                try:
                    lang = await self.languages.for_game(table.record)
                    await edit(interaction, embed=render.lobby_closed_embed(table.record, t("lobby.started", lang),
                                                                            lang), view=None)
                finally:  # the game is running: it gets its status message and timers whatever happened above
                    await self.talk.open_turn(table)
                    if not table.awaiting():  # nobody to wait for (AI players choose at once)
                        await self.talk.resolve_if_complete(table)
            elif action == "cancel":
                await self._cancel(interaction, game_id, via_button=True)

    async def add_ai(self, interaction: Interaction, game_id: int, level: str) -> None:
        async with self.answering(interaction, "update"):
            record = await self.store.load_game(game_id)
            record = await self.games.add_ai(game_id, interaction.user.id, level,
                                             self._ai_name(record, len(record.seats)))
            await self._show_lobby(interaction, record)

    async def _join(self, interaction: Interaction, game_id: int, *, via_button: bool) -> None:
        record = await self.games.join(game_id, interaction.user.id, interaction.user.display_name)
        if via_button:
            await self._show_lobby(interaction, record)
        else:
            await reply(interaction, t("reply.joined", await self.languages.for_user(interaction)))
            await self._refresh_lobby(record)
        await self._explain_by_dm(interaction, record)

    async def _explain_by_dm(self, interaction: Interaction, record: GameRecord) -> None:
        """Tell a new player how to choose; a blocked DM is explained privately, never an error."""
        lang = await self.languages.for_user(interaction)
        if not await self.talk.send_dm(interaction.user.id, render.join_dm_text(record.channel_id, lang)):
            await reply(interaction, t("dm.blocked", lang))

    async def _cancel(self, interaction: Interaction, game_id: int, *, via_button: bool) -> None:
        can_manage = bool(interaction.permissions.manage_guild) if interaction.guild_id else False
        record = await self.games.cancel(game_id, interaction.user.id, can_manage)
        for key in ("deadline", "reminder", "status"):
            self.bot.scheduler.cancel((key, game_id))
        lang = await self.languages.for_game(record)
        closed = render.lobby_closed_embed(
            record, t("lobby.cancelled_by", lang, name=render.safe_name(interaction.user.display_name)), lang)
        if via_button and record.lobby_message_id == getattr(interaction.message, "id", None):
            await edit(interaction, embed=closed, view=None)
            return
        await send(interaction, embed=closed)
        if record.lobby_message_id:
            await self._edit_quietly(record.channel_id, record.lobby_message_id, embed=closed, view=None)

    async def _show_lobby(self, interaction: Interaction, record: GameRecord,
                          passed: tuple[str, str] | None = None) -> None:
        lang = await self.languages.for_game(record)
        if record.status == "cancelled":
            await edit(interaction, embed=render.lobby_closed_embed(record, t("lobby.everyone_left", lang), lang),
                       view=None)
            return
        await edit(interaction, embed=render.lobby_embed(record, self.games.turn_seconds(record), lang,
                                                          host_passed=passed),
                   view=self._lobby_view(record, lang))

    async def _refresh_lobby(self, record: GameRecord, passed: tuple[str, str] | None = None) -> None:
        if record.lobby_message_id:
            lang = await self.languages.for_game(record)
            await self._edit_quietly(record.channel_id, record.lobby_message_id,
                                     embed=render.lobby_embed(record, self.games.turn_seconds(record), lang,
                                                              host_passed=passed),
                                     view=self._lobby_view(record, lang))

    async def _close_lobby(self, record: GameRecord) -> None:
        if record.lobby_message_id:
            lang = await self.languages.for_game(record)
            await self._edit_quietly(record.channel_id, record.lobby_message_id, view=None,
                                     embed=render.lobby_closed_embed(record, t("lobby.everyone_left", lang), lang))

    async def _edit_quietly(self, channel_id: int, message_id: int, **fields: Any) -> None:
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**fields)
        except discord.HTTPException as exc:
            log.info("could not edit message %s: %s", message_id, exc)

    @staticmethod
    def _lobby_view(record: GameRecord, lang: str) -> discord.ui.View:
        return lobby_view(record.id, lang, open_seats=len(record.seated) < rules.MAX_SEATS)

    @staticmethod
    def _ai_name(record: GameRecord, index: int) -> str:
        taken = {s.name for s in record.seats}
        free = [n for n in AI_NAMES if f"{n} (AI)" not in taken] or [f"Bot {index + 1}"]
        return f"{free[0]} (AI)"

    # Choosing -----------------------------------------------------------------------------------
    async def open_choice_modal(self, interaction: Interaction, game_id: int, phase: int) -> None:
        async with self.answering(interaction, defer=None):
            loading = asyncio.ensure_future(self.games.table(game_id))
            loading.add_done_callback(lambda f: f.cancelled() or f.exception())
            done, _ = await asyncio.wait({loading}, timeout=MODAL_CHECK_WITHIN)
            if done:  # else the database is slow: open the modal now, the submission is checked anyway
                table = loading.result()
                self._check_current(table, phase)
                seat = table.record.seat_of(interaction.user.id)
                if seat is None:
                    raise NotInGame()
                if table.state.is_exhausted(seat_key(seat)):
                    raise GameError("error.sits_out")
            lang = await self.languages.for_user(interaction)
            round_no, turn = divmod(phase, rules.TURNS_PER_ROUND)
            modal = ChoiceModal(game_id, phase, round_no + 1, turn + 1, lang)
            await interaction.response.send_modal(modal)
            modal.stop()  # submissions are handled by custom_id in on_interaction, restart or not

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """A "Choose secretly" modal was submitted: the number counts for the turn the modal was opened in."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        match = MODAL_ID.fullmatch(str((interaction.data or {}).get("custom_id", "")))
        if match is None:
            return
        game_id, phase = int(match["game"]), int(match["phase"])
        text = _field_value(interaction.data or {}, NUMBER_FIELD_ID) or ""
        async with self.answering(interaction):
            lang = await self._lang_or_default(interaction)

            async def answer(line: str, **fields: Any) -> None:
                await reply(interaction, line, **fields)

            await self._choose(game_id, phase, interaction.user.id, text, answer, lang)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A DM to the bot: a player's number (or someone who needs to know how to start)."""
        if message.guild is not None or message.author.bot or message.author.id == getattr(self.bot.user, "id", 0):
            return
        user_id, channel = message.author.id, message.channel

        async def answer(line: str, **_: Any) -> None:
            # The nonce ties the answer to this DM: a retried answer is never shown twice.
            await self._dm_reply(user_id, channel, line, nonce=f"d{message.id}")

        lang = DEFAULT
        try:
            # Only which game it is: the game itself comes from the service's cache.
            record = await self.store.open_game_of_user(user_id, details=False)
            lang = await self.languages.for_dm(user_id, record)
        except Exception:
            log.warning("could not look up the game of a DM's author", exc_info=True)
            await answer(t("error.not_saved", lang))
            return
        if record is not None and record.kind in getattr(self.bot, "tables", None).games:
            return  # a game of the shared front end: cogs/table answers it (one answer per DM)
        if record is None:
            await answer(t("dm.no_game", lang))
        elif record.status == "lobby":
            await answer(t("dm.lobby", lang, channel=f"<#{record.channel_id}>"))
        else:
            await self._choose(record.id, None, user_id, message.content, answer, lang)

    async def _dm_reply(self, user_id: int, channel: discord.abc.Messageable, line: str, nonce: str) -> None:
        """Answer a DM, but a burst of DMs gets a few answers and then only the newest one."""
        if self.throttle.allow(user_id):
            try:
                await self.talk.send(channel, nonce=nonce, content=line)
            except discord.HTTPException as exc:
                log.info("could not answer a DM: %s", exc)
            return
        wait = self.throttle.hold(user_id, line)
        if user_id not in self._flushing:
            self._flushing[user_id] = asyncio.create_task(self._flush_dm_reply(user_id, channel, wait))

    async def _flush_dm_reply(self, user_id: int, channel: discord.abc.Messageable, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
            held = self.throttle.release(user_id)
            if held is not None:
                await self.talk.send(channel, nonce=None, content=held)
        except discord.HTTPException as exc:
            log.info("could not answer a DM: %s", exc)
        finally:
            self._flushing.pop(user_id, None)

    async def _choose(self, game_id: int, phase: int | None, user_id: int, text: str,
                      answer: Callable[..., Awaitable[None]], lang: str) -> None:
        """Validate, commit, acknowledge privately, then reveal if that was the last number. Only a stored
        number is acknowledged: a failing database gets "could not save that, try again"."""
        try:
            done = await self.games.choose(game_id, user_id, text, phase)
        except TurnRevealed as over:
            table = await self.games.table(game_id)
            await answer(over.say(lang), embed=render.status_embed(table, lang),
                         view=turn_view(game_id, table.record.phase, lang))
            return
        except TheNumberError as error:
            table = await self.games.table(game_id)
            await answer(refusal(error, self.games.available_for(table, user_id), lang))
            return
        except USER_ERRORS as error:
            await answer(explain(error, lang))
            return
        except Exception:
            log.warning("could not save a choice in game %s", game_id, exc_info=True)
            await answer(t("error.not_saved", lang))
            return
        await answer(render.ack_text(done.number, done.table.record.channel_id, done.changed, done.complete, lang,
                                     round_no=done.round, turn=done.turn))
        await self._resolve_if_complete(done.table)

    async def _resolve_if_complete(self, table: Table) -> None:
        if not table.awaiting():
            await self.talk.resolve_if_complete(table)
        else:
            self.talk.choice_made(table)

    async def _after_removal(self, table: Table) -> None:
        record = table.record
        if record.status != "running":
            for key in ("deadline", "reminder", "status"):
                self.bot.scheduler.cancel((key, record.id))
            if record.end_reason == ABANDONED:
                await self.talk.abandoned(record)
            return
        await self._resolve_if_complete(table)

    @staticmethod
    def _check_current(table: Table, phase: int) -> None:
        record = table.record
        if record.status != "running":
            raise GameError("error.over" if record.status in ("finished", "cancelled") else "error.not_started")
        if record.phase != phase:
            raise GameError("error.turn_over")

    # Scores and boards --------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.talk.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (GUILD_DELETE, not an outage): its games end now, and every
        player hears it, instead of choices being acknowledged until a deadline nobody will see."""
        for record in await self.games.open_games_of_guild(guild.id):
            await self.talk.stop_game(record, "stop.guild_removed", everyone=True)

    @app_commands.command(name=cmd("score", "cmd.score"),
                          description=cmd("The scoreboard of the game here (or of your game)", "cmd.score.desc"))
    @app_commands.rename(public=cmd("public", "cmd.opt.public"))
    @app_commands.describe(public=cmd("Post it for everyone in the channel instead of only you",
                                      "cmd.opt.public.desc"))
    async def score(self, interaction: Interaction, public: bool = False) -> None:
        async with self.answering(interaction, "public" if public else "ephemeral", anywhere=True):
            table = await self._table_for(interaction)
            lang = await (self.languages.for_game(table.record) if public else self.languages.for_user(interaction))
            await send(interaction, embed=render.score_embed(table, lang), ephemeral=not public)

    @app_commands.command(name=cmd("digits", "cmd.digits"),
                          description=cmd("A player's board: which digits are crossed off", "cmd.digits.desc"))
    @app_commands.rename(player=cmd("player", "cmd.opt.player"))
    @app_commands.describe(player=cmd("Whose board (default: yours)", "cmd.opt.digits_player.desc"))
    async def digits(self, interaction: Interaction, player: discord.User | None = None) -> None:
        async with self.answering(interaction, anywhere=True):
            table = await self._table_for(interaction)
            target = player or interaction.user
            seat = next((s for s in table.record.seats if s.user_id == target.id), None)
            if seat is None:
                raise GameError("error.not_playing_name", name=render.safe_name(target.display_name))
            lang = await self.languages.for_user(interaction)
            await send(interaction, embed=render.digits_embed(seat, table.state, lang), ephemeral=True)

    async def _game_here(self, interaction: Interaction) -> GameRecord:
        record = await self.store.open_game_in_channel(interaction.channel_id or 0)
        if record is None:
            raise NoGameHere()
        return record

    async def _table_for(self, interaction: Interaction) -> Table:
        """The game in this channel, else the user's game, else the last game finished in this channel."""
        record = await self.store.open_game_in_channel(interaction.channel_id or 0)
        if record is None:
            record = await self.store.open_game_of_user(interaction.user.id, details=False)
        if record is None and interaction.guild_id is not None:
            recent = await self.store.finished_games(interaction.guild_id, RECENT_GAMES)
            record = next((g for g in recent if g.channel_id == interaction.channel_id), None)
        if record is None or record.status == "lobby":
            raise GameError("error.no_game_anywhere")
        return await self.games.table(record.id)


def _host_passed(before: GameRecord, after: GameRecord) -> tuple[str, str] | None:
    """(old host, new host) when leaving passed the host role on, for the lobby message to say so."""
    if after.status != "lobby" or after.host_id == before.host_id:
        return None
    old = next((s.name for s in before.seats if s.user_id == before.host_id), "?")
    new = next((s.name for s in after.seats if s.user_id == after.host_id), "?")
    return old, new


def _field_value(data: Any, custom_id: str) -> str | None:
    """Find a text input's value in a modal submission, whatever the nesting (rows or labels)."""
    for node in _walk(data):
        if node.get("custom_id") == custom_id and "value" in node:
            return str(node["value"])
    return None


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)
