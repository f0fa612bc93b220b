"""What a socket does before it is served: its `hello` (`read_hello`), and a turn at the
handshake gate (`Admission`, app/web/http/admission.py, kept with the app's other services)."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

from fastapi import WebSocket
from pydantic import BaseModel, TypeAdapter, ValidationError

from app.platform.settings import Settings
from app.web.wire.nul import json_carries_nul

H = TypeVar("H", bound=BaseModel)


async def read_hello(ws: WebSocket, settings: Settings, messages: TypeAdapter[Any], hello: type[H]) -> H | None:
    """The socket's first message if it is a `hello` within `hello_timeout` and the size limit,
    else None (the room socket and the lobby socket say hello alike)."""
    try:
        message = await asyncio.wait_for(ws.receive(), settings.hello_timeout)
    except TimeoutError:
        return None
    text = message.get("text")
    if message["type"] != "websocket.receive" or text is None or len(text) > settings.max_message_bytes \
            or json_carries_nul(text):  # a token with a NUL is no token: no query for it
        return None
    try:
        msg = messages.validate_json(text)
    except ValidationError:
        return None
    return msg if isinstance(msg, hello) else None
