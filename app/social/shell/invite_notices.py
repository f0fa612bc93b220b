"""Telling a player outside the page of an invitation, through the notification
outbox (`app/store/repositories/outbox.py`): one row per push subscription of the invitee, sent
by the outbox's worker with its timeouts and retries. Only the insert runs here (the request
never waits for a push service); the worker is poked so it goes out at once.
"""

from __future__ import annotations

import logging
from typing import Any

from app.platform.notify.texts import words
from app.store.repositories import outbox
from app.store.tables import Invitation

log = logging.getLogger(__name__)


def payload(inv: Invitation, from_name: str) -> dict[str, Any]:
    """The push body of an invitation (docs/protocol.md, "Notifications")."""
    return {"type": "invitation", "room": inv.room_code, "url": f"/r/{inv.room_code}",
            "title": "An invitation", "body": f"{from_name} invites you to a game of Spite and Malice.",
            "i18n": words("push.invitation.title", "push.invitation", {"name": from_name})}


async def invitation(app: Any, inv: Invitation, from_name: str) -> None:
    """Queue the invitation for each of the invitee's push subscriptions (key: one per
    invitation and device). A failure is logged: the invitation stands without its push."""
    try:
        async with app.state.sessions() as s:
            subs = await outbox.subscriptions_of(s, [inv.to_id])
            items = [outbox.Outgoing(f"invitation:{inv.id}:push:{sub.id}", "push", inv.to_id, sub.id,
                                     payload(inv, from_name)) for sub in subs]
            await outbox.enqueue(s, items)
        notifier = getattr(app.state, "notifier", None)
        if items and notifier is not None:
            notifier.poke()
    except Exception:
        log.exception("could not queue an invitation's push")
