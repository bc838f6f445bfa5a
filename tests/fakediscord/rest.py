"""REST API v10 route handlers of the fake (messages, DMs, commands, interaction callbacks, webhooks)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from . import errors as E
from .errors import DiscordAPIError, invalid_form_body
from .journal import note
from .limits import check_message, check_modal, message_has_body, walk
from .state import (
    APPLICATION_ID,
    ATTACH_FILES,
    BOT_USER_ID,
    CREATE_PUBLIC_THREADS,
    MESSAGE_FLAG_COMPONENTS_V2,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_HAS_THREAD,
    MESSAGE_FLAG_LOADING,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    TEXT_CHANNEL_TYPES,
    UPLOADS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Message,
    iso,
    store_message,
)

if TYPE_CHECKING:
    from .interactions import InteractionResult
    from .server import FakeDiscord

Json = dict[str, Any]
Result = tuple[int, Any]  # (HTTP status, JSON body or None for 204)
Handler = Callable[[dict[str, str], dict[str, str], Any], Awaitable[Result]]

# Flags a bot may set when sending (others are ignored by Discord).
SENDABLE_FLAGS = 4 | 4096 | MESSAGE_FLAG_COMPONENTS_V2
WEBHOOK_FLAGS = SENDABLE_FLAGS | MESSAGE_FLAG_EPHEMERAL
TOKEN_LIFETIME = 15 * 60.0
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _bad_type(message: str) -> DiscordAPIError:
    return invalid_form_body({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                     "message": message}]}})



def check_v2_result(msg: Message) -> None:
    """A message with the IS_COMPONENTS_V2 flag (sent with it, or given it by this edit: the flag is never
    removed) must end with no content or embeds (an older message made V2 has them cleared by the same edit),
    and every ``attachment://`` its components show must name one of its files."""
    if not msg.flags & MESSAGE_FLAG_COMPONENTS_V2:
        return
    errors: Json = {}
    for key in ("content", "embeds"):
        if getattr(msg, key):
            errors[key] = {"_errors": [{"code": "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                                        "message": f"'{key}' cannot be used with IS_COMPONENTS_V2"}]}
    names = {a.filename for a in msg.attachments}
    for comp in walk(msg.components):
        media = [comp.get("media") or {}] + [item.get("media") or {} for item in comp.get("items") or []]
        for url in (str(m.get("url") or "") for m in media):
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                errors.setdefault("components", {"_errors": []})["_errors"].append(
                    {"code": "UNFURLED_MEDIA_ATTACHMENT_NOT_FOUND", "message": f"No attachment named {url}"})
    if errors:
        raise invalid_form_body(errors)

class Routes:
    """Route table: (method, path regex, OpenAPI path template or None, handler)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.nonces: dict[tuple[int, str], int] = {}
        self.fake = fake
        self.world = fake.world
        app = r"(?P<app>\d+)"
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        raw: list[tuple[str, str, str | None, Handler]] = [
            ("GET", r"/users/@me", None, self.get_me),
            ("GET", r"/users/(?P<user>\d+)", None, self.get_user),
            ("GET", r"/oauth2/applications/@me", None, self.get_app),
            ("GET", r"/applications/@me", None, self.get_app),
            ("GET", r"/gateway", None, self.get_gateway),
            ("GET", r"/gateway/bot", None, self.get_gateway),
            ("GET", rf"/applications/{app}/commands", None, self.get_commands),
            ("PUT", rf"/applications/{app}/commands", "/applications/{application_id}/commands",
             self.put_commands),
            ("GET", rf"/applications/{app}/guilds/(?P<guild>\d+)/commands", None, self.get_commands),
            ("PUT", rf"/applications/{app}/guilds/(?P<guild>\d+)/commands",
             "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands),
            ("POST", r"/users/@me/channels", "/users/@me/channels", self.create_dm),
            ("GET", r"/channels/(?P<channel>\d+)", None, self.get_channel),
            ("POST", r"/channels/(?P<channel>\d+)/typing", None, self.typing),
            ("GET", r"/channels/(?P<channel>\d+)/messages", None, self.list_messages),
            ("POST", r"/channels/(?P<channel>\d+)/messages", "/channels/{channel_id}/messages",
             self.create_message),
            ("GET", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", None, self.get_message),
            ("PATCH", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)",
             "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", None, self.delete_message),
            ("POST", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)/threads",
             "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback",
             "/interactions/{interaction_id}/{interaction_token}/callback", self.callback),
            ("POST", hook, "/webhooks/{webhook_id}/{webhook_token}", self.followup),
            ("GET", hook + r"/messages/(?P<message>@original|\d+)", None, self.webhook_get),
            ("PATCH", hook + r"/messages/@original",
             "/webhooks/{webhook_id}/{webhook_token}/messages/@original", self.webhook_edit),
            ("PATCH", hook + r"/messages/(?P<message>\d+)",
             "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self.webhook_edit),
            ("DELETE", hook + r"/messages/(?P<message>@original|\d+)", None, self.webhook_delete),
        ]
        self.table: list[tuple[str, re.Pattern[str], str | None, Handler]] = [
            (method, re.compile(pattern), template, handler) for method, pattern, template, handler in raw
        ]

    def match(self, method: str, path: str) -> tuple[Handler, str | None, dict[str, str]] | None:
        for m, regex, template, handler in self.table:
            found = regex.fullmatch(path)
            if m == method and found:
                return handler, template, found.groupdict()
        return None

    # ---- identity / gateway -------------------------------------------------------------------------
    async def get_me(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        return 200, self.world.bot.payload() | {"verified": True, "mfa_enabled": False, "email": None}

    async def get_user(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        user = self.world.users.get(int(p["user"]))
        if user is None:
            raise DiscordAPIError(404, 10013, "Unknown User")
        return 200, user.payload()

    async def get_app(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        return 200, self.world.application_payload()

    async def get_gateway(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        return 200, {"url": self.fake.gateway_url, "shards": self.fake.shard_count, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}

    # ---- application commands -----------------------------------------------------------------------
    def _scope(self, p: dict[str, str]) -> int | None:
        if int(p["app"]) != APPLICATION_ID:
            raise DiscordAPIError(404, 10002, "Unknown Application")
        if "guild" in p:
            if int(p["guild"]) not in self.world.guilds:
                raise DiscordAPIError(403, 50001, "Missing Access")
            return int(p["guild"])
        return None

    async def get_commands(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        return 200, self.world.commands.get(self._scope(p), [])

    async def put_commands(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        scope = self._scope(p)
        if not isinstance(body, list):
            raise invalid_form_body({"_errors": [{"code": "LIST_TYPE_CONVERT", "message": "Must be a list."}]})
        old = {(c["name"], c.get("type", 1)): c for c in self.world.commands.get(scope, [])}
        bad: Json = {}
        stored = []
        for i, cmd in enumerate(body):
            name, kind = cmd.get("name", ""), cmd.get("type", 1)
            if not COMMAND_NAME.match(name) or (kind == 1 and name != name.lower()):
                bad[str(i)] = {"name": {"_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME",
                                                     "message": "Command name is invalid"}]}}
            prev = old.get((name, kind))
            data = {
                "id": prev["id"] if prev else str(self.world.ids.next()), "application_id": str(APPLICATION_ID),
                "version": str(self.world.ids.next()), "type": kind, "name": name,
                "description": cmd.get("description", ""), "options": cmd.get("options") or [],
                "default_member_permissions": cmd.get("default_member_permissions"),
                "dm_permission": cmd.get("dm_permission", True), "nsfw": cmd.get("nsfw", False),
                "contexts": cmd.get("contexts"), "integration_types": cmd.get("integration_types", [0]),
                "name_localizations": cmd.get("name_localizations"),
                "description_localizations": cmd.get("description_localizations"),
            }
            if scope is not None:
                data["guild_id"] = str(scope)
            stored.append(data)
        if bad:
            raise invalid_form_body(bad)
        self.world.commands[scope] = stored
        return 200, stored

    # ---- channels and messages ----------------------------------------------------------------------
    def _channel(self, channel_id: str | int) -> Channel:
        channel = self.world.channels.get(int(channel_id))
        if channel is None or channel.deleted:
            raise E.unknown_channel()
        return channel

    def _message(self, channel: Channel, message_id: str | int) -> Message:
        msg = self.world.messages.get(int(message_id))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise E.unknown_message()
        return msg

    async def create_dm(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        user = self.world.users.get(int((body or {}).get("recipient_id") or 0))
        if user is None or user.bot:
            raise DiscordAPIError(400, 50033, "Invalid Recipient(s)")
        return 200, self.world.dm_channel(user).payload(self.world)

    async def get_channel(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        return 200, self._channel(p["channel"]).payload(self.world)

    async def typing(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        self._channel(p["channel"])
        return 204, None

    async def list_messages(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        channel = self._channel(p["channel"])
        msgs = [m for m in self.fake.messages(channel)][::-1][: int(q.get("limit", 50))]
        return 200, [m.payload(self.world) for m in msgs]

    def _check_can_send(self, channel: Channel) -> None:
        if channel.is_dm:
            if self.world.users[channel.recipient_id or 0].dm_blocked:
                raise E.cannot_dm()
            return
        perms = self.world.permissions_in(channel, BOT_USER_ID)
        if not perms & VIEW_CHANNEL:
            raise E.missing_access()
        if not perms & (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES):
            raise E.missing_permissions()

    def new_message(self, channel: Channel, body: Json, *, flags_mask: int = SENDABLE_FLAGS, mtype: int = 0,
                    interaction: InteractionResult | None = None) -> Message:
        """Store a message the bot created (history starts with its first version)."""
        content = body.get("content") or ""
        # a Components V2 message mentions in its text displays (Discord notifies those as it does content's)
        said = " ".join([content, *(str(c.get("content") or "") for c in walk(body.get("components") or [])
                                    if c.get("type") == 10)])
        mentions = list(dict.fromkeys(int(m) for m in re.findall(r"<@!?(\d+)>", said) if int(m) in self.world.users))
        msg = Message(
            self.world.ids.next(), channel.id, BOT_USER_ID, content=content, embeds=body.get("embeds") or [],
            components=body.get("components") or [], flags=int(body.get("flags") or 0) & flags_mask,
            type=mtype, mention_ids=mentions,
        )
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.webhook_id = APPLICATION_ID
            if msg.ephemeral:
                msg.ephemeral_user_id = interaction.user_id
        if body.get("message_reference"):
            msg.type = 19
        msg.attachments = self.attachments_for(body, [])
        check_v2_result(msg)
        msg.history.append(msg.snapshot())
        store_message(self.world, msg)
        note(self.world, "post", message=msg.id, channel=channel.id, version=0,
             interaction=interaction.id if interaction is not None else None)
        return msg

    def attachments_for(self, body: Json, current: list[Attachment]) -> list[Attachment]:
        """A message's files after this request. As on Discord, ``attachments`` in the body lists what the
        message keeps: ids of its current files, and the new uploads by the N of their ``files[N]`` part;
        without that list, uploaded files are added to the current ones."""
        uploads = {u.index: u for u in UPLOADS.get()}
        entries = body.get("attachments")
        if entries is None:
            return current + [Attachment(self.world.ids.next(), u.filename, u.content_type, u.data)
                              for u in uploads.values()]
        kept = {a.id: a for a in current}
        result = []
        for entry in entries:
            ident = int(entry.get("id", -1))
            if ident in uploads:
                upload = uploads[ident]
                result.append(Attachment(self.world.ids.next(), str(entry.get("filename") or upload.filename),
                                         upload.content_type, upload.data, entry.get("description")))
            elif ident in kept:
                result.append(kept[ident])
            else:
                raise invalid_form_body({"attachments": {str(len(result)): {"id": {"_errors": [
                    {"code": "ATTACHMENT_NOT_FOUND", "message": f"Unknown attachment {ident}"}]}}}})
        return result

    async def announce(self, event: str, msg: Message) -> None:
        # Ephemeral messages exist only in the invoking user's client: no gateway event for them.
        if not msg.ephemeral:
            await self.fake.dispatch(event, msg.payload(self.world))

    async def create_message(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        channel = self._channel(p["channel"])
        self._check_can_send(channel)
        if UPLOADS.get() and not channel.is_dm and not self.world.permissions_in(channel, BOT_USER_ID) & ATTACH_FILES:
            raise E.missing_permissions()  # Discord refuses the whole message, not just its files
        check_message(body or {})
        # Discord: with enforce_nonce, a nonce already used by this author recently returns that message
        # instead of creating a second one (how a bot makes a retried post idempotent).
        nonce = (body or {}).get("nonce")
        if nonce is not None and (body or {}).get("enforce_nonce"):
            known = self.nonces.get((channel.id, str(nonce)))
            if known is not None and known in self.world.messages:
                return 200, self.world.messages[known].payload(self.world)
        msg = self.new_message(channel, body)
        if nonce is not None:
            self.nonces[(channel.id, str(nonce))] = msg.id
        await self.announce("MESSAGE_CREATE", msg)
        return 200, msg.payload(self.world)

    async def get_message(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        channel = self._channel(p["channel"])
        return 200, self._message(channel, p["message"]).payload(self.world)

    def apply_edit(self, msg: Message, body: Json) -> None:
        check_message(body, require_content=False)
        before = (msg.content, msg.embeds, msg.components, msg.flags, msg.attachments)
        try:
            self._apply_edit(msg, body)
        except DiscordAPIError:
            # Discord refuses the whole edit: the message stays as it was
            msg.content, msg.embeds, msg.components, msg.flags, msg.attachments = before
            raise

    def _apply_edit(self, msg: Message, body: Json) -> None:
        for key in ("content", "embeds", "components"):
            if key in body:
                setattr(msg, key, body[key] if body[key] is not None else ([] if key != "content" else ""))
        if body.get("flags") is not None:
            keep = msg.flags & (MESSAGE_FLAG_EPHEMERAL | MESSAGE_FLAG_COMPONENTS_V2)
            msg.flags = keep | (int(body["flags"]) & SENDABLE_FLAGS)
        if "attachments" in body or UPLOADS.get():
            msg.attachments = self.attachments_for(body, msg.attachments)
        if msg.flags & MESSAGE_FLAG_LOADING:
            msg.flags &= ~MESSAGE_FLAG_LOADING  # editing a deferred "thinking" message replaces it
        check_v2_result(msg)
        if not message_has_body(msg.snapshot()):
            raise E.empty_message()
        msg.edited_timestamp = iso()
        msg.history.append(msg.snapshot())
        note(self.world, "edit", message=msg.id, channel=msg.channel_id, version=len(msg.history) - 1)

    async def edit_message(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        channel = self._channel(p["channel"])
        msg = self._message(channel, p["message"])
        if msg.author_id != BOT_USER_ID:
            raise DiscordAPIError(403, 50005, "Cannot edit a message authored by another user")
        self.apply_edit(msg, body or {})
        await self.announce("MESSAGE_UPDATE", msg)
        return 200, msg.payload(self.world)

    async def _delete(self, msg: Message) -> None:
        msg.deleted = True
        note(self.world, "delete", message=msg.id, channel=msg.channel_id)
        if not msg.ephemeral:
            channel = self.world.channels[msg.channel_id]
            data = {"id": str(msg.id), "channel_id": str(channel.id)}
            if channel.guild_id is not None:
                data["guild_id"] = str(channel.guild_id)
            await self.fake.dispatch("MESSAGE_DELETE", data)

    async def delete_message(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        channel = self._channel(p["channel"])
        msg = self._message(channel, p["message"])
        if msg.author_id != BOT_USER_ID and not channel.is_dm:
            perms = self.world.permissions_in(channel, BOT_USER_ID)
            if not perms & 0x2000:  # MANAGE_MESSAGES
                raise E.missing_permissions()
        await self._delete(msg)
        return 204, None

    async def create_thread(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        """Start a public thread from a message (the thread takes the message's id, as on Discord): only in a
        text or announcement channel, with View Channel and Create Public Threads, once per message."""
        channel = self._channel(p["channel"])
        if channel.type not in TEXT_CHANNEL_TYPES:
            raise E.wrong_channel_type()
        perms = self.world.permissions_in(channel, BOT_USER_ID)
        if not perms & VIEW_CHANNEL:
            raise E.missing_access()
        if not perms & CREATE_PUBLIC_THREADS:
            raise E.missing_permissions()
        msg = self._message(channel, p["message"])
        if msg.thread_id is not None:
            raise E.thread_exists()
        thread = Channel(msg.id, 11, str(body["name"]), channel.guild_id, parent_id=channel.id,
                         owner_id=BOT_USER_ID)
        self.world.channels[thread.id] = thread
        msg.thread_id = thread.id
        msg.flags |= MESSAGE_FLAG_HAS_THREAD
        note(self.world, "thread", channel=channel.id, message=msg.id, thread=thread.id)
        await self.fake.dispatch("THREAD_CREATE", thread.payload(self.world) | {"newly_created": True})
        return 201, thread.payload(self.world)

    # ---- interactions -------------------------------------------------------------------------------
    def interaction_for(self, path: str) -> InteractionResult | None:
        """The interaction an /interactions or /webhooks path refers to (to log refused answers on it)."""
        found = re.match(r"^/interactions/(\d+)/([^/]+)/callback$", path)
        if found:
            inter = self.world.interactions.get(int(found[1]))
            return inter if inter is not None and inter.token == found[2] else None
        found = re.match(r"^/webhooks/\d+/([^/]+)", path)
        if found:
            return self.world.interactions_by_token.get(found[1])
        return None

    async def callback(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        inter = self.world.interactions.get(int(p["iid"]))
        if inter is None or inter.token != p["token"]:
            raise E.unknown_interaction()
        return await self._callback(inter, q, body or {})

    async def _callback(self, inter: InteractionResult, q: dict[str, str], body: Json) -> Result:
        if inter.response_type is not None:
            raise E.already_acknowledged()
        if self.fake.now() - inter.dispatched_at > self.fake.interaction_deadline:
            raise E.unknown_interaction()  # Discord forgets unanswered interactions after 3 s
        kind, data = body.get("type"), body.get("data") or {}
        channel = self.world.channels[inter.channel_id]
        source = self.world.messages.get(inter.source_message_id or 0)
        msg: Message | None = None
        if kind == 4:
            check_message(data, prefix=("data",))
            msg = self.new_message(channel, data, flags_mask=WEBHOOK_FLAGS, interaction=inter,
                                   mtype=20 if inter.type == 2 else 0)
            inter.original_message_id = msg.id
            await self.announce("MESSAGE_CREATE", msg)
        elif kind == 5:
            flags = MESSAGE_FLAG_LOADING | (int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL)
            msg = self.new_message(channel, {"flags": flags}, flags_mask=flags, interaction=inter,
                                   mtype=20 if inter.type == 2 else 0)
            inter.original_message_id = msg.id
            await self.announce("MESSAGE_CREATE", msg)
        elif kind in (6, 7):
            if source is None:
                raise _bad_type("Only component interactions can update their message")
            inter.original_message_id = source.id
            if kind == 6:
                note(self.world, "deferred_update", interaction=inter.id, user=inter.user_id, message=source.id)
            if kind == 7:
                check_message(data, require_content=False, prefix=("data",))
                self.apply_edit(source, data)
                inter.edits.append(source.snapshot())
                await self.announce("MESSAGE_UPDATE", source)
            msg = source if kind == 7 else None
        elif kind == 9:
            if inter.type == 5:
                raise _bad_type("Cannot respond to a modal with a modal")
            check_modal(data)
            inter.modal = data
            note(self.world, "modal", interaction=inter.id, user=inter.user_id, modal=data)
        elif kind == 8 and inter.type == 4:
            pass  # autocomplete result: nothing visible to store
        else:
            raise _bad_type(f"Invalid response type {kind}")
        inter.response_type = kind
        inter.latency = self.fake.monotonic() - inter.dispatched_monotonic
        shown = msg.snapshot() if msg else {}
        inter.first = {"type": kind, "content": shown.get("content", ""), "embeds": shown.get("embeds", []),
                       "components": shown.get("components", []), "flags": shown.get("flags", 0),
                       "ephemeral": bool(shown.get("flags", 0) & MESSAGE_FLAG_EPHEMERAL),
                       "modal": inter.modal}
        if q.get("with_response", "").lower() not in ("1", "true"):
            return 204, None
        resource: Json = {"type": kind}
        if msg is not None:
            resource["message"] = msg.payload(self.world)
        interaction: Json = {"id": str(inter.id), "type": inter.type, "activity_instance_id": None,
                             "response_message_id": str(msg.id) if msg else None,
                             "response_message_loading": kind == 5,
                             "response_message_ephemeral": bool(msg and msg.ephemeral)}
        return 200, {"interaction": interaction, "resource": resource}

    def _webhook(self, p: dict[str, str]) -> InteractionResult:
        if int(p["app"]) != APPLICATION_ID:
            raise E.unknown_webhook()
        inter = self.world.interactions_by_token.get(p["token"])  # (a scan of every interaction grew quadratic)
        if inter is None:
            raise E.unknown_webhook()
        if self.fake.now() - inter.dispatched_at > TOKEN_LIFETIME:
            raise E.invalid_webhook_token()
        if inter.response_type is None:
            raise E.unknown_webhook()  # followups need an initial response first
        return inter

    def _hook_message(self, inter: InteractionResult, ref: str) -> Message:
        mid = inter.original_message_id if ref == "@original" else int(ref)
        if mid is None or (mid != inter.original_message_id and mid not in inter.followup_ids):
            raise E.unknown_message()
        msg = self.world.messages.get(mid)
        if msg is None or msg.deleted:
            raise E.unknown_message()
        return msg

    async def followup(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        async def work(inter: InteractionResult) -> Result:
            check_message(body or {})
            original = self.world.messages.get(inter.original_message_id or 0)
            if original is not None and original.flags & MESSAGE_FLAG_LOADING:
                # Discord: after a deferred (type 5) response, the first followup replaces the "thinking" one.
                # (its flags too: a Components V2 followup makes the message V2)
                self.apply_edit(original, {k: v for k, v in body.items() if k in ("content", "embeds", "components",
                                                                               "attachments", "flags")})
                inter.edits.append(original.snapshot())
                await self.announce("MESSAGE_UPDATE", original)
                msg = original
            else:
                channel = self.world.channels[inter.channel_id]
                msg = self.new_message(channel, body, flags_mask=WEBHOOK_FLAGS, interaction=inter)
                inter.followup_ids.append(msg.id)
                await self.announce("MESSAGE_CREATE", msg)
            if q.get("wait", "").lower() in ("1", "true"):
                return 200, msg.payload(self.world)
            return 204, None

        return await work(self._webhook(p))

    async def webhook_get(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        async def work(inter: InteractionResult) -> Result:
            return 200, self._hook_message(inter, p["message"]).payload(self.world)

        return await work(self._webhook(p))

    async def webhook_edit(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        async def work(inter: InteractionResult) -> Result:
            msg = self._hook_message(inter, p.get("message", "@original"))
            self.apply_edit(msg, body or {})
            if msg.id == inter.original_message_id:
                inter.edits.append(msg.snapshot())
            await self.announce("MESSAGE_UPDATE", msg)
            return 200, msg.payload(self.world)

        return await work(self._webhook(p))

    async def webhook_delete(self, p: dict[str, str], q: dict[str, str], body: Any) -> Result:
        async def work(inter: InteractionResult) -> Result:
            await self._delete(self._hook_message(inter, p["message"]))
            return 204, None

        return await work(self._webhook(p))
