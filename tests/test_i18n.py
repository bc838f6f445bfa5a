"""Every message exists in every language, with the same placeholders."""

import pytest

from bot.i18n import LANGUAGES, catalog, language_of, placeholders, t


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
    assert t("ack.locked", "fr", number="513", channel="#g", round=1, turn=2).startswith("513 enregistré")
    assert t("ack.locked", "en", number="513", channel="#g", round=1, turn=2).startswith("Locked in 513")
