"""A refused request as the private line a player reads, in the game's own words where it has them."""

from typing import Any

from bot.core.errors import GameError, NotRunning, TurnOver
from bot.core.game import RuleError
from bot.i18n import t
from storage.base import AlreadyPlaying, ChannelBusy, GameFull, StalePhase, StoreError, WrongStatus

from .presenter import Presenter


class Refused(Exception):
    """A request refused with a ready sentence (already in the user's language)."""


def word(presenter: Presenter | None, key: str, lang: str, **values: Any) -> str:
    """A shared sentence, in the game's own words when its presenter has them (``wording``)."""
    own = presenter.wording.get(key) if presenter is not None else None
    return t(own or key, lang, **values)


def explain(error: Exception, lang: str, presenter: Presenter | None = None) -> str:
    if isinstance(error, Refused):
        return str(error)
    if isinstance(error, TurnOver | StalePhase):
        return word(presenter, "core.error.turn_over", lang)
    if isinstance(error, GameError):
        own = presenter.wording.get(error.key) if presenter is not None else None
        return t(own, lang, **error.values) if own else error.say(lang)
    if isinstance(error, RuleError):
        return presenter.refusal(error, lang) if presenter is not None else str(error)
    if isinstance(error, ChannelBusy):
        return t("core.error.channel_busy", lang)
    if isinstance(error, AlreadyPlaying):
        return t("core.error.already_playing", lang, channel=f"<#{error.channel_id}>")
    if isinstance(error, GameFull):
        return t("core.error.full", lang)
    if isinstance(error, WrongStatus):
        return NotRunning(error.status).say(lang)
    return t("core.error.generic", lang)


USER_ERRORS = (GameError, StoreError, RuleError, Refused)
