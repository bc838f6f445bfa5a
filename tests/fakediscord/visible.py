"""Flatten what a user sees of a message into one string, for simple ``in`` assertions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .state import Message

Json = dict[str, Any]


def _component_texts(components: Iterable[Json]) -> list[str]:
    texts: list[str] = []
    for comp in components:
        for key in ("label", "placeholder", "content"):  # buttons, selects, text displays (v2)
            if comp.get(key):
                texts.append(str(comp[key]))
        texts += [o.get("label", "") for o in comp.get("options") or []]
        texts += _component_texts(comp.get("components") or [])
        if comp.get("component"):
            texts += _component_texts([comp["component"]])
        if comp.get("accessory"):
            texts += _component_texts([comp["accessory"]])
    return texts


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
