"""The bot: receives its settings and store, loads the cogs, syncs commands only when they change."""

import asyncio
import hashlib
import json
import logging
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.core.clock import Clock, SystemClock
from bot.core.game import Game
from bot.core.service import GameService
from bot.core.timers import Scheduler
from bot.games import GAMES
from bot.http_buckets import amortise_bucket_sweep
from bot.http_pacing import GlobalPacer, pacing_trace, untraced_session
from bot.interactions import install as install_lean_interactions
from bot.settings import Settings
from bot.shards import Resync, ShardScheduler, ShardScopedStore
from storage.backend import make_lease, make_store
from storage.base import GameStore
from storage.lease import HEARTBEAT_SECONDS
from storage.pace import shared_tickets

log = logging.getLogger(__name__)

SHARED_FRONT_END = "cogs.table"


def extensions_for(games: tuple[Game[Any, Any, Any], ...]) -> tuple[str, ...]:
    """The cog packages to load: each game's own, ``cogs.<key>`` (found by its key, so the tuple of games is the
    only list), which registers its presenter and its command group; then the shared front end, which serves
    every game of ``bot.service`` and sets the commands' translator."""
    return (*(f"cogs.{game.key}" for game in games), SHARED_FRONT_END)


EXTENSIONS = extensions_for(GAMES)
COMMANDS_HASH_KEY = "commands_hash"


def intents() -> discord.Intents:
    """Only what the bot needs, and nothing privileged: DM text is readable without message_content."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.dm_messages = True
    return wanted


class NumberBot(commands.Bot):
    def __init__(self, settings: Settings, store: GameStore | None = None, *, clock: Clock | None = None,
                 games: tuple[Game[Any, Any, Any], ...] | None = None,
                 extensions: tuple[str, ...] | None = None) -> None:
        shards = settings.shards
        # Never a global 429: every counted request waits its turn under the token's limit (see the module);
        # GLOBAL_REQUESTS_PER_WINDOW=0 leaves the pace to a rate-limit proxy shared by several processes.
        pacer = (GlobalPacer(settings.global_requests_per_window, settings.global_window_seconds)
                 if settings.global_requests_per_window else None)
        trace = pacing_trace(pacer) if pacer is not None else None
        sharding: dict[str, Any] = {}
        if isinstance(self, commands.AutoShardedBot):
            if shards is None:
                raise ValueError("a sharded bot needs SHARD_COUNT")
            sharding = {"shard_count": shards.count, "shard_ids": list(shards.ids)}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            # Never ping by accident: every message that should mention someone says so explicitly.
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=trace,
            **sharding,
        )
        if trace is not None and getattr(self.http, "http_trace", None) is not trace:  # unknown options are ignored
            raise RuntimeError("discord.py no longer takes http_trace: review bot/http_pacing.py")
        self.pacer = pacer
        self.settings = settings
        self.bucket_sweep = amortise_bucket_sweep(self.http)  # opening many tables stays linear (see the module)
        self.clock: Clock = clock or SystemClock()
        # SQLite (DATABASE_PATH) unless DATABASE_URL names a PostgreSQL database. Shard processes share it:
        # each game is locked across them (see GameStore.game_lock).
        self.store: GameStore = store or make_store(settings.database_url, settings.database_path,
                                                    busy_timeout_ms=settings.database_busy_timeout_ms,
                                                    shared=shards is not None)
        # One process per shard of a database (see storage/lease.py); a store handed in is the caller's business.
        self.lease = (make_lease(self.store, busy_timeout_ms=settings.database_busy_timeout_ms,
                                 shard_count=shards.count if shards else 1, shard_ids=shards.ids if shards else (0,))
                      if store is None else None)
        if shards is not None:  # restore, time and post only the games of this process's servers
            self.store = ShardScopedStore(self.store, shards)  # type: ignore[assignment]
        self._heartbeat: asyncio.Task[None] | None = None
        self._resync: asyncio.Task[None] | None = None
        self.scheduler = (ShardScheduler(self.clock, self.store) if isinstance(self.store, ShardScopedStore)
                          else Scheduler(self.clock))
        # Every game, on the one generic update sequence, played through cogs/table.
        games = games or GAMES
        self.service = GameService(self.store, games, self.clock, default_turn_seconds=settings.turn_seconds)
        self.extensions_to_load = extensions if extensions is not None else extensions_for(games)
        self.presenters: Any = None  # filled by the game packages (cogs.table.presenter.register)
        self.answer_session: aiohttp.ClientSession | None = None  # interaction answers, untraced (setup_hook)

    async def setup_hook(self) -> None:
        await self.store.open()
        install_lean_interactions(self)  # an interaction's message is built only when read
        self.answer_session = untraced_session(self.http)
        self._share_the_pace()
        if self.lease is not None:
            await self.lease.open()
            await self.lease.acquire()  # raises InstanceRunning: another live process uses this database
            self._heartbeat = asyncio.create_task(self._keep_lease(), name="instance lease")
        for extension in self.extensions_to_load:
            await self.load_extension(extension)
        await self.sync_commands_if_changed()
        if isinstance(self.store, ShardScopedStore):
            resync = Resync(self, self.store, self.settings.shard_resync_seconds)
            self._resync = asyncio.create_task(resync.run(), name="shard resync")

    def _share_the_pace(self) -> None:
        """A process holding some of the shards shares the token with the processes holding the others: its pace
        takes tickets from the database they share too (storage/pace.py), so together they keep the limit."""
        shards = self.settings.shards
        if self.pacer is None or shards is None or len(set(shards.ids)) >= shards.count or not self.http.token:
            return
        self.pacer.shared = shared_tickets(self.store, self.http.token, self.pacer.requests, self.pacer.window)

    async def on_ready(self) -> None:
        shards = self.settings.shards
        log.info("ready%s", f" with shards {','.join(map(str, shards.ids))} of {shards.count}" if shards else "")

    async def close(self) -> None:
        self.scheduler.cancel_all()
        if self._resync is not None:
            self._resync.cancel()
        if self._heartbeat is not None and self._heartbeat is not asyncio.current_task():
            self._heartbeat.cancel()
        await super().close()
        if self.answer_session is not None:
            await self.answer_session.close()
        if self.pacer is not None and self.pacer.shared is not None:
            await self.pacer.shared.close()
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


class ShardedNumberBot(NumberBot, commands.AutoShardedBot):
    """The same bot on discord.py's AutoShardedBot: one gateway connection per shard of SHARD_IDS (discord.py
    paces the IDENTIFYs of one process 5 s apart, within Discord's limit)."""


def bot_class(settings: Settings) -> type[NumberBot]:
    """NumberBot, or its sharded form when SHARD_COUNT is set."""
    return ShardedNumberBot if settings.shards is not None else NumberBot
