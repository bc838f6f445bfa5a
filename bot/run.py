"""``python -m bot``: start the Discord bot."""

import asyncio
import logging
import sys

import discord
import yarl
from pydantic import ValidationError

from bot.settings import Settings
from storage.lease import InstanceRunning

log = logging.getLogger("bot")


def point_discord_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST and gateway traffic to a Discord-compatible endpoint (a proxy, or a test fake).

    Interaction webhooks follow ``Route.BASE`` too, so one switch moves every request.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def run_bot() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"invalid settings: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}", file=sys.stderr)
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print("DISCORD_TOKEN is not set: put DISCORD_TOKEN=... in .env (see .env.example) or the environment",
              file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)

    from bot.client import NumberBot

    async def main() -> None:
        async with NumberBot(settings) as bot:
            await bot.start(settings.discord_token.get_secret_value() if settings.discord_token else "")

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN", file=sys.stderr)
        return 1
    except InstanceRunning as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0
