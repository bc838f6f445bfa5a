"""The fake Discord shards like Discord: a session identified as shard [id, count] hears only of the guilds
``(guild_id >> 22) % count == id``, DMs reach shard 0 only, and several connections are served at once.
Proved against throwaway discord.py AutoShardedClients, not the product."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands

from tests.discord_world import eventually
from tests.fakediscord import FakeDiscord
from tests.fakediscord import fixtures as _fixtures
from tests.fakediscord.state import shard_of

fake_discord = _fixtures.fake_discord


class ShardClient(discord.AutoShardedClient):
    """Records which shard heard what; answers /where with the shard that got the interaction."""

    def __init__(self, **kwargs: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = intents.dm_messages = True
        super().__init__(intents=intents, **kwargs)
        self.tree = app_commands.CommandTree(self)
        self.dms: list[str] = []

        @self.tree.command(name="where", description="which shard answers")
        async def where(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message(f"shard {interaction.guild.shard_id if interaction.guild else 0}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py waits 5 s between two IDENTIFYs of one process; the fake needs no pacing

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None and message.author != self.user:
            self.dms.append(message.content)


@asynccontextmanager
async def running(fake: FakeDiscord, **kwargs: Any) -> AsyncIterator[ShardClient]:
    client = ShardClient(**kwargs)
    runner = asyncio.create_task(client.start(fake.token))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 60)  # a safety net: ready is the event
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(runner, 60)


def test_a_guild_made_for_a_shard_lands_on_it() -> None:
    fake = FakeDiscord()
    for count in (2, 3, 16):
        for shard in range(count):
            guild = fake.add_guild(f"g{shard}", shard=(shard, count))
            assert shard_of(guild.id, count) == shard == (guild.id >> 22) % count
    ids = sorted(fake.world.guilds)
    assert ids == list(fake.world.guilds)  # still increasing, like snowflakes
    assert shard_of(None, 4) == 0


async def test_two_processes_each_hear_their_own_guilds_and_shard_0_takes_the_dms(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ana = fake.add_user("ana", display_name="Ana")
    guilds = [fake.add_guild(f"guild on {s}", members=[ana], shard=(s, 2)) for s in (0, 1, 0, 1)]
    channels = [fake.add_channel(g, "general") for g in guilds]
    async with running(fake, shard_count=2, shard_ids=[0]) as zero, \
            running(fake, shard_count=2, shard_ids=[1]) as one:
        assert sorted(s.shard for s in fake.gateway.active) == [(0, 2), (1, 2)]
        assert {g.id for g in zero.guilds} == {guilds[0].id, guilds[2].id}
        assert {g.id for g in one.guilds} == {guilds[1].id, guilds[3].id}
        await zero.tree.sync()
        for index, channel in enumerate(channels):
            result = await (await ana.slash(channel, "where")).wait()
            assert result.text() == f"shard {index % 2}"
        # a guild event goes to its guild's shard only; a DM to shard 0 only
        await fake.set_bot_permission(channels[1], False, "send_messages")
        await ana.send_dm("hello")
        await eventually(lambda: zero.dms == ["hello"], what="the DM on shard 0")
        zero_session, one_session = sorted(fake.gateway.active, key=lambda s: s.shard)
        assert not any(f.get("t") == "MESSAGE_CREATE" for _, f in one_session.sent)
        updates = [(s.shard, f["d"]["id"]) for s in (zero_session, one_session) for _, f in s.sent
                   if f.get("t") == "CHANNEL_UPDATE"]
        assert updates == [((1, 2), str(channels[1].id))]


async def test_one_process_of_every_shard_asks_the_gateway_for_the_count(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.shard_count = 3
    guilds = [fake.add_guild(f"g{s}", shard=(s, 3)) for s in range(3)]
    async with running(fake) as client:  # no shard_count: GET /gateway/bot decides
        assert client.shard_count == 3
        assert sorted(s.shard for s in fake.gateway.active) == [(0, 3), (1, 3), (2, 3)]
        assert {g.id: g.shard_id for g in client.guilds} == {g.id: i for i, g in enumerate(guilds)}
    assert fake.requests_to("GET", r"^/gateway/bot$")

