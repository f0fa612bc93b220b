"""Telling a player outside the page (issue 28's invitations): the hook for the notification
queue of turn-based rooms (issue 24: Web Push and email, queued, with timeouts and retries).

Until that queue is on main, an invitation reaches only the lobby socket; `invitation` is the
one place to connect it: enqueue `{"type": "invitation", "room", "url", "title", "body"}` for
the invitee's push subscriptions. Nothing slow runs here: it must only enqueue.
"""

from __future__ import annotations

import logging
from typing import Any

from app.store.models import Invitation

log = logging.getLogger(__name__)


def payload(inv: Invitation, from_name: str, public_url: str) -> dict[str, Any]:
    """The push body of an invitation (docs/protocol.md, notifications)."""
    return {"type": "invitation", "room": inv.room_code, "url": f"/r/{inv.room_code}",
            "title": "Spite and Malice", "body": f"{from_name} invites you to a game",
            "link": f"{public_url.rstrip('/')}/r/{inv.room_code}"}


async def invitation(app: Any, inv: Invitation, from_name: str, public_url: str) -> None:
    """Queue the invitation for the invitee's push subscriptions (when a queue is installed as
    `app.state.notify_queue` with an async `enqueue(player_id, payload)`)."""
    queue = getattr(app.state, "notify_queue", None)
    if queue is None:
        return
    try:
        await queue.enqueue(inv.to_id, payload(inv, from_name, public_url))
    except Exception:  # a push is a courtesy: the invitation stands without it
        log.exception("could not queue an invitation's push")
