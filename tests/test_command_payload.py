"""The slash commands are a contract (issue 35): every name, option, bound, choice and translation the bot syncs is
pinned in tests/golden/commands.json, taken before the commands were built from the games' declarations.

A change to a command is a change to this file, made on purpose (Discord users see it, and the bot syncs again).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.client import NumberBot
from bot.settings import Settings

GOLDEN = Path(__file__).resolve().parent / "golden" / "commands.json"


async def synced_payload(tmp_path: Path, **bot_options: Any) -> list[dict[str, Any]]:
    """What ``sync_commands_if_changed`` would send: every command's translated payload, by name."""
    bot = NumberBot(Settings(_env_file=None, database_path=tmp_path / "commands.db"),  # type: ignore[call-arg]
                    **bot_options)
    await bot.store.open()
    try:
        for extension in bot.extensions_to_load:
            await bot.load_extension(extension)
        translator = bot.tree.translator
        assert translator is not None
        payload = [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    finally:
        await bot.close()
    return sorted(payload, key=lambda c: c["name"])


async def test_the_synced_commands_are_unchanged(tmp_path: Path) -> None:
    """Every command pinned is synced exactly as pinned; a game added to the tuple adds its own group beside them
    (a new command, not a change)."""
    payload = {c["name"]: c for c in json.loads(json.dumps(await synced_payload(tmp_path)))}  # tuples as lists
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert {c["name"] for c in golden} <= set(payload), "a command disappeared"
    for before in golden:
        assert payload[before["name"]] == before, f"/{before['name']} changed"
