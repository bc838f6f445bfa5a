"""Optional request-body validation against Discord's official OpenAPI 3.1 spec (jsonschema, Draft 2020-12).

The spec is read from its shared location and never copied into the project. Known mismatches between the
spec and what discord.py (correctly) sends are relaxed here, each with the reason.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

# By default the spec sits in a "shared" folder beside the checkout: <repo>/tests/fakediscord/spec.py -> parents[3] is
# the checkout's parent, so <parent>/shared/discord-api-spec/openapi.json. DISCORD_OPENAPI_SPEC overrides it.
DEFAULT_SPEC_PATH = Path(
    os.environ.get("DISCORD_OPENAPI_SPEC")
    or Path(__file__).resolve().parents[3] / "shared" / "discord-api-spec" / "openapi.json"
)


def _relax(node: Any) -> Any:
    """Walk the spec and relax known mismatches in place."""
    if isinstance(node, dict):
        if node.get("format") == "snowflake" and node.get("type") == "string":
            # discord.py sends some snowflakes as JSON integers; Discord accepts them.
            node["type"] = ["string", "integer"]
        properties = node.get("properties")
        if isinstance(properties, dict) and "embeds" in properties and "content" in properties:
            content = properties["content"]
            if isinstance(content, dict) and content.get("maxLength") == 4000:
                # A message's content: 4000 is the Nitro-user limit; bots are limited to 2000. (Not a Components
                # V2 text display's content, whose 4000 holds for bots too.)
                content["maxLength"] = 2000
        for value in node.values():
            _relax(value)
    elif isinstance(node, list):
        for item in node:
            _relax(item)
    return node


@functools.cache
def _load(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return _relax(json.load(fh))


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@functools.cache
def _validator(path: str, method: str, template: str) -> Draft202012Validator | None:
    """The compiled schema of one operation's JSON body (None: the operation takes none). Cached for the
    process: the spec never changes during a run, and compiling it for each test's fake Discord cost more
    than the test."""
    spec = _load(path)
    op = spec["paths"].get(template, {}).get(method, {})
    if "application/json" not in op.get("requestBody", {}).get("content", {}):
        return None
    ref = _pointer("paths", template, method, "requestBody", "content", "application/json", "schema")
    # A shallow copy of the whole document with a root $ref keeps every "#/components/..." ref
    # resolvable; the OpenAPI keys next to it are unknown keywords that jsonschema ignores.
    root = dict(spec)
    root["$ref"] = ref
    return Draft202012Validator(root)


@functools.lru_cache(maxsize=4096)
def _violations(path: str, method: str, template: str, body_json: str) -> tuple[str, ...]:
    """The violations of one body, given as its exact JSON text: validation is a pure function of the
    schema and the body, and every test world's bot sends the same large bodies again (its command sync,
    the same lobby), so each distinct body is checked once per process."""
    validator = _validator(path, method, template)
    if validator is None:
        return ()
    errors = sorted(validator.iter_errors(json.loads(body_json)), key=lambda e: list(e.absolute_path))
    return tuple(f"{'/'.join(map(str, e.absolute_path)) or '<body>'}: {e.message[:300]}" for e in errors)


class SpecValidator:
    """Validates JSON bodies for (method, spec path template). Missing spec file -> ``available`` False."""

    def __init__(self, path: Path | str | None = DEFAULT_SPEC_PATH) -> None:
        self.path = Path(path) if path else None
        self.available = bool(self.path and self.path.is_file())

    def validate(self, method: str, template: str, body: Any) -> list[str]:
        """Return human-readable violations (empty when valid, or when there is no spec / schema)."""
        if not self.available or body is None:
            return []
        # The exact JSON text is the cache key: equal text, equal body (1 and 1.0, True and 1 stay apart).
        return list(_violations(str(self.path), method.lower(), template, json.dumps(body)))
