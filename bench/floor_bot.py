"""``python -m bench.floor_bot``: the floor of bench/choice_cost.py, a bare discord.py bot in a process of its own.

It does the least any bot must do for a choice, with the same durable work as the product: a modal submission
or a DM is parsed by discord.py, one ``choose`` row is committed (SQLite, WAL + synchronous=FULL, its own
transaction, as the product's store does it), then one answer: an ephemeral interaction response naming the
number, or a DM reply naming it. No game, no view, no text catalogue: what is left is the library, the commit
and the answer, so the product's CPU per choice over this one is what the product adds.

Environment: DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL (the fake's, as ``python -m bot`` reads them)
and FLOOR_DATABASE (the SQLite file). FLOOR_SHAPE=product answers a modal submitted on a message in the
product's shape instead: the message updated (type 7, its embeds sent back), then an ephemeral followup: two
interaction requests, as the product's first choice of a turn makes. It logs ``floor ready`` once connected, and
stops on SIGINT or SIGTERM.
"""

import asyncio
import json
import os
import signal
import sys
import time
from typing import Any

import aiosqlite
import discord

from bot.run import point_discord_at, silence_voice_warnings

READY = "floor ready"
TURN_POSTED = "floor turn"
SEATS = 5


def text_value(data: Any) -> str:
    """The first text input's value of a modal submission, whatever its layout (action rows or labels)."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "value" in node and isinstance(node["value"], str):
                return node["value"]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return ""


class DurableFloor(discord.Client):
    """A bare discord.py client with the product's durable work: one ``choose`` row committed per choice (SQLite,
    WAL + synchronous=FULL, its own transaction). The floors of this module and of bench/stack.py."""

    def __init__(self, database: str | os.PathLike[str]) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.dm_messages = True
        super().__init__(intents=intents)
        self.database = database
        self.db: aiosqlite.Connection | None = None
        self.turns: dict[tuple[int, int], set[int]] = {}  # (channel or game, step) -> the seats that chose in it

    async def setup_hook(self) -> None:
        self.db = await aiosqlite.connect(self.database, isolation_level=None)
        await self.db.execute("PRAGMA journal_mode = WAL")
        await self.db.execute("PRAGMA synchronous = FULL")
        await self.db.execute("CREATE TABLE IF NOT EXISTS actions (game_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
                              " phase INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER, payload TEXT NOT NULL,"
                              " at REAL NOT NULL, PRIMARY KEY (game_id, seq))")

    async def close(self) -> None:
        await super().close()
        if self.db is not None:
            await self.db.close()

    async def record(self, game_id: int, phase: int, seat: int, number: str) -> None:
        """One durable row, its own transaction (autocommit), as the product commits a choice."""
        assert self.db is not None
        await self.db.execute(
            "INSERT INTO actions (game_id, seq, phase, kind, seat, payload, at)"
            " VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, 'choose', ?, ?, ?)",
            (game_id, game_id, phase, seat, json.dumps({"number": number}), time.time()))


class FloorBot(DurableFloor):
    """One commit and one answer per choice (modal submission or DM)."""

    def __init__(self, database: str, shaped: bool = False) -> None:
        super().__init__(database)
        self.shaped = shaped  # FLOOR_SHAPE=product: a modal submitted on a message is answered as the product does

    async def on_ready(self) -> None:
        print(READY, flush=True)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        number = text_value(interaction.data or {})
        await self.record(interaction.channel_id or 0, 0, interaction.user.id % 5, number)
        if self.shaped and interaction.message is not None:
            # the product's answer shape: the turn message updated (drawn again: its V2 layout sent back), then a
            # private line
            message = interaction.message
            if message.flags.components_v2:
                await interaction.response.edit_message(view=discord.ui.LayoutView.from_message(message))
            else:
                await interaction.response.edit_message(embeds=message.embeds)
            await interaction.followup.send(f"Locked in {number}.", ephemeral=True)
        else:
            await interaction.response.send_message(f"Locked in {number}.", ephemeral=True)
        # the fifth seat of a step ends the turn: one post (the product's reveal and next turn message)
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        step = int(custom_id.split(":")[-2]) if custom_id.endswith(":text") else 0
        seats = self.turns.setdefault((interaction.channel_id or 0, step), set())
        seats.add(interaction.user.id)
        if len(seats) == SEATS and isinstance(interaction.channel, discord.abc.Messageable):
            await interaction.channel.send(f"{TURN_POSTED} {step + 1}")

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None and message.author != self.user:
            await self.record(message.channel.id, 0, message.author.id % 5, message.content)
            await message.channel.send(f"Locked in {message.content}.")


async def main() -> None:
    silence_voice_warnings()
    point_discord_at(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    bot = FloorBot(os.environ["FLOOR_DATABASE"], os.environ.get("FLOOR_SHAPE") == "product")
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
