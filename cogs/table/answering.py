"""How every interaction of the shared front end is answered: within Discord's 3 s whatever the database does
(a slow answer is deferred), a refusal as a private line in the user's language, anything unexpected logged and
answered with a generic line. The router, the lobby and the inbox all answer through one of these."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.core.errors import GameError
from bot.core.timers import Scheduler
from bot.i18n import DEFAULT, t

from .answers import Deferral, SlowAnswer, reply
from .language import Languages
from .presenter import Presenter
from .refusals import USER_ERRORS, explain

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]


class InteractionAnswers:
    def __init__(self, client: discord.Client, scheduler: Scheduler, languages: Languages) -> None:
        self.client = client
        self.scheduler = scheduler
        self.languages = languages

    @asynccontextmanager
    async def answering(self, interaction: Interaction, defer: Deferral | None = "ephemeral",
                        presenter: Presenter | None = None, *, anywhere: bool = False) -> AsyncIterator[None]:
        """Answer within Discord's 3 s whatever the database does, and turn a refusal into a private line.
        Only ``anywhere`` requests (/score, /board) may come from outside a server."""
        self.languages.remember(interaction)
        guard = SlowAnswer(interaction, defer) if defer is not None else None
        try:
            # ahead of the overdue timers' backlog (a restart after a long downtime): it waits for this answer
            with self.scheduler.foreground():
                if interaction.guild_id is None and not anywhere:
                    raise GameError("core.error.guild_only")  # a forged request: Discord never offers it in DMs
                yield
        except USER_ERRORS as error:
            await reply(interaction, explain(error, await self.lang(interaction), presenter))
        except discord.HTTPException:
            raise
        except Exception:
            if self.client.is_closed():  # a shutdown closed the session under a request still waiting (its pace)
                log.info("an interaction's follow-up work was cut short by the shutdown", exc_info=True)
                return
            log.exception("unexpected error while handling an interaction")
            await reply(interaction, t("core.error.generic", await self.lang(interaction)))
        finally:
            if guard is not None:
                guard.stop()

    async def lang(self, interaction: Interaction) -> str:
        try:
            return await self.languages.for_user(interaction)
        except Exception:
            return DEFAULT
