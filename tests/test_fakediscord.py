"""Proves the fake Discord (tests/fakediscord) against a small throwaway discord.py bot, not the product."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, SimulationError, SimUser
from tests.fakediscord import fixtures as _fixtures
from tests.fakediscord.state import Channel, Guild

fake_discord = _fixtures.fake_discord


# ---- the throwaway bot --------------------------------------------------------------------------------
class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"join:(?P<round>[0-9]+)"):
    """Persistent button: works on any message carrying a matching custom_id, even after a restart."""

    def __init__(self, round_id: int) -> None:
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.primary,
                                           custom_id=f"join:{round_id}"))
        self.round_id = round_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> JoinButton:
        return cls(int(match["round"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"{interaction.user.display_name} joined round {self.round_id}", ephemeral=True)


class CountButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"count:(?P<n>[0-9]+)"):
    """Each click edits the message in place (response type 7) with a new custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> CountButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.n + 1))
        await interaction.response.edit_message(content=f"Counted to {self.n + 1}", view=view)


class GuessModal(discord.ui.Modal, title="Your guess"):
    number: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Number", custom_id="guess",
                                                             min_length=3, max_length=3)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"You guessed {self.number.value}", ephemeral=True)
        await interaction.followup.send("Guess recorded", ephemeral=True)


class Game(app_commands.Group, name="game", description="Game commands"):
    round = app_commands.Group(name="round", description="Round commands")

    def __init__(self, bot: MiniBot) -> None:
        super().__init__()
        self.bot = bot

    @round.command(name="start", description="Start a round")
    async def start(self, interaction: discord.Interaction[Any], turns: app_commands.Range[int, 1, 10]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(42))
        await interaction.response.send_message(f"Round 42 started with {turns} turns", view=view)

    @app_commands.command(name="guess", description="Guess a number")
    async def guess(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(GuessModal())

    @app_commands.command(name="think", description="Deferred answer")
    async def think(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("Thought about it")
        await interaction.edit_original_response(content="Thought harder")
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(0))
        await interaction.followup.send("Counter", view=view)

    @app_commands.command(name="slow", description="Answers too late")
    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.late.wait()  # the test moves the fake's clock past 3 s meanwhile
        await self._capture(interaction.response.send_message("too late"))

    @app_commands.command(name="double", description="Answers twice")
    async def double(self, interaction: discord.Interaction[Any]) -> None:
        # Two handlers racing to answer: both pass discord.py's local "already responded" check.
        await asyncio.gather(self._capture(interaction.response.send_message("one")),
                             self._capture(interaction.response.send_message("two")))

    @app_commands.command(name="huge", description="Sends an oversized embed")
    async def huge(self, interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="Rules", description="x" * 4097)
        await self._capture(interaction.response.send_message(embed=embed))

    @app_commands.command(name="dm", description="DM someone")
    async def dm(self, interaction: discord.Interaction[Any], target: discord.Member) -> None:
        try:
            await target.send("Your turn!")
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)
            await interaction.response.send_message(f"DM failed: {exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message("DM sent", ephemeral=True)

    async def _capture(self, coro: Any) -> None:
        try:
            await coro
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)


class MiniBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id
        self.errors: list[discord.HTTPException] = []
        self.seen: list[discord.Message] = []
        self.late = asyncio.Event()  # releases the /game slow command

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton, CountButton)
        guild = discord.Object(self.guild_id)
        self.tree.add_command(Game(self), guild=guild)

        @self.tree.command(name="ping", description="Ping (works in DMs)")
        @app_commands.allowed_contexts(guilds=True, dms=True)
        async def ping(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("pong")

        await self.tree.sync()
        await self.tree.sync(guild=guild)

    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.user:  # Discord echoes the bot's own messages back to it
            self.seen.append(message)


# ---- fixtures -----------------------------------------------------------------------------------------
@dataclass
class Scene:
    fake: FakeDiscord
    bot: MiniBot
    ana: SimUser
    bob: SimUser
    guild: Guild
    general: Channel


@pytest.fixture
async def scene(fake_discord: FakeDiscord) -> AsyncIterator[Scene]:
    fake = fake_discord
    ana = fake.add_user("ana", display_name="Ana")
    bob = fake.add_user("bob", display_name="Bob", dm_blocked=True)
    guild = fake.add_guild("Number Games", members=[ana, bob])
    general = fake.add_channel(guild, "general")
    bot = MiniBot(guild.id)
    await bot.login(fake.token)
    await fake.attach(bot)
    try:
        yield Scene(fake, bot, ana, bob, guild, general)
    finally:
        await bot.close()


# ---- in-process tests ---------------------------------------------------------------------------------
async def test_slash_group_range_and_persistent_button(scene: Scene) -> None:
    fake, ana = scene.fake, scene.ana
    assert scene.bot.get_guild(scene.guild.id) is not None
    result = await (await ana.slash(scene.general, "game round start", turns=3)).wait()
    assert result.response_type == 4 and not result.ephemeral
    assert result.latency is not None and result.latency < 1
    posted = fake.last_message(scene.general)
    assert posted is not None and posted.id == result.original_message_id
    assert "Round 42 started with 3 turns" in fake.visible_text(posted)
    assert "Join" in result.text()

    joined = await (await ana.click(posted, "Join")).wait()
    assert joined.ephemeral and joined.content == "Ana joined round 42"
    assert [m.content for m in fake.ephemeral_for(ana)] == ["Ana joined round 42"]
    assert fake.ephemeral_for(scene.bob) == []

    # The simulated client enforces the synced definition, like Discord's UI.
    with pytest.raises(SimulationError, match="outside"):
        await ana.slash(scene.general, "game round start", turns=11)
    with pytest.raises(SimulationError, match="required"):
        await ana.slash(scene.general, "game round start")
    with pytest.raises(SimulationError, match="no option"):
        await ana.slash(scene.general, "game round start", turns=2, speed=3)
    with pytest.raises(SimulationError, match="no slash command"):
        await ana.slash(scene.general, "nothere")
    with pytest.raises(SimulationError, match="no subcommand"):
        await ana.slash(scene.general, "game round stop")


async def test_click_on_button_never_shown_is_refused(scene: Scene) -> None:
    result = await (await scene.ana.slash(scene.general, "game round start", turns=2)).wait()
    with pytest.raises(SimulationError, match="no button 'Leave'"):
        await scene.ana.click(result.message, "Leave")
    plain = await scene.bot.get_channel(scene.general.id).send("no buttons here")  # type: ignore[union-attr]
    with pytest.raises(SimulationError):
        await scene.ana.click(plain, "join:42")


async def test_modal_ephemeral_reply_and_followup(scene: Scene) -> None:
    opened = await (await scene.ana.slash(scene.general, "game guess")).wait()
    assert opened.response_type == 9 and opened.modal is not None
    assert opened.modal["title"] == "Your guess"
    with pytest.raises(SimulationError, match="length 2"):
        await scene.ana.submit_modal(opened, {"Number": "51"})
    with pytest.raises(SimulationError, match="another user"):
        await scene.bob.submit_modal(opened, {"guess": "513"})

    answer = await (await scene.ana.submit_modal(opened, {"Number": "513"})).wait()
    assert answer.ephemeral and answer.content == "You guessed 513"
    followups = await answer.wait_followups(1)
    assert followups[0].content == "Guess recorded" and followups[0].ephemeral
    assert scene.fake.messages(scene.general) == []  # nothing public
    with pytest.raises(SimulationError, match="already submitted"):
        await scene.ana.submit_modal(opened, {"Number": "514"})


async def test_deferred_reply_followups_and_message_updates(scene: Scene) -> None:
    fake, ana = scene.fake, scene.ana
    result = await (await ana.slash(scene.general, "game think")).wait()
    assert result.response_type == 5
    await result.wait_followups(1)  # the first followup replaced the "thinking" message instead
    assert result.content == "Thought harder"
    assert [e["content"] for e in result.edits] == ["Thought about it", "Thought harder"]
    counter = result.followups[0]
    assert counter.content == "Counter"
    first = await (await ana.click(counter, "Count 0")).wait()
    assert first.response_type == 7 and fake.world.messages[counter.id].content == "Counted to 1"
    with pytest.raises(SimulationError):
        await ana.click(counter, "Count 0")  # the old button is gone from the current version
    await (await ana.click(counter, "count:1")).wait()
    assert [v["content"] for v in counter.history] == ["Counter", "Counted to 1", "Counted to 2"]


async def test_dm_to_blocking_user_fails_with_50007(scene: Scene) -> None:
    result = await (await scene.ana.slash(scene.general, "game dm", target=scene.bob)).wait()
    assert result.content == "DM failed: 50007"
    assert isinstance(scene.bot.errors[0], discord.Forbidden) and scene.bot.errors[0].code == 50007
    assert scene.fake.dms(scene.bob) == []

    ok = await (await scene.bob.slash(scene.general, "game dm", target=scene.ana)).wait()
    assert ok.content == "DM sent"
    assert [m.content for m in scene.fake.dms(scene.ana)] == ["Your turn!"]


async def test_dms_and_message_content_intent(scene: Scene) -> None:
    await scene.ana.send_dm("hello bot")
    await scene.ana.say(scene.general, "hello guild")
    while len(scene.bot.seen) < 2:  # each message is handled in a task of its own: wait for both
        await asyncio.sleep(0.005)
    by_channel = {type(m.channel).__name__: m.content for m in scene.bot.seen}
    assert by_channel == {"DMChannel": "hello bot", "TextChannel": ""}  # no message_content intent
    pong = await (await scene.ana.slash(None, "ping")).wait()  # global command allowed in DMs
    assert pong.content == "pong"
    with pytest.raises(SimulationError):
        await scene.ana.slash(None, "game guess")  # guild command: not in DMs


async def test_first_response_after_3_seconds_gets_10062(scene: Scene) -> None:
    result = await scene.ana.slash(scene.general, "game slow")
    scene.fake.advance_time(3.1)  # the fake's clock: no real waiting, whatever the machine's speed
    scene.bot.late.set()
    rejection = await result.wait_rejection()
    assert rejection["code"] == 10062 and rejection["status"] == 404
    assert isinstance(scene.bot.errors[0], discord.NotFound) and scene.bot.errors[0].code == 10062
    assert result.response_type is None


async def test_second_response_gets_40060(scene: Scene) -> None:
    result = await (await scene.ana.slash(scene.general, "game double")).wait()
    rejection = await result.wait_rejection()
    assert rejection["code"] == 40060
    assert [e.code for e in scene.bot.errors] == [40060]
    assert [m.content for m in scene.fake.messages(scene.general)] == [result.content]


async def test_embed_description_limit_gets_50035(scene: Scene) -> None:
    result = await scene.ana.slash(scene.general, "game huge")
    rejection = await result.wait_rejection()
    assert rejection["code"] == 50035
    assert "description" in rejection["errors"]["data"]["embeds"]["0"]
    assert scene.bot.errors[0].code == 50035 and scene.fake.violations == []


async def test_429_with_retry_after_is_retried(scene: Scene) -> None:
    fake = scene.fake
    fake.fail_next("POST", r"^/channels/\d+/messages$", 429, retry_after=0.2)
    channel = scene.bot.get_channel(scene.general.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("after the rate limit")
    posts = fake.requests_to("POST", r"^/channels/\d+/messages$")
    assert [r.status for r in posts] == [429, 200]
    assert posts[1].time - posts[0].time >= 0.2
    await sent.edit(content="edited")
    stored = fake.world.messages[sent.id]
    assert [v["content"] for v in stored.history] == ["after the rate limit", "edited"]


async def test_global_rate_limit_refuses_the_51st_request_but_not_interactions(scene: Scene) -> None:
    fake = scene.fake
    limit = fake.limit_globally(requests=3, window=600)  # one window for the whole test: no timing involved
    url = f"{fake.api_base}/channels/{scene.general.id}/messages"
    async with aiohttp.ClientSession() as http:
        answers = []
        for n in range(4):
            async with http.post(url, json={"content": f"raw {n}"},
                                 headers={"Authorization": f"Bot {fake.token}"}) as response:
                answers.append((response.status, dict(response.headers), await response.json()))
        async with http.post(url, json={"content": "another token"},
                             headers={"Authorization": "Bot other-token"}) as response:
            other = response.status
    assert [status for status, _, _ in answers] == [200, 200, 200, 429]
    _, headers, body = answers[3]
    assert body["global"] is True and 0 < body["retry_after"] <= 600 and body["message"]
    assert headers["X-RateLimit-Global"] == "true" and headers["Via"] and int(headers["Retry-After"]) >= 1
    assert other == 200  # the limit is per token
    assert [m.content for m in fake.messages(scene.general)] == ["raw 0", "raw 1", "raw 2", "another token"]
    # Interaction callbacks (and followups, on /webhooks) are exempt: the bot still answers.
    result = await (await scene.ana.slash(scene.general, "game round start", turns=3)).wait()
    assert "Round 42 started" in result.text() and not result.rejections
    assert limit.limited == 1 and limit.accepted == 4


async def test_bot_gets_its_messages_through_the_global_limit(scene: Scene) -> None:
    fake = scene.fake
    limit = fake.limit_globally(requests=2, window=0.3)
    channel = scene.bot.get_channel(scene.general.id)
    assert isinstance(channel, discord.TextChannel)
    await asyncio.gather(*(channel.send(f"burst {n}") for n in range(6)))  # discord.py waits and retries
    assert sorted(m.content for m in fake.messages(scene.general)) == [f"burst {n}" for n in range(6)]
    posts = fake.requests_to("POST", r"^/channels/\d+/messages$")
    assert limit.limited > 0 and [r.status for r in posts].count(429) == limit.limited
    assert [r.status for r in posts].count(200) == 6 and scene.bot.errors == []


async def test_permissions_and_deleted_channels(scene: Scene) -> None:
    fake = scene.fake
    channel = scene.bot.get_channel(scene.general.id)
    assert isinstance(channel, discord.TextChannel)
    await fake.set_bot_permission(scene.general, False, "send_messages")
    with pytest.raises(discord.Forbidden) as denied:
        await channel.send("nope")
    assert denied.value.code == 50013
    await fake.delete_channel(scene.general)
    with pytest.raises(discord.NotFound) as gone:
        await scene.bot.http.send_message(scene.general.id, params=discord.http.handle_message_parameters("x"))
    assert gone.value.code == 10003


async def test_unknown_route_is_logged(scene: Scene) -> None:
    with pytest.raises(discord.NotFound):
        await scene.bot.http.request(discord.http.Route("GET", "/nothing/here"))
    assert scene.fake.unknown_routes == [("GET", "/nothing/here")]


# ---- gateway (end-to-end over the websocket) ----------------------------------------------------------
async def test_gateway_client_receives_interaction_and_answers(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    ana = fake.add_user("ana", display_name="Ana")
    guild = fake.add_guild("Number Games", members=[ana])
    general = fake.add_channel(guild, "general")
    bot = MiniBot(guild.id)
    runner = asyncio.create_task(bot.start(fake.token))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 60)
        session = fake.gateway.active[0]
        assert session.compress  # discord.py asked for zlib-stream
        assert session.intents == discord.Intents.default().value
        result = await (await ana.slash(general, "game round start", turns=5)).wait()
        assert "Round 42 started with 5 turns" in result.text()
        joined = await (await ana.click(result.message, "Join")).wait()
        assert joined.content == "Ana joined round 42"
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 60)


async def test_spec_layer_rejects_malformed_bodies(scene: Scene) -> None:
    fake = scene.fake
    if not fake.spec.available:
        pytest.skip(f"Discord's OpenAPI description is not at {fake.spec.path}: nothing to check bodies against")
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=scene.general.id)
    with pytest.raises(discord.HTTPException) as bad:
        await scene.bot.http.request(route, json={"content": "hi", "embeds": "not a list"})
    assert bad.value.code == 50035
    assert any("embeds" in v for v in fake.violations)
    fake.violations.clear()  # expected here; the fixture fails any test that leaves violations behind


async def test_followups_expire_after_15_minutes(scene: Scene) -> None:
    result = await (await scene.ana.slash(scene.general, "game round start", turns=1)).wait()
    hook = discord.Webhook.partial(scene.bot.application_id or 0, result.token, client=scene.bot)
    await hook.send("still in time", wait=True)
    scene.fake.advance_time(15 * 60 + 1)  # the fake's clock: no real waiting
    with pytest.raises(discord.HTTPException) as late:
        await hook.send("too late", wait=True)
    assert late.value.code == 50027


async def test_a_thread_starts_from_a_message_once_with_the_permission_and_a_valid_body(scene: Scene) -> None:
    fake, http = scene.fake, scene.bot.http
    message = await http.send_message(scene.general.id, params=discord.http.MultipartParameters(
        payload={"content": "lobby"}, multipart=None, files=None))
    if fake.spec.available:  # the body is checked against Discord's OpenAPI description
        route = discord.http.Route("POST", "/channels/{channel_id}/messages/{message_id}/threads",
                                   channel_id=scene.general.id, message_id=message["id"])
        with pytest.raises(discord.HTTPException) as bad:
            await http.request(route, json={"name": ""})
        assert bad.value.code == 50035 and fake.violations
        fake.violations.clear()  # expected here
    thread = await http.start_thread_with_message(scene.general.id, message["id"], name="table 1",
                                                  auto_archive_duration=1440)
    assert thread["id"] == message["id"] and thread["type"] == 11 and thread["parent_id"] == str(scene.general.id)
    with pytest.raises(discord.HTTPException) as again:  # one thread per message
        await http.start_thread_with_message(scene.general.id, message["id"], name="again",
                                             auto_archive_duration=1440)
    assert again.value.code == 160004
    posted = await http.send_message(int(thread["id"]), params=discord.http.MultipartParameters(
        payload={"content": "in the thread"}, multipart=None, files=None))
    assert posted["channel_id"] == thread["id"]
    with pytest.raises(discord.HTTPException) as nested:  # a thread's messages cannot start threads
        await http.start_thread_with_message(int(thread["id"]), posted["id"], name="nested",
                                             auto_archive_duration=1440)
    assert nested.value.code == 50024
    scene.general.overwrites.append({"id": str(scene.bot.user.id), "type": 1, "allow": "0",
                                     "deny": str(discord.Permissions(create_public_threads=True).value)})
    other = await http.send_message(scene.general.id, params=discord.http.MultipartParameters(
        payload={"content": "another"}, multipart=None, files=None))
    with pytest.raises(discord.Forbidden):
        await http.start_thread_with_message(scene.general.id, other["id"], name="no", auto_archive_duration=1440)
