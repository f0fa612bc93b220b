"""Chat hidden by blocks (issue 28): each room socket knows whom its player blocked and drops
their chat lines. A block made here applies to this instance's sockets at once; one made on
another instance within a heartbeat (`watch`); an unblock made elsewhere on the next connect.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any, Protocol

from app.store import social
from app.store.models import utcnow

log = logging.getLogger(__name__)


class Hides(Protocol):
    player_id: str
    hidden: set[str]


class HiddenChat:
    def __init__(self) -> None:
        self.by_player: dict[str, set[Hides]] = {}

    def add(self, conn: Hides) -> None:
        self.by_player.setdefault(conn.player_id, set()).add(conn)

    def discard(self, conn: Hides) -> None:
        conns = self.by_player.get(conn.player_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.by_player[conn.player_id]

    def blocked(self, blocker: str, blocked: str) -> None:
        for conn in self.by_player.get(blocker, ()):
            conn.hidden.add(blocked)

    def unblocked(self, blocker: str, blocked: str) -> None:
        for conn in self.by_player.get(blocker, ()):
            conn.hidden.discard(blocked)

    async def watch(self, sessions: Any, every: float) -> None:
        """Forever: apply blocks made on any instance since the last look."""
        since = utcnow()
        while True:
            await asyncio.sleep(every)
            try:
                now = utcnow()
                async with sessions() as s:
                    made = await social.blocks_since(s, since - timedelta(seconds=every))
                since = now
                for blocker, blocked in made:
                    self.blocked(blocker, blocked)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not look for new blocks")
