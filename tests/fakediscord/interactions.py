"""One interaction as the fake tracks it, which doubles as what the simulated user sees of it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .state import Message
from .visible import visible_text

# How long a simulated user waits for the bot before the test fails: a safety net only (each wait ends at
# its event), far above Discord's own 3 s rule, which the fake enforces on its clock (10062).
PATIENCE = 60.0

if TYPE_CHECKING:
    from .server import FakeDiscord

Json = dict[str, Any]


@dataclass
class InteractionResult:
    """Created when a simulated user dispatches an interaction; filled in as the bot answers.

    ``first`` is the first response as the user saw it: {"type", "content", "embeds", "components", "flags",
    "ephemeral", "modal"}. ``rejections`` lists Discord errors the fake answered to the bot for this
    interaction (e.g. code 10062 or 40060), so tests can assert on refused answers too.
    """

    fake: FakeDiscord
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: Json
    source_message_id: int | None = None
    dispatched_at: float = 0.0  # fake clock (see FakeDiscord.now), used for the 3 s / 15 min rules
    dispatched_monotonic: float = 0.0
    response_type: int | None = None
    first: Json | None = None
    latency: float | None = None
    original_message_id: int | None = None
    modal: Json | None = None
    modal_submitted: bool = False
    followup_ids: list[int] = field(default_factory=list)
    edits: list[Json] = field(default_factory=list)
    rejections: list[Json] = field(default_factory=list)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False, compare=False)

    def mark_dispatched(self) -> None:
        self.dispatched_at = self.fake.now()
        self.dispatched_monotonic = time.monotonic()

    # ---- waiting ------------------------------------------------------------------------------------
    async def until(self, predicate: Callable[[InteractionResult], bool], timeout: float = PATIENCE,
                    what: str = "condition") -> InteractionResult:
        """Poll until ``predicate(self)``; AssertionError with context on timeout."""
        deadline = time.monotonic() + timeout
        while not predicate(self):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"interaction {self.id}: timed out after {timeout}s waiting for {what}; "
                    f"response_type={self.response_type} rejections={self.rejections}")
            # Woken by the fake when a request touches this interaction; the short timeout is a safety net.
            # (Hundreds of waiters polling every few ms would starve the bot under test.)
            self._changed.clear()
            if predicate(self):
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.1))
        return self

    def poke(self) -> None:
        self._changed.set()

    async def wait(self, timeout: float = PATIENCE) -> InteractionResult:
        """Wait for the bot's first (accepted) response."""
        return await self.until(lambda r: r.response_type is not None, timeout, "the first response")

    async def wait_followups(self, count: int = 1, timeout: float = PATIENCE) -> list[Message]:
        await self.until(lambda r: len(r.followup_ids) >= count, timeout, f"{count} followup(s)")
        return self.followups

    async def wait_edits(self, count: int = 1, timeout: float = PATIENCE) -> list[Json]:
        await self.until(lambda r: len(r.edits) >= count, timeout, f"{count} edit(s) of the original")
        return self.edits

    async def wait_rejection(self, timeout: float = PATIENCE) -> Json:
        await self.until(lambda r: bool(r.rejections), timeout, "a refused response")
        return self.rejections[0]

    # ---- what the user sees -------------------------------------------------------------------------
    @property
    def message(self) -> Message | None:
        """Current state of the original response message (None for modals / deferred updates)."""
        if self.original_message_id is None:
            return None
        msg = self.fake.world.messages.get(self.original_message_id)
        return None if msg is None or msg.deleted else msg

    @property
    def followups(self) -> list[Message]:
        msgs = self.fake.world.messages
        return [msgs[i] for i in self.followup_ids if not msgs[i].deleted]

    @property
    def ephemeral(self) -> bool:
        return bool(self.first and self.first.get("ephemeral"))

    @property
    def content(self) -> str:
        msg = self.message
        if msg is not None:
            return msg.content
        return (self.first or {}).get("content") or ""

    def text(self) -> str:
        """Visible text of the original response (current version) and all followups."""
        parts = [visible_text(self.message)] + [visible_text(m) for m in self.followups]
        return "\n".join(p for p in parts if p)
