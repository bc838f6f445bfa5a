"""The fake's journal: what happened, in order, for a tool that tells a whole game as players saw it.

Off by default (``world.journal`` is None: a long simulation keeps nothing more than before). Turned on with
``world.journal = []``, every message the bot posts, edits or deletes, every modal it opens, every deferred
update, every interaction a simulated user makes and every message a user writes is appended as one entry::

    {"seq": 12, "kind": "post", "message": 1234, "version": 0, "uploads": [["board.png", 45123]],
     "request": 57, "context": {...}}

``message``/``version`` name the stored message and the entry of its ``history`` this made (the version the
players saw), ``uploads`` the files sent with the request (name, bytes), ``request`` the index of the REST
request in ``fake.requests`` (None for a user's own action, which has ``requests_before``: how many requests
the fake had logged then), ``context`` what ``world.journal_context()`` returned at that moment (a tool may set
it, e.g. to the game's current step).
"""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any

from .state import UPLOADS

if TYPE_CHECKING:
    from .state import World

Json = dict[str, Any]

# The index in ``fake.requests`` of the request being handled (each aiohttp request runs in its own context).
REQUEST_INDEX: contextvars.ContextVar[int | None] = contextvars.ContextVar("fake_discord_request", default=None)


def note(world: World, kind: str, *, from_request: bool = True, **fields: Any) -> None:
    """Append one entry to the journal when it is on (see the module's docstring)."""
    journal = world.journal
    if journal is None:
        return
    entry: Json = {"seq": len(journal), "kind": kind, **fields}
    if from_request:
        entry["request"] = REQUEST_INDEX.get()
        entry.setdefault("uploads", [[u.filename, len(u.data)] for u in UPLOADS.get()])
    if world.journal_context is not None:
        entry["context"] = world.journal_context()
    journal.append(entry)
