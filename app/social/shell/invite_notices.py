"""Telling a player outside the page of an invitation, through the notification
outbox (`app/store/repositories/outbox.py`): one row per push subscription of the invitee, sent
by the outbox's worker with its timeouts and retries. Only the insert runs here (the request
never waits for a push service); the worker is poked so it goes out at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.platform.notify.texts import words
from app.store.repositories import outbox
from app.store.tables import Invitation

log = logging.getLogger(__name__)


def payload(inv: Invitation, from_name: str) -> dict[str, Any]:
    """The push body of an invitation (docs/protocol.md, "Notifications")."""
    return {"type": "invitation", "room": inv.room_code, "url": f"/r/{inv.room_code}",
            "title": "An invitation", "body": f"{from_name} invites you to a game of Spite and Malice.",
            "i18n": words("push.invitation.title", "push.invitation", {"name": from_name})}


async def invitation(sessions: async_sessionmaker[AsyncSession], poke: Callable[[], None], inv: Invitation,
                     from_name: str, per_hour: int | None = None) -> None:
    """Queue the invitation for each of the invitee's push subscriptions (key: one per
    invitation and device; at most `per_hour` rows an hour for the invitee, SPITE_NOTIFY_PLAYER_HOUR),
    then `poke` the outbox's worker. A failure is logged: the invitation
    stands without its push."""
    try:
        async with sessions() as s:
            subs = await outbox.subscriptions_of(s, [inv.to_id])
            items = [outbox.Outgoing(f"invitation:{inv.id}:push:{sub.id}", "push", inv.to_id, sub.id,
                                     payload(inv, from_name)) for sub in subs]
            await outbox.enqueue(s, items, per_player_hour=per_hour)
        if items:
            poke()
    except Exception:
        log.exception("could not queue an invitation's push")
