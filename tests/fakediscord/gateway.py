"""Gateway v10 over a websocket at /gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME,
zlib-stream transport compression, intent filtering shared with in-process delivery, and sharding: a
session identified with ``shard: [id, count]`` hears only of the guilds ``(guild_id >> 22) % count == id``
and gets DMs only as shard 0, as on Discord; any number of connections may be open at once."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import secrets
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .state import BOT_USER_ID, shard_of

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)
Json = dict[str, Any]

# Opcodes (Discord Gateway v10).
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION = range(9)
HELLO, HEARTBEAT_ACK = 10, 11

# Intent bits that decide which events a connection receives.
GUILDS = 1 << 0
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

_MESSAGE_EVENTS = {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"}
_GUILD_EVENTS = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE", "CHANNEL_CREATE", "CHANNEL_UPDATE",
                 "CHANNEL_DELETE"}
_GUILD_ITSELF = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}  # their payload's "id" is the guild's


def guild_of(event: str, payload: Json) -> int | None:
    """The guild an event belongs to (None: a DM or an event of no guild), which picks its shard."""
    raw = payload.get("id") if event in _GUILD_ITSELF else payload.get("guild_id")
    return int(raw) if raw is not None else None


def filter_event(event: str, payload: Json, intents: int) -> Json | None:
    """What a connection with ``intents`` receives of ``event`` (None: nothing), as Discord filters it."""
    if event in _GUILD_EVENTS and not intents & GUILDS:
        return None
    if event in _MESSAGE_EVENTS:
        in_guild = "guild_id" in payload
        if not intents & (GUILD_MESSAGES if in_guild else DIRECT_MESSAGES):
            return None
        if event != "MESSAGE_DELETE" and in_guild and not intents & MESSAGE_CONTENT:
            author = str((payload.get("author") or {}).get("id"))
            mentioned = any(str(u.get("id")) == str(BOT_USER_ID) for u in payload.get("mentions") or [])
            if author != str(BOT_USER_ID) and not mentioned:
                # Privileged intent missing: Discord blanks these fields for other users' guild messages.
                payload = copy.deepcopy(payload)
                payload.update(content="", embeds=[], attachments=[], components=[])
    return payload


@dataclass
class GatewaySession:
    session_id: str
    intents: int
    compress: bool
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    # Dispatches sent so far (seq, frame), kept so a RESUME can replay what the client missed.
    sent: list[tuple[int, Json]] = field(default_factory=list)
    identify: Json = field(default_factory=dict)
    shard: tuple[int, int] = (0, 1)  # (shard id, shard count) from IDENTIFY
    _zlib: Any = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def reset_transport(self, ws: web.WebSocketResponse, compress: bool) -> None:
        # A zlib stream lives exactly as long as one websocket connection.
        self.ws = ws
        self.compress = compress
        self._zlib = zlib.compressobj() if compress else None

    async def send(self, frame: Json) -> None:
        ws = self.ws
        if ws is None or ws.closed:
            return
        raw = json.dumps(frame).encode()
        async with self._lock:  # zlib stream chunks must reach the socket in compression order
            if self._zlib is not None:
                await ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
            else:
                await ws.send_str(raw.decode())

    async def dispatch(self, event: str, payload: Json) -> None:
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": payload}
        self.sent.append((self.seq, frame))
        await self.send(frame)


class GatewayServer:
    """Serves /gateway and fans dispatches out to identified sessions."""

    heartbeat_interval_ms = 41_250

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}  # every session, connected or resumable
        self.connections: list[web.WebSocketResponse] = []

    @property
    def active(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.ws is not None and not s.ws.closed]

    def sessions_of_shard(self, shard_id: int) -> list[GatewaySession]:
        return [s for s in self.active if s.shard[0] == shard_id]

    def receivers(self, event: str, payload: Json) -> list[GatewaySession]:
        """The connected sessions Discord would send ``event`` to: those of its guild's shard (DMs: shard 0)."""
        guild_id = guild_of(event, payload)
        return [s for s in self.active if shard_of(guild_id, s.shard[1]) == s.shard[0]]

    async def dispatch(self, event: str, payload: Json) -> None:
        for session in self.receivers(event, payload):
            data = filter_event(event, payload, session.intents)
            if data is not None:
                await session.dispatch(event, copy.deepcopy(data) if self.fake.keep_events else data)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.connections.append(ws)
        compress = request.query.get("compress") == "zlib-stream"
        if request.query.get("compress") not in (None, "zlib-stream"):
            await ws.close(code=4000, message=b"unsupported compression")  # e.g. zstd-stream
            return ws
        # Until IDENTIFY/RESUME picks a session, frames go through a transport-only session.
        conn = GatewaySession("", 0, compress)
        conn.reset_transport(ws, compress)
        await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                current = session or conn
                if op == HEARTBEAT:
                    await current.send({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    session = await self._identify(ws, conn, data)
                elif op == RESUME:
                    session = await self._resume(ws, conn, data)
                elif op == REQUEST_MEMBERS and session is not None:
                    await self._members_chunk(session, data)
                elif op in (PRESENCE, VOICE):
                    pass  # accepted and ignored
                else:
                    log.warning("fake gateway: unhandled op %s", op)
        finally:
            self.connections.remove(ws)
        return ws

    async def _identify(self, ws: web.WebSocketResponse, conn: GatewaySession,
                        data: Json) -> GatewaySession | None:
        shard = tuple(data.get("shard") or (0, 1))
        if len(shard) != 2 or not 0 <= int(shard[0]) < int(shard[1]):
            await ws.close(code=4010, message=b"Invalid shard")  # Discord's close code for a bad shard
            return None
        session = GatewaySession(secrets.token_hex(16), int(data.get("intents", 0)), conn.compress)
        session.identify = data
        session.shard = (int(shard[0]), int(shard[1]))
        session.ws, session._zlib = ws, conn._zlib  # keep the connection's zlib stream going
        session._lock = conn._lock
        self.sessions[session.session_id] = session
        world = self.fake.world
        await session.dispatch("READY", world.ready_payload(session.session_id, self.fake.gateway_url,
                                                            session.shard))
        if session.intents & GUILDS:
            for guild in world.bot_guilds(session.shard):
                await session.dispatch("GUILD_CREATE", world.guild_create_payload(guild))
        return session

    async def _resume(self, ws: web.WebSocketResponse, conn: GatewaySession, data: Json) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None:
            await conn.send({"op": INVALID_SESSION, "d": False})
            return None
        session.ws, session._zlib, session._lock = ws, conn._zlib, conn._lock
        seq = int(data.get("seq") or 0)
        for s, frame in list(session.sent):
            if s > seq:
                await session.send(frame)
        await session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        return session

    async def _members_chunk(self, session: GatewaySession, data: Json) -> None:
        guild = self.fake.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        await session.dispatch("GUILD_MEMBERS_CHUNK", {
            "guild_id": str(guild.id), "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0, "chunk_count": 1, "nonce": data.get("nonce"),
        })

    async def close(self) -> None:
        for ws in list(self.connections):
            await ws.close(code=1001, message=b"fake discord stopping")
