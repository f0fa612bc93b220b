"""The notification outbox, push subscriptions and the server's kept keys.

A notification is a row (`Notification`) written once its cause is committed, with a unique
`key` (its cause and device: never two for one turn and device). Workers on any instance
`claim` due rows by a conditional update (a row is claimed by exactly one of them; a claim that
is not finished within `claim_seconds` lapses and the row is tried again; at most one row per
push subscription at a time), then `finish` them: sent, retried later (backoff), failed or
dropped. A subscription whose sends fail `budget` times in a row is dropped (`push_failed`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import Notification, Player, PushSubscription, ServerKey, utcnow

QUEUED, CLAIMED, SENT, FAILED, DROPPED = "queued", "claimed", "sent", "failed", "dropped"


def insert_for(session: AsyncSession) -> Any:
    """The dialect's INSERT (with ON CONFLICT) for this session's database."""
    return pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert


@dataclass(frozen=True)
class Outgoing:
    """A notification to queue."""

    key: str
    channel: str
    player_id: str
    subscription_id: int | None
    payload: dict[str, Any]


async def enqueue(session: AsyncSession, items: Sequence[Outgoing], now: datetime | None = None, *,
                  per_player_hour: int | None = None) -> int:
    """Queue these (a key already queued is skipped); how many were new. With `per_player_hour`,
    a player who had that many rows queued in the last hour gets no more (the rest are left out)."""
    now = now or utcnow()
    if per_player_hour is not None and items:
        players = sorted({i.player_id for i in items})
        had = dict((await session.execute(
            select(Notification.player_id, func.count()).where(
                Notification.player_id.in_(players), Notification.created_at > now - timedelta(hours=1))
            .group_by(Notification.player_id))).all())
        room = {p: max(0, per_player_hour - int(had.get(p, 0))) for p in players}
        kept: list[Outgoing] = []
        for i in items:
            if room[i.player_id] > 0:
                room[i.player_id] -= 1
                kept.append(i)
        items = kept
    if not items:
        return 0
    stmt = insert_for(session)(Notification).values([
        {"key": i.key, "channel": i.channel, "player_id": i.player_id, "subscription_id": i.subscription_id,
         "payload": i.payload, "state": QUEUED, "attempts": 0, "next_at": now, "created_at": now} for i in items])
    result = await session.execute(stmt.on_conflict_do_nothing(index_elements=[Notification.key]))
    await session.commit()
    return max(0, result.rowcount or 0)  # type: ignore[attr-defined]


async def claim(session: AsyncSession, limit: int, claim_seconds: float, now: datetime | None = None, *,
                busy: Collection[int] = ()) -> tuple[list[Notification], bool]:
    """Claim up to `limit` due rows for this worker: each row goes to one claimer only, and at
    most one row per push subscription, none of those in `busy` (sending already). The rows, and
    whether due rows were passed over for a subscription claimed in this call (look again)."""
    now = now or utcnow()
    query = (select(Notification.id, Notification.state, Notification.attempts, Notification.subscription_id)
             .where(Notification.state.in_((QUEUED, CLAIMED)), Notification.next_at <= now))
    if busy:
        query = query.where(or_(Notification.subscription_id.is_(None),
                                Notification.subscription_id.not_in(sorted(busy))))
    due = (await session.execute(query.order_by(Notification.next_at, Notification.id).limit(limit))).all()
    got: list[int] = []
    taken: set[int] = set()
    passed = False
    for nid, state, attempts, sub in due:
        if sub is not None and sub in taken:
            passed = True
            continue
        done = await session.execute(
            update(Notification).where(Notification.id == nid, Notification.state == state,
                                       Notification.attempts == attempts, Notification.next_at <= now)
            .values(state=CLAIMED, attempts=attempts + 1, next_at=now + timedelta(seconds=claim_seconds)))
        if done.rowcount == 1:  # type: ignore[attr-defined]
            got.append(nid)
            if sub is not None:
                taken.add(sub)
    await session.commit()
    if not got:
        return [], passed
    rows = (await session.execute(select(Notification).where(Notification.id.in_(got))
                                  .order_by(Notification.id))).scalars().all()
    return list(rows), passed


async def finish(session: AsyncSession, nid: int, state: str, *, error: str | None = None,
                 retry_at: datetime | None = None, now: datetime | None = None) -> None:
    """Record how a claimed row ended: SENT, FAILED, DROPPED, or QUEUED again at `retry_at`."""
    now = now or utcnow()
    values: dict[str, Any] = {"state": state, "last_error": (error or None) and error[:300]}
    if state == SENT:
        values["sent_at"] = now
    if state == QUEUED and retry_at is not None:
        values["next_at"] = retry_at
    await session.execute(update(Notification).where(Notification.id == nid).values(**values))
    await session.commit()


async def counts(session: AsyncSession) -> dict[str, int]:
    """Notifications by state (for /metrics and tests)."""
    rows = (await session.execute(select(Notification.state, func.count()).group_by(Notification.state))).all()
    return {str(state): int(n) for state, n in rows}


# Push subscriptions.
async def subscriptions_of(session: AsyncSession, player_ids: Sequence[str]) -> list[PushSubscription]:
    if not player_ids:
        return []
    return list((await session.execute(select(PushSubscription)
                                       .where(PushSubscription.player_id.in_(list(player_ids))))).scalars().all())


async def subscribe(session: AsyncSession, player_id: str, endpoint: str, p256dh: str, auth: str,
                    keep: int) -> PushSubscription:
    """Keep this device's subscription for the player (an endpoint given again, by anyone, is
    theirs now with the new keys); only the player's latest `keep` are kept."""
    stmt = insert_for(session)(PushSubscription).values(player_id=player_id, endpoint=endpoint, p256dh=p256dh,
                                                      auth=auth, created_at=utcnow())
    await session.execute(stmt.on_conflict_do_update(
        index_elements=[PushSubscription.endpoint],
        set_={"player_id": player_id, "p256dh": p256dh, "auth": auth, "created_at": utcnow()}))
    ids = (await session.execute(select(PushSubscription.id).where(PushSubscription.player_id == player_id)
                                 .order_by(PushSubscription.created_at.desc(), PushSubscription.id.desc()))).scalars()
    old = list(ids)[keep:]
    if old:
        await session.execute(delete(PushSubscription).where(PushSubscription.id.in_(old)))
    await session.commit()
    row = (await session.execute(select(PushSubscription).where(PushSubscription.endpoint == endpoint))).scalar_one()
    return row


async def unsubscribe(session: AsyncSession, player_id: str, endpoint: str) -> bool:
    done = await session.execute(delete(PushSubscription).where(PushSubscription.player_id == player_id,
                                                                PushSubscription.endpoint == endpoint))
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def push_failed(session: AsyncSession, subscription_id: int, budget: int) -> bool:
    """Count a failed send to this subscription; at `budget` failures in a row it is dropped
    (True: it was)."""
    await session.execute(update(PushSubscription).where(PushSubscription.id == subscription_id)
                          .values(failures=PushSubscription.failures + 1))
    gone = await session.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id,
                                                                PushSubscription.failures >= budget))
    await session.commit()
    return bool(gone.rowcount)  # type: ignore[attr-defined]


async def push_sent(session: AsyncSession, subscription_id: int) -> None:
    """A send to this subscription worked: its failures in a row start again from none."""
    await session.execute(update(PushSubscription).where(PushSubscription.id == subscription_id,
                                                         PushSubscription.failures > 0).values(failures=0))
    await session.commit()


async def drop_subscription(session: AsyncSession, subscription_id: int) -> None:
    await session.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id))
    await session.commit()


async def language_of(session: AsyncSession, player_id: str) -> str | None:
    """The language the player chose (None: never chose, or no such player)."""
    found: str | None = (await session.execute(select(Player.lang).where(Player.id == player_id))).scalar()
    return found


async def subscription(session: AsyncSession, subscription_id: int) -> PushSubscription | None:
    return await session.get(PushSubscription, subscription_id)


# Kept keys.
async def kept_key(session: AsyncSession, name: str, make: Callable[[], str]) -> str:
    """The key kept as `name`, made by `make` the first time (by whichever instance is first:
    the others read what it wrote)."""
    found = await session.get(ServerKey, name)
    if found is not None:
        return found.value
    stmt = insert_for(session)(ServerKey).values(name=name, value=make(), created_at=utcnow())
    await session.execute(stmt.on_conflict_do_nothing(index_elements=[ServerKey.name]))
    await session.commit()
    value = (await session.execute(select(ServerKey.value).where(ServerKey.name == name))).scalar_one()
    return str(value)
