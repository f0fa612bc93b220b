"""What the room socket says about a frame it cannot take: the problem in words, and the move
id a refused frame carried (so the error can name it)."""

from __future__ import annotations

import orjson
from pydantic import ValidationError

from . import wire


def problem(e: ValidationError) -> str:
    first = e.errors()[0]
    if first["type"] == "json_invalid":
        return "a message must be a JSON object"
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return "unknown message type; known types: " + ", ".join(wire.CLIENT_TYPES)
    where = ".".join(str(p) for p in first["loc"][1:])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def move_id_of(text: str) -> str | None:
    """The move id of a refused move, if one can be read, so the error can name it."""
    try:
        data = orjson.loads(text)
    except (ValueError, RecursionError):  # orjson refuses nesting past 1024 levels
        return None
    if isinstance(data, dict) and isinstance(data.get("id"), (str, int)) and not isinstance(data.get("id"), bool):
        return str(data["id"])[:64]
    return None
