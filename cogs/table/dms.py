"""The one DM router of every game: a player sits at one table at a time, so a DM is that table's move.

A mixin of :class:`cogs.table.cog.TableCog` (its listener is the cog's): a burst of DMs gets a few answers and
then only the newest one, each answer carries a nonce tied to the DM, and only a stored move is acknowledged.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.core.errors import NotYourTurn, SentBefore
from bot.core.game import RuleError
from bot.i18n import DEFAULT, t

from .answers import fit
from .dm_commands import DMCommands, dm_command
from .late import sent_before
from .presenter import Presenter
from .refusals import USER_ERRORS, explain, word

if TYPE_CHECKING:
    from .cog import TableCog

log = logging.getLogger(__name__)


class DirectMessages(DMCommands):
    @commands.Cog.listener()
    async def on_message(self: TableCog, message: discord.Message) -> None:
        """A DM to the bot: a player's move or sealed choice, whatever the game (one open game per player)."""
        if message.guild is not None or message.author.bot or message.author.id == getattr(self.bot.user, "id", 0):
            return
        with self.bot.scheduler.foreground():  # a player waits for this answer: ahead of the overdue timers
            await self._take_dm(message)

    async def _take_dm(self: TableCog, message: discord.Message) -> None:
        user_id, channel = message.author.id, message.channel

        async def answer(line: str) -> None:
            # The nonce ties the answer to this DM: a retried answer is never shown twice.
            await self._dm_reply(user_id, channel, line, nonce=f"d{message.id}")

        lang = DEFAULT
        try:
            # Only which game it is: the game itself comes from the service's cache.
            record = await self.bot.store.open_game_of_user(user_id, details=False)
            lang = await self.languages.for_dm(user_id, record)
        except Exception:
            log.warning("could not look up the game of a DM's author", exc_info=True)
            await answer(t("core.error.not_saved", lang))
            return
        if record is None or record.kind not in self.kinds:
            await answer(t("core.dm.no_game", lang, start=", ".join(f"`/{kind} start`" for kind in self.service.games)))
            return
        presenter = self.presenters[record.kind]
        if record.status == "lobby":
            await answer(word(presenter, "core.dm.lobby", lang, channel=f"<#{record.channel_id}>"))
            return
        command = dm_command(message.content) if record.status == "running" else None
        if command is not None:  # help, rules, board, score, quit: answered in every game
            try:
                await self._dm_command(*command, record, user_id, channel, f"d{message.id}", lang, answer)
            except USER_ERRORS as error:
                await answer(explain(error, lang, presenter))
            except Exception:
                log.warning("could not answer a DM command in game %s", record.id, exc_info=True)
                await answer(t("core.error.not_saved", lang))
            return
        # The game's refusal says what a move looks like; a DM with words in it (maybe a question, a command the
        # bot does not know) also gets every other thing it may send now.
        wordy = any(c.isalpha() for c in message.content)
        can_send = "\n" + t("core.dm.can_send", lang, how=presenter.dm_how(lang)) if wordy else ""
        try:
            await self.recovery.take_up(record.id)
            # sent_at: a DM read after the step it was sent in ended is refused, never counted for the next one
            outcome = await self.service.act(record.id, user_id, text=message.content,
                                             sent_at=message.created_at.timestamp())
        except SentBefore as late:
            await answer(sent_before(late, presenter, lang))
            return
        except NotYourTurn:
            await answer(str(self._their_turn(await self.service.table(record.id), lang, user_id)))
            return
        except RuleError as error:
            await answer(await self._refusal(record.id, user_id, error, presenter, lang) + can_send)
            return
        except USER_ERRORS as error:
            await answer(explain(error, lang, presenter) + can_send)
            return
        except Exception:
            log.warning("could not take a DM move in game %s", record.id, exc_info=True)
            await answer(t("core.error.not_saved", lang))
            return
        await self._acknowledge(outcome, answer, lang)

    async def _refusal(self: TableCog, game_id: int, user_id: int, error: RuleError, presenter: Presenter,
                       lang: str) -> str:
        """A refused action, with the seat's own view when the presenter can say what it may do instead."""
        table = await self.service.table(game_id)
        seated = table.record.seat_of(user_id)
        view = table.game.view(table.state, seated.seat) if seated is not None and table.running else None
        return str(presenter.refusal_for(error, view, lang))

    async def _dm_reply(self: TableCog, user_id: int, channel: discord.abc.Messageable, line: str, nonce: str) -> None:
        """Answer a DM, but a burst of DMs gets a few answers and then only the newest one."""
        line = fit(line)
        if self.throttle.allow(user_id):
            try:
                await self.poster.send(channel, nonce=nonce, content=line)
            except discord.HTTPException as exc:
                log.info("could not answer a DM: %s", exc)
            return
        wait = self.throttle.hold(user_id, line)
        if user_id not in self._flushing:
            self._flushing[user_id] = asyncio.create_task(self._flush_dm_reply(user_id, channel, wait))

    async def _flush_dm_reply(self: TableCog, user_id: int, channel: discord.abc.Messageable, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
            held = self.throttle.release(user_id)
            if held is not None:
                await self.poster.send(channel, nonce=None, content=held)
        except discord.HTTPException as exc:
            log.info("could not answer a DM: %s", exc)
        finally:
            self._flushing.pop(user_id, None)
