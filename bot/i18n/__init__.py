"""Messages in the player's language (English and French).

Every sentence the bot shows is a key in a catalog, with named placeholders: ``t("thenumber.ack.locked",
"fr", number="513", channel="<#1>")``. A word that follows a count is written
``{score:plural:point|points}``: singular for 1 in English, for 0 and 1 in French (``1 point``, ``0 point``,
``2 points``). Pure: no Discord import, so the terminal game can use it too.

Where the words live (a test fails when a key is missing from a language, or sits outside its area):

* shared words in ``bot/i18n/locales/<lang>/<area>.py`` (areas ``core``, ``commands``, ``stats``), each a
  ``MESSAGES`` dict whose keys start ``<area>.``;
* a game's words in its own package, ``bot/games/<key>/locales/<lang>.py``, found by the game's key (every game
  of ``bot.games.GAMES``), every key starting ``<key>.``. The keys the shared front end looks up in a game's
  area are listed in docs/adding-a-game.md (``<key>.title``, ``<key>.cmd.*``, ``<key>.ai.about.<level>``...).
"""

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from string import Formatter
from typing import Any

LANGUAGES = ("en", "fr")
DEFAULT = "en"


def areas(language: str) -> dict[str, Mapping[str, str]]:
    """``language``'s messages by area: the shared areas, then one per game of the tuple (named by its key)."""
    import bot.games  # here, not at the top: the games' modules may use the catalog's helpers

    package = importlib.import_module(f"bot.i18n.locales.{language}")
    found: dict[str, Mapping[str, str]] = {
        module.name: importlib.import_module(f"{package.__name__}.{module.name}").MESSAGES
        for module in pkgutil.iter_modules(package.__path__)}
    for game in bot.games.GAMES:
        found[game.key] = importlib.import_module(f"bot.games.{game.key}.locales.{language}").MESSAGES
    return found


@cache
def catalog(language: str) -> Mapping[str, str]:
    """Every message of ``language``, merged from its areas."""
    merged: dict[str, str] = {}
    for messages in areas(language).values():
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


# The counts that take the singular, by language (French: "0 point", "1 point"; English: "0 points").
SINGULAR: Mapping[str, frozenset[int]] = {"en": frozenset({1}), "fr": frozenset({0, 1})}
PLURAL_SPEC = "plural:"


class _Formatter(Formatter):
    """``str.format`` plus the ``plural:singular|plural`` spec, which picks a word by the value's count."""

    def __init__(self, language: str) -> None:
        self.singular = SINGULAR.get(language, SINGULAR[DEFAULT])

    def format_field(self, value: Any, format_spec: str) -> str:
        if not format_spec.startswith(PLURAL_SPEC):
            return str(super().format_field(value, format_spec))
        one, _, many = format_spec[len(PLURAL_SPEC):].partition("|")
        return one if _count(value) in self.singular else many


def _count(value: Any) -> int | None:
    """The whole number a placeholder shows (an int, or a string such as "1" or "**1**"), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    digits = str(value).strip("* ")
    return int(digits) if digits.isdigit() else None


@cache
def _formatter(language: str) -> _Formatter:
    return _Formatter(language)


def t(key: str, language: str | None = DEFAULT, /, **values: Any) -> str:
    """The message ``key`` in ``language`` (English when missing there), with its placeholders filled."""
    language = language or DEFAULT
    text = catalog(language).get(key)
    if text is None:
        text, language = catalog(DEFAULT)[key], DEFAULT
    if not values:
        return text
    # str.format is several times faster than a Formatter: keep it for the messages without a plural
    return _formatter(language).vformat(text, (), values) if PLURAL_SPEC in text else text.format(**values)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}
