"""Discord's documented limits, checked the way Discord reports them (400 / 50035 with a nested ``errors``).

Error trees mirror the request JSON: {"embeds": {"0": {"description": {"_errors": [...]}}}}.
"""

from __future__ import annotations

from typing import Any

from .errors import empty_message, invalid_form_body
from .state import MESSAGE_FLAG_COMPONENTS_V2

Json = dict[str, Any]

CONTENT_MAX = 2000
EMBED_TOTAL_MAX = 6000
EMBEDS_MAX = 10
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
BUTTON_LABEL_MAX = 80
CUSTOM_ID_MAX = 100
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
V2_COMPONENTS_MAX = 40  # a Components V2 message: every component counted, nested ones included
V2_TEXT_MAX = 4000  # a Components V2 message: the characters of all its text displays together
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")  # refused beside the IS_COMPONENTS_V2 flag


class _Errors:
    """Collects errors at JSON paths and renders Discord's nested error object."""

    def __init__(self, prefix: tuple[str, ...] = ()) -> None:
        self.tree: Json = {}
        self.prefix = prefix  # e.g. ("data",) for interaction callbacks, whose message sits under "data"

    def add(self, path: list[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in [*self.prefix, *path]:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: list[str | int], value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: list[str | int], value: Any, low: int, high: int) -> None:
        if not isinstance(value, str) or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def raise_if_any(self) -> None:
        if self.tree:
            raise invalid_form_body(self.tree)


def _embed_chars(embed: Json) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def _check_embeds(err: _Errors, embeds: list[Json]) -> None:
    if len(embeds) > EMBEDS_MAX:
        err.add(["embeds"], "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
    for i, embed in enumerate(embeds):
        base: list[str | int] = ["embeds", i]
        err.max_length([*base, "title"], embed.get("title"), 256)
        err.max_length([*base, "description"], embed.get("description"), 4096)
        err.max_length([*base, "footer", "text"], (embed.get("footer") or {}).get("text"), 2048)
        err.max_length([*base, "author", "name"], (embed.get("author") or {}).get("name"), 256)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            err.add([*base, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            err.max_length([*base, "fields", j, "name"], f.get("name"), 256)
            err.max_length([*base, "fields", j, "value"], f.get("value"), 1024)
    if sum(_embed_chars(e) for e in embeds) > EMBED_TOTAL_MAX:
        err.add(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _check_custom_id(err: _Errors, path: list[str | int], comp: Json) -> None:
    err.length_between([*path, "custom_id"], comp.get("custom_id"), 1, CUSTOM_ID_MAX)


def walk(components: list[Json]) -> list[Json]:
    """Every component, nested ones included (a section's accessory too), as Discord counts them."""
    found: list[Json] = []
    for comp in components:
        found.append(comp)
        found += walk(comp.get("components") or [])
        if comp.get("accessory"):
            found += walk([comp["accessory"]])
    return found


def _check_v2(err: _Errors, body: Json, components: list[Json]) -> None:
    """Discord's rules for a Components V2 message (the spec layer checks each component's shape): no legacy
    fields beside the flag, 40 components counted nested, 4000 characters of text displays, action rows
    anywhere checked like top-level ones, ids unique."""
    for key in LEGACY_FIELDS:
        if body.get(key):
            err.add([key], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content', 'embeds', 'sticker_ids' and 'poll' fields cannot be used with IS_COMPONENTS_V2")
    every = walk(components)
    if len(every) > V2_COMPONENTS_MAX:
        err.add(["components"], "BASE_TYPE_MAX_LENGTH", f"Must be {V2_COMPONENTS_MAX} or fewer in total.")
    if sum(len(c.get("content") or "") for c in every if c.get("type") == 10) > V2_TEXT_MAX:
        err.add(["components"], "MAX_COMPONENTS_TEXT_LENGTH_EXCEEDED",
                f"Text displays must be {V2_TEXT_MAX} or fewer characters in total.")
    ids = [c["id"] for c in every if c.get("id") is not None]
    if len(set(ids)) != len(ids):
        err.add(["components"], "COMPONENT_ID_DUPLICATED", "Component ids must be unique.")
    rows = [c for c in every if c.get("type") == 1]
    _check_rows(err, rows, ["components"])


def _check_components(err: _Errors, components: list[Json], flags: int, body: Json) -> None:
    if flags & MESSAGE_FLAG_COMPONENTS_V2:
        _check_v2(err, body, components)
        return
    if len(components) > ACTION_ROWS_MAX:
        err.add(["components"], "BASE_TYPE_MAX_LENGTH", f"Must be {ACTION_ROWS_MAX} or fewer in length.")
    for i, row in enumerate(components):
        if row.get("type") != 1:
            err.add(["components", i, "type"], "COMPONENT_TYPE_INVALID", "Top-level components must be action rows.")
    _check_rows(err, [row for row in components if row.get("type") == 1], ["components"])


def _check_rows(err: _Errors, rows: list[Json], base: list[str | int]) -> None:
    for i, row in enumerate(rows):
        path: list[str | int] = [*base, i]
        children = row.get("components") or []
        buttons = [c for c in children if c.get("type") == 2]
        others = [c for c in children if c.get("type") != 2]
        if not children or len(buttons) > ROW_BUTTONS_MAX or (others and len(children) > 1):
            err.add([*path, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width")
        for j, comp in enumerate(children):
            cpath: list[str | int] = [*path, "components", j]
            if comp.get("type") == 2:
                err.max_length([*cpath, "label"], comp.get("label"), BUTTON_LABEL_MAX)
                if comp.get("style") == 5:
                    if not comp.get("url"):
                        err.add([*cpath, "url"], "BASE_TYPE_REQUIRED", "This field is required")
                elif comp.get("style") != 6:
                    _check_custom_id(err, cpath, comp)
            elif comp.get("type") in (3, 5, 6, 7, 8):
                _check_custom_id(err, cpath, comp)
                options = comp.get("options") or []
                if len(options) > SELECT_OPTIONS_MAX:
                    err.add([*cpath, "options"], "BASE_TYPE_MAX_LENGTH",
                            f"Must be {SELECT_OPTIONS_MAX} or fewer in length.")


def check_message(body: Json, *, require_content: bool = True, prefix: tuple[str, ...] = ()) -> None:
    """Validate a message create/edit body. ``require_content`` is False for partial edits."""
    err = _Errors(prefix)
    content = body.get("content")
    err.max_length(["content"], content, CONTENT_MAX)
    _check_embeds(err, body.get("embeds") or [])
    _check_components(err, body.get("components") or [], int(body.get("flags") or 0), body)
    err.raise_if_any()
    if require_content and not message_has_body(body):
        raise empty_message()


def message_has_body(body: Json) -> bool:
    return bool(body.get("content") or body.get("embeds") or body.get("components")
                or body.get("attachments") or body.get("sticker_ids") or body.get("poll"))


def text_inputs(components: list[Json]) -> list[tuple[Json, str | None]]:
    """(text input, label) pairs of a modal, for both legacy action rows and Label (type 18) wrappers."""
    found: list[tuple[Json, str | None]] = []
    for comp in components:
        if comp.get("type") == 1:
            found += [(c, c.get("label")) for c in comp.get("components") or [] if c.get("type") == 4]
        elif comp.get("type") == 18 and (comp.get("component") or {}).get("type") == 4:
            found.append((comp["component"], comp.get("label")))
    return found


def select_inputs(components: list[Json]) -> list[tuple[Json, str | None]]:
    """(string select, label) pairs of a modal: a select lives in a modal only inside a Label (type 18)."""
    return [(comp["component"], comp.get("label")) for comp in components
            if comp.get("type") == 18 and (comp.get("component") or {}).get("type") == 3]


def check_modal(data: Json) -> None:
    err = _Errors()
    err.length_between(["data", "title"], data.get("title"), 1, MODAL_TITLE_MAX)
    err.length_between(["data", "custom_id"], data.get("custom_id"), 1, CUSTOM_ID_MAX)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        err.add(["data", "components"], "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MODAL_COMPONENTS_MAX} in length.")
    for i, (comp, label) in enumerate(text_inputs(components)):
        path: list[str | int] = ["data", "components", i]
        err.length_between([*path, "label"], label, 1, TEXT_INPUT_LABEL_MAX)
        _check_custom_id(err, path, comp)
        lo, hi = comp.get("min_length"), comp.get("max_length")
        if lo is not None and not 0 <= lo <= TEXT_INPUT_VALUE_MAX:
            err.add([*path, "min_length"], "NUMBER_TYPE_MAX", "min_length out of range")
        if hi is not None and not 1 <= hi <= TEXT_INPUT_VALUE_MAX:
            err.add([*path, "max_length"], "NUMBER_TYPE_MAX", "max_length out of range")
    for i, (comp, label) in enumerate(select_inputs(components)):
        path = ["data", "components", i]
        err.length_between([*path, "label"], label, 1, TEXT_INPUT_LABEL_MAX)
        _check_custom_id(err, path, comp)
        options = comp.get("options") or []
        if not 1 <= len(options) <= 25:
            err.add([*path, "options"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            err.add([*path, "options"], "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique.")
    err.raise_if_any()


def precheck_limits(template: str, body: Any) -> None:
    """Run the Discord-limit checks that apply to a spec path template (raises the Discord-style error)."""
    if not isinstance(body, dict):
        return
    if template.endswith("/callback"):
        data = body.get("data") or {}
        if body.get("type") == 4:
            check_message(data, prefix=("data",))
        elif body.get("type") == 7:
            check_message(data, require_content=False, prefix=("data",))
        elif body.get("type") == 9:
            check_modal(data)
    elif template in ("/channels/{channel_id}/messages", "/webhooks/{webhook_id}/{webhook_token}"):
        check_message(body)
    elif "/messages/" in template:
        check_message(body, require_content=False)
