"""How each player lets the bot reach them before a deadline (``/notify``), honoured by every reminder of every
game: a DM, and a mention in the table's channel where the DM cannot be sent (closed DMs) or is turned off; and
whether a daily summary DM lists the tables waiting for them (``summary``, see :mod:`cogs.table.mygames`).

Stored per user (``user_notify``), both on by default; read through a small cache: a reminder reads it for
every awaited player of every step, a change is rare and made by this process's command."""

from __future__ import annotations

from dataclasses import dataclass

from storage.base import GameStore


@dataclass(frozen=True, slots=True)
class Reach:
    dm: bool = True
    mention: bool = True
    summary: bool = True


class NotifySettings:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._cache: dict[int, Reach] = {}

    async def of(self, user_id: int) -> Reach:
        if user_id not in self._cache:
            dm, mention = await self.store.get_notify(user_id)
            self._cache[user_id] = Reach(dm, mention, await self.store.get_summary(user_id))
        return self._cache[user_id]

    async def set(self, user_id: int, *, dm: bool | None, mention: bool | None, summary: bool | None = None
                  ) -> Reach:
        """Change what was given (None: kept); returns the whole setting now stored."""
        now = await self.of(user_id)
        reach = Reach(now.dm if dm is None else dm, now.mention if mention is None else mention,
                      now.summary if summary is None else summary)
        if (reach.dm, reach.mention) != (now.dm, now.mention):
            await self.store.set_notify(user_id, reach.dm, reach.mention)
        if reach.summary != now.summary:
            await self.store.set_summary(user_id, reach.summary)
        self._cache[user_id] = reach
        return reach
