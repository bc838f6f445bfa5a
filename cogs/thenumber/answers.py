"""Moved to :mod:`cogs.table.answers` (shared by every game's front end); kept so old imports work."""

from cogs.table.answers import SLOW_ANSWER_AFTER, Deferral, Interaction, SlowAnswer, edit, reply, send, settled

__all__ = ["SLOW_ANSWER_AFTER", "Deferral", "Interaction", "SlowAnswer", "edit", "reply", "send", "settled"]
