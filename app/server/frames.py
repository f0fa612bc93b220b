"""What a socket (the room's, the lobby's) says about a frame it cannot take: the problem in
words with its reason key and params (docs/protocol.md, "Languages"), and the move id a refused
frame carried (so the error can name it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from pydantic import ValidationError


def refused_frame(e: ValidationError, types: Sequence[str]) -> tuple[str, str | None, dict[str, Any]]:
    """The English sentence of a malformed message, its reason and params; a field of the
    wrong type has no reason (pydantic's English says it)."""
    first = e.errors()[0]
    if first["type"] == "json_invalid":
        return "a message must be a JSON object", "not_json_object", {}
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        known = ", ".join(types)
        return f"unknown message type; known types: {known}", "unknown_type", {"types": known}
    where = ".".join(str(p) for p in first["loc"][1:])
    return (f"{where}: {first['msg']}" if where else str(first["msg"])), None, {}


def move_id_of(text: str) -> str | None:
    """The move id of a refused move, if one can be read, so the error can name it."""
    try:
        data = orjson.loads(text)
    except (ValueError, RecursionError):  # orjson refuses nesting past 1024 levels
        return None
    if isinstance(data, dict) and isinstance(data.get("id"), (str, int)) and not isinstance(data.get("id"), bool):
        return str(data["id"])[:64]
    return None
