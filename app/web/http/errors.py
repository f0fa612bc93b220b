"""Error responses: every 4xx carries a `message` a person can read (and FastAPI's `detail`);
request bodies are capped in size before anything parses them."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as SATimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.http.body import read_body, replaying
from app.web.http.caller_lang import body_of as refused_body
from app.web.http.refused import Refused, header_lang, said

log = logging.getLogger(__name__)


def _where(loc: Any) -> str:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts)


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = errors[0] if errors else {"msg": "invalid request", "loc": ()}
    where = _where(first.get("loc", ()))
    msg = str(first.get("msg", "invalid request")).removeprefix("Value error, ")
    if first.get("type") == "json_invalid":
        msg = "the body is not valid JSON"
    message = f"{where}: {msg}" if where else msg
    detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type")} for e in errors]
    return JSONResponse({"message": message, "detail": detail}, status_code=422)


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail
    if isinstance(exc, Refused):  # `message` in the caller's language, `detail` the English
        body = await refused_body(request, exc)
    elif isinstance(detail, dict):
        body = {"message": detail.get("message", ""), "detail": detail.get("message", ""), **detail}
    else:
        body = {"message": str(detail), "detail": detail}
    return JSONResponse(body, status_code=exc.status_code, headers=getattr(exc, "headers", None))


def database_away(exc: BaseException) -> bool:
    """Is this the database failing (gone, locked, full, too slow), rather than a bug?"""
    if isinstance(exc, IntegrityError):
        return False
    return isinstance(exc, DBAPIError | SATimeoutError | OSError | TimeoutError)


async def unavailable_error(request: Request, exc: Exception) -> JSONResponse:
    log.warning("the database failed a request: %s", exc)
    body = said(header_lang(request), "the server cannot reach its database just now; try again shortly",
                reason="database_away")
    return JSONResponse({**body, "detail": "unavailable"}, status_code=503, headers={"Retry-After": "5"})


async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    if database_away(exc):
        return await unavailable_error(request, exc)
    log.exception("unexpected error", exc_info=exc)
    body = said(header_lang(request), "something went wrong on the server", reason="server_error")
    return JSONResponse({**body, "detail": "internal error"}, status_code=500)


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    for kind in (DBAPIError, SATimeoutError):
        app.add_exception_handler(kind, unavailable_error)
    app.add_exception_handler(Exception, unexpected_error)


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),  # an invite link names its room: never send it to another site
]
DOCS_PATHS = ("/docs", "/redoc")  # FastAPI's pages load their scripts from a CDN (only with SPITE_API_DOCS)


class SecurityHeaders:
    """Every HTTP answer says what the browser may do with it: scripts, styles and sockets
    from this site only, never inside another site's frame, no type sniffing, no referrer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = str(scope.get("path", "")).startswith(DOCS_PATHS)
        extra = SECURITY_HEADERS[1:] if docs else SECURITY_HEADERS

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuse HTTP request bodies larger than `limit` bytes with 413 (declared or streamed)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, send)
            return
        body, rest, over = await read_body(receive, self.limit)
        if over:
            await self._refuse(scope, send)
            return
        await self.app(scope, replaying(body, rest, receive), send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        lang = header_lang(Request(scope))
        body = said(lang, f"the request body is larger than {self.limit} bytes", reason="body_too_large", n=self.limit)
        response = JSONResponse({**body, "detail": "too large"}, status_code=413)
        await send({"type": "http.response.start", "status": 413, "headers": response.raw_headers})
        await send({"type": "http.response.body", "body": response.body})
