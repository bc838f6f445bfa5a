"""A captured game as text, roughly as Discord shows it (bench/capture.py).

Each journal entry of the fake (tests/fakediscord/journal.py) becomes a block: a post or an edit shows the whole
message as it then looked (embeds as titled boxes with their fields, Components V2 containers, sections, text
displays and media galleries, buttons as ``[Label]``, selects with their options, files as ``<name, size>``),
headed by where it is and who sees it ("#general", "DM to Ana", "only Ana sees"); a human's action is a line
starting with ``»``. Messages are numbered M1, M2... in the order they first appear; ``(step N)`` is the game's
step at that moment (a human's action: the step acted in; the bot's answer: often already the next one).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any

from tests.fakediscord.state import MESSAGE_FLAG_EPHEMERAL, MESSAGE_FLAG_LOADING

Json = dict[str, Any]
BAR = "│ "
MENTION_CHANNEL = re.compile(r"<#(\d+)>")
MENTION_USER = re.compile(r"<@!?(\d+)>")
TIMESTAMP = re.compile(r"<t:-?\d+(:[tTdDfFR])?>")


def size(n: int) -> str:
    return f"{n:,} B" if n < 10_000 else f"{n / 1024:,.1f} KB"


def readable_text(version: Json) -> str:
    """What a player reads in a message version: its content, its embeds' words, its text displays (not the
    labels of its buttons and selects, nor its pictures), mentions and timestamps as the client shows them."""
    parts = [version.get("content") or ""]
    for embed in version.get("embeds") or []:
        parts += [embed.get("title") or "", (embed.get("author") or {}).get("name") or "",
                  embed.get("description") or ""]
        for f in embed.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((embed.get("footer") or {}).get("text") or "")
    parts += [c.get("content") or "" for c in walk(version.get("components") or []) if c.get("type") == 10]
    return shown_as("\n".join(p for p in parts if p))


def shown_as(text: str) -> str:
    """Markup the client replaces, at about the length it shows: a channel (#general), a user (@Ana), a
    timestamp (in 30 seconds)."""
    text = MENTION_CHANNEL.sub("#general", text)
    text = MENTION_USER.sub("@player", text)
    return TIMESTAMP.sub("in 30 seconds", text)


def walk(components: Iterable[Json]) -> Iterable[Json]:
    for comp in components:
        yield comp
        yield from walk(comp.get("components") or [])
        for key in ("component", "accessory"):
            if comp.get(key):
                yield from walk([comp[key]])


def _indent(lines: Iterable[str], prefix: str) -> list[str]:
    return [prefix + line for line in lines]


def _text(value: str) -> list[str]:
    return value.split("\n") if value else []


def _button(comp: Json) -> str:
    emoji = (comp.get("emoji") or {}).get("name") or ""
    label = " ".join(p for p in (emoji, comp.get("label") or "") if p) or "?"
    if comp.get("style") == 5:
        label += " ↗"
    return f"[~{label}~]" if comp.get("disabled") else f"[{label}]"


def _select(comp: Json) -> str:
    kinds = {3: "", 5: "user ", 6: "role ", 7: "user/role ", 8: "channel "}
    options = " | ".join(o.get("label", "") for o in comp.get("options") or [])
    head = comp.get("placeholder") or "choose"
    shown = f"<▾ {kinds.get(comp.get('type', 3), '')}{head}" + (f": {options}" if options else "") + ">"
    return f"~{shown}~" if comp.get("disabled") else shown


def _media(url: str, description: str | None, files: dict[str, int]) -> str:
    name = url.removeprefix("attachment://")
    known = f", {size(files[name])}" if name in files else ""
    alt = f" — alt: {description}" if description else ""
    return f"<picture {name}{known}{alt}>"


def components(comps: Sequence[Json], files: dict[str, int]) -> list[str]:
    """Lines for a message's components, V1 rows and Components V2 alike."""
    lines: list[str] = []
    for comp in comps:
        kind = comp.get("type")
        if kind == 1:  # action row: its items side by side
            lines.append(" ".join(line for c in comp.get("components") or [] for line in components([c], files)))
        elif kind == 2:
            lines.append(_button(comp))
        elif kind in (3, 5, 6, 7, 8):
            lines.append(_select(comp))
        elif kind == 10:  # text display
            lines += _text(comp.get("content") or "")
        elif kind == 9:  # section: its texts, the accessory beside them
            texts = [line for c in comp.get("components") or [] for line in _text(c.get("content") or "")]
            side = comp.get("accessory") or {}
            beside = _button(side) if side.get("type") == 2 else _media(
                (side.get("media") or {}).get("url", ""), side.get("description"), files) if side else ""
            lines += [*texts[:-1], f"{texts[-1] if texts else ''}   {beside}".rstrip()]
        elif kind == 12:  # media gallery
            lines += [_media((item.get("media") or {}).get("url", ""), item.get("description"), files)
                      for item in comp.get("items") or []]
        elif kind == 11:
            lines.append(_media((comp.get("media") or {}).get("url", ""), comp.get("description"), files))
        elif kind == 13:
            lines.append(_media((comp.get("file") or {}).get("url", ""), None, files).replace("picture", "file"))
        elif kind == 14:
            lines.append("─" * 20)
        elif kind == 17:  # container
            accent = comp.get("accent_color")
            head = f"╔══ accent #{accent:06x}" if isinstance(accent, int) else "╔══"
            lines += [head, *_indent(components(comp.get("components") or [], files), "║ "), "╚══"]
        elif kind == 18:  # label (modals)
            lines.append(f"{comp.get('label', '')}: " + " ".join(components([comp["component"]], files)))
        elif kind == 4:  # text input (a modal's)
            hint = f" ({comp['placeholder']})" if comp.get("placeholder") else ""
            lines.append(f"<text field «{comp.get('label') or ''}»{hint}>")
        else:
            lines.append(f"<component type {kind}>")
    return lines


def embed(data: Json, files: dict[str, int]) -> list[str]:
    title = data.get("title") or ""
    author = (data.get("author") or {}).get("name")
    colour = data.get("color")
    head = "┌─ " + (f"**{title}**" if title else "") + (f" (by {author})" if author else "")
    head += f"   [colour #{colour:06x}]" if isinstance(colour, int) else ""
    lines = [head, *_indent(_text(data.get("description") or ""), BAR)]
    for f in data.get("fields") or []:
        lines.append(BAR + f"▸ {f.get('name', '')}" + ("   (inline)" if f.get("inline") else ""))
        lines += _indent(_text(f.get("value") or ""), BAR + "  ")
    for key in ("image", "thumbnail"):
        if (data.get(key) or {}).get("url"):
            lines.append(BAR + _media(data[key]["url"], None, files))
    footer = (data.get("footer") or {}).get("text")
    lines.append("└─ " + (footer or ""))
    return lines


def message_body(version: Json) -> list[str]:
    """A message version as lines: content, embeds, components, then files no embed or gallery shows."""
    if version.get("flags", 0) & MESSAGE_FLAG_LOADING:
        return ["(the bot is thinking…)"]
    files = {a["filename"]: a["size"] for a in version.get("attachments") or []}
    lines = _text(version.get("content") or "")
    for data in version.get("embeds") or []:
        lines += embed(data, files)
    shown = components(version.get("components") or [], files)
    lines += shown
    used = " ".join(lines)
    lines += [f"<file {name}, {size(n)}>" for name, n in files.items() if f"<picture {name}" not in used]
    return lines


def changes(before: list[str], after: list[str]) -> list[str]:
    """An edit as a reader follows it: the whole new version when most of it changed, else only the changed
    lines (``-`` gone, ``+`` new) between one line of context."""
    diff = list(difflib.unified_diff(before, after, lineterm="", n=1))[2:]
    changed = sum(line[:1] in "+-" for line in diff)
    if not diff:
        return ["(nothing visible changed)"]
    if changed > len(after):
        return after
    return [line if line[:1] in "+-" else ("…" if line.startswith("@@") else line) for line in diff]


class Renderer:
    """Turns the journal into the transcript; keeps which version of each message is current."""

    def __init__(self, world: Any, names: dict[int, str]) -> None:
        self.world, self.names = world, names
        self.numbers: dict[int, int] = {}
        self.current: dict[int, Json] = {}

    def name(self, user_id: int | None) -> str:
        return self.names.get(user_id or 0, str(user_id))

    def tag(self, message_id: int | None) -> str:
        if message_id is None:
            return "?"
        if message_id not in self.numbers:
            self.numbers[message_id] = len(self.numbers) + 1
        return f"M{self.numbers[message_id]}"

    def where(self, message_id: int) -> str:
        message = self.world.messages[message_id]
        channel = self.world.channels[message.channel_id]
        if message.flags & MESSAGE_FLAG_EPHEMERAL:
            return f"private answer, only {self.name(message.ephemeral_user_id)} sees it"
        if channel.is_dm:
            return f"DM to {self.name(channel.recipient_id)}"
        return f"#{channel.name}"

    def mentions(self, line: str) -> str:
        """Mentions as Discord draws them: ``<#id>`` as #channel, ``<@id>`` as @Name (and run to run, the
        transcript does not change with the fake's ids)."""
        line = MENTION_CHANNEL.sub(lambda m: f"#{getattr(self.world.channels.get(int(m[1])), 'name', None) or '?'}",
                                   line)
        return MENTION_USER.sub(lambda m: f"@{self.name(int(m[1]))}", line)

    def entry(self, entry: Json) -> list[str]:
        return [self.mentions(line) for line in self._entry(entry)]

    def _entry(self, entry: Json) -> list[str]:
        kind = entry["kind"]
        step = (entry.get("context") or {}).get("step")
        at = f"  (step {step})" if step is not None else ""
        if kind in ("post", "edit"):
            message = self.world.messages[entry["message"]]
            version = message.history[entry["version"]]
            before = self.current.get(message.id)
            self.current[message.id] = version
            via = "  via the interaction" if str(entry.get("request_path", "")).startswith(("/interactions",
                                                                                          "/webhooks")) else ""
            uploads = entry.get("uploads") or []
            sent = ("  uploads " + ", ".join(f"{n} ({size(b)})" for n, b in uploads)) if uploads else ""
            verb = "posts" if kind == "post" else "edits"
            head = f"── bot {verb} {self.tag(message.id)} [{self.where(message.id)}]{via}{sent}{at}"
            body = message_body(version)
            if kind == "edit" and before is not None:
                return [head, *_indent(changes(message_body(before), body), "   ")]
            return [head, *_indent(body, "   ")]
        if kind == "delete":
            return [f"── bot deletes {self.tag(entry['message'])}{at}"]
        if kind == "modal":
            modal = entry["modal"]
            fields = components(modal.get("components") or [], {})
            return [f"── bot opens a form for {self.name(entry['user'])}: «{modal.get('title', '')}»{at}",
                    *_indent(fields, "   ")]
        if kind == "timer":
            ctx = entry.get("context") or {}
            awaited = ", ".join(self.name(u) for u in ctx.get("awaited") or []) or "nobody human"
            return [f"⏱ the {' and '.join(ctx.get('timers') or ['?'])} timer runs (awaited: {awaited}){at}"]
        if kind == "deferred_update":
            return []  # the press was acknowledged without a visible change (its edit, if any, follows)
        if kind == "user_message":
            return [f"» {self.name(entry['user'])} writes to the bot (DM): {entry['text']}{at}"]
        if kind == "interaction":
            return [f"» {self.name(entry['user'])} {self.action(entry)}{at}"]
        return [f"({kind})"]

    def action(self, entry: Json) -> str:
        data, kind = entry.get("data") or {}, entry["type"]
        if kind == 2:
            options = _flatten(data.get("options") or [])
            words = [data.get("name", "")] + [o["name"] for o in options if "value" not in o]
            values = " ".join(f"{o['name']}:{o['value']}" for o in options if "value" in o)
            return f"uses /{' '.join(words)} {values}".rstrip()
        if kind == 3:
            version = self.current.get(entry.get("message") or 0) or {}
            comp = next((c for c in walk(version.get("components") or [])
                         if c.get("custom_id") == data.get("custom_id")), {})
            where = self.tag(entry.get("message"))
            if data.get("component_type") == 3:
                labels = {o.get("value"): o.get("label") for o in comp.get("options") or []}
                picked = ", ".join(f"«{labels.get(v, v)}»" for v in data.get("values") or [])
                return f"picks {picked} in {_select(comp) if comp else data.get('custom_id')} on {where}"
            return f"presses {_button(comp) if comp else data.get('custom_id')} on {where}"
        if kind == 5:
            # a text input's value, or a select's picks (a Label holding a string select)
            answers = [f"{c['custom_id']}={c['value']!r}" if "value" in c else f"{c['custom_id']}={c.get('values')}"
                       for c in _inputs(data.get("components") or [])]
            return "submits the form: " + ", ".join(answers)
        return f"interaction type {kind}"


def _flatten(options: list[Json]) -> list[Json]:
    out: list[Json] = []
    for option in options:
        out.append(option)
        out += _flatten(option.get("options") or [])
    return out


def _inputs(components: list[Json]) -> list[Json]:
    return [c for c in walk(components) if "value" in c or "values" in c]


def transcript(world: Any, journal: Sequence[Json], names: dict[int, str], requests: Sequence[Any],
               title: str) -> str:
    renderer = Renderer(world, names)
    lines = [title, "=" * len(title), ""]
    for entry in journal:
        index = entry.get("request")
        if index is not None:
            entry = {**entry, "request_path": requests[index].path}
        block = renderer.entry(entry)
        if block:
            lines += [*block, ""]
    return "\n".join(lines)
