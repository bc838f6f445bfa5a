"""Flatten what a user sees of a message into one string, for simple ``in`` assertions."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .state import Message

Json = dict[str, Any]
MARKS = re.compile(r"^(?:#{1,3}|-#) ", re.MULTILINE)  # "### Title", "-# small text": the marks are not seen


def _component_texts(components: Iterable[Json]) -> list[str]:
    texts: list[str] = []
    for comp in components:
        for key in ("label", "placeholder"):  # buttons, selects
            if comp.get(key):
                texts.append(str(comp[key]))
        if comp.get("content"):  # a text display (v2): a heading or small text reads without its markdown mark
            texts.append(MARKS.sub("", str(comp["content"])))
        texts += [o.get("label", "") for o in comp.get("options") or []]
        texts += _component_texts(comp.get("components") or [])
        if comp.get("component"):
            texts += _component_texts([comp["component"]])
        if comp.get("accessory"):
            texts += _component_texts([comp["accessory"]])
    return texts


def _v2_titles(components: Iterable[Json]) -> list[str]:
    found: list[str] = []
    for comp in components:
        content = str(comp.get("content") or "") if comp.get("type") == 10 else ""
        if content.startswith("#"):  # a heading: "### Numeri · game over"
            found.append(content.split("\n", 1)[0].lstrip("#").strip())
        found += _v2_titles(comp.get("components") or [])
    return found


def alt_texts(message: Message | Json | None) -> list[str]:
    """The alt texts of a message's pictures (what a screen reader says of them, not shown as text): its
    attachments' descriptions and its Components V2 media galleries' and thumbnails' descriptions."""
    if message is None:
        return []
    data: Json = ({"components": message.components, "attachments": [{"description": a.description}
                                                                      for a in message.attachments]}
                  if isinstance(message, Message) else message)
    found = [str(a.get("description") or "") for a in data.get("attachments") or []]
    stack = list(data.get("components") or [])
    while stack:
        comp = stack.pop(0)
        found += [str(i.get("description") or "") for i in comp.get("items") or []]
        if comp.get("type") == 11:
            found.append(str(comp.get("description") or ""))
        stack += [*(comp.get("components") or []), *([comp["accessory"]] if comp.get("accessory") else [])]
    return [text for text in found if text]


def title_of(message: Message | Json | None) -> str:
    """The title a user reads first on a message: its first embed's, or the first heading of its Components V2
    text displays ("" when none)."""
    if message is None:
        return ""
    embeds = message.embeds if isinstance(message, Message) else message.get("embeds") or []
    if embeds:
        return str(embeds[0].get("title") or "")
    components = message.components if isinstance(message, Message) else message.get("components") or []
    return next(iter(_v2_titles(components)), "")


def visible_text(message: Message | Json | None) -> str:
    """content + embed titles/descriptions/fields/footers/authors + component labels, newline separated."""
    if message is None:
        return ""
    # Read-only: no copy of the message (tests call this in polling loops).
    data: Json = ({"content": message.content, "embeds": message.embeds, "components": message.components}
                  if isinstance(message, Message) else message)
    parts: list[str] = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title") or "", (embed.get("author") or {}).get("name") or "",
                  embed.get("description") or ""]
        for f in embed.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((embed.get("footer") or {}).get("text") or "")
    parts += _component_texts(data.get("components") or [])
    return "\n".join(p for p in parts if p)
