"""Pytest fixtures for the fake Discord. Import them from tests/conftest.py:

    from tests.fakediscord.fixtures import fake_discord  # noqa: F401
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord on a free 127.0.0.1 port; Route.BASE / DEFAULT_GATEWAY restored afterwards.

    Fails the test at teardown if the bot sent a request body that violates Discord's OpenAPI spec or the
    fake could not deliver an event (``fake.violations``), so those never pass silently.
    """
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    assert not fake.violations, "fake Discord violations:\n" + "\n".join(fake.violations)
