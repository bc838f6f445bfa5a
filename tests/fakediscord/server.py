"""FakeDiscord: an aiohttp server on 127.0.0.1 speaking enough Discord REST v10 + Gateway v10 for discord.py.

Lifecycle: ``await fake.start()`` points discord.py's Route.BASE / DEFAULT_GATEWAY at it; ``await fake.stop()``
restores them. Build the world with add_user / add_guild / add_channel / add_member, drive the bot through
SimUser actions, and inspect messages, DMs, the request log and ``violations``.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from .errors import DiscordAPIError, SimulationError
from .gateway import GatewayServer, filter_event
from .journal import REQUEST_INDEX
from .limits import precheck_limits
from .ratelimit import GLOBAL_REQUESTS, GLOBAL_WINDOW, GlobalRateLimit
from .rest import Routes
from .spec import DEFAULT_SPEC_PATH, SpecValidator
from .state import (
    BOT_USER_ID,
    SEND_MESSAGES,
    UPLOADS,
    Channel,
    Guild,
    Member,
    Message,
    RequestRecord,
    Upload,
    World,
    permission_bits,
)
from .users import SimUser
from .visible import visible_text

log = logging.getLogger(__name__)
Json = dict[str, Any]
DEFAULT_TOKEN = "fake-bot-token"

_DEFAULT_MESSAGES = {400: "400: Bad Request", 401: "401: Unauthorized", 403: "Missing Permissions",
                     404: "404: Not Found", 429: "You are being rate limited.", 500: "500: Internal Server Error",
                     502: "502: Bad Gateway", 503: "503: Service Unavailable"}


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py compares Content-Type verbatim; aiohttp's json_response would append "; charset=utf-8".
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


@dataclass
class Hold:
    """A request caught on its way in (see FakeDiscord.hold_next): it never reaches the fake's state, or,
    ``applied``, it does and only its answer is held (the bot dies between Discord doing it and hearing so)."""

    method: str
    path: re.Pattern[str]
    arrived: asyncio.Event
    released: asyncio.Event
    caught: RequestRecord | None = None
    applied: bool = False
    body_has: str | None = None  # only a request whose body's JSON contains this

    def release(self) -> None:
        self.released.set()


@dataclass
class Fault:
    method: str
    path: re.Pattern[str]
    status: int
    code: int | None
    times: int
    retry_after: float | None
    message: str | None


class FakeDiscord:
    """The fake Discord. See the package docstring for a usage example."""

    def __init__(self, spec_path: Path | str | None = DEFAULT_SPEC_PATH, token: str = DEFAULT_TOKEN) -> None:
        self.world = World()
        self.token = token
        self.spec = SpecValidator(spec_path)
        self.routes = Routes(self)
        self.gateway = GatewayServer(self)
        self.requests: list[RequestRecord] = []
        self.violations: list[str] = []  # spec violations and dispatch failures: tests assert it is empty
        self.unknown_routes: list[tuple[str, str]] = []
        self.events: list[tuple[str, Json]] = []  # every dispatch, before intent filtering
        self.interaction_deadline = 3.0
        # A long simulation (bench.capacity) turns this off: no log of every dispatch, no copy of each event per
        # gateway session (what a resumed session replays may then show a payload changed since).
        self.keep_events = True
        self.shard_count = 1  # what GET /gateway/bot recommends (discord.py's AutoShardedClient asks it)
        self.port = 0
        # Discord's global 50 requests/s per token (see limit_globally); None: unlimited, as tests want.
        self.global_limit: GlobalRateLimit | None = None
        self._faults: list[Fault] = []
        self._holds: list[Hold] = []
        self._clients: list[discord.Client] = []
        self._time_offset = 0.0
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None

    # ---- lifecycle ----------------------------------------------------------------------------------
    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._handle)
        # No access log: it is the fake's, not the bot's, and its URLs carry random interaction tokens whose
        # hex digits can spell a pending number (the no-leak test read them as the bot's log lines).
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.api_base  # webhook (interaction) routes build on Route.BASE too
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        return self

    async def stop(self) -> None:
        self._clients.clear()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---- clock --------------------------------------------------------------------------------------
    def monotonic(self) -> float:
        return time.monotonic()

    def now(self) -> float:
        """The fake's clock for interaction deadlines; ``advance_time`` moves it without sleeping."""
        return time.monotonic() + self._time_offset

    def advance_time(self, seconds: float) -> None:
        self._time_offset += seconds

    # ---- world building -----------------------------------------------------------------------------
    def add_user(self, name: str, display_name: str | None = None, *, dm_blocked: bool = False) -> SimUser:
        return SimUser(self, self.world.add_user(name, display_name, dm_blocked=dm_blocked))

    def add_guild(self, name: str = "Test Guild", owner: SimUser | None = None,
                  members: list[SimUser] | None = None, *, shard: tuple[int, int] | None = None) -> Guild:
        """A guild with the bot in it; ``shard=(id, count)`` picks an id Discord routes to that shard."""
        guild = self.world.add_guild(name, owner.user if owner else None, shard)
        for member in members or []:
            self.world.add_member(guild, member.user)
        return guild

    def add_member(self, guild: Guild, user: SimUser, permissions: Any = None,
                   nick: str | None = None) -> Member:
        """Add ``user`` to ``guild``; ``permissions``: flag names (["manage_guild"]), int or Permissions."""
        return self.world.add_member(guild, user.user, permissions, nick)

    def add_channel(self, guild: Guild, name: str = "general") -> Channel:
        return self.world.add_channel(guild, name)

    def dm_channel(self, user: SimUser) -> Channel:
        return self.world.dm_channel(user.user)

    async def delete_channel(self, channel: Channel) -> None:
        """Delete a channel: later requests to it answer 404 code 10003 Unknown Channel."""
        channel.deleted = True
        await self.dispatch("CHANNEL_DELETE", channel.payload(self.world))

    async def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked from ``guild``: GUILD_DELETE without ``unavailable`` (an outage sends it with
        ``unavailable: true``); its channels refuse the bot from now on (403 Missing Access)."""
        guild.members.pop(BOT_USER_ID, None)
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    async def set_bot_permission(self, channel: Channel, allow: bool, *names: str) -> None:
        """Channel overwrite for the bot, e.g. ``set_bot_permission(ch, False, "send_messages")``."""
        bits = permission_bits(list(names)) if names else SEND_MESSAGES
        overwrite = next((o for o in channel.overwrites if int(o["id"]) == BOT_USER_ID), None)
        if overwrite is None:
            overwrite = {"id": str(BOT_USER_ID), "type": 1, "allow": "0", "deny": "0"}
            channel.overwrites.append(overwrite)
        allow_bits, deny_bits = int(overwrite["allow"]), int(overwrite["deny"])
        if allow:
            allow_bits, deny_bits = allow_bits | bits, deny_bits & ~bits
        else:
            allow_bits, deny_bits = allow_bits & ~bits, deny_bits | bits
        overwrite.update(allow=str(allow_bits), deny=str(deny_bits))
        await self.dispatch("CHANNEL_UPDATE", channel.payload(self.world))

    # ---- rate limits ---------------------------------------------------------------------------------
    def limit_globally(self, requests: int = GLOBAL_REQUESTS, window: float = GLOBAL_WINDOW, *,
                       sliding: bool = False) -> GlobalRateLimit:
        """From now on, refuse a token's requests beyond ``requests`` per ``window`` seconds with Discord's
        global 429 (interaction callbacks and webhooks exempt); ``fake.global_limit = None`` lifts it.
        ``sliding``: in any window of ``window`` seconds, as Discord counts, rather than in fixed windows."""
        self.global_limit = GlobalRateLimit(requests, window, sliding=sliding)
        return self.global_limit

    # ---- fault injection ----------------------------------------------------------------------------
    def fail_next(self, method: str, path_regex: str, status: int, code: int | None = None, times: int = 1,
                  retry_after: float | None = None, message: str | None = None) -> None:
        """The next ``times`` requests matching (method, re.search on the path after /api/v10) fail."""
        self._faults.append(Fault(method.upper(), re.compile(path_regex), status, code, times, retry_after,
                                  message))

    def hold_next(self, method: str, path_regex: str, *, applied: bool = False, body_has: str | None = None
                  ) -> Hold:
        """The next request matching (method, re.search on the path, and ``body_has`` in its body's JSON if
        given) is caught: ``await hold.arrived.wait()`` tells it came; it waits until ``hold.release()`` and
        is then answered 503 without being applied, as if the bot had died before its request reached
        Discord (kill the bot in between). ``applied``: it is applied first (``arrived`` is set once it is)
        and only its answer waits, as if the bot had died after Discord did it but before hearing so."""
        hold = Hold(method.upper(), re.compile(path_regex), asyncio.Event(), asyncio.Event(), applied=applied,
                    body_has=body_has)
        self._holds.append(hold)
        return hold

    def _hold_for(self, method: str, record: RequestRecord) -> Hold | None:
        for hold in self._holds:
            if hold.method in (method, "*") and hold.path.search(record.path) and (
                    hold.body_has is None or hold.body_has in json.dumps(record.json, default=str)):
                self._holds.remove(hold)
                hold.caught = record
                return hold
        return None

    async def _held(self, hold: Hold) -> None:
        hold.arrived.set()
        await hold.released.wait()

    def _fault_response(self, method: str, path: str) -> web.Response | None:
        for fault in self._faults:
            if fault.times > 0 and fault.method in (method, "*") and fault.path.search(path):
                fault.times -= 1
                message = fault.message or _DEFAULT_MESSAGES.get(fault.status, f"{fault.status}: Error")
                if fault.status == 429:
                    retry = 1.0 if fault.retry_after is None else fault.retry_after
                    body: Json = {"message": message, "retry_after": retry, "global": False}
                    if fault.code is not None:
                        body["code"] = fault.code
                    # discord.py only retries a 429 that carries a Via header (else it assumes Cloudflare).
                    return json_response(body, 429, {"Retry-After": str(retry), "Via": "1.1 google",
                                                     "X-RateLimit-Scope": "user"})
                return json_response({"message": message, "code": fault.code or 0}, fault.status)
        return None

    # ---- HTTP entry point ---------------------------------------------------------------------------
    async def _read_body(self, request: web.Request) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            form = await request.post()  # discord.py puts the JSON in "payload_json" next to the files
            uploads = []
            for name, value in form.items():
                found = re.fullmatch(r"files\[(\d+)\]", name)
                if found and isinstance(value, web.FileField):
                    uploads.append(Upload(int(found[1]), value.filename, value.content_type, value.file.read()))
            UPLOADS.set(tuple(uploads))  # read by the message handlers (see Routes.attachments_for)
            raw = form.get("payload_json")
            return json.loads(str(raw)) if raw is not None else {}
        text = await request.text()
        try:
            return json.loads(text) if text else None
        except json.JSONDecodeError:
            return text

    async def _handle(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body = await self._read_body(request)
        record = RequestRecord(request.method, path, dict(request.query), body, time.time(),
                               files=[(u.filename, len(u.data)) for u in UPLOADS.get()])
        self.requests.append(record)
        REQUEST_INDEX.set(len(self.requests) - 1)  # for the journal (journal.py), per request like UPLOADS
        hold = self._hold_for(request.method, record)
        if hold is not None and not hold.applied:
            await self._held(hold)
            record.status = 503
            return json_response({"message": "503: Service Unavailable", "code": 0}, 503)
        try:
            response = await self._route(request, path, body)
        except DiscordAPIError as exc:
            inter = self.routes.interaction_for(path)
            if inter is not None:  # let tests see refused interaction answers (10062, 40060, 50035...)
                inter.rejections.append({"method": request.method, "path": path, "status": exc.status,
                                         "code": exc.code, "message": exc.message, "errors": exc.errors})
            response = json_response(exc.body(), exc.status)
        except Exception as exc:  # a bug in the fake must be loud, not a silent 500
            log.exception("fake discord crashed on %s %s", request.method, path)
            self.violations.append(f"fake crashed on {request.method} {path}: {exc!r}")
            response = json_response({"message": "500: Internal Server Error", "code": 0}, 500)
        record.status = response.status
        touched = self.routes.interaction_for(path)
        if touched is not None:
            touched.poke()  # wake whoever waits on this interaction (no polling)
        if hold is not None:
            await self._held(hold)  # applied; the answer waits (a killed bot never reads it)
        return response

    async def _route(self, request: web.Request, path: str, body: Any) -> web.Response:
        fault = self._fault_response(request.method, path)
        if fault is not None:
            return fault
        auth = request.headers.get("Authorization", "")
        match = self.routes.match(request.method, path)
        if match is None:
            log.warning("fake discord: unknown route %s %s", request.method, path)
            self.unknown_routes.append((request.method, path))
            return json_response({"message": "404: Not Found", "code": 0}, 404)
        handler, template, params = match
        # Bot routes need a bot token (any value: tests pick their own); interaction callbacks and webhooks
        # authenticate by the interaction token in the path instead.
        if not path.startswith(("/interactions/", "/webhooks/")) and not auth.startswith("Bot "):
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        if self.global_limit is not None:
            retry_after = self.global_limit.check(auth, path)
            if retry_after is not None:  # refused before it touches anything, as Discord does
                body, headers = self.global_limit.refusal(retry_after)
                return json_response(body, 429, headers)
        if template is not None:
            problems = self.spec.validate(request.method, template, body)
            if problems:
                # A body breaking one of Discord's documented limits gets Discord's own answer (it is the
                # bot's bug, tested on purpose); anything else the spec refuses is a violation to fix.
                # A body too malformed for the limit checks keeps its spec violation.
                with contextlib.suppress(AttributeError, TypeError, ValueError):
                    precheck_limits(template, body)
                for problem in problems:
                    msg = f"spec violation {request.method} {template}: {problem}"
                    log.error(msg)
                    self.violations.append(msg)
                raise DiscordAPIError(400, 50035, "Invalid Form Body", {"_spec": {"_errors": [
                    {"code": "SPEC_VIOLATION", "message": p} for p in problems]}})
        status, data = await handler(params, dict(request.query), body)
        if status == 204:
            return web.Response(status=204)
        return json_response(data, status)

    # ---- event delivery -----------------------------------------------------------------------------
    async def attach(self, client: discord.Client) -> None:
        """In-process mode: log in if needed, then READY + GUILD_CREATE through the client's own parsers."""
        if client.user is None:
            await client.login(self.token)
        state = client._connection
        # discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE before on_ready; shorten it.
        saved_timeout = state.guild_ready_timeout
        state.guild_ready_timeout = min(saved_timeout, 0.05)
        self._clients.append(client)
        try:
            await self._deliver(client, "READY", self.world.ready_payload("in-process", self.gateway_url))
            for guild in self.world.bot_guilds():
                await self._deliver(client, "GUILD_CREATE", self.world.guild_create_payload(guild))
            await asyncio.wait_for(client.wait_until_ready(), 60)  # a safety net: ready is the event
        finally:
            state.guild_ready_timeout = saved_timeout

    def detach(self, client: discord.Client) -> None:
        if client in self._clients:
            self._clients.remove(client)

    async def _deliver(self, client: discord.Client, event: str, payload: Json) -> None:
        intents = client._connection._intents.value
        data = payload if event == "READY" else filter_event(event, payload, intents)
        if data is None:
            return
        try:
            # Exactly what discord.py's websocket does with a DISPATCH frame.
            client._connection.parsers[event](copy.deepcopy(data))
        except Exception as exc:
            log.exception("in-process dispatch of %s failed", event)
            self.violations.append(f"dispatch {event} failed in discord.py: {exc!r}")

    async def dispatch(self, event: str, payload: Json, *, require_receiver: bool = False) -> None:
        """Send one gateway event to every attached in-process client and every gateway session."""
        if require_receiver and not self._clients and not self.gateway.receivers(event, payload):
            raise SimulationError(f"no bot is connected to receive {event}")
        if self.keep_events:
            self.events.append((event, copy.deepcopy(payload)))
        for client in list(self._clients):
            if client.is_closed():  # a closed client has no loop left to run handlers on: it is gone
                self.detach(client)
                continue
            await self._deliver(client, event, payload)
        await self.gateway.dispatch(event, payload)

    # ---- queries ------------------------------------------------------------------------------------
    def messages(self, channel: Channel) -> list[Message]:
        """Current (non-deleted, non-ephemeral) messages of a channel, oldest first."""
        return [m for m in self.world.by_channel.get(channel.id, []) if not m.deleted and not m.ephemeral]

    def last_message(self, channel: Channel) -> Message | None:
        msgs = self.messages(channel)
        return msgs[-1] if msgs else None

    def dms(self, user: SimUser) -> list[Message]:
        """Messages the bot sent to ``user`` in their DM channel."""
        if user.user.dm_channel_id is None:
            return []
        channel = self.world.channels[user.user.dm_channel_id]
        return [m for m in self.messages(channel) if m.author_id == BOT_USER_ID]

    def ephemeral_for(self, user: SimUser) -> list[Message]:
        return [m for m in self.world.messages.values() if m.ephemeral_user_id == user.id and not m.deleted]

    def requests_to(self, method: str, path_regex: str) -> list[RequestRecord]:
        regex = re.compile(path_regex)
        return [r for r in self.requests if r.method == method.upper() and regex.search(r.path)]

    @staticmethod
    def visible_text(message: Message | Json | None) -> str:
        return visible_text(message)
