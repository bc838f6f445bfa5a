"""The shared front end of the games ``bot.service`` runs: lobby buttons, inputs built from each step's prompt,
the DM router (dms.py), the shared subcommands, ``/score`` and ``/board``. Thin: check, call the service, let the
game's presenter say it, let :class:`Talk` post it. Every refusal is a private line."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import (
    GameError,
    NoGameHere,
    NotRunning,
    NotYourTurn,
    TurnOver,
    UnknownLevel,
)
from bot.core.game import Action, RuleError
from bot.core.service import ABANDONED, GameService, Outcome
from bot.core.table import Table
from bot.core.throttle import ReplyThrottle
from bot.http_pacing import in_background
from bot.i18n import DEFAULT, t
from cogs.seats import safe_name, seat_style
from storage.base import GameRecord

from .answers import Deferral, SlowAnswer, edit, reply, send, settled
from .components import MODAL_ID, SELECT_FIELD_PREFIX, TEXT_FIELD_ID, TextModal, choices_view, lobby_view, pick_view
from .dms import DirectMessages
from .language import AUTO, Languages, cmd
from .layout import edit_fields as v2_edit
from .layout import send_fields
from .permissions import check_channel_permissions
from .presenter import Card, Presenter, Presenters
from .refusals import USER_ERRORS, Refused, explain, word
from .talk import Talk
from .turn_messages import happened, seat_infos

if TYPE_CHECKING:
    from bot.client import NumberBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
AI_NAMES = ("Ada", "Blaise", "Carl", "Dora", "Emmy", "Fermat")
RECENT_GAMES = 20  # /score after a game looks this far back for the channel's last finished game
MODAL_CHECK_WITHIN = 1.5  # a modal cannot follow a deferral: past this, defer and say so
DATABASE_WATCH_SECONDS = 1.0  # how often the SQLite file is checked to be the one opened (one stat)
DATABASE_LOST_EXIT = 3  # the exit status when it was deleted or replaced under the running bot
class TableCog(DirectMessages, commands.Cog, name="Table"):
    def __init__(self, bot: NumberBot) -> None:
        self.bot = bot
        self.service: GameService = bot.service
        self.presenters: Presenters = getattr(bot, "presenters", None) or Presenters()
        self.kinds = frozenset(self.service.games)
        self.languages = Languages(bot.store)  # this cog's language command sets it
        self.talk = Talk(bot, self.service, self.presenters, self.languages)
        self.throttle = ReplyThrottle(burst=bot.settings.dm_replies_per_window,
                                      window=bot.settings.dm_reply_window_seconds)
        self._flushing: dict[int, asyncio.Task[None]] = {}
        self._added: list[tuple[app_commands.Group, str]] = []
        self._fallback_score: app_commands.Command[Any, Any, Any] | None = None

    # Life cycle ---------------------------------------------------------------------------------
    async def cog_load(self) -> None:
        missing = sorted(k for k in self.kinds if k not in self.presenters)
        if missing:
            raise RuntimeError(f"no presenter registered for {missing}: load the game packages before cogs.table")
        for kind in sorted(self.kinds):
            group = self.bot.tree.get_command(kind)
            if not isinstance(group, app_commands.Group):
                raise RuntimeError(f"no /{kind} group: load the game's package before cogs.table")
            for command in self._shared_commands():
                command.extras["kind"] = kind  # /numeri join joins the Numeri table here, and no other
                group.add_command(command)
                self._added.append((group, command.name))
        # One /score for every game: a /score registered before (a game with its own cog) keeps serving its kinds.
        existing = self.bot.tree.get_command("score")
        if isinstance(existing, app_commands.Command):
            self._fallback_score = existing
            self.bot.tree.remove_command("score")
        self.bot.tree.add_command(app_commands.Command(
            name=cmd("score", "commands.score"), callback=self.score_cmd,
            description=cmd("The scoreboard of the game here (or of your game)", "commands.score.desc")))
        self.bot.tree.add_command(app_commands.Command(
            name=cmd("board", "core.cmd.board"), callback=self.board_cmd,
            description=cmd("A player's board in the game here (or in your game)", "core.cmd.board.desc")))
        self.bot.tree.add_command(app_commands.Command(
            name=cmd("notify", "core.cmd.notify"), callback=self.notify_cmd,
            description=cmd("How I remind you before a deadline: by DM, or a mention when DMs are closed",
                            "core.cmd.notify.desc")))
        self._restoring = asyncio.create_task(self._restore_when_ready(), name="restore tables")
        self._watching = asyncio.create_task(self._watch_database(), name="watch the database file")

    async def cog_unload(self) -> None:
        self._restoring.cancel()
        if self._watching is not asyncio.current_task():
            self._watching.cancel()
        for group, name in self._added:
            group.remove_command(name)
        self.bot.tree.remove_command("board")
        self.bot.tree.remove_command("notify")
        self.bot.tree.remove_command("score")
        if self._fallback_score is not None:
            self.bot.tree.add_command(self._fallback_score)

    async def _restore_when_ready(self) -> None:
        await self._connected()
        for attempt in itertools.count():
            try:
                await self.talk.restore()
                return
            except Exception as exc:  # a locked or failing database: nothing was announced twice, try again
                delay = self.talk.backoff(attempt)
                log.warning("could not restore the tables (%s); trying again in %.0f s", exc, delay)
                await asyncio.sleep(delay)

    async def _watch_database(self) -> None:
        """Notice, within a second, a database file deleted or replaced under the running bot (every commit
        checks it too, so no choice is acknowledged after it): stop taking choices, say it in one log line and
        in the channel of every game this process holds, and close with exit status 3 so that a supervisor
        starts the bot again on the file that is there now."""
        replaced = getattr(self.bot.store, "replaced", None)
        if replaced is None:  # PostgreSQL: no file to lose
            return
        while not replaced():
            await asyncio.sleep(DATABASE_WATCH_SECONDS)
        path = getattr(self.bot.store, "path", "?")
        log.error("database %s was deleted or replaced while the bot ran: no choice is taken any more; stopping "
                  "(exit status %d) so that a supervisor starts the bot again", path, DATABASE_LOST_EXIT)
        self.bot.exit_code = DATABASE_LOST_EXIT  # type: ignore[attr-defined]
        for table in self.service.held():
            if table.running:
                lang = await self._game_lang(table.record)
                with contextlib.suppress(discord.HTTPException):
                    await self.talk.channel(table.record.channel_id).send(t("core.stop.database_lost", lang))
        await self.bot.close()

    async def _game_lang(self, record: GameRecord) -> str:
        try:
            return await self.languages.for_game(record)
        except Exception:  # the server's language is in the database that is gone
            return str(record.options.get("language") or DEFAULT)

    async def _connected(self) -> None:
        """Until the gateway's READY is read (or the bot is ready). The restore needs the session, not the
        guild stream that discord.py waits out before on_ready (2 s after the last GUILD_CREATE): the open
        games' deadlines are armed that much sooner, and interactions are answered meanwhile anyway."""
        if self.bot.is_ready():
            return
        waits = [asyncio.ensure_future(self.bot.wait_for("connect")),
                 asyncio.ensure_future(self.bot.wait_until_ready())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    def _shared_commands(self) -> list[app_commands.Command[Any, Any, Any]]:
        def command(name: str, description: str, callback: Any) -> app_commands.Command[Any, Any, Any]:
            return app_commands.Command(name=cmd(name, f"commands.{name}"), callback=callback,
                                        description=cmd(description, f"commands.{name}.desc"))

        return [
            command("join", "Take a seat at the table in this channel", self.join_cmd),
            command("leave", "Leave the table in this channel (forfeits a running game)", self.leave_cmd),
            command("cancel", "Cancel the game in this channel (host or Manage Server)", self.cancel_cmd),
            command("kick", "Remove a player from the game in this channel (host only)", self.kick_cmd),
            command("language", "The bot's language in this server (Manage Server)", self.language_cmd),
        ]

    @asynccontextmanager
    async def answering(self, interaction: Interaction, defer: Deferral | None = "ephemeral",
                        presenter: Presenter | None = None, *, anywhere: bool = False) -> AsyncIterator[None]:
        """Answer within Discord's 3 s whatever the database does, and turn a refusal into a private line.
        Only ``anywhere`` requests (/score, /board) may come from outside a server."""
        self.languages.remember(interaction)
        guard = SlowAnswer(interaction, defer) if defer is not None else None
        try:
            # ahead of the overdue timers' backlog (a restart after a long downtime): it waits for this answer
            with self.bot.scheduler.foreground():
                if interaction.guild_id is None and not anywhere:
                    raise GameError("core.error.guild_only")  # a forged request: Discord never offers it in DMs
                yield
        except USER_ERRORS as error:
            await reply(interaction, explain(error, await self._lang(interaction), presenter))
        except discord.HTTPException:
            raise
        except Exception:
            if self.bot.is_closed():  # a shutdown closed the session under a request still waiting (its pace)
                log.info("an interaction's follow-up work was cut short by the shutdown", exc_info=True)
                return
            log.exception("unexpected error while handling an interaction")
            await reply(interaction, t("core.error.generic", await self._lang(interaction)))
        finally:
            if guard is not None:
                guard.stop()

    async def _lang(self, interaction: Interaction) -> str:
        try:
            return await self.languages.for_user(interaction)
        except Exception:
            return DEFAULT

    # Lobby --------------------------------------------------------------------------------------
    async def open_table(self, interaction: Interaction, kind: str, options: Mapping[str, Any], ai_players: int,
                         ai_level: str) -> None:
        """``/<game> start``: the game's package gives its options; the lobby itself is shared."""
        async with self.answering(interaction, "public"):
            game = self.service.game_of(kind)
            if not 0 <= ai_players <= game.seats.stop - 2:
                raise Refused(t("core.error.ai_players", await self._lang(interaction), high=game.seats.stop - 2))
            if game.ai_levels and ai_level not in game.ai_levels:
                raise UnknownLevel(tuple(game.ai_levels))  # Discord checks the choices; a forged request does not
            check_channel_permissions(interaction)
            await self._open_lobby(interaction, kind, options, [ai_level] * ai_players)

    async def _open_lobby(self, interaction: Interaction, kind: str, options: Mapping[str, Any],
                          ai_levels: list[str], invited: tuple[int, ...] = ()) -> None:
        """A lobby hosted by whoever asked, with AI seats of ``ai_levels``; ``invited``: players mentioned once
        in it (``allowed_mentions`` pings only them), each confirming by pressing Join."""
        lang = await self.languages.for_channel(interaction)
        record = await self.service.open_lobby(interaction.guild_id, interaction.channel_id or 0,
                                               interaction.user.id, interaction.user.display_name,
                                               {**options, "language": lang}, kind=kind)
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
                await self.bot.store.set_message(record.id, "lobby", message_id)
        except BaseException:
            # Nobody can see this lobby: close it rather than leave it blocking the channel.
            await asyncio.shield(self.service.abandon(record.id, "the lobby could not be shown"))
            raise
        await self._explain_by_dm(interaction, record)

    async def play_again(self, interaction: Interaction, kind: str, game_id: int) -> None:
        """A finished game's "Play again" (any message, however old): a new lobby in this channel with the same
        options and AI seats, hosted by the presser (one of its players); the others are invited to Join."""
        async with self.answering(interaction, "public", self.presenters.by_key.get(kind)):
            lang = await self._lang(interaction)
            try:
                old = await self.bot.store.load_game(game_id)
            except Exception:
                old = None
            if old is None or old.kind not in self.kinds:
                raise Refused(t("core.again.gone", lang, start=f"`/{kind} start`"))
            if old.seat_of(interaction.user.id) is None:
                raise Refused(t("core.error.not_in_game", lang))
            if await self.bot.store.open_game_in_channel(interaction.channel_id or 0) is not None:
                raise Refused(t("core.again.busy", lang))
            check_channel_permissions(interaction)
            options = {k: v for k, v in old.options.items() if k != "language"}
            levels = [s.ai_level for s in old.seats if s.ai_level is not None]
            invited = tuple(s.user_id for s in old.seats if s.user_id is not None and not s.is_ai
                            and s.user_id != interaction.user.id)
            await self._open_lobby(interaction, old.kind, options, levels, invited)

    async def _explain_by_dm(self, interaction: Interaction, record: GameRecord) -> None:
        """Tell a new player how to play by DM (a game whose presenter says it); a blocked DM is explained
        privately, never an error."""
        presenter = self.presenters[record.kind]
        lang = await self.languages.for_user(interaction)
        text = presenter.join_dm(record.channel_id, lang)
        if text is None:
            return
        if not await in_background(self.talk.send_dm(interaction.user.id, text)):
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
        names = [f"{seat_style(s.seat).symbol} {safe_name(s.name)}"
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
        async with self.answering(interaction, "update"):
            if action == "join":
                record = await self.service.join(game_id, interaction.user.id, interaction.user.display_name)
                await self._show_lobby(interaction, record)
                await self._explain_by_dm(interaction, record)
            elif action == "leave":
                before = await self.bot.store.load_game(game_id)
                record = await self.service.leave_lobby(game_id, interaction.user.id)
                await self._show_lobby(interaction, record, _host_passed(before, record))
            elif action == "start":
                check_channel_permissions(interaction)  # a game must not die at its first post
                outcome = await self.service.start(game_id, interaction.user.id)
                try:
                    record = outcome.table.record
                    lang = await self.languages.for_game(record)
                    started = word(self.presenters[record.kind], "core.lobby.started", lang)
                    await edit(interaction, **v2_edit(Card(embeds=(self.lobby_embed(record, lang, started),))))
                finally:  # the game runs: it gets its turn message and timers whatever happened above
                    await self.talk.announce(outcome.table, outcome.reports)
            elif action == "cancel":
                await self._cancel(interaction, game_id, via_button=True)

    async def add_ai(self, interaction: Interaction, game_id: int, level: str) -> None:
        async with self.answering(interaction, "update"):
            record = await self.bot.store.load_game(game_id)
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

    async def _refresh_lobby(self, record: GameRecord, passed: tuple[str, str] | None = None) -> None:
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
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**fields)
        except discord.HTTPException as exc:
            log.info("could not edit message %s: %s", message_id, exc)

    async def _cancel(self, interaction: Interaction, game_id: int, *, via_button: bool) -> None:
        can_manage = bool(interaction.permissions.manage_guild) if interaction.guild_id else False
        record = await self.service.cancel(game_id, interaction.user.id, can_manage)
        self.talk.cancel_timers(game_id)
        lang = await self.languages.for_game(record)
        closed = self.lobby_embed(record, lang, word(self.presenters[record.kind], "core.lobby.cancelled_by", lang,
                                                     name=safe_name(interaction.user.display_name)))
        if via_button and record.lobby_message_id == getattr(interaction.message, "id", None):
            await edit(interaction, **v2_edit(Card(embeds=(closed,))))
            return
        await send(interaction, **send_fields(Card(embeds=(closed,))))
        if record.lobby_message_id and record.phase == 0:
            await self._edit_quietly(record.channel_id, record.lobby_message_id, **v2_edit(Card(embeds=(closed,))))

    # Shared subcommands -------------------------------------------------------------------------
    async def _game_here(self, interaction: Interaction) -> GameRecord:
        """The open table in this channel, of the game whose group the command belongs to."""
        record = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        kind = getattr(interaction.command, "extras", {}).get("kind")
        if record is None or record.kind not in self.kinds or (kind is not None and record.kind != kind):
            raise NoGameHere(f"`/{kind or sorted(self.kinds)[0]} start`")
        return record

    @app_commands.guild_only()
    async def join_cmd(self, interaction: Interaction) -> None:
        async with self.answering(interaction):
            record = await self._game_here(interaction)
            record = await self.service.join(record.id, interaction.user.id, interaction.user.display_name)
            await reply(interaction, t("core.reply.joined", await self._lang(interaction)))
            await self._refresh_lobby(record)
            await self._explain_by_dm(interaction, record)

    @app_commands.guild_only()
    async def leave_cmd(self, interaction: Interaction) -> None:
        async with self.answering(interaction):
            record = await self._game_here(interaction)
            if record.status == "running":
                status_message = self.talk.turn_message_id(record.id) or record.status_message_id
                outcome = await self.service.remove(record.id, interaction.user.id, interaction.user.id, kicked=False)
                abandoned = outcome.table.record.end_reason == ABANDONED
                await reply(interaction, t("core.reply.left_abandoned" if abandoned else "core.reply.left_game",
                                           await self._lang(interaction)))
                await self._after_removal(outcome, status_message)
                return
            before = record
            record = await self.service.leave_lobby(record.id, interaction.user.id)
            await reply(interaction, t("core.reply.left_table", await self._lang(interaction)))
            await self._refresh_lobby(record, _host_passed(before, record))

    @app_commands.guild_only()
    async def cancel_cmd(self, interaction: Interaction) -> None:
        async with self.answering(interaction, "public"):
            record = await self._game_here(interaction)
            await self._cancel(interaction, record.id, via_button=False)

    @app_commands.rename(player=cmd("player", "commands.opt.player"))
    @app_commands.describe(player=cmd("The player to remove", "commands.opt.kick_player.desc"))
    @app_commands.guild_only()
    async def kick_cmd(self, interaction: Interaction, player: discord.User) -> None:
        async with self.answering(interaction):
            record = await self._game_here(interaction)
            if record.status == "lobby":
                raise GameError("core.error.kick_in_lobby")
            status_message = self.talk.turn_message_id(record.id) or record.status_message_id
            outcome = await self.service.remove(record.id, interaction.user.id, player.id, kicked=True)
            abandoned = outcome.table.record.end_reason == ABANDONED
            await reply(interaction, t("core.reply.kicked_abandoned" if abandoned else "core.reply.kicked",
                                       await self._lang(interaction), name=safe_name(player.display_name)))
            await self._after_removal(outcome, status_message)

    async def _after_removal(self, outcome: Outcome, status_message: int | None) -> None:
        record = outcome.table.record
        if not outcome.table.running:
            self.talk.cancel_timers(outcome.table.id)
            if record.end_reason == ABANDONED:
                await self.talk.abandoned(record, status_message)
            if record.status != "finished":
                return
        if outcome.reports:
            await self.talk.announce(outcome.table, outcome.reports)
        elif outcome.table.prompt is not None and outcome.table.prompt.sealed:
            self.talk.choice_made(outcome.table)  # the turn message shows the seat gone

    @app_commands.rename(language=cmd("language", "commands.opt.language"))
    @app_commands.describe(language=cmd("auto follows each person's Discord language", "commands.opt.language.desc"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def language_cmd(self, interaction: Interaction, language: Literal["auto", "en", "fr"]) -> None:
        async with self.answering(interaction):
            if not interaction.permissions.manage_guild or interaction.guild_id is None:
                raise GameError("core.error.need_manage")
            await self.languages.force(interaction.guild_id, language)
            lang = await self.languages.for_user(interaction)
            text = (t("core.reply.language_auto", lang) if language == AUTO
                    else t("core.reply.language_set", lang, language=t(f"core.language.{language}", lang)))
            await reply(interaction, text)

    # Acting -------------------------------------------------------------------------------------
    async def _current(self, game_id: int, step: int) -> Table:
        table = await self.service.table(game_id)
        if not table.running:
            raise NotRunning(table.record.status)
        if table.step != step:
            raise TurnOver(table.step)
        return table

    def _their_turn(self, table: Table, lang: str, user_id: int | None = None) -> Refused:
        """Why the current step does not take this user's action: the game's own reason, else whose turn."""
        presenter = self.presenters[table.record.kind]
        seated = table.record.seat_of(user_id) if user_id is not None else None
        if user_id is not None and seated is None:  # not at this table at all (never seated, or left)
            return Refused(t("core.error.not_in_game", lang))
        if user_id is not None and table.running:
            why = presenter.not_asked(table.game.view(table.state, None), seated.seat if seated else None, lang)
            if why:
                return Refused(why)
        prompt = table.prompt
        names = [safe_name(table.seat(s).name) for s in sorted(prompt.seats)] if prompt else []
        return Refused(t("core.error.their_turn", lang, name=", ".join(names)))

    async def press(self, interaction: Interaction, kind: str, game_id: int, step: int, index: int) -> None:
        """A choice button (on the turn message, or on a private view of a sealed step)."""
        presenter = self.presenters.by_key.get(kind)
        async with self.answering(interaction, "update", presenter):
            lang = await self._lang(interaction)
            table = await self._current(game_id, step)
            _, legal, inputs = self._inputs_for(table, interaction.user.id, lang)
            if not 0 <= index < len(inputs.choices):  # a forged custom_id: this step never offered it
                raise Refused(t("core.error.not_offered", lang))
            choice = inputs.choices[index]
            if not choice.actions:  # nothing this seat can pick (said privately: the buttons are public)
                raise Refused(choice.none or t("core.error.turn_over", lang))
            if len(choice.actions) > 1 or choice.pick:  # a group: the seat picks one of them privately
                labels = [(i, inputs.labels[i] if i < len(inputs.labels) else str(i)) for i in choice.actions]
                await reply(interaction, choice.prompt or choice.label, view=pick_view(
                    table.record.kind, game_id, step, labels, inputs.placeholder))
                return
            await self._act(interaction, table, step, legal[choice.actions[0]], lang,
                            on_turn_message=not table.prompt.sealed and not _is_ephemeral(interaction))

    async def pick(self, interaction: Interaction, kind: str, game_id: int, step: int, index: int) -> None:
        """A private select's pick (a group's actions, or a sealed step's options)."""
        presenter = self.presenters.by_key.get(kind)
        async with self.answering(interaction, "update", presenter):
            lang = await self._lang(interaction)
            table = await self._current(game_id, step)
            _, legal, _ = self._inputs_for(table, interaction.user.id, lang)
            if not 0 <= index < len(legal):  # a forged select value: never offered
                raise Refused(t("core.error.not_offered", lang))
            await self._act(interaction, table, step, legal[index], lang, on_turn_message=False)

    def _inputs_for(self, table: Table, user_id: int, lang: str) -> tuple[int, list[Action], Any]:
        prompt = table.prompt
        seated = table.record.seat_of(user_id)
        if prompt is None or seated is None or seated.seat not in prompt.seats:
            raise self._their_turn(table, lang, user_id)
        seat = seated.seat
        legal = list(table.game.legal(table.state, seat) or [])
        view = table.game.view(table.state, seat if prompt.sealed else None)
        return seat, legal, self.presenters[table.record.kind].inputs(view, prompt, seat, legal, lang)

    async def _act(self, interaction: Interaction, table: Table, step: int, action: Action, lang: str, *,
                   on_turn_message: bool) -> None:
        presenter = self.presenters[table.record.kind]
        sealed = bool(table.prompt and table.prompt.sealed)
        await self.talk.take_up(table.id)
        try:
            outcome = await self.service.act(table.id, interaction.user.id, action=action, phase=step)
        except NotYourTurn:
            raise self._their_turn(await self.service.table(table.id), lang, interaction.user.id) from None
        if on_turn_message and self.talk.continues(outcome.table, step):
            # the same thread goes on: announce edits the message into the next step, as this press's answer
            used: list[bool] = []

            async def through(card: Card, view: discord.ui.View) -> None:
                await edit(interaction, **v2_edit(card, view))
                used.append(True)

            await self.talk.announce(outcome.table, outcome.reports, editor=through)
            if not used and outcome.reports and outcome.reports[0].step == step:
                # the next step waits for an AI (or a chance step): the message shows the move made until then
                lang_game = await self.languages.for_game(outcome.table.record)
                async with self.talk.locks(table.id):  # not over the AI's move if it came meanwhile
                    if self.talk.turn_messages.get(table.id) is not None and self.talk.continues(outcome.table, step):
                        since = [h for h in self.talk.since_of(table.id, step) if h.step != step]
                        card = presenter.done(happened(outcome.table, outcome.reports[0]),
                                              seat_infos(outcome.table), since, lang_game)
                        await edit(interaction, **v2_edit(card))
            await settled(interaction)
            if not interaction.response.is_done():
                await interaction.response.defer()
            return
        if outcome.ack is not None and (sealed or not on_turn_message):
            ack = self._ack_text(outcome, lang)
            await edit(interaction, content=ack, view=None, embeds=[])
            if sealed and _is_ephemeral(interaction):  # a private sheet: the next step edits it (private_sheets)
                self.talk.sheets.keep(table.id, interaction.user.id, interaction, lang, step, ack)
            if sealed and not outcome.reports:
                self.talk.choice_made(outcome.table)
        elif on_turn_message and outcome.reports and outcome.reports[0].step == step:
            lang_game = await self.languages.for_game(outcome.table.record)
            # the steps of this message's thread that followed at once (an AI declaring last, the reveal) are
            # told in it too, not at the top of the next round's message
            run = self.talk.thread_run(outcome.table, outcome.reports, step)
            since = [*self.talk.since_of(table.id, step), *(happened(outcome.table, r) for r in run[:-1])]
            card = presenter.done(happened(outcome.table, run[-1]), seat_infos(outcome.table), since, lang_game)
            await edit(interaction, **v2_edit(card))
            await self.talk.announce(outcome.table, outcome.reports, shown=run[-1].step)
            return
        else:
            await edit(interaction, content=t("core.done", lang), view=None, embeds=[])
        if outcome.reports:
            await self.talk.announce(outcome.table, outcome.reports)

    def _ack_text(self, outcome: Outcome, lang: str) -> str:
        """The private acknowledgement, with the step's public view when the presenter wants it."""
        presenter = self.presenters[outcome.table.record.kind]
        ack = outcome.ack
        assert ack is not None
        table = outcome.table
        state = outcome.reports[0].before if outcome.reports else table.state
        complete = bool(outcome.reports) and outcome.reports[0].step == ack.step
        return str(presenter.acknowledge(table.game.view(state, None), ack.action, ack.changed, complete,
                                         table.record.channel_id, lang))

    async def open_private(self, interaction: Interaction, kind: str, game_id: int, step: int) -> None:
        """A sealed step's "Choose secretly": the seat's own options, privately (or a modal for free text)."""
        presenter = self.presenters.by_key.get(kind)
        async with self.answering(interaction, None, presenter):
            lang = await self._lang(interaction)
            loading = asyncio.ensure_future(self._current(game_id, step))
            loading.add_done_callback(lambda f: f.cancelled() or f.exception())
            done, _ = await asyncio.wait({loading}, timeout=MODAL_CHECK_WITHIN)
            by_step = presenter.modal_for_step(step, lang) if not done and presenter is not None else None
            if by_step is not None:
                # the database is slow: open the game's modal for that step now; the submission is checked
                modal = TextModal(kind, game_id, step, by_step, presenter.text_field_id if presenter else None)
                await interaction.response.send_modal(modal)
                modal.stop()
                return
            if not done:  # the database is slow: a modal can no longer follow, so answer privately
                await interaction.response.defer(ephemeral=True, thinking=True)
            table = await loading
            _, legal, inputs = self._inputs_for(table, interaction.user.id, lang)
            kind = table.record.kind
            if not legal or inputs.text is not None or inputs.selects:
                if interaction.response.is_done():
                    raise Refused(t("core.error.try_again", lang))
                modal = TextModal(kind, game_id, step, inputs, presenter.text_field_id if presenter else None)
                await interaction.response.send_modal(modal)
                modal.stop()
            elif inputs.choices:
                await reply(interaction, inputs.title or "…", view=choices_view(kind, game_id, step, inputs.choices))
            else:
                await reply(interaction, inputs.title or "…",
                            view=pick_view(kind, game_id, step, list(enumerate(inputs.labels)), inputs.placeholder))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """A modal of a sealed step was submitted: the text counts for the step it was opened in."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        match = MODAL_ID.fullmatch(str((interaction.data or {}).get("custom_id", "")))
        if match is None:
            return
        await self.submitted(interaction, match["game"], int(match["id"]), int(match["step"]))

    async def submitted(self, interaction: Interaction, kind: str, game_id: int, step: int) -> None:
        """A modal's text, for the step it was opened in (also The Number's modals posted before the upgrade)."""
        presenter = self.presenters.by_key.get(kind)
        field_id = (presenter.text_field_id if presenter is not None else None) or TEXT_FIELD_ID
        data = interaction.data or {}
        # a text field (also a modal opened before the selects), else the selects' picks joined in order
        text = _field_value(data, field_id) or _field_value(data, TEXT_FIELD_ID) or _picked(data) or ""
        # Opened from a public message's button (the turn message): a slow answer defers as an update of that
        # message, which the choice then updates for free (who has chosen); the acknowledgement follows
        # privately. Refusals stay private lines either way.
        on_message = interaction.message is not None and not _is_ephemeral(interaction)
        async with self.answering(interaction, "update" if on_message else "ephemeral", presenter):
            lang = await self._lang(interaction)
            await self.talk.take_up(game_id)
            try:
                outcome = await self.service.act(game_id, interaction.user.id, text=text, phase=step)
            except NotYourTurn:
                raise self._their_turn(await self.service.table(game_id), lang, interaction.user.id) from None
            except TurnOver:
                card = await self._turn_over_card(game_id, presenter, lang)
                if card is None:
                    raise
                table, shown = card
                await reply(interaction, shown.content or "", embeds=list(shown.embeds),
                            view=self.talk.input_view(table, table.prompt, lang) if table.prompt else None)
                return
            except RuleError as error:
                if presenter is None:
                    raise
                raise Refused(await self._refusal(game_id, interaction.user.id, error, presenter, lang)) from None
            except USER_ERRORS:
                raise
            except Exception:  # the database failed: nothing was stored, and the player is told so
                log.warning("could not save a choice in game %s", game_id, exc_info=True)
                raise Refused(t("core.error.not_saved", lang)) from None
            await self._acknowledge(outcome, lambda line: reply(interaction, line), lang,
                                    interaction if on_message else None, step)

    async def _turn_over_card(self, game_id: int, presenter: Presenter | None, lang: str
                              ) -> tuple[Table, Card] | None:
        """The game's answer to an input for a step that is over: the step open now (None: the shared line)."""
        if presenter is None:
            return None
        table = await self.service.table(game_id)
        if not table.running or table.prompt is None:
            return None
        card = presenter.turn_over(table.game.view(table.state, None), table.prompt, seat_infos(table),
                                   table.record.deadline, lang)
        return (table, card) if card is not None else None

    async def _acknowledge(self, outcome: Outcome, answer: Any, lang: str, interaction: Interaction | None = None,
                           step: int | None = None) -> None:
        """The private answer to a stored choice, then the announcement. ``interaction``: the choice came
        through the turn message of ``step``, whose update (or close) answers it before the private line."""
        updated = False
        draft = not outcome.reports and outcome.table.prompt is not None and outcome.table.prompt.sealed
        # a changed draft changes nothing the turn message shows: only the private line answers it
        same = draft and outcome.ack is not None and outcome.ack.changed and interaction is not None
        if interaction is not None and step is not None and outcome.ack is not None and not same:
            updated = await self.talk.update_in_response(interaction, outcome.table.id, step, outcome.reports,
                                                         lambda **fields: edit(interaction, **fields))
        if outcome.ack is not None:
            await answer(self._ack_text(outcome, lang))
            if draft and not updated and not same:
                self.talk.choice_made(outcome.table, outside=interaction is None)
        else:
            await answer(t("core.done", lang))
        if outcome.reports:
            closed = step if updated and any(r.step == step for r in outcome.reports) else None
            await self.talk.announce(outcome.table, outcome.reports, shown=closed)

    # Servers and channels -----------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.talk.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (GUILD_DELETE, not an outage): its games end now, and every
        player hears it, instead of choices being acknowledged until a deadline nobody will see."""
        for record in await self.service.open_games_of_guild(guild.id):
            await self.talk.stop_game(record, "core.stop.guild_removed", everyone=True)

    # Scores and boards --------------------------------------------------------------------------
    async def _record_for(self, interaction: Interaction) -> GameRecord | None:
        """The game in this channel, else the user's game, else the last game finished in this channel."""
        store = self.bot.store
        record = await store.open_game_in_channel(interaction.channel_id or 0)
        if record is None:
            record = await store.open_game_of_user(interaction.user.id, details=False)
        if record is None and interaction.guild_id is not None:
            recent = await store.finished_games(interaction.guild_id, RECENT_GAMES)
            record = next((g for g in recent if g.channel_id == interaction.channel_id), None)
        return record

    @app_commands.rename(public=cmd("public", "commands.opt.public"))
    @app_commands.describe(public=cmd("Post it for everyone in the channel instead of only you",
                                      "commands.opt.public.desc"))
    async def score_cmd(self, interaction: Interaction, public: bool = False) -> None:
        guard = SlowAnswer(interaction, "public" if public else "ephemeral")
        try:
            record = await self._record_for(interaction)
        except Exception:
            record = None
        finally:
            await guard.settle()
        if (record is None or record.kind not in self.kinds) and self._fallback_score is not None:
            fallback = self._fallback_score
            args = (fallback.binding,) if fallback.binding is not None else ()
            await fallback.callback(*args, interaction, public)  # type: ignore[arg-type]
            return
        async with self.answering(interaction, "public" if public else "ephemeral", anywhere=True):
            if record is None or record.status == "lobby":
                raise GameError("core.error.no_game_anywhere")
            table = await self.service.table(record.id)
            lang = await (self.languages.for_game(table.record) if public else self.languages.for_user(interaction))
            presenter, view = self.presenters[record.kind], table.game.view(table.state, None)
            card = presenter.score_at(view, seat_infos(table), table.record.status, lang)
            await send(interaction, **card.fields(), ephemeral=not public)

    @app_commands.rename(player=cmd("player", "commands.opt.player"))
    @app_commands.describe(player=cmd("Whose board (default: yours)", "core.cmd.board.player"))
    async def board_cmd(self, interaction: Interaction, player: discord.User | None = None) -> None:
        async with self.answering(interaction, anywhere=True):
            lang = await self._lang(interaction)
            record = await self._record_for(interaction)
            if record is None or record.status == "lobby":
                raise GameError("core.error.no_game_anywhere")
            if record.kind not in self.kinds:
                raise Refused(t("core.error.no_board", lang))
            table = await self.service.table(record.id)
            target = player or interaction.user
            seat = next((s for s in table.record.seats if s.user_id == target.id), None)
            if seat is None:
                raise GameError("core.error.not_playing_name", name=safe_name(target.display_name))
            own = target.id == interaction.user.id
            view = table.game.view(table.state, seat.seat if own else None)
            card = self.presenters[record.kind].board(view, seat.seat, seat_infos(table), lang)
            await send(interaction, **card.fields(), ephemeral=True)


    @app_commands.rename(dm=cmd("dm", "core.cmd.notify.dm"), mention=cmd("mention", "core.cmd.notify.mention"))
    @app_commands.describe(dm=cmd("Reminders by DM (on or off)", "core.cmd.notify.dm.desc"),
                           mention=cmd("A mention in the channel when a DM cannot reach you (on or off)",
                                       "core.cmd.notify.mention.desc"))
    async def notify_cmd(self, interaction: Interaction, dm: bool | None = None, mention: bool | None = None) -> None:
        """Per user, in every game and server: no option shows the setting, an option changes only itself."""
        async with self.answering(interaction, anywhere=True):
            lang = await self._lang(interaction)
            notify = self.talk.notify
            reach = (await notify.of(interaction.user.id) if dm is None and mention is None
                     else await notify.set(interaction.user.id, dm=dm, mention=mention))
            await reply(interaction, t("core.reply.notify", lang, dm=t("core.on" if reach.dm else "core.off", lang),
                                       mention=t("core.on" if reach.mention else "core.off", lang)))


def _host_passed(before: GameRecord, after: GameRecord) -> tuple[str, str] | None:
    """(old host, new host) when leaving passed the host role on, for the lobby message to say so."""
    if after.status != "lobby" or after.host_id == before.host_id:
        return None
    old = next((s.name for s in before.seats if s.user_id == before.host_id), "?")
    new = next((s.name for s in after.seats if s.user_id == after.host_id), "?")
    return old, new


def _is_ephemeral(interaction: Interaction) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


def _picked(data: Any) -> str | None:
    """The values of a modal's selects (``pick0``, ``pick1``...) joined in their order; None when it has none."""
    found: dict[int, str] = {}
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            custom_id = str(node.get("custom_id", ""))
            suffix = custom_id.removeprefix(SELECT_FIELD_PREFIX)
            if custom_id.startswith(SELECT_FIELD_PREFIX) and suffix.isascii() and suffix.isdigit():
                values = node.get("values") or []
                found[int(suffix)] = str(values[0]) if values else ""
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return "".join(found[i] for i in sorted(found)) if found else None


def _field_value(data: Any, custom_id: str) -> str | None:
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("custom_id") == custom_id and "value" in node:
                return str(node["value"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None
