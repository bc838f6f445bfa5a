"""Which language to speak where: a server may force one (a language command); otherwise private
answers follow the user's Discord language and channel messages the server's."""

from typing import Any

import discord
from discord import app_commands

from bot.i18n import DEFAULT, LANGUAGES, catalog, language_of
from storage.base import GameRecord, GameStore

AUTO = "auto"


def cmd(text: str, key: str) -> app_commands.locale_str:
    """A command name, description or option text, translated from the catalogs (see CatalogTranslator)."""
    return app_commands.locale_str(text, key=key)


def _key(guild_id: int) -> str:
    return f"language:{guild_id}"


class Languages:
    def __init__(self, store: GameStore, *, cache_forced: bool = True) -> None:
        self.store = store
        # False for a second instance beside the one whose command forces the language: always read it.
        self.cache_forced = cache_forced
        self._forced: dict[int, str | None] = {}
        self._users: dict[int, str] = {}  # each user's Discord language, learnt from their interactions

    async def forced(self, guild_id: int | None) -> str | None:
        if guild_id is None:
            return None
        if guild_id not in self._forced or not self.cache_forced:
            value = await self.store.get_meta(_key(guild_id))
            self._forced[guild_id] = value if value in LANGUAGES else None
        return self._forced[guild_id]

    async def force(self, guild_id: int, language: str) -> None:
        """Force ``language`` for a server, or ``auto`` to follow each person's Discord language."""
        await self.store.set_meta(_key(guild_id), language)
        self._forced[guild_id] = language if language in LANGUAGES else None

    def remember(self, interaction: discord.Interaction[Any]) -> None:
        self._users[interaction.user.id] = language_of(str(interaction.locale))

    async def for_dm(self, user_id: int, record: GameRecord | None) -> str:
        """For a DM: the server's forced language, else the user's own, else the game's."""
        forced = await self.forced(record.guild_id) if record is not None else None
        if forced:
            return forced
        if user_id in self._users:
            return self._users[user_id]
        return await self.for_game(record) if record is not None else DEFAULT

    async def for_user(self, interaction: discord.Interaction[Any]) -> str:
        """For an answer only this user sees."""
        return await self.forced(interaction.guild_id) or language_of(str(interaction.locale))

    async def for_channel(self, interaction: discord.Interaction[Any]) -> str:
        """For a message everyone in the channel sees (and to remember as the game's language)."""
        guild_locale = interaction.guild_locale or interaction.locale
        return await self.forced(interaction.guild_id) or language_of(str(guild_locale))

    async def for_game(self, record: GameRecord) -> str:
        """For a game's channel messages and DMs."""
        return await self.forced(record.guild_id) or str(record.options.get("language", DEFAULT))


class CatalogTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the catalogs (``locale_str(..., key="cmd.…")``)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if key is None and context.location is app_commands.TranslationContextLocation.choice_name:
            key = f"commands.choice.{string.message}"  # Literal choices carry no key of their own
        language = language_of(locale.value)
        if key is None or language == DEFAULT:
            return None  # Discord shows the English text
        return catalog(language).get(key)
