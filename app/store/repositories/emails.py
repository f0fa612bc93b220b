"""Email addresses and their digests (the optional email channel).

An account holder has at most one address. Setting it (again) forgets any confirmation; it is
confirmed by the link of the confirmation mail. A "your turn" digest is one outbox row keyed
`digest:<player>:<n>`, where `n` counts the digests done: every reminder until it is done names
the same row (so at most one waits), due `SPITE_EMAIL_DIGEST_MINUTES` after the last mailed.
The digest's rooms are read when it is sent, so it lists every room where it is their turn then.

Whoever's an address is, the site keeps what it did to it (`EmailRecipient`, by the address in
lower case): one confirmation mail pending at a time (`claim_confirmation`), and "never mail me"
(`never_mail`), after which nothing is mailed to it and no account keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.repositories import outbox
from app.store.repositories.games import player_games
from app.store.tables import EmailAddress, EmailRecipient, Player, utcnow

DIGEST, CONFIRM = "digest", "confirm"


async def address_of(session: AsyncSession, player_id: str) -> EmailAddress | None:
    return await session.get(EmailAddress, player_id, populate_existing=True)


async def set_address(session: AsyncSession, player_id: str, email: str, now: datetime | None = None) -> EmailAddress:
    """Keep `email` as the player's address, unconfirmed (the same address again stays as it was)."""
    now = now or utcnow()
    row = await address_of(session, player_id)
    if row is None:
        row = EmailAddress(player_id=player_id, email=email, confirmed_at=None, digests=0, created_at=now)
        session.add(row)
    elif row.email != email:
        row.email, row.confirmed_at, row.created_at = email, None, now
    await session.commit()
    return row


async def confirm(session: AsyncSession, player_id: str, email: str, now: datetime | None = None) -> bool:
    """Confirm the player's address if it is still `email` (and may be mailed); whether it is
    confirmed now. The address has no confirmation pending any more."""
    if await never_mailed(session, email):
        return False
    done = await session.execute(update(EmailAddress).where(EmailAddress.player_id == player_id,
                                                            EmailAddress.email == email)
                                 .values(confirmed_at=now or utcnow()))
    if done.rowcount:  # type: ignore[attr-defined]
        await session.execute(update(EmailRecipient).where(EmailRecipient.email == email.lower())
                              .values(confirm_at=None))
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def never_mailed(session: AsyncSession, email: str) -> bool:
    """Did the recipient of `email` say "never mail me"?"""
    found = (await session.execute(select(EmailRecipient.never_at)
                                   .where(EmailRecipient.email == email.lower()))).scalar()
    return found is not None


async def confirmation_pending(session: AsyncSession, email: str, minutes: int, now: datetime | None = None) -> bool:
    """Did a confirmation mail go to `email` within `minutes`, not followed since?"""
    since = (now or utcnow()) - timedelta(minutes=minutes)
    found = (await session.execute(select(EmailRecipient.confirm_at)
                                   .where(EmailRecipient.email == email.lower()))).scalar()
    return found is not None and found > since


async def claim_confirmation(session: AsyncSession, email: str, minutes: int, now: datetime | None = None) -> bool:
    """Take the one confirmation mail `email` may get within `minutes` (True: send it). Atomic:
    of requests at once for one address (on any instance), one gets it."""
    now = now or utcnow()
    key = email.lower()
    new = await session.execute(outbox.insert_for(session)(EmailRecipient)
                                .values(email=key, confirm_at=now, never_at=None, created_at=now)
                                .on_conflict_do_nothing(index_elements=[EmailRecipient.email]))
    if not new.rowcount:  # type: ignore[attr-defined]
        new = await session.execute(
            update(EmailRecipient).where(EmailRecipient.email == key, EmailRecipient.never_at.is_(None),
                                         or_(EmailRecipient.confirm_at.is_(None),
                                             EmailRecipient.confirm_at <= now - timedelta(minutes=minutes)))
            .values(confirm_at=now))
    await session.commit()
    return bool(new.rowcount)  # type: ignore[attr-defined]


async def never_mail(session: AsyncSession, email: str, now: datetime | None = None) -> None:
    """The recipient said "never mail me": kept, and every account's copy of the address forgotten."""
    now = now or utcnow()
    key = email.lower()
    await session.execute(outbox.insert_for(session)(EmailRecipient)
                          .values(email=key, confirm_at=None, never_at=now, created_at=now)
                          .on_conflict_do_nothing(index_elements=[EmailRecipient.email]))
    await session.execute(update(EmailRecipient).where(EmailRecipient.email == key, EmailRecipient.never_at.is_(None))
                          .values(never_at=now))
    await session.execute(delete(EmailAddress).where(func.lower(EmailAddress.email) == key))
    await session.commit()


async def remove(session: AsyncSession, player_id: str, email: str | None = None) -> bool:
    """Forget the player's address (only if it is `email`, when given)."""
    stmt = delete(EmailAddress).where(EmailAddress.player_id == player_id)
    if email is not None:
        stmt = stmt.where(EmailAddress.email == email)
    done = await session.execute(stmt)
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def queue_digests(session: AsyncSession, player_ids: Sequence[str], minutes: int,
                        now: datetime | None = None) -> int:
    """Queue (or leave queued) one digest for each of these players with a confirmed address."""
    if not player_ids:
        return 0
    now = now or utcnow()
    rows = (await session.execute(select(EmailAddress).where(EmailAddress.player_id.in_(sorted(set(player_ids))),
                                                             EmailAddress.confirmed_at.is_not(None)))).scalars()
    items: list[outbox.Outgoing] = []
    due: list[datetime] = []
    for row in rows:
        items.append(outbox.Outgoing(f"{DIGEST}:{row.player_id}:{row.digests}", "email", row.player_id, None,
                                     {"type": DIGEST}))
        due.append(max(now, row.digest_at + timedelta(minutes=minutes)) if row.digest_at else now)
    new = 0
    for item, at in zip(items, due, strict=True):  # each its own due time
        new += await outbox.enqueue(session, [item], now=at)
    return new


async def queue_confirmation(session: AsyncSession, player_id: str, email: str, expires: int) -> None:
    """Queue the confirmation mail of this address (`expires`: the link's end, Unix seconds)."""
    await outbox.enqueue(session, [outbox.Outgoing(f"{CONFIRM}:{player_id}:{expires}:{email}"[:200], "email",
                                                   player_id, None, {"type": CONFIRM, "email": email,
                                                                     "expires": expires})])


async def digest_begun(session: AsyncSession, player_id: str) -> None:
    """A digest is being sent: reminders from now on queue the next one (a new key)."""
    await session.execute(update(EmailAddress).where(EmailAddress.player_id == player_id)
                          .values(digests=EmailAddress.digests + 1))
    await session.commit()


async def digest_mailed(session: AsyncSession, player_id: str, now: datetime | None = None) -> None:
    """A digest was mailed: the next waits a period from now."""
    await session.execute(update(EmailAddress).where(EmailAddress.player_id == player_id)
                          .values(digest_at=now or utcnow()))
    await session.commit()


async def your_turns(session: AsyncSession, player_id: str) -> list[tuple[str, datetime | None, list[str]]]:
    """The rooms where it is the player's turn now: (code, deadline, the other seats' names)."""
    out = []
    for g in await player_games(session, player_id):
        if g.match_status == "playing" and g.turn_seat is not None and g.turn_seat == g.my_seat:
            others = [str(s["name"]) for s in g.seats if s["seat"] != g.my_seat and s["name"]]
            out.append((g.code, g.deadline, others))
    out.sort(key=lambda r: (r[1] is None, r[1].timestamp() if r[1] else 0.0, r[0]))
    return out


async def player_lang(session: AsyncSession, player_id: str) -> str | None:
    return (await session.execute(select(Player.lang).where(Player.id == player_id))).scalar_one_or_none()
