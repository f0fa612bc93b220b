"""`python -m app.serve`: the server of one machine, with the limits a server facing strangers
directly needs (docs/operations.md). `uvicorn app.web.app:app` serves the same app, but uvicorn
alone neither times out a client that sends its request headers slowly nor caps connections.

- a client must send a whole request's headers within `SPITE_HEADER_TIMEOUT` seconds of
  connecting (or of its previous response); a slow one is disconnected;
- at most `SPITE_MAX_CONNECTIONS` connections (sockets included): past that, HTTP answers 503;
- a WebSocket frame may hold at most `SPITE_MAX_FRAME_BYTES`, before `hello` as after (uvicorn's
  default buffers 16 MiB); the app's own message limit is smaller still;
- no per-message deflate (it doubles an idle socket's memory), no access log;
- uvicorn's own proxy headers are off: behind a proxy, the app reads X-Forwarded-For itself,
  from the proxies `SPITE_TRUSTED_PROXIES` names only (app/web/http/proxies.py).
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import uvicorn

from app.platform.settings import Settings, get_settings

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Http
except ImportError:  # pragma: no cover - uvicorn without httptools
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Http  # type: ignore[assignment]


class HeaderDeadline(_Http):
    """uvicorn's HTTP protocol, disconnecting a client whose request headers do not arrive
    within `header_timeout` seconds (slowloris). Set the timeout with `with_timeout`."""

    header_timeout = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def _arm(self) -> None:
        waiting_for = self.cycle  # a new request replaces it once its headers are in
        self.loop.call_later(self.header_timeout, self._too_slow, waiting_for)

    def _too_slow(self, waiting_for: Any) -> None:
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:  # closed, or now a WebSocket
            return
        if self.cycle is waiting_for:
            transport.close()

    @classmethod
    def with_timeout(cls, seconds: float) -> type[HeaderDeadline]:
        return type("HeaderDeadline", (cls,), {"header_timeout": seconds})


def config(settings: Settings, host: str, port: int) -> uvicorn.Config:
    """The uvicorn configuration of `python -m app.serve` (tests start servers with it too)."""
    return uvicorn.Config(
        "app.web.app:app", host=host, port=port, http=HeaderDeadline.with_timeout(settings.header_timeout),
        limit_concurrency=settings.max_connections, ws_max_size=settings.max_frame_bytes,
        ws_per_message_deflate=False, timeout_keep_alive=5, access_log=False, log_level="warning",
        proxy_headers=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve Spite and Malice (settings: SPITE_* variables)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    uvicorn.Server(config(get_settings(), args.host, args.port)).run()


if __name__ == "__main__":
    main()
