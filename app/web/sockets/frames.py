"""What a socket (the room's, the lobby's) says about a frame it cannot take: the problem in
words with its reason key and params (docs/protocol.md, "Languages"), and the move id a refused
frame carried (so the error can name it); and a handshake it refuses, shaped as a REST refusal."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import orjson
from fastapi import WebSocket
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from app.engine import BadMove
from app.i18n import pick
from app.web.http.language import refusal


async def deny(ws: WebSocket, status: int, english: str, close_code: int, reason: str, params: dict[str, Any],
               headers: dict[str, str] | None = None, close_reason: str | None = None) -> None:
    """Refuse the handshake with `status` and a REST refusal's body (`message` in the language of
    `Accept-Language`, `detail` the English, `reason`, `params`) where the server can answer the
    handshake over HTTP; else accept and close with `close_code`."""
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        said = refusal(pick(accept_language=ws.headers.get("accept-language")), reason, params, english)
        body = {"message": said, "detail": english, "reason": reason, "params": params}
        await ws.send_denial_response(JSONResponse(body, status, headers=headers))
        return
    await ws.accept()
    with contextlib.suppress(Exception):  # the client may already be gone
        await ws.close(close_code, close_reason or english)


def refused_frame(e: ValidationError, types: Sequence[str]) -> tuple[str, str | None, dict[str, Any]]:
    """The English sentence of a malformed message, its reason and params; a malformed move
    object is `bad_move` (the engine's sentence), a field of the wrong type `bad_field` {field}
    (the English sentence adds pydantic's words)."""
    first = e.errors()[0]
    if first["type"] == "json_invalid":
        return "a message must be a JSON object", "not_json_object", {}
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        known = ", ".join(types)
        return f"unknown message type; known types: {known}", "unknown_type", {"types": known}
    if isinstance(bad := first.get("ctx", {}).get("error"), BadMove):
        return str(bad), "bad_move", {}
    # the message's field: what follows in `loc` names the branch of a union (`id`: string or number)
    where = str(first["loc"][1]) if len(first["loc"]) > 1 else ""
    if where:  # the field is named in any language; pydantic's English says more, in English
        return f"{where}: {first['msg']}", "bad_field", {"field": where}
    return str(first["msg"]), None, {}


def move_id_of(text: str) -> str | None:
    """The move id of a refused move, if one can be read, so the error can name it."""
    try:
        data = orjson.loads(text)
    except (ValueError, RecursionError):  # orjson refuses nesting past 1024 levels
        return None
    if isinstance(data, dict) and isinstance(data.get("id"), (str, int)) and not isinstance(data.get("id"), bool):
        return str(data["id"])[:64]
    return None
