"""The answer to a DM that was sent during a step and read only after that step ended (a slow connection, a
gateway backlog, the bot busy): it counts for no step, and the player is told which step it was sent in and
which one is open now, so that a choice never silently lands in a later step than the one it was made for."""

from __future__ import annotations

from bot.core.errors import SentBefore
from bot.core.fold import fold
from bot.i18n import t

from .presenter import Presenter


def sent_before(error: SentBefore, presenter: Presenter, lang: str) -> str:
    """The refusal of a late DM, naming the step it was sent in and the step open now where the game can."""
    table = error.table
    game, record = table.game, table.record
    then_state, _ = fold(game, len(record.seats), record.options, table.seed,
                         [payload["step"] for payload in table.steps], error.meant)
    then = presenter.step_name(game.view(then_state, None), lang)
    now = presenter.step_name(game.view(table.state, None), lang)
    if then is None or now is None or then == now:  # the same round (a declaration in turn): no names to tell
        return t("core.error.sent_before_step", lang)
    return t("core.error.sent_before", lang, then=then, now=now)
