"""Chat hidden by blocks: each room socket knows whom its player blocked and drops
their chat lines. A block or an unblock applies to this instance's sockets at once and is
published on the bus channel `!blocks`, which every instance hears (`listen`), so it applies
everywhere at once. The bus is at-most-once: `watch` still applies blocks made elsewhere within a
heartbeat, and a subscription that may have missed messages (`resync`) rereads every connected
player's blocks from the store.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from app.platform.bus import Bus, Subscription
from app.platform.polling import poll_since
from app.store.repositories import social

log = logging.getLogger(__name__)
CHANNEL = "!blocks"  # '!' starts no room code and no player channel ('@')


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

    async def announce(self, bus: Bus, blocker: str, blocked: str, on: bool) -> None:
        """Apply a block (or an unblock) here, and tell every other instance."""
        (self.blocked if on else self.unblocked)(blocker, blocked)
        try:
            await bus.publish(CHANNEL, {"kind": "block", "blocker": blocker, "blocked": blocked, "on": on})
        except Exception:
            log.warning("could not publish a block change", exc_info=True)

    async def listen(self, bus: Bus, sessions: Any) -> Subscription:
        """Hear the block changes of every instance."""
        async def heard(message: dict[str, Any]) -> None:
            if message.get("kind") == "resync":
                await self._reread(sessions)
            elif message.get("kind") == "block":
                blocker, blocked = str(message.get("blocker")), str(message.get("blocked"))
                (self.blocked if message.get("on") else self.unblocked)(blocker, blocked)

        return await bus.subscribe(CHANNEL, heard)

    async def _reread(self, sessions: Any) -> None:
        async with sessions() as s:
            for player, conns in list(self.by_player.items()):
                hidden = await social.blocked_by(s, player)
                for conn in list(conns):
                    conn.hidden.clear()
                    conn.hidden.update(hidden)

    async def watch(self, sessions: Any, every: float) -> None:
        """Forever: apply blocks made on any instance since the last look."""
        await poll_since(sessions, every, social.blocks_since, lambda made: self.blocked(*made), "new blocks")
