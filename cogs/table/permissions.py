"""The channel permissions a game needs, checked when a table opens and when it starts."""

from typing import Any

import discord

from bot.core.errors import GameError
from bot.i18n import t

Interaction = discord.Interaction[Any]
# What a game needs of its channel: post its messages (Send Messages), as embeds (Embed Links), and pictures
# (Attach Files). A thread needs Send Messages in Threads instead of Send Messages.
CHANNEL_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                discord.ChannelType.news_thread)


class MissingPermissions(GameError):
    """The bot lacks channel permissions a game needs (named in the user's language)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        super().__init__("core.error.missing_permissions", permissions=", ".join(t(f"core.perm.{n}",
                                                                                   "en") for n in names))

    def say(self, language: str) -> str:
        return t(self.key, language, permissions=", ".join(f"**{t(f'core.perm.{n}', language)}**" for n in self.names))


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
