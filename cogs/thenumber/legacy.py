"""The Number's older ways, kept behind one adapter: what its messages, modals and sentences were before it moved
onto the shared front end (issue 12). Messages already posted keep working because these stay as they were.

Everything else about The Number is an ordinary presenter (presenter.py); the ``tn:`` buttons and modals of
those older messages are answered by components.py.
"""

import re
from collections.abc import Mapping
from types import MappingProxyType

NUMBER_FIELD_ID = "number"  # the modal's text input, as before the shared front end


class TheNumberLegacy:
    """Mixed into The Number's presenter, before :class:`cogs.table.presenter.Presenter`."""

    # The nonces The Number's messages always had: a reveal (or a turn message) re-sent after the upgrade is
    # still recognised by Discord as the one posted before it.
    nonces: Mapping[str, str] = MappingProxyType({"turn": "ts", "report": "tn"})
    footer_on_turn = False  # the reveal carries the game's number; the turn message never did
    text_field_id: str | None = NUMBER_FIELD_ID
    legacy_modal: re.Pattern[str] | None = re.compile(r"tn:pick:(?P<game>\d+):(?P<step>\d+)")  # "tn:pick:7:3"
    # Shared sentences The Number words its own way (it always did).
    wording: Mapping[str, str] = MappingProxyType({
        "core.lobby.started": "thenumber.lobby.started",
        "core.lobby.cancelled_by": "thenumber.lobby.cancelled_by",
        "core.lobby.everyone_left": "thenumber.lobby.everyone_left",
        "core.dm.lobby": "thenumber.dm.lobby",
        "core.error.turn_over": "thenumber.error.turn_over",
        "core.dm.blocked": "thenumber.dm.blocked",
        "core.error.cancelled": "core.error.over",  # an old turn message's button, once the game was cancelled
    })
