"""Every message exists in every language, with the same placeholders."""

from collections.abc import Mapping

import pytest

from bot.i18n import LANGUAGES, areas, catalog, language_of, placeholders, t


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_exists_in_every_language(language: str) -> None:
    for other in LANGUAGES:
        missing = sorted(catalog(other).keys() - catalog(language).keys())
        assert not missing, f"{language} lacks {missing}"


def test_placeholders_match_across_languages() -> None:
    english = catalog("en")
    for language in LANGUAGES:
        for key, text in catalog(language).items():
            assert placeholders(text) == placeholders(english[key]), (language, key)


def test_language_choice_and_formatting() -> None:
    assert [language_of(x) for x in ("fr", "en-US", "en-GB", "de", None)] == ["fr", "en", "en", "en", "en"]
    assert t("thenumber.ack.locked", "fr", number="513", channel="#g", round=1, turn=2).startswith("513 enregistré")
    assert t("thenumber.ack.locked", "en", number="513", channel="#g", round=1, turn=2).startswith("Locked in 513")


SHARED_AREAS = ("core", "commands", "stats", "ratings", "daily", "threads")


def area_messages(language: str) -> dict[str, Mapping[str, str]]:
    return areas(language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_starts_with_its_area(language: str) -> None:
    from bot.games import GAMES

    areas = area_messages(language)
    assert sorted(areas) == sorted((*SHARED_AREAS, *(g.key for g in GAMES)))  # one area per game of the tuple
    outside = sorted(f"{area}: {key}" for area, messages in areas.items() for key in messages
                     if not key.startswith(f"{area}."))
    assert not outside, f"keys outside their area: {outside}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_core_sentence_names_a_game(language: str) -> None:
    from bot.games import GAMES

    names = {g.key.lower() for g in GAMES} | {g.title.lower() for g in GAMES}
    named = sorted(key for key, text in area_messages(language)["core"].items()
                   if any(name in text.lower() for name in names))
    assert not named, f"core sentences that name a game (pass it as {{game}} or {{start}}): {named}"


@pytest.mark.parametrize(("language", "count", "expected"), [
    ("en", 0, "0 points"), ("en", 1, "1 point"), ("en", 2, "2 points"), ("en", "**1**", "**1** point"),
    ("fr", 0, "0 point"), ("fr", 1, "1 point"), ("fr", 2, "2 points"), ("fr", "12", "12 points"),
])
def test_a_word_after_a_count_agrees_with_it(language: str, count: object, expected: str) -> None:
    line = t("numeri.final.seat", language, name="ana", score=count)
    assert line.endswith(expected), line
