"""``python -m bot``: start the Discord bot.

Everything that can be checked before connecting is checked first (settings, ``.env``, the database), and
every failure to start is one line on stderr and a non-zero exit, never a traceback or a hung process:
2 for a problem in the configuration or the database, 1 when Discord refuses or cannot be reached.
"""

import asyncio
import contextlib
import gc
import logging
import os
import sqlite3
import sys
import threading

import aiohttp
import asyncpg
import discord
import yarl
from dotenv import dotenv_values
from pydantic import ValidationError

from bot.settings import Settings, env_file
from storage.backend import describe
from storage.base import StoreError
from storage.lease import InstanceRunning
from storage.pg_connection import is_postgres_url
from storage.preflight import database_problem, postgres_problem

log = logging.getLogger("bot")

OWN_LOGGERS = ("bot", "cogs", "storage")
# The cyclic collector's youngest generation is collected after this many new container objects (Python's
# default: 700). Every choice allocates a few thousand short-lived ones (the interaction, its message, the
# answer's embeds and view, the HTTP exchange) that reference counting frees anyway: at 700 a collection ran
# every few choices and cost about a tenth of a modal choice's CPU (bench/choice_cost.py); at this size a
# young pass still takes a few milliseconds at most.
YOUNG_COLLECTION_AFTER = 20_000
DEFAULT_GATEWAY = "wss://gateway.discord.gg/"
PROBE_TIMEOUT_S = 10.0


class StartupError(Exception):
    """A reason not to start, already worded for the operator; ``code`` is the exit status."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def point_discord_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST and gateway traffic to a Discord-compatible endpoint (a proxy, or a test fake).

    Interaction webhooks follow ``Route.BASE`` too, so one switch moves every request.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def tune_collector() -> None:
    """Fewer young collections (see YOUNG_COLLECTION_AFTER); the older generations keep Python's ratios."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_AFTER, middle, old)


def keep_start_up_heap() -> None:
    """What start-up built (modules, discord.py's and the cogs' objects) lives as long as the process: kept out
    of the collector's passes from now on (``gc.freeze``), after one full collection so no garbage is kept.
    Without it a full pass walked some 100,000 objects (about 60 ms, the event loop held) every so often."""
    gc.collect()
    gc.freeze()


def silence_voice_warnings() -> None:
    """The bot has no voice: discord.py's start-up warnings about PyNaCl and davey say nothing useful."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def configure_logging(settings: Settings) -> None:
    """The bot's loggers at LOG_LEVEL; libraries never below LOG_LEVEL_THIRD_PARTY.

    At DEBUG, discord.http logs request bodies and aiosqlite logs statements with their parameters, which
    include pending numbers: they stay at INFO unless LOG_LEVEL_THIRD_PARTY asks for DEBUG.
    """
    own = logging.getLevelName(settings.log_level)
    libraries = max(own, logging.getLevelName(settings.log_level_third_party))
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(libraries)  # the root: every library logger that sets no level of its own
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(own)
    logging.getLogger("discord.client").addFilter(_drop_login_notice)  # once: the same filter is not added twice


def _drop_login_notice(record: logging.LogRecord) -> bool:
    """discord.py announces every login: noise, and it would precede the one line of a failed start."""
    return record.msg != "logging in using static token"


def load_settings() -> Settings:
    path = env_file()
    try:
        return Settings.load(path)
    except ValidationError as exc:
        error = exc.errors()[0]
        message = str(error["msg"]).removeprefix("Value error, ")
        if not error["loc"]:  # a rule across settings (SHARD_IDS with SHARD_COUNT): its message names them
            raise StartupError(f"invalid settings: {message}", 2) from None
        raise StartupError(f"invalid setting {str(error['loc'][0]).upper()}: {message}", 2) from None
    except UnicodeDecodeError:
        raise StartupError(f"cannot read {path}: it is not UTF-8 text (save it as UTF-8)", 2) from None
    except OSError as exc:
        raise StartupError(f"cannot read {path}: {exc.strerror or exc}", 2) from None


def check_before_connecting(settings: Settings) -> str:
    """The token, or :class:`StartupError`: what can be known without Discord is checked first."""
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        found = env_file()
        if "DISCORD_TOKEN" in os.environ and found is not None and _file_token(found):
            # pydantic-settings lets the environment win even when it is empty: say so, or the file looks ignored
            raise StartupError(f"DISCORD_TOKEN is set but empty in the environment, which hides the token in "
                               f"{found}: unset it (unset DISCORD_TOKEN) or give it the token", 2)
        where = (f"put DISCORD_TOKEN=... in {found} or in the environment" if found else
                 "no .env in the working directory or next to the project (copy .env.example to .env and "
                 "fill it in) and none in the environment")
        raise StartupError(f"DISCORD_TOKEN is not set: {where}", 2)
    if is_postgres_url(settings.database_url):
        assert settings.database_url is not None
        problem = postgres_problem(settings.database_url)
    else:
        problem = database_problem(settings.database_path)
    if problem:
        raise StartupError(f"database {describe(settings.database_url, settings.database_path)}: {problem}", 2)
    return token


def _file_token(path: os.PathLike[str]) -> bool:
    """Whether the ``.env`` at ``path`` gives DISCORD_TOKEN a non-empty value."""
    try:
        value = dotenv_values(path, encoding="utf-8-sig").get("DISCORD_TOKEN")
    except (OSError, UnicodeDecodeError):
        return False
    return bool(value and value.strip())


async def probe_gateway(url: str) -> None:
    """Fail now if the gateway's host cannot even be reached; later outages are discord.py's to retry."""
    target = yarl.URL(url)
    port = target.port or (443 if target.scheme in ("wss", "https") else 80)
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(target.host, port), PROBE_TIMEOUT_S)
    except (OSError, TimeoutError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        raise StartupError(f"cannot reach the Discord gateway at {url}: {reason}", 1) from None
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


def one_line(text: object, limit: int = 300) -> str:
    """An error as one line of bounded length (an HTTP error body can be a whole HTML page)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def run_bot() -> int:
    silence_voice_warnings()
    try:
        settings = load_settings()
        token = check_before_connecting(settings)
    except StartupError as exc:
        print(one_line(exc), file=sys.stderr)
        return exc.code
    configure_logging(settings)
    tune_collector()
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    api = settings.discord_api_base or discord.http.Route.BASE

    from bot.client import bot_class

    async def main() -> int:
        async with bot_class(settings)(settings) as bot:
            try:
                await bot.login(token)
            except (OSError, TimeoutError, aiohttp.ClientError) as exc:
                raise StartupError(f"cannot reach Discord at {api}: {exc or type(exc).__name__}", 1) from None
            await probe_gateway(settings.discord_gateway_url or DEFAULT_GATEWAY)
            keep_start_up_heap()  # the extensions are loaded and the store is open (setup_hook ran in login)
            await bot.connect()
        # a bot that stopped itself says why in its exit status (3: its database file was deleted or replaced)
        return int(getattr(bot, "exit_code", 0))

    code = 0
    try:
        code = asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except StartupError as exc:
        print(one_line(exc), file=sys.stderr)
        code = exc.code
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN", file=sys.stderr)
        code = 1
    except InstanceRunning as exc:
        print(one_line(str(exc)), file=sys.stderr)
        code = 2
    except discord.HTTPException as exc:
        print(one_line(f"Discord answered {exc.status} at {api}: {exc.text or exc}"), file=sys.stderr)
        code = 1
    except (sqlite3.Error, asyncpg.PostgresError, StoreError) as exc:  # the store refused to open (after the checks)
        print(one_line(f"database {describe(settings.database_url, settings.database_path)}: {exc}"), file=sys.stderr)
        code = 2
    except Exception:  # a bug: keep its traceback in the log, and still end the process
        log.exception("the bot stopped on an unexpected error")
        code = 1
    if code:
        _exit_without_waiting_for_threads(code)
    return code


def _exit_without_waiting_for_threads(code: int) -> None:
    """A failed start must end the process: a half-opened store can leave a non-daemon worker thread."""
    if any(t is not threading.main_thread() and t.is_alive() and not t.daemon for t in threading.enumerate()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)

