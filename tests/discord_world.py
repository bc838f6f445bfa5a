"""A small world for Discord tests: the real bot, in process, against the local fake Discord."""

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.client import NumberBot
from bot.settings import Settings
from tests.conftest import FakeClock
from tests.fakediscord import Channel, FakeDiscord, Guild, InteractionResult, Message, SimUser
from tests.fakediscord.users import walk_components

NAMES = ("ana", "ben", "cy", "dee", "eve")
# How long a test waits for an event before it fails. Only a safety net: every wait ends as soon as its
# event happens, so a busy machine makes a test slower, never red.
PATIENCE = 60.0


def buttons(message: Message) -> list[dict[str, Any]]:
    """A message's buttons (component type 2), row after row."""
    return [c for c in walk_components(message.components) if c.get("type") == 2]  # V1 rows or V2 layouts


async def eventually(predicate: Callable[[], Any], timeout: float = PATIENCE, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


@dataclass
class World:
    fake: FakeDiscord
    db_path: Path
    clock: FakeClock
    guild: Guild
    general: Channel
    users: dict[str, SimUser]
    bot: NumberBot | None = None
    settings_overrides: dict[str, Any] = field(default_factory=dict)
    reply_burst: int = 1000
    bot_options: dict[str, Any] = field(default_factory=dict)  # NumberBot keywords (games, extensions)

    # The bot ------------------------------------------------------------------------------------
    def settings(self) -> Settings:
        # Tests play far faster than people type: only the throttling test keeps the real burst limit.
        values: dict[str, Any] = {"database_path": self.db_path, "turn_seconds": 60, "reminder_seconds": 30,
                                  "dm_replies_per_window": self.reply_burst}
        values.update(self.settings_overrides)
        return Settings(_env_file=None, **values)  # type: ignore[call-arg]

    async def start_bot(self) -> NumberBot:
        bot = NumberBot(self.settings(), clock=self.clock, **self.bot_options)
        await bot.login(self.fake.token)
        await self.fake.attach(bot)
        self.bot = bot
        await asyncio.sleep(0)  # let the restore task run
        for name in ("Table",):  # the shared front end restores every game
            cog = bot.get_cog(name)
            if cog is not None:
                await asyncio.wait_for(cog._restoring, PATIENCE)  # type: ignore[attr-defined]
        return bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            self.fake.detach(self.bot)
            await self.bot.close()
            self.bot = None

    def speak(self, locale: str) -> None:
        """The server and every user set to ``locale`` (as Discord clients set in that language send it)."""
        self.guild.locale = locale
        for user in self.users.values():
            user.user.locale = locale

    async def restart(self) -> NumberBot:
        await self.stop_bot()
        bot = await self.start_bot()
        await self.tables_restored()
        return bot

    async def tables_restored(self) -> None:
        """Wait for the shared front end's restore (the games it serves) to be done."""
        assert self.bot is not None
        table = self.bot.get_cog("Table")
        if table is not None:
            await asyncio.wait_for(table._restoring, 5)  # type: ignore[attr-defined]

    async def advance(self, seconds: float) -> None:
        """Move time on and run whatever timers fall due (deadlines, reminders, status refreshes)."""
        self.clock.advance(seconds)
        assert self.bot is not None
        await self.bot.scheduler.fire_due()

    # Reading the channel ------------------------------------------------------------------------
    def channel_text(self) -> list[str]:
        return [self.fake.visible_text(m) for m in self.fake.messages(self.general)]

    def status_message(self) -> Message:
        for message in reversed(self.fake.messages(self.general)):
            text = self.fake.visible_text(message)
            if "Choose secretly" in text or "Choisir en secret" in text:
                return message
        raise AssertionError("no turn status message in the channel")

    def reveals(self) -> list[Message]:
        return [m for m in self.fake.messages(self.general) if " · reveal" in self.fake.visible_text(m)]

    def reveals_fr(self) -> list[Message]:
        return [m for m in self.fake.messages(self.general) if " · révélation" in self.fake.visible_text(m)]

    # Acting -------------------------------------------------------------------------------------
    @staticmethod
    def label(message: Message, *choices: str) -> str:
        """The first of ``choices`` shown as a button on ``message`` (labels follow the language)."""
        shown = {c.get("label") for c in walk_components(message.components) if c.get("type") == 2}
        for choice in choices:
            if choice in shown:
                return choice
        raise AssertionError(f"none of {choices} on the message; buttons: {shown}")

    async def open_table(self, players: tuple[str, ...] = ("ana", "ben", "cy"), **options: Any) -> Message:
        host = self.users[players[0]]
        opened = await (await host.slash(self.general, "thenumber start", **options)).wait()
        lobby = opened.message
        assert lobby is not None
        for name in players[1:]:
            await (await self.users[name].click(lobby, self.label(lobby, "Join", "Rejoindre"))).wait()
        return self.fake.world.messages[lobby.id]

    async def start_game(self, players: tuple[str, ...] = ("ana", "ben", "cy"), **options: Any) -> Message:
        lobby = await self.open_table(players, **options)
        started = await (await self.users[players[0]].click(lobby, self.label(lobby, "Start", "Lancer"))).wait()
        assert started.response_type == 7, started.rejections
        return await eventually(lambda: self._status_or_none(), what="the first turn's status message")

    async def wait_status(self, contains: str) -> Message:
        """The turn status message once it says ``contains`` (it is posted just after a reveal)."""
        def find() -> Message | None:
            status = self._status_or_none()
            return status if status is not None and contains in self.fake.visible_text(status) else None
        return await eventually(find, what=f"a status message saying {contains!r}")

    def _status_or_none(self) -> Message | None:
        try:
            return self.status_message()
        except AssertionError:
            return None

    async def dm(self, name: str, text: str) -> str:
        """A player DMs the bot; returns the bot's answer."""
        user = self.users[name]
        before = len(self.fake.dms(user))
        await user.send_dm(text)
        replies = await eventually(lambda: self.fake.dms(user)[before:], what=f"the bot's DM answer to {name}")
        return self.fake.visible_text(replies[-1])

    async def modal(self, name: str, text: str, message: Message | None = None) -> InteractionResult:
        user = self.users[name]
        message = message or self.status_message()
        opened = await (await user.click(message, self.label(message, "Choose secretly", "Choisir en secret"))).wait()
        assert opened.response_type == 9, opened.text()
        return await (await user.submit_modal(opened, {"number": text})).wait()

    @staticmethod
    async def answer(result: InteractionResult) -> str:
        """The private line a modal's submitter reads: the ephemeral response, or, when the submission updated
        the turn message (type 7, or a deferred update), the ephemeral followup after it."""
        if result.response_type in (6, 7):
            followups = await result.wait_followups(1)
            assert followups[0].ephemeral, "the acknowledgement must be private"
            return followups[0].content
        assert result.ephemeral, result.text()
        return result.content

    async def play_turn(self, numbers: dict[str, str]) -> Message:
        """Everyone in ``numbers`` chooses by DM; returns the reveal message."""
        before = len(self.reveals())
        for name, number in numbers.items():
            await self.dm(name, number)
        return (await eventually(lambda: self.reveals()[before:], what="the reveal"))[0]


async def make_world(fake: FakeDiscord, db_path: Path, clock: FakeClock, *, blocked: tuple[str, ...] = (),
                     names: tuple[str, ...] = NAMES, display: dict[str, str] | None = None,
                     bot_options: dict[str, Any] | None = None) -> World:
    display = display or {}
    users = {n: fake.add_user(n, display_name=display.get(n, n.capitalize()), dm_blocked=n in blocked)
             for n in names}
    guild = fake.add_guild("Number Night", members=list(users.values()))
    general = fake.add_channel(guild, "general")
    world = World(fake, db_path, clock, guild, general, users, bot_options=bot_options or {})
    await world.start_bot()
    await world.tables_restored()
    return world


async def open_lobby(world: World, command: str, players: tuple[str, ...], **options: Any) -> Message:
    """``/<command>`` by the first player, every other one joining (each join checked), in English."""
    host = world.users[players[0]]
    opened = await (await host.slash(world.general, command, **options)).wait()
    lobby = opened.message
    assert lobby is not None, opened.text()
    for name in players[1:]:
        joined = await (await world.users[name].click(lobby, "Join")).wait()
        assert joined.response_type == 7, joined.text()
    return world.fake.world.messages[lobby.id]


async def start_lobby(world: World, command: str, players: tuple[str, ...], **options: Any) -> None:
    lobby = await open_lobby(world, command, players, **options)
    started = await (await world.users[players[0]].click(lobby, "Start")).wait()
    assert started.response_type == 7, started.text()
