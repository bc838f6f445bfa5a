"""The router of the shared front end of the games ``bot.service`` runs: the discord.py cog. It holds the
commands (the shared subcommands of every game's group, ``/score``, ``/board``, ``/notify``), the listeners and
the entry points of the buttons, selects and modals, and hands each to the class that does the work:

- :class:`~cogs.table.lobby.Lobby` - lobbies, their buttons, "Play again";
- :class:`~cogs.table.inbox.Inbox` - every input of a running game (DM, button, select, modal) to ``service.act``
  and back as one answer;
- :class:`~cogs.table.poster.Poster` - posting and editing what the channel is told (turn messages, the end);
- :class:`~cogs.table.timers.Timers` - deadlines and reminders;
- :class:`~cogs.table.recovery.Recovery` - the restore after a start (sweep, catch-up);

each given its dependencies here; what they share is one :class:`~cogs.table.table_state.TableState`. Every
refusal is a private line (:class:`~cogs.table.answering.InteractionAnswers`)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import GameError, NoGameHere
from bot.core.service import ABANDONED, GameService
from bot.core.throttle import ReplyThrottle
from bot.i18n import DEFAULT, t
from cogs.seats import safe_name
from storage.base import GameRecord

from .answering import InteractionAnswers
from .answers import SlowAnswer, reply, send
from .components import MODAL_ID
from .inbox import Inbox
from .language import AUTO, Languages, cmd
from .lobby import Lobby, host_passed
from .notify import NotifySettings
from .poster import Poster
from .presenter import Presenters
from .private_sheets import PrivateSheets
from .recovery import Recovery
from .refusals import Refused
from .table_state import TableState
from .threads import ServerThreads, TableThreads
from .timers import Timers
from .turn_messages import seat_infos

if TYPE_CHECKING:
    from bot.client import NumberBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
RECENT_GAMES = 20  # /score after a game looks this far back for the channel's last finished game
DATABASE_WATCH_SECONDS = 1.0  # how often the SQLite file is checked to be the one opened (one stat)
DATABASE_LOST_EXIT = 3  # the exit status when it was deleted or replaced under the running bot


class TableCog(commands.Cog, name="Table"):
    def __init__(self, bot: NumberBot) -> None:
        self.bot = bot
        self.service: GameService = bot.service
        self.presenters: Presenters = getattr(bot, "presenters", None) or Presenters()
        self.kinds = frozenset(self.service.by_key)
        self.languages = Languages(bot.store)  # this cog's language command sets it
        # The shared state and the classes that tell the games, each given what it uses. The poster arms
        # timers and schedules catch-ups of the classes built on top of it: it gets their methods, looked up
        # here when called.
        self.state = TableState()
        self.sheets = PrivateSheets()
        self.notify = NotifySettings(bot.store)
        self.poster = Poster(bot, self.service, self.presenters, self.languages, self.state, self.sheets,
                             arm=lambda record: self.timers.arm(record),
                             cancel_timers=lambda game_id: self.timers.cancel(game_id),
                             catch_up=lambda game_id, attempt=0: self.recovery.catch_up(game_id, attempt))
        self.timers = Timers(self.poster, self.service, self.languages, self.notify, self.state, bot.scheduler,
                             bot.clock, bot.settings)
        self.recovery = Recovery(self.poster, self.timers, self.service, bot.store, self.presenters,
                                 self.languages, self.state, bot.scheduler, bot.clock)
        self.answers = InteractionAnswers(bot, bot.scheduler, self.languages)
        self.threads = TableThreads(bot.store, self.poster, self.state, self.languages, self.presenters,
                                    ServerThreads(bot.store))
        self.lobby = Lobby(bot, bot.store, self.service, self.presenters, self.languages, self.answers, self.poster,
                           self.timers, self.threads, self.kinds)
        throttle = ReplyThrottle(burst=bot.settings.dm_replies_per_window,
                                 window=bot.settings.dm_reply_window_seconds)
        self.inbox = Inbox(bot, bot.store, bot.scheduler, self.service, self.presenters, self.languages,
                           self.answers, self.poster, self.recovery, self.state, self.sheets, throttle, self.kinds)
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
                await self.recovery.restore()
                return
            except Exception as exc:  # a locked or failing database: nothing was announced twice, try again
                delay = self.state.backoff(attempt)
                log.warning("could not restore the tables (%s); trying again in %.0f s", exc, delay)
                await asyncio.sleep(delay)

    async def _watch_database(self) -> None:
        """Notice, within a second, a database file deleted or replaced under the running bot (every commit
        checks it too, so no choice is acknowledged after it): stop taking choices, say it in one log line and
        in the channel of every game this process holds, and close with exit status 3 so that a supervisor
        starts the bot again on the file that is there now."""
        store = self.bot.store
        while not store.replaced():
            await asyncio.sleep(DATABASE_WATCH_SECONDS)
        log.error("database %s was deleted or replaced while the bot ran: no choice is taken any more; stopping "
                  "(exit status %d) so that a supervisor starts the bot again", self.bot.settings.database_path,
                  DATABASE_LOST_EXIT)
        self.bot.exit_code = DATABASE_LOST_EXIT  # type: ignore[attr-defined]
        for table in self.service.held():
            if table.running:
                lang = await self._game_lang(table.record)
                with contextlib.suppress(discord.HTTPException):
                    await self.poster.channel(self.poster.where(table.record)).send(t("core.stop.database_lost", lang))
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

    # Entry points of the lobby and the inputs (components.py, and each game's own buttons) -----------
    async def open_table(self, interaction: Interaction, kind: str, options: Mapping[str, Any], ai_players: int,
                         ai_level: str) -> None:
        """``/<game> start``: the game's package gives its options; the lobby itself is shared."""
        await self.lobby.open_table(interaction, kind, options, ai_players, ai_level)

    async def play_again(self, interaction: Interaction, kind: str, game_id: int) -> None:
        await self.lobby.play_again(interaction, kind, game_id)

    async def lobby_action(self, interaction: Interaction, action: str, game_id: int) -> None:
        await self.lobby.lobby_action(interaction, action, game_id)

    async def add_ai(self, interaction: Interaction, game_id: int, level: str) -> None:
        await self.lobby.add_ai(interaction, game_id, level)

    async def press(self, interaction: Interaction, kind: str, game_id: int, step: int, index: int) -> None:
        await self.inbox.press(interaction, kind, game_id, step, index)

    async def pick(self, interaction: Interaction, kind: str, game_id: int, step: int, index: int) -> None:
        await self.inbox.pick(interaction, kind, game_id, step, index)

    async def open_private(self, interaction: Interaction, kind: str, game_id: int, step: int) -> None:
        await self.inbox.open_private(interaction, kind, game_id, step)

    async def submitted(self, interaction: Interaction, kind: str, game_id: int, step: int) -> None:
        await self.inbox.submitted(interaction, kind, game_id, step)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await self.inbox.take_dm(message)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """A modal of a sealed step was submitted: the text counts for the step it was opened in (also a game's
        modal opened from a message posted before the shared front end: ``Presenter.legacy_modal``; one listener,
        so an interaction starts no other task)."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        match = MODAL_ID.fullmatch(custom_id)
        if match is not None:
            await self.submitted(interaction, match["game"], int(match["id"]), int(match["step"]))
            return
        for kind, presenter in self.presenters.by_key.items():
            old = presenter.legacy_modal.fullmatch(custom_id) if presenter.legacy_modal is not None else None
            if old is not None:
                await self.submitted(interaction, kind, int(old["game"]), int(old["step"]))
                return


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
        async with self.answers.answering(interaction):
            record = await self._game_here(interaction)
            record = await self.service.join(record.id, interaction.user.id, interaction.user.display_name)
            await reply(interaction, t("core.reply.joined", await self.answers.lang(interaction)))
            await self.lobby.refresh(record)
            await self.lobby.explain_by_dm(interaction, record)

    @app_commands.guild_only()
    async def leave_cmd(self, interaction: Interaction) -> None:
        async with self.answers.answering(interaction):
            record = await self._game_here(interaction)
            if record.status == "running":
                status_message = self.state.turn_message_id(record.id) or record.status_message_id
                outcome = await self.service.remove(record.id, interaction.user.id, interaction.user.id, kicked=False)
                abandoned = outcome.table.record.end_reason == ABANDONED
                await reply(interaction, t("core.reply.left_abandoned" if abandoned else "core.reply.left_game",
                                           await self.answers.lang(interaction)))
                await self.poster.after_removal(outcome, status_message)
                return
            before = record
            record = await self.service.leave_lobby(record.id, interaction.user.id)
            await reply(interaction, t("core.reply.left_table", await self.answers.lang(interaction)))
            await self.lobby.refresh(record, host_passed(before, record))

    @app_commands.guild_only()
    async def cancel_cmd(self, interaction: Interaction) -> None:
        async with self.answers.answering(interaction, "public"):
            record = await self._game_here(interaction)
            await self.lobby.cancel(interaction, record.id, via_button=False)

    @app_commands.rename(player=cmd("player", "commands.opt.player"))
    @app_commands.describe(player=cmd("The player to remove", "commands.opt.kick_player.desc"))
    @app_commands.guild_only()
    async def kick_cmd(self, interaction: Interaction, player: discord.User) -> None:
        async with self.answers.answering(interaction):
            record = await self._game_here(interaction)
            if record.status == "lobby":
                raise GameError("core.error.kick_in_lobby")
            status_message = self.state.turn_message_id(record.id) or record.status_message_id
            outcome = await self.service.remove(record.id, interaction.user.id, player.id, kicked=True)
            abandoned = outcome.table.record.end_reason == ABANDONED
            await reply(interaction, t("core.reply.kicked_abandoned" if abandoned else "core.reply.kicked",
                                       await self.answers.lang(interaction), name=safe_name(player.display_name)))
            await self.poster.after_removal(outcome, status_message)

    @app_commands.rename(language=cmd("language", "commands.opt.language"))
    @app_commands.describe(language=cmd("auto follows each person's Discord language", "commands.opt.language.desc"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def language_cmd(self, interaction: Interaction, language: Literal["auto", "en", "fr"]) -> None:
        async with self.answers.answering(interaction):
            if not interaction.permissions.manage_guild or interaction.guild_id is None:
                raise GameError("core.error.need_manage")
            await self.languages.force(interaction.guild_id, language)
            lang = await self.languages.for_user(interaction)
            text = (t("core.reply.language_auto", lang) if language == AUTO
                    else t("core.reply.language_set", lang, language=t(f"core.language.{language}", lang)))
            await reply(interaction, text)

    # Servers and channels -----------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.poster.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (GUILD_DELETE, not an outage): its games end now, and every
        player hears it, instead of choices being acknowledged until a deadline nobody will see."""
        for record in await self.service.open_games_of_guild(guild.id):
            await self.poster.stop_game(record, "core.stop.guild_removed", everyone=True)

    # Scores and boards --------------------------------------------------------------------------
    async def _record_for(self, interaction: Interaction) -> GameRecord | None:
        """The game in this channel, else the user's game, else the last game finished in this channel."""
        store = self.bot.store
        record = await store.open_game_in_channel(interaction.channel_id or 0)
        if record is None:
            record = await store.open_game_of_user(interaction.user.id, details=False)
        if record is None and interaction.guild_id is not None:
            recent = await store.finished_games(interaction.guild_id, RECENT_GAMES)
            record = next((g for g in recent if interaction.channel_id in (g.channel_id, g.thread_id)), None)
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
        async with self.answers.answering(interaction, "public" if public else "ephemeral", anywhere=True):
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
        async with self.answers.answering(interaction, anywhere=True):
            lang = await self.answers.lang(interaction)
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


    @app_commands.rename(dm=cmd("dm", "core.cmd.notify.dm"), mention=cmd("mention", "core.cmd.notify.mention"),
                         summary=cmd("summary", "daily.cmd.notify.summary"))
    @app_commands.describe(dm=cmd("Reminders by DM (on or off)", "core.cmd.notify.dm.desc"),
                           mention=cmd("A mention in the channel when a DM cannot reach you (on or off)",
                                       "core.cmd.notify.mention.desc"),
                           summary=cmd("A daily DM listing the tables waiting for you (on or off)",
                                       "daily.cmd.notify.summary.desc"))
    async def notify_cmd(self, interaction: Interaction, dm: bool | None = None, mention: bool | None = None,
                         summary: bool | None = None) -> None:
        """Per user, in every game and server: no option shows the setting, an option changes only itself."""
        async with self.answers.answering(interaction, anywhere=True):
            lang = await self.answers.lang(interaction)
            notify = self.notify
            reach = (await notify.of(interaction.user.id) if dm is None and mention is None and summary is None
                     else await notify.set(interaction.user.id, dm=dm, mention=mention, summary=summary))
            await reply(interaction, t("core.reply.notify", lang, dm=t("core.on" if reach.dm else "core.off", lang),
                                       mention=t("core.on" if reach.mention else "core.off", lang))
                        + "\n" + t("daily.reply.summary", lang, summary=t("core.on" if reach.summary else "core.off",
                                                                           lang)))


