"""A real push endpoint for tests: an HTTP server on 127.0.0.1 that takes Web Push requests as a
push service does (201), records them, and decrypts each body with the subscriber's own keys.
`/gone/...` answers 410 (the browser unsubscribed); `/fail/...` answers 500; `/hang/...` never
answers (the paths of those the sender gave up on are in `hung_up`). `until` waits, in a thread,
for what the sink has seen to satisfy a check (the sink runs in its own server thread)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import http_ece
import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.platform.notify.push import b64url


@dataclass
class Device:
    """A browser's push keys: the test keeps the private half and decrypts with it."""

    private: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def keys(self) -> dict[str, str]:
        point = self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                      serialization.PublicFormat.UncompressedPoint)
        return {"p256dh": b64url(point), "auth": b64url(self.secret)}

    def decrypt(self, body: bytes) -> Any:
        return orjson.loads(http_ece.decrypt(body, private_key=self.private, auth_secret=self.secret,
                                             version="aes128gcm"))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class PushSink:
    """The ASGI app of the push endpoint."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.hung_up: list[str] = []
        self.seen = threading.Condition()

    def _note(self, what: list[Any], item: Any) -> None:
        with self.seen:
            what.append(item)
            self.seen.notify_all()

    def until(self, check: Callable[[], object], timeout: float = 120.0) -> bool:
        """Block until `check()` is true (False if it is not within `timeout`: the test fails)."""
        with self.seen:
            return self.seen.wait_for(lambda: bool(check()), timeout)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path = scope["path"]
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        self._note(self.received, Received(path, headers, body))
        if path.startswith("/hang/"):  # hold the request until the sender gives up and hangs up
            while (await receive())["type"] != "http.disconnect":
                pass
            self._note(self.hung_up, path)
            return
        status = 410 if path.startswith("/gone/") else 500 if path.startswith("/fail/") else 201
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    def at(self, prefix: str) -> list[Received]:
        return [r for r in self.received if r.path.startswith(prefix)]
