"""Simulated Discord users. They only act on what the bot really registered or showed:
slash commands from the synced command JSON, clicks on buttons of stored messages, answers to modals the
bot opened for them. Anything a real client would not allow raises SimulationError."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .errors import SimulationError
from .interactions import InteractionResult
from .journal import note
from .limits import TEXT_INPUT_VALUE_MAX, select_inputs, text_inputs
from .state import ADMINISTRATOR, APPLICATION_ID, BOT_USER_ID, VIEW_CHANNEL, Channel, Message, Role, User, store_message

if TYPE_CHECKING:
    from .server import FakeDiscord

Json = dict[str, Any]
MAX_SAFE_INT = 2**53

# Discord application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE = 1, 2, 3, 4, 5, 6, 7, 8
NUMBER = 10


def walk_components(components: list[Json]) -> Iterator[Json]:
    for comp in components:
        yield comp
        yield from walk_components(comp.get("components") or [])
        for key in ("component", "accessory"):
            if comp.get(key):
                yield from walk_components([comp[key]])


class SimUser:
    """A user of the fake Discord. Create with ``fake.add_user(...)``."""

    def __init__(self, fake: FakeDiscord, user: User) -> None:
        self.fake = fake
        self.user = user
        self._forging = False

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def dm_blocked(self) -> bool:
        return self.user.dm_blocked

    @dm_blocked.setter
    def dm_blocked(self, value: bool) -> None:
        self.user.dm_blocked = value

    def __repr__(self) -> str:
        return f"<SimUser {self.name} id={self.id}>"

    # ---- slash commands -----------------------------------------------------------------------------
    async def slash(self, channel: Channel | None, command: str, *, forged: bool = False,
                    **options: Any) -> InteractionResult:
        """Run ``/command`` ("group sub name" words) in ``channel`` (None: the user's DM with the bot).

        ``forged``: a hostile client that skips what the real one enforces (the command's allowed contexts,
        option choices); the command must still exist and the options keep their declared types."""
        world = self.fake.world
        channel = channel if channel is not None else world.dm_channel(self.user)
        self._check_can_see(channel)
        words = command.strip().lstrip("/").split()
        if not words:
            raise SimulationError("empty command")
        cmd = self._find_command(channel, words[0], forged=forged)
        resolved: Json = {}
        self._forging = forged
        try:
            opts = self._build_options(channel, cmd.get("options") or [], words[1:], dict(options), resolved,
                                       f"/{words[0]}")
        finally:
            self._forging = False
        data: Json = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(2, channel, data)

    def _find_command(self, channel: Channel, name: str, *, forged: bool = False) -> Json:
        world = self.fake.world
        scopes: list[int | None] = [None] if channel.guild_id is None else [channel.guild_id, None]
        if forged:
            scopes = list(dict.fromkeys([*scopes, *world.commands]))  # any synced command, anywhere
        available = []
        for scope in scopes:
            for cmd in world.commands.get(scope, []):
                if cmd.get("type", 1) != 1:
                    continue
                available.append(cmd["name"])
                if cmd["name"] == name:
                    if not forged:
                        self._check_command_allowed(cmd, channel)
                    return cmd
        where = "DMs" if channel.is_dm else f"guild {channel.guild_id}"
        raise SimulationError(f"no slash command /{name} synced for {where}; synced: {sorted(available)}")

    def _check_command_allowed(self, cmd: Json, channel: Channel) -> None:
        contexts = cmd.get("contexts")
        context = 1 if channel.is_dm else 0  # BOT_DM / GUILD
        if contexts is not None and context not in contexts:
            raise SimulationError(f"/{cmd['name']} is not available in this context ({context})")
        if channel.is_dm and contexts is None and cmd.get("dm_permission") is False:
            raise SimulationError(f"/{cmd['name']} is guild-only (dm_permission false)")
        required = cmd.get("default_member_permissions")
        if channel.guild_id is not None and required is not None:
            perms = self.fake.world.permissions_in(channel, self.id)
            need = int(required)
            if not perms & ADMINISTRATOR and (need == 0 or perms & need != need):
                raise SimulationError(f"{self.name} lacks default_member_permissions for /{cmd['name']}")

    def _build_options(self, channel: Channel, defs: list[Json], words: list[str], given: dict[str, Any],
                       resolved: Json, path: str) -> list[Json]:
        subs = [d for d in defs if d["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subs:
            names = [d["name"] for d in subs]
            if not words:
                raise SimulationError(f"{path} needs a subcommand: {names}")
            match = next((d for d in subs if d["name"] == words[0]), None)
            if match is None:
                raise SimulationError(f"{path} has no subcommand {words[0]!r}; has {names}")
            inner = self._build_options(channel, match.get("options") or [], words[1:], given, resolved,
                                        f"{path} {words[0]}")
            return [{"name": match["name"], "type": match["type"], "options": inner}]
        if words:
            raise SimulationError(f"{path} takes no subcommand, got {words}")
        by_name = {d["name"]: d for d in defs}
        for name in given:
            if name not in by_name:
                raise SimulationError(f"{path} has no option {name!r}; options: {list(by_name)}")
        missing = [d["name"] for d in defs if d.get("required") and d["name"] not in given]
        if missing:
            raise SimulationError(f"{path}: required option(s) missing: {missing}")
        return [self._option(channel, by_name[n], v, resolved, path) for n, v in given.items()]

    def _option(self, channel: Channel, d: Json, value: Any, resolved: Json, path: str) -> Json:
        kind, name = d["type"], d["name"]
        where = f"{path} {name}"
        out: Any
        if kind == STRING:
            out = str(value)
            if not d.get("min_length", 0) <= len(out) <= d.get("max_length", 6000):
                raise SimulationError(f"{where}: length {len(out)} outside the synced min/max_length")
        elif kind in (INTEGER, NUMBER):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise SimulationError(f"{where}: {value!r} is not a number")
            if kind == INTEGER and not isinstance(value, int):
                raise SimulationError(f"{where}: {value!r} is not an integer")
            low, high = d.get("min_value", -MAX_SAFE_INT), d.get("max_value", MAX_SAFE_INT)
            if not low <= value <= high:
                # Discord's client refuses to send values outside the declared range.
                raise SimulationError(f"{where}: {value} outside [{low}, {high}]")
            out = value
        elif kind == BOOLEAN:
            out = bool(value)
        elif kind == USER:
            out = str(self._add_resolved_user(channel, value, resolved))
        elif kind == CHANNEL:
            target = value if isinstance(value, Channel) else self.fake.world.channels[int(value)]
            types = d.get("channel_types")
            if types and target.type not in types:
                raise SimulationError(f"{where}: channel type {target.type} not in {types}")
            resolved.setdefault("channels", {})[str(target.id)] = target.payload(self.fake.world) | {
                "permissions": str(self.fake.world.permissions_in(target, self.id))}
            out = str(target.id)
        elif kind == ROLE:
            role = value if isinstance(value, Role) else None
            if role is None:
                raise SimulationError(f"{where}: pass a Role")
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            out = str(role.id)
        else:
            raise SimulationError(f"{where}: option type {kind} is not simulated")
        choices = d.get("choices")
        if choices and out not in [c["value"] for c in choices] and not self._forging:
            raise SimulationError(f"{where}: {out!r} is not one of the synced choices")
        return {"name": name, "type": kind, "value": out}

    def _add_resolved_user(self, channel: Channel, value: Any, resolved: Json) -> int:
        world = self.fake.world
        user = value.user if isinstance(value, SimUser) else value if isinstance(value, User) else None
        user = user or world.users[int(value)]
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if channel.guild_id is not None and user.id in world.guilds[channel.guild_id].members:
            member = world.member_payload(world.guilds[channel.guild_id], user.id, channel)
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member
        return user.id

    # ---- components ---------------------------------------------------------------------------------
    def _visible_message(self, message: Message | Any) -> Message:
        msg_id = message.id if hasattr(message, "id") else int(message)
        msg = self.fake.world.messages.get(int(msg_id))
        if msg is None or msg.deleted:
            raise SimulationError(f"message {msg_id} does not exist (or was deleted)")
        if msg.ephemeral_user_id not in (None, self.id):
            raise SimulationError(f"message {msg_id} is ephemeral for someone else")
        self._check_can_see(self.fake.world.channels[msg.channel_id])
        return msg

    async def click(self, message: Message | Any, target: str) -> InteractionResult:
        """Click the button whose custom_id or label is ``target`` on the CURRENT version of ``message``."""
        msg = self._visible_message(message)
        buttons = [c for c in walk_components(msg.components) if c.get("type") == 2]
        button = next((b for b in buttons if target in (b.get("custom_id"), b.get("label"))), None)
        if button is None:
            shown = [b.get("label") or b.get("custom_id") for b in buttons]
            raise SimulationError(f"no button {target!r} on message {msg.id}; buttons shown: {shown}")
        if button.get("disabled"):
            raise SimulationError(f"button {target!r} is disabled")
        if button.get("style") in (5, 6):
            raise SimulationError(f"button {target!r} is a link/premium button: no interaction")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._dispatch(3, self.fake.world.channels[msg.channel_id], data, msg)

    async def select(self, message: Message | Any, target: str, values: list[str]) -> InteractionResult:
        """Pick ``values`` in the string select (custom_id or placeholder ``target``) of ``message``."""
        msg = self._visible_message(message)
        selects = [c for c in walk_components(msg.components) if c.get("type") == 3]
        sel = next((s for s in selects if target in (s.get("custom_id"), s.get("placeholder"))), None)
        if sel is None or sel.get("disabled"):
            raise SimulationError(f"no enabled select {target!r} on message {msg.id}")
        allowed = {o["value"] for o in sel.get("options") or []}
        if not set(values) <= allowed:
            raise SimulationError(f"values {values} not among options {sorted(allowed)}")
        if not sel.get("min_values", 1) <= len(values) <= sel.get("max_values", 1):
            raise SimulationError(f"{len(values)} values outside min/max_values")
        data = {"custom_id": sel["custom_id"], "component_type": 3, "values": list(values)}
        return await self._dispatch(3, self.fake.world.channels[msg.channel_id], data, msg)

    # ---- modals -------------------------------------------------------------------------------------
    async def submit_modal(self, result: InteractionResult, values: dict[str, str]) -> InteractionResult:
        """Answer the modal the bot opened for ``result`` (keys: an input's custom_id or label; a string select in
        a Label takes one of its options' values, or a list of them)."""
        if result.user_id != self.id:
            raise SimulationError("that modal was opened for another user")
        modal = result.modal
        if modal is None:
            raise SimulationError(f"the bot did not open a modal for interaction {result.id}")
        if result.modal_submitted:
            raise SimulationError("that modal was already submitted (the client closed it)")
        inputs = text_inputs(modal.get("components") or [])
        selects = select_inputs(modal.get("components") or [])
        keys = {k for comp, label in (*inputs, *selects) for k in (comp.get("custom_id"), label)}
        unknown = set(values) - keys
        if unknown:
            raise SimulationError(f"modal has no input(s) {sorted(unknown)}; has {sorted(map(str, keys))}")
        picked: dict[str, list[str]] = {}
        for comp, label in selects:  # a select's value: one of its options' values, as the client only offers those
            value = values.get(comp["custom_id"], values.get(label or ""))
            chosen = [] if value is None else [value] if isinstance(value, str) else list(value)
            offered = [o["value"] for o in comp.get("options") or []]
            if any(v not in offered for v in chosen):
                raise SimulationError(f"select {label or comp['custom_id']!r} offers {offered}, not {chosen}")
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if comp.get("required", True) and not lo <= len(chosen) <= hi:
                raise SimulationError(f"select {label or comp['custom_id']!r} needs {lo}-{hi} value(s)")
            picked[comp["custom_id"]] = chosen
        answers: dict[str, str] = {}
        for comp, label in inputs:
            value = values.get(comp["custom_id"], values.get(label or "", comp.get("value") or ""))
            required = comp.get("required", True)
            lo, hi = comp.get("min_length", 0), comp.get("max_length", TEXT_INPUT_VALUE_MAX)
            if required and not value:
                raise SimulationError(f"text input {label or comp['custom_id']!r} is required")
            if value and not lo <= len(value) <= hi:
                raise SimulationError(f"text input {label or comp['custom_id']!r}: length {len(value)} "
                                      f"outside [{lo}, {hi}]")
            answers[comp["custom_id"]] = value
        submitted = []
        for comp in modal.get("components") or []:  # mirror the modal's own layout, as the client does
            if comp.get("type") == 1:
                inner = [c for c in comp.get("components") or [] if c.get("type") == 4]
                submitted.append({"type": 1, "components": [
                    {"type": 4, "custom_id": c["custom_id"], "value": answers[c["custom_id"]]} for c in inner]})
            elif comp.get("type") == 18 and (comp.get("component") or {}).get("type") == 4:
                cid = comp["component"]["custom_id"]
                submitted.append({"type": 18, "component": {"type": 4, "custom_id": cid, "value": answers[cid]}})
            elif comp.get("type") == 18 and (comp.get("component") or {}).get("type") == 3:
                cid = comp["component"]["custom_id"]
                submitted.append({"type": 18, "component": {"type": 3, "custom_id": cid, "values": picked[cid]}})
        result.modal_submitted = True
        world = self.fake.world
        source = world.messages.get(result.source_message_id or 0)
        data = {"custom_id": modal["custom_id"], "components": submitted}
        return await self._dispatch(5, world.channels[result.channel_id], data, source)

    # ---- messages -----------------------------------------------------------------------------------
    async def send_dm(self, text: str, *, sent_at: float | None = None) -> Message:
        """Write to the bot in this user's DM channel (created if needed); ``sent_at``: see :meth:`say`."""
        return await self.say(self.fake.world.dm_channel(self.user), text, sent_at=sent_at)

    async def say(self, channel: Channel, text: str, *, sent_at: float | None = None) -> Message:
        """Post a normal message as this user (dispatched as MESSAGE_CREATE, filtered by intents).

        ``sent_at``: the message was written at that (earlier) time and the gateway delivers it only now, as a
        slow connection or a gateway backlog does: its id carries that time."""
        self._check_can_see(channel)
        world = self.fake.world
        mentions = [BOT_USER_ID] if f"<@{BOT_USER_ID}>" in text else []
        message_id = world.ids.next() if sent_at is None else world.ids.at(sent_at)
        msg = Message(message_id, channel.id, self.id, content=text, mention_ids=mentions)
        msg.history.append(msg.snapshot())
        store_message(world, msg)
        note(world, "user_message", from_request=False, user=self.id, channel=channel.id, message=msg.id, text=text,
             requests_before=len(self.fake.requests))
        await self.fake.dispatch("MESSAGE_CREATE", msg.payload(world))
        return msg

    # ---- plumbing -----------------------------------------------------------------------------------
    def _check_can_see(self, channel: Channel) -> None:
        if channel.deleted:
            raise SimulationError(f"channel {channel.id} was deleted")
        if channel.guild_id is not None:
            guild = self.fake.world.guilds[channel.guild_id]
            if self.id not in guild.members:
                raise SimulationError(f"{self.name} is not a member of guild {guild.name}")
            if not self.fake.world.permissions_in(channel, self.id) & VIEW_CHANNEL:
                raise SimulationError(f"{self.name} cannot view channel {channel.name}")

    async def _dispatch(self, kind: int, channel: Channel, data: Json,
                        message: Message | None = None) -> InteractionResult:
        world = self.fake.world
        iid = world.ids.next()
        token = f"fake-interaction-{iid}-{secrets.token_hex(8)}"
        payload: Json = {
            "id": str(iid), "application_id": str(APPLICATION_ID), "type": kind, "data": data,
            "token": token, "version": 1, "channel_id": str(channel.id),
            "channel": channel.payload(world) | {"permissions": str(world.permissions_in(channel, self.id))},
            "app_permissions": str(world.permissions_in(channel, BOT_USER_ID)), "locale": self.user.locale,
            "entitlements": [], "entitlement_sku_ids": [], "attachment_size_limit": 10 * 1024 * 1024,
            "context": 1 if channel.is_dm else 0,
        }
        if channel.guild_id is not None:
            guild = world.guilds[channel.guild_id]
            payload.update(guild_id=str(guild.id), guild_locale=guild.locale,
                           guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                           member=world.member_payload(guild, self.id, channel),
                           authorizing_integration_owners={"0": str(guild.id)})
        else:
            # Guild-installed app used in its bot DM: the guild owner key is "0" (no guild).
            payload.update(user=self.user.payload(), authorizing_integration_owners={"0": "0"})
        if message is not None:
            payload["message"] = message.payload(world)
        result = InteractionResult(self.fake, iid, token, kind, self.id, channel.id, channel.guild_id, payload,
                                   source_message_id=message.id if message else None)
        world.interactions[iid] = result
        world.interactions_by_token[token] = result
        note(world, "interaction", from_request=False, user=self.id, interaction=iid, type=kind, data=data,
             channel=channel.id, message=message.id if message is not None else None,
             requests_before=len(self.fake.requests))
        result.mark_dispatched()
        await self.fake.dispatch("INTERACTION_CREATE", payload, require_receiver=True)
        return result
