"""Messages in the player's language (English and French).

Every sentence the bot shows is a key in a catalog, with named placeholders: ``t("thenumber.ack.locked",
"fr", number="513", channel="<#1>")``. Catalogs live in ``bot/i18n/locales/<lang>/<area>.py`` as a
``MESSAGES`` dict; every area exists in every language, and a test fails when a key is missing from one
of them. Pure: no Discord import, so the terminal game can use it too.
"""

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from string import Formatter
from typing import Any

LANGUAGES = ("en", "fr")
DEFAULT = "en"


@cache
def catalog(language: str) -> Mapping[str, str]:
    """Every message of ``language``, merged from its area modules."""
    package = importlib.import_module(f"bot.i18n.locales.{language}")
    merged: dict[str, str] = {}
    for module in pkgutil.iter_modules(package.__path__):
        messages = importlib.import_module(f"{package.__name__}.{module.name}").MESSAGES
        duplicated = merged.keys() & messages.keys()
        if duplicated:
            raise RuntimeError(f"{language}: keys defined twice: {sorted(duplicated)}")
        merged.update(messages)
    return merged


def language_of(locale: str | None) -> str:
    """A Discord locale ("fr", "en-US", "en-GB"...) to one of :data:`LANGUAGES`."""
    if locale:
        base = str(locale).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT


def t(key: str, language: str | None = DEFAULT, /, **values: Any) -> str:
    """The message ``key`` in ``language`` (English when missing there), with its placeholders filled."""
    text = catalog(language or DEFAULT).get(key)
    if text is None:
        text = catalog(DEFAULT)[key]
    return text.format(**values) if values else text


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}
