"""The handshake gate: a socket's turn to do its handshake's database work (app/web/sockets/base.py).

A storm of connections (an instance restarted, a thousand players coming back at once) used to
send every handshake's database work to the pool together: on PostgreSQL the pool's fifteen
connections were each held across turns of an event loop crowded with a thousand ready
handshakes, the pool's queue outgrew its timeout, and sockets (and the moves, presence and
quick-match work waiting beside them) were refused with "the server cannot reach its database".
The gate lets `SPITE_HANDSHAKE_CONCURRENCY` handshakes do their database work at once, in the
order they came; the others wait their turn, at most `SPITE_HANDSHAKE_WAIT` seconds, then are
told to come back (1013, `server_busy`). A client's own slowness (its hello) is never inside
the gate, so slow clients cannot hold it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError


class Admission:
    """At most `concurrency` handshakes inside at once, first come first in; waiting longer than
    `wait` seconds raises a RoomError (unavailable, `server_busy`)."""

    def __init__(self, concurrency: int, wait: float) -> None:
        self.concurrency, self.wait = concurrency, wait
        self._slots = asyncio.Semaphore(concurrency)

    @property
    def inside(self) -> int:
        """Handshakes inside the gate now."""
        return self.concurrency - self._slots._value  # noqa: SLF001 (asyncio keeps no public count)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        try:
            await asyncio.wait_for(self._slots.acquire(), self.wait)
        except TimeoutError:
            raise RoomError(E.UNAVAILABLE, "the server is busy; try again shortly", reason="server_busy") from None
        try:
            yield
        finally:
            self._slots.release()
