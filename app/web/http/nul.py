"""REST requests that carry a NUL character (in the path, the query or a JSON body) are refused
here with 422 `nul_character`, before any route or query sees them (`app.web.wire.nul`)."""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.http.body import read_body, replaying
from app.web.http.refused import header_lang, said
from app.web.wire.nul import ENGLISH, NUL, json_carries_nul


def _in_url(scope: Scope) -> bool:
    query: bytes = scope.get("query_string", b"")
    return NUL in str(scope.get("path", "")) or b"\x00" in unquote_to_bytes(query)


class RefuseNul:
    """422 `nul_character` for a request with a NUL in its path, query or JSON body (the body
    is read whole here; `BodyLimit`, outside, has capped its size)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _in_url(scope):
            await self._refuse(scope, send)
            return
        body, rest, _ = await read_body(receive)
        if json_carries_nul(body):
            await self._refuse(scope, send)
            return
        await self.app(scope, replaying(body, rest, receive), send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        body = said(header_lang(Request(scope)), ENGLISH, reason="nul_character")
        response = JSONResponse({**body}, status_code=422)
        await send({"type": "http.response.start", "status": 422, "headers": response.raw_headers})
        await send({"type": "http.response.body", "body": response.body})
