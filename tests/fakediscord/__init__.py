"""A local fake Discord (REST v10 + Gateway v10 on 127.0.0.1) for driving a real discord.py bot in tests.

In-process::

    fake = await FakeDiscord().start()          # or the ``fake_discord`` pytest fixture
    ana = fake.add_user("ana", display_name="Ana")
    guild = fake.add_guild("Test", members=[ana])
    general = fake.add_channel(guild, "general")
    bot = MyBot()
    await fake.attach(bot)                       # login (GET /users/@me, app info, sync) + READY/GUILD_CREATE
    result = await (await ana.slash(general, "game start", turns=3)).wait()
    assert "started" in result.text()

Gateway: ``asyncio.create_task(bot.start(fake.token))`` then ``await bot.wait_until_ready()``.
"""

from .errors import DiscordAPIError, SimulationError
from .interactions import InteractionResult
from .server import DEFAULT_TOKEN, FakeDiscord
from .state import APPLICATION_ID, BOT_USER_ID, Attachment, Channel, Guild, Member, Message, RequestRecord
from .users import SimUser
from .visible import alt_texts, title_of, visible_text

__all__ = [
    "APPLICATION_ID",
    "BOT_USER_ID",
    "DEFAULT_TOKEN",
    "Attachment",
    "Channel",
    "DiscordAPIError",
    "FakeDiscord",
    "Guild",
    "InteractionResult",
    "Member",
    "Message",
    "RequestRecord",
    "SimUser",
    "SimulationError",
    "alt_texts",
    "title_of",
    "visible_text",
]
