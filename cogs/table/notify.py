"""How each player lets the bot reach them before a deadline (``/notify``), honoured by every reminder of every
game: a DM, and a mention in the table's channel where the DM cannot be sent (closed DMs) or is turned off; and
whether a daily summary DM lists the tables waiting for them (``summary``, see :mod:`cogs.table.mygames`).

Stored per user (``user_notify``), both on by default; read through a small cache: a reminder reads it for
every awaited player of every step, a change is rare and made by this process's command."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.table import Table
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


async def remind_awaited(table: Table, notify: NotifySettings,
                         send_dm: Callable[..., Awaitable[bool]],
                         dm_of: Callable[[int, int], Awaitable[tuple[str, str]]]) -> list[int]:
    """Remind each awaited human of ``table`` not away, as their /notify says: the DM ``dm_of(seat, user_id)``
    writes (its text and nonce); returns the players to ping in the channel instead (their DM closed or turned
    off, their mentions on)."""
    mentions: list[int] = []
    for seat in sorted(table.awaited()):
        user_id = table.seat(seat).user_id
        # an away player was told once how to come back: no reminder until they act again
        if user_id is None or table.seat(seat).is_ai or table.away(seat):
            continue
        reach = await notify.of(user_id)
        if reach.dm:
            text, nonce = await dm_of(seat, user_id)
            if await send_dm(user_id, text, nonce=nonce):
                continue
        if reach.mention:
            mentions.append(user_id)
    return mentions
