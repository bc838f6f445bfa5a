"""The bot: receives its settings and store, loads the cogs, syncs commands only when they change."""

import asyncio
import hashlib
import json
import logging
from typing import Any

import discord
from discord.ext import commands

from bot.core.clock import Clock, SystemClock
from bot.core.game import Game
from bot.core.service import GameService
from bot.core.timers import Scheduler
from bot.games import GAMES
from bot.http_buckets import amortise_bucket_sweep
from bot.services.thenumber import AIChooser, TheNumberService
from bot.settings import Settings
from storage.base import GameStore
from storage.lease import HEARTBEAT_SECONDS, SQLiteLease
from storage.sqlite import SQLiteStore

log = logging.getLogger(__name__)

# Game packages first (each registers its presenter and its command group), the shared front end last.
EXTENSIONS = ("cogs.thenumber", "cogs.numeri", "cogs.binomial", "cogs.table")
# Where each game is played on Discord: these keep their own cog package for now; every other game of
# GAMES is run by ``bot.tables`` and played through the shared front end ``cogs/table``.
OWN_COGS = frozenset({"thenumber"})
NOT_ON_DISCORD_YET: frozenset[str] = frozenset()  # games without a presenter yet
COMMANDS_HASH_KEY = "commands_hash"


def intents() -> discord.Intents:
    """Only what the bot needs, and nothing privileged: DM text is readable without message_content."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.dm_messages = True
    return wanted


def table_games(games: tuple[Game[Any, Any, Any], ...] = GAMES) -> tuple[Game[Any, Any, Any], ...]:
    """The games the shared front end serves."""
    return tuple(g for g in games if g.key not in OWN_COGS | NOT_ON_DISCORD_YET)


def default_ai_chooser() -> AIChooser | None:
    try:
        from bot.games.thenumber.ai import choose_for_service
    except ImportError:  # pragma: no cover - the AI module is optional for the core bot
        return None
    return choose_for_service


class NumberBot(commands.Bot):
    def __init__(self, settings: Settings, store: GameStore | None = None, *, clock: Clock | None = None,
                 games: tuple[Game[Any, Any, Any], ...] | None = None,
                 extensions: tuple[str, ...] = EXTENSIONS) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            # Never ping by accident: every message that should mention someone says so explicitly.
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.bucket_sweep = amortise_bucket_sweep(self.http)  # opening many tables stays linear (see the module)
        self.clock: Clock = clock or SystemClock()
        self.store: GameStore = store or SQLiteStore(settings.database_path,
                                                     busy_timeout_ms=settings.database_busy_timeout_ms)
        # One process per database file (see storage/lease.py); a store handed in is the caller's business.
        self.lease = (SQLiteLease(settings.database_path, busy_timeout_ms=settings.database_busy_timeout_ms)
                      if store is None and str(settings.database_path) != ":memory:" else None)
        self._heartbeat: asyncio.Task[None] | None = None
        self.scheduler = Scheduler(self.clock)
        self.games = TheNumberService(self.store, self.clock, default_turn_seconds=settings.turn_seconds,
                                      ai_chooser=default_ai_chooser())
        # Every game played through cogs/table, on the one generic update sequence.
        self.tables = GameService(self.store, games or table_games(), self.clock,
                                  default_turn_seconds=settings.turn_seconds)
        self.extensions_to_load = extensions
        self.presenters: Any = None  # filled by the game packages (cogs.table.presenter.register)

    async def setup_hook(self) -> None:
        await self.store.open()
        if self.lease is not None:
            await self.lease.open()
            await self.lease.acquire()  # raises InstanceRunning: another live process uses this database
            self._heartbeat = asyncio.create_task(self._keep_lease(), name="instance lease")
        from cogs.thenumber.language import CatalogTranslator

        await self.tree.set_translator(CatalogTranslator())
        for extension in self.extensions_to_load:
            await self.load_extension(extension)
        await self.sync_commands_if_changed()

    async def close(self) -> None:
        self.scheduler.cancel_all()
        if self._heartbeat is not None and self._heartbeat is not asyncio.current_task():
            self._heartbeat.cancel()
        await super().close()
        if self.lease is not None:
            if self._heartbeat is not None:  # the lease was taken (a start that failed earlier holds none)
                try:
                    await self.lease.release()
                except Exception as exc:  # the database is failing: the lease expires on its own
                    log.info("could not release the instance lease: %s", exc)
            await self.lease.close()
        await self.store.close()

    async def _keep_lease(self) -> None:
        assert self.lease is not None
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                kept = await self.lease.renew()
            except Exception as exc:
                log.warning("could not renew the instance lease: %s", exc)
                continue
            if not kept:
                log.error("another bot process has taken over the database: stopping this one")
                await self.close()
                return

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
