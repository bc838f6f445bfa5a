"""Optional request-body validation against Discord's official OpenAPI 3.1 spec (jsonschema, Draft 2020-12).

The spec is read from its shared location and never copied into the project. Known mismatches between the
spec and what discord.py (correctly) sends are relaxed here, each with the reason.
"""

from __future__ import annotations

import copy
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


class SpecValidator:
    """Validates JSON bodies for (method, spec path template). Missing spec file -> ``available`` False."""

    def __init__(self, path: Path | str | None = DEFAULT_SPEC_PATH) -> None:
        self.path = Path(path) if path else None
        self.available = bool(self.path and self.path.is_file())
        self._validators: dict[tuple[str, str], Draft202012Validator | None] = {}

    def _validator(self, method: str, template: str) -> Draft202012Validator | None:
        key = (method.lower(), template)
        if key not in self._validators:
            spec = _load(str(self.path))
            op = spec["paths"].get(template, {}).get(key[0], {})
            if "application/json" not in op.get("requestBody", {}).get("content", {}):
                self._validators[key] = None
            else:
                ref = _pointer("paths", template, key[0], "requestBody", "content", "application/json", "schema")
                # A shallow copy of the whole document with a root $ref keeps every "#/components/..." ref
                # resolvable; the OpenAPI keys next to it are unknown keywords that jsonschema ignores.
                root = dict(spec)
                root["$ref"] = ref
                self._validators[key] = Draft202012Validator(root)
        return self._validators[key]

    def validate(self, method: str, template: str, body: Any) -> list[str]:
        """Return human-readable violations (empty when valid, or when there is no spec / schema)."""
        if not self.available or body is None:
            return []
        validator = self._validator(method, template)
        if validator is None:
            return []
        errors = sorted(validator.iter_errors(copy.deepcopy(body)), key=lambda e: list(e.absolute_path))
        return [f"{'/'.join(map(str, e.absolute_path)) or '<body>'}: {e.message[:300]}" for e in errors]
