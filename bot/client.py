"""The bot: receives its settings and store, loads the cogs, syncs commands only when they change."""

import hashlib
import json
import logging

import discord
from discord.ext import commands

from bot.core.clock import Clock, SystemClock
from bot.core.timers import Scheduler
from bot.services.thenumber import AIChooser, TheNumberService
from bot.settings import Settings
from storage.base import GameStore
from storage.sqlite import SQLiteStore

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.thenumber",)
COMMANDS_HASH_KEY = "commands_hash"


def intents() -> discord.Intents:
    """Only what the bot needs, and nothing privileged: DM text is readable without message_content."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.dm_messages = True
    return wanted


def default_ai_chooser() -> AIChooser | None:
    try:
        from bot.games.thenumber.ai import choose_for_service
    except ImportError:  # pragma: no cover - the AI module is optional for the core bot
        return None
    return choose_for_service


class NumberBot(commands.Bot):
    def __init__(self, settings: Settings, store: GameStore | None = None, *, clock: Clock | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            # Never ping by accident: every message that should mention someone says so explicitly.
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.store: GameStore = store or SQLiteStore(settings.database_path,
                                                     busy_timeout_ms=settings.database_busy_timeout_ms)
        self.scheduler = Scheduler(self.clock)
        self.games = TheNumberService(self.store, self.clock, default_turn_seconds=settings.turn_seconds,
                                      ai_chooser=default_ai_chooser())

    async def setup_hook(self) -> None:
        await self.store.open()
        from cogs.thenumber.language import CatalogTranslator

        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands_if_changed()

    async def close(self) -> None:
        self.scheduler.cancel_all()
        await super().close()
        await self.store.close()

    async def sync_commands_if_changed(self) -> bool:
        """Sync slash commands only when their definitions changed since the last sync (hash in the DB)."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        commands_ = self.tree.get_commands(guild=guild)
        # The same payload the sync sends, translations included, so a new translation triggers a sync too.
        payload = ([await c.get_translated_payload(self.tree, translator) for c in commands_] if translator
                   else [c.to_dict(self.tree) for c in commands_])
        text = json.dumps({"guild": self.settings.dev_guild_id, "commands": payload}, sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()
        if await self.store.get_meta(COMMANDS_HASH_KEY) == digest:
            log.info("slash commands unchanged; not syncing")
            return False
        await self.tree.sync(guild=guild)
        await self.store.set_meta(COMMANDS_HASH_KEY, digest)
        log.info("slash commands synced%s", f" to guild {guild.id}" if guild else " globally")
        return True
