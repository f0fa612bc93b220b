"""This instance's room and lobby sockets by token, so a signed-out token's sockets close everywhere."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from app.platform.polling import poll_since
from app.store.repositories.tokens import revoked_since

log = logging.getLogger(__name__)
UNAUTHORIZED = 4401


class Closable(Protocol):
    def close(self, code: int, reason: str) -> None: ...


class OpenSockets:
    """This instance's room and lobby sockets by the (hash of the) token they said hello with, so a
    revoked token's sockets close at once here, and within a heartbeat on other instances."""

    def __init__(self) -> None:
        self.by_token: dict[str, set[Closable]] = {}

    def add(self, token_hash: str, conn: Closable) -> None:
        self.by_token.setdefault(token_hash, set()).add(conn)

    def discard(self, token_hash: str, conn: Closable) -> None:
        conns = self.by_token.get(token_hash)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.by_token[token_hash]

    def revoked(self, token_hash: str) -> int:
        """Close every socket of a token that no longer works; how many there were."""
        conns = self.by_token.pop(token_hash, set())
        for conn in conns:
            conn.close(UNAUTHORIZED, "you signed out: that token no longer works")
        return len(conns)

    async def watch(self, sessions: Any, every: float) -> None:
        """Forever: close the sockets of tokens revoked on any instance since the last look."""
        await poll_since(sessions, every, revoked_since, self.revoked, "revoked tokens")


