"""The stored world of the fake Discord: users, guilds, channels, messages and their payloads.

Everything here is plain data plus the JSON payload builders; HTTP and gateway code live elsewhere.
Payloads are deliberately complete: discord.py indexes many keys directly (e.g. member ``flags``).
"""

from __future__ import annotations

import contextvars
import copy
import datetime as dt
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

# Fixed, known ids so tests can assert on them. Modern Discord apps share the application and bot user id.
APPLICATION_ID = 1_100_000_000_000_000_001
BOT_USER_ID = APPLICATION_ID
BOT_NAME = "FakeBot"
DISCORD_EPOCH_MS = 1_420_070_400_000

Json = dict[str, Any]

# Permission bits used by the fake's own checks (values from discord.py so they cannot drift).
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
CREATE_PUBLIC_THREADS = discord.Permissions(create_public_threads=True).value
ATTACH_FILES = discord.Permissions(attach_files=True).value
ADMINISTRATOR = discord.Permissions(administrator=True).value
EVERYONE_DEFAULT = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, embed_links=True,
    attach_files=True, add_reactions=True, use_application_commands=True, use_external_emojis=True,
).value
# Discord's default bot role can start public threads and talk in them, as a server's @everyone usually can.
BOT_DEFAULT = EVERYONE_DEFAULT | discord.Permissions(manage_messages=True, create_public_threads=True,
                                                     send_messages_in_threads=True).value
ALL_PERMISSIONS = discord.Permissions.all().value

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7
MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15
MESSAGE_FLAG_HAS_THREAD = 1 << 5
TEXT_CHANNEL_TYPES = (0, 5)  # guild text and announcement channels: where a thread can start from a message
THREAD_TYPES = (10, 11, 12)  # announcement, public and private threads


def iso(ts: float | None = None) -> str:
    """ISO-8601 timestamp like Discord sends ("2024-01-01T00:00:00.000000+00:00")."""
    return dt.datetime.fromtimestamp(time.time() if ts is None else ts, dt.UTC).isoformat()


class Snowflakes:
    """Monotonic snowflake generator: real-looking ids (time-based) that never collide within a run.

    ``clock`` is the time the ids carry (``discord.utils.snowflake_time``): real time, or the bot's own clock
    once a bot is attached (FakeDiscord.attach), so that Discord and the bot agree on when a message was sent,
    as they do in production, and a test that moves its clock moves the ids with it."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0
        self.clock: Callable[[], float] = time.time

    def next(self) -> int:
        ms = int(self.clock() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0xFFF)
        self._last = max(value, self._last + 1)
        return self._last

    def at(self, ts: float) -> int:
        """An id created at ``ts`` (possibly in the past: a message the gateway delivers late), never reused."""
        # worker and process bits all set: never one of ``next``'s ids (those leave them at zero)
        return ((int(ts * 1000) - DISCORD_EPOCH_MS) << 22) | 0x3FF000 | (next(self._counter) & 0xFFF)

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new id that Discord routes to ``shard_id`` of ``shard_count``: ``(id >> 22) % count``."""
        value = self.next()
        ms = value >> 22
        ms += (shard_id - ms) % shard_count  # the next millisecond on that shard (ids stay increasing)
        self._last = max(self._last, (ms << 22) | (value & 0x3FFFFF))
        return self._last


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; DMs (no guild) go to shard 0 only."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def permission_bits(perms: int | discord.Permissions | list[str] | tuple[str, ...] | None) -> int:
    """Accept an int, a discord.Permissions or a list of flag names ("manage_guild")."""
    if perms is None:
        return 0
    if isinstance(perms, int):
        return perms
    if isinstance(perms, discord.Permissions):
        return perms.value
    return discord.Permissions(**dict.fromkeys(perms, True)).value


@dataclass
class User:
    id: int
    name: str
    display_name: str | None = None
    bot: bool = False
    dm_blocked: bool = False
    dm_channel_id: int | None = None
    locale: str = "en-US"  # the user's Discord client language (sent with each interaction)

    def payload(self) -> Json:
        return {
            "id": str(self.id), "username": self.name, "global_name": self.display_name,
            "discriminator": "0", "avatar": None, "bot": self.bot, "system": False,
            "public_flags": 0, "flags": 0, "banner": None, "accent_color": None,
            "avatar_decoration_data": None, "primary_guild": None, "collectibles": None,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> Json:
        return {
            "id": str(self.id), "name": self.name, "permissions": str(self.permissions),
            "position": self.position, "color": 0, "colors": {"primary_color": 0},
            "hoist": False, "managed": False, "mentionable": False, "icon": None,
            "unicode_emoji": None, "flags": 0,
        }


@dataclass
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso)

    def payload(self, permissions: int | None = None) -> Json:
        data: Json = {
            "user": self.user.payload(), "nick": self.nick, "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at, "deaf": False, "mute": False, "flags": 0, "pending": False,
            "avatar": None, "banner": None, "premium_since": None, "communication_disabled_until": None,
        }
        if permissions is not None:
            # Interaction payloads carry the member's computed channel permissions.
            data["permissions"] = str(permissions)
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"  # the server's preferred locale


@dataclass
class Channel:
    id: int
    type: int  # 0 guild text, 1 DM, 11 public thread (see THREAD_TYPES)
    name: str | None = None
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    overwrites: list[Json] = field(default_factory=list)
    deleted: bool = False
    parent_id: int | None = None  # a thread's channel (whose permissions it has)
    owner_id: int | None = None  # who started the thread

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self, world: World) -> Json:
        if self.is_dm:
            recipient = world.users[self.recipient_id or 0]
            return {"id": str(self.id), "type": 1, "recipients": [recipient.payload()],
                    "last_message_id": None, "flags": 0}
        if self.is_thread:
            return {
                "id": str(self.id), "type": self.type, "name": self.name, "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id), "owner_id": str(self.owner_id), "last_message_id": None,
                "rate_limit_per_user": 0, "message_count": 0, "member_count": 1, "total_message_sent": 0,
                "flags": 0, "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                                "archive_timestamp": iso(), "locked": False},
            }
        return {
            "id": str(self.id), "type": self.type, "name": self.name, "guild_id": str(self.guild_id),
            "position": self.position, "permission_overwrites": copy.deepcopy(self.overwrites),
            "topic": None, "nsfw": False, "parent_id": None, "rate_limit_per_user": 0,
            "last_message_id": None, "flags": 0,
        }


@dataclass
class Attachment:
    """A file the bot uploaded with a message (multipart ``files[N]`` parts), bytes included."""

    id: int
    filename: str
    content_type: str | None
    data: bytes
    description: str | None = None  # alt text (the ``attachments`` entry's ``description``)

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self, channel_id: int) -> Json:
        url = f"https://cdn.fake.discord/attachments/{channel_id}/{self.id}/{self.filename}"
        payload: Json = {"id": str(self.id), "filename": self.filename, "size": self.size, "url": url,
                         "proxy_url": url, "content_type": self.content_type}
        if self.description:
            payload["description"] = self.description
        return payload


@dataclass(frozen=True)
class Upload:
    """One file part of the multipart request being handled (see UPLOADS)."""

    index: int  # N of the ``files[N]`` form field, matching the ``id`` of an entry in ``attachments``
    filename: str
    content_type: str | None
    data: bytes


# The files uploaded with the request being handled (each aiohttp request runs in its own task/context).
UPLOADS: contextvars.ContextVar[tuple[Upload, ...]] = contextvars.ContextVar("fake_discord_uploads", default=())


@dataclass
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso)
    edited_timestamp: str | None = None
    # Every version of the message, oldest first; the last entry is the current state.
    history: list[Json] = field(default_factory=list)
    deleted: bool = False
    ephemeral_user_id: int | None = None  # ephemeral messages are visible to one user only
    interaction_id: int | None = None
    webhook_id: int | None = None
    mention_ids: list[int] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    thread_id: int | None = None  # the thread started from this message (it shares the message's id)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    def snapshot(self) -> Json:
        return {"content": self.content, "embeds": copy.deepcopy(self.embeds),
                "components": copy.deepcopy(self.components), "flags": self.flags,
                "edited_timestamp": self.edited_timestamp,
                "attachments": [{"filename": a.filename, "size": a.size} for a in self.attachments]}

    def payload(self, world: World) -> Json:
        channel = world.channels[self.channel_id]
        author = world.users[self.author_id]
        data: Json = {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": self.type,
            "author": author.payload(), "content": self.content, "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components), "flags": self.flags,
            "timestamp": self.timestamp, "edited_timestamp": self.edited_timestamp,
            "attachments": [a.payload(self.channel_id) for a in self.attachments],
            "mentions": [world.users[u].payload() for u in self.mention_ids],
            "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
            "sticker_items": [], "reactions": [],
        }
        if self.thread_id is not None and self.thread_id in world.channels:
            data["thread"] = world.channels[self.thread_id].payload(world)
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
            member = world.guilds[channel.guild_id].members.get(self.author_id)
            if member is not None:
                partial = member.payload()
                partial.pop("user")
                data["member"] = partial
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(APPLICATION_ID)
        interaction = world.interactions.get(self.interaction_id or 0)
        if interaction is not None:
            data["interaction_metadata"] = {
                "id": str(interaction.id), "type": interaction.type,
                "user": world.users[interaction.user_id].payload(),
                "authorizing_integration_owners": interaction.payload["authorizing_integration_owners"],
            }
        return data


@dataclass
class RequestRecord:
    """One REST request the bot made (the fake logs every one, including refused ones)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    time: float
    status: int = 0
    files: list[tuple[str, int]] = field(default_factory=list)  # (filename, size) of uploaded files


class World:
    """All stored state. The server and the simulated users both read and mutate this."""

    def __init__(self) -> None:
        self.ids = Snowflakes()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.by_channel: dict[int, list[Message]] = {}  # the same messages, per channel (fast lookups)
        self.interactions: dict[int, Any] = {}  # id -> users.Interaction (kept loose to avoid a cycle)
        self.interactions_by_token: dict[str, Any] = {}  # the same, by token (webhook paths carry it)
        # Synced application commands: key None = global, else guild id.
        self.commands: dict[int | None, list[Json]] = {}
        self.bot = User(BOT_USER_ID, BOT_NAME, None, bot=True)
        self.users[self.bot.id] = self.bot
        # What happened, in order (see journal.py): None keeps nothing; a tool sets [] (and maybe a context).
        self.journal: list[Json] | None = None
        self.journal_context: Callable[[], Json] | None = None

    # ---- construction -------------------------------------------------------------------------------
    def add_user(self, name: str, display_name: str | None = None, *, dm_blocked: bool = False,
                 bot: bool = False) -> User:
        user = User(self.ids.next(), name, display_name, bot=bot, dm_blocked=dm_blocked)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, owner: User | None = None, shard: tuple[int, int] | None = None) -> Guild:
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        # A guild always has a human owner (owners bypass every permission check, so never the bot).
        owner = owner or self.add_user(f"owner-of-{name}", "Guild Owner")
        guild = Guild(gid, name, owner.id)
        # The @everyone role shares the guild id, as on Discord.
        guild.roles[gid] = Role(gid, "@everyone", EVERYONE_DEFAULT, 0)
        bot_role = Role(self.ids.next(), BOT_NAME, BOT_DEFAULT, 1)
        guild.roles[bot_role.id] = bot_role
        guild.members[BOT_USER_ID] = Member(self.bot, gid, [bot_role.id])
        self.guilds[gid] = guild
        self.add_member(guild, owner)
        return guild

    def add_member(self, guild: Guild, user: User, permissions: Any = None, nick: str | None = None) -> Member:
        roles: list[int] = []
        bits = permission_bits(permissions)
        if bits:
            # Discord grants permissions through roles, so give each permission set its own role.
            role = Role(self.ids.next(), f"perms-{user.name}", bits, len(guild.roles))
            guild.roles[role.id] = role
            roles.append(role.id)
        member = Member(user, guild.id, roles, nick)
        guild.members[user.id] = member
        return member

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(self.ids.next(), 0, name, guild.id, position=len(guild.channel_ids))
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def bot_guilds(self, shard: tuple[int, int] = (0, 1)) -> list[Guild]:
        """The guilds the bot is a member of that ``shard`` (id, count) serves: what its READY and
        GUILD_CREATE tell it about."""
        shard_id, count = shard
        return [g for g in self.guilds.values() if BOT_USER_ID in g.members and shard_of(g.id, count) == shard_id]

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created on first use, like Discord)."""
        if user.dm_channel_id is None:
            channel = Channel(self.ids.next(), 1, None, None, recipient_id=user.id)
            self.channels[channel.id] = channel
            user.dm_channel_id = channel.id
        return self.channels[user.dm_channel_id]

    # ---- permissions --------------------------------------------------------------------------------
    def base_permissions(self, guild: Guild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        if member is None:
            return 0
        bits = guild.roles[guild.id].permissions
        for role_id in member.roles:
            bits |= guild.roles[role_id].permissions
        return ALL_PERMISSIONS if bits & ADMINISTRATOR else bits

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """Discord's overwrite algorithm: @everyone, then roles (deny then allow), then the member. A thread
        has its parent channel's permissions."""
        if channel.parent_id is not None:
            return self.permissions_in(self.channels[channel.parent_id], user_id)
        if channel.guild_id is None:
            return EVERYONE_DEFAULT
        guild = self.guilds[channel.guild_id]
        bits = self.base_permissions(guild, user_id)
        if bits & ADMINISTRATOR:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        member_roles = set(member.roles) if member else set()
        by_id = {int(o["id"]): o for o in channel.overwrites}
        if (o := by_id.get(guild.id)) is not None:
            bits = (bits & ~int(o["deny"])) | int(o["allow"])
        deny = allow = 0
        for role_id in member_roles:
            if (o := by_id.get(role_id)) is not None and o["type"] == 0:
                deny |= int(o["deny"])
                allow |= int(o["allow"])
        bits = (bits & ~deny) | allow
        if (o := by_id.get(user_id)) is not None and o["type"] == 1:
            bits = (bits & ~int(o["deny"])) | int(o["allow"])
        return bits

    # ---- payloads -----------------------------------------------------------------------------------
    def member_payload(self, guild: Guild, user_id: int, channel: Channel | None = None) -> Json:
        perms = self.permissions_in(channel, user_id) if channel else None
        return guild.members[user_id].payload(perms)

    def guild_create_payload(self, guild: Guild) -> Json:
        channels = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        chans = []
        for channel in channels:
            data = channel.payload(self)
            data.pop("guild_id")  # GUILD_CREATE channels omit guild_id, as on Discord
            chans.append(data)
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(guild.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()], "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0, "premium_subscription_count": 0,
            "preferred_locale": guild.locale, "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "safety_alerts_channel_id": None,
            "joined_at": iso(), "large": False, "unavailable": False,
            # member_count == len(members) makes discord.py consider the guild chunked (no chunk request).
            "member_count": len(guild.members), "members": [m.payload() for m in guild.members.values()],
            "channels": chans, "threads": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    def ready_payload(self, session_id: str, resume_url: str, shard: tuple[int, int] = (0, 1)) -> Json:
        return {
            "v": 10, "user": self.bot.payload() | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.bot_guilds(shard)],
            "session_id": session_id, "resume_gateway_url": resume_url, "shard": list(shard),
            "application": {"id": str(APPLICATION_ID), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [], "guild_join_requests": [],
            "user_settings": {}, "geo_ordered_rtc_regions": [], "_trace": ["fakediscord"],
        }

    def application_payload(self) -> Json:
        owner = next((u for u in self.users.values() if not u.bot), self.bot)
        return {
            "id": str(APPLICATION_ID), "name": BOT_NAME, "icon": None, "description": "",
            "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
            "bot": self.bot.payload(), "owner": owner.payload(), "team": None, "summary": "",
            "verify_key": "0" * 64, "flags": 0, "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds), "tags": [], "redirect_uris": [],
        }


def store_message(world: World, msg: Message) -> None:
    """Keep a new message in the world, indexed by id and by channel."""
    world.messages[msg.id] = msg
    world.by_channel.setdefault(msg.channel_id, []).append(msg)
