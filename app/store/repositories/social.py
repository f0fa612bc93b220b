"""Friends and blocks: follow rows (two make a friendship, one is a request) and
block rows, private to the blocker. Every write is one idempotent statement, so the same call
racing itself (two tabs, two instances) leaves one row.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import Block, Follow, LobbyPresence, Player, Presence, utcnow


def _insert(session: AsyncSession):  # type: ignore[no-untyped-def]
    return pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert


@dataclass(frozen=True, slots=True)
class FriendRow:
    """One line of a player's friends list: `status` is `friends` (both asked), `requested`
    (the player asked, the other has not answered) or `incoming` (the other asked)."""

    player_id: str
    name: str
    status: str


async def follows_count(session: AsyncSession, player_id: str) -> int:
    return int((await session.execute(select(func.count()).select_from(Follow)
                                      .where(Follow.player_id == player_id))).scalar_one())


async def follow(session: AsyncSession, player_id: str, friend_id: str) -> bool:
    """Ask `friend_id` to be friends (or accept their request). True if a row was added."""
    stmt = _insert(session)(Follow).values(player_id=player_id, friend_id=friend_id, created_at=utcnow())
    result = await session.execute(stmt.on_conflict_do_nothing(index_elements=[Follow.player_id, Follow.friend_id]))
    await session.commit()
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def unfollow(session: AsyncSession, player_id: str, friend_id: str) -> None:
    """End a friendship or withdraw a request (both directions: removing a friend, or declining
    their request, ends it for both)."""
    await session.execute(delete(Follow).where(or_(
        and_(Follow.player_id == player_id, Follow.friend_id == friend_id),
        and_(Follow.player_id == friend_id, Follow.friend_id == player_id))))
    await session.commit()


async def friends_of(session: AsyncSession, player_id: str) -> list[FriendRow]:
    """Friends, requests sent and requests received, friends first, then by name."""
    mine = {f for (f,) in (await session.execute(select(Follow.friend_id).where(Follow.player_id == player_id))).all()}
    theirs = {p for (p,) in (await session.execute(select(Follow.player_id)
                                                   .where(Follow.friend_id == player_id))).all()}
    ids = mine | theirs
    if not ids:
        return []
    names = dict((await session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))).all())
    order = {"friends": 0, "incoming": 1, "requested": 2}
    rows = [FriendRow(i, names.get(i, "?"), "friends" if i in mine and i in theirs else
                      "requested" if i in mine else "incoming") for i in ids if i in names]
    return sorted(rows, key=lambda r: (order[r.status], r.name.casefold(), r.player_id))


async def take_back_request(session: AsyncSession, player_id: str, friend_id: str) -> None:
    """Remove `player_id`'s request to `friend_id` (that one direction only)."""
    await session.execute(delete(Follow).where(Follow.player_id == player_id, Follow.friend_id == friend_id))
    await session.commit()


async def requests_waiting(session: AsyncSession, player_id: str) -> int:
    """Friend requests to `player_id` not yet answered, leaving out those of players they
    blocked (as their friends list does)."""
    mine = select(Follow.friend_id).where(Follow.player_id == player_id)
    blocked = select(Block.blocked_id).where(Block.player_id == player_id)
    n = await session.execute(select(func.count()).select_from(Follow).where(
        Follow.friend_id == player_id, Follow.player_id.not_in(mine), Follow.player_id.not_in(blocked)))
    return int(n.scalar_one())


async def mutual_friends(session: AsyncSession, player_id: str) -> list[str]:
    """The players who are friends with `player_id` both ways."""
    theirs = select(Follow.player_id).where(Follow.friend_id == player_id)
    result = await session.execute(select(Follow.friend_id).where(Follow.player_id == player_id,
                                                                  Follow.friend_id.in_(theirs)))
    return [f for (f,) in result.all()]


async def are_friends(session: AsyncSession, a: str, b: str) -> bool:
    n = (await session.execute(select(func.count()).select_from(Follow).where(or_(
        and_(Follow.player_id == a, Follow.friend_id == b), and_(Follow.player_id == b, Follow.friend_id == a)))))
    return int(n.scalar_one()) == 2


async def block(session: AsyncSession, player_id: str, blocked_id: str) -> None:
    """Block a player: also ends any friendship or request between the two."""
    stmt = _insert(session)(Block).values(player_id=player_id, blocked_id=blocked_id, created_at=utcnow())
    await session.execute(stmt.on_conflict_do_nothing(index_elements=[Block.player_id, Block.blocked_id]))
    await session.execute(delete(Follow).where(or_(
        and_(Follow.player_id == player_id, Follow.friend_id == blocked_id),
        and_(Follow.player_id == blocked_id, Follow.friend_id == player_id))))
    await session.commit()


async def unblock(session: AsyncSession, player_id: str, blocked_id: str) -> None:
    await session.execute(delete(Block).where(Block.player_id == player_id, Block.blocked_id == blocked_id))
    await session.commit()


async def blocks_count(session: AsyncSession, player_id: str) -> int:
    return int((await session.execute(select(func.count()).select_from(Block)
                                      .where(Block.player_id == player_id))).scalar_one())


async def blocked_by(session: AsyncSession, player_id: str) -> set[str]:
    """Whom `player_id` has blocked (their chat is hidden from `player_id`)."""
    result = await session.execute(select(Block.blocked_id).where(Block.player_id == player_id))
    return {b for (b,) in result.all()}


async def blocked_list(session: AsyncSession, player_id: str) -> list[tuple[str, str]]:
    """(id, name) of the players `player_id` blocked, by name: only the blocker sees it."""
    result = await session.execute(select(Player.id, Player.name).join(Block, Block.blocked_id == Player.id)
                                   .where(Block.player_id == player_id).order_by(Player.name))
    return [(i, n) for i, n in result.all()]


async def avoided(session: AsyncSession, player_id: str) -> set[str]:
    """Players kept apart from `player_id`: those it blocked and those who blocked it."""
    result = await session.execute(select(Block.player_id, Block.blocked_id).where(
        or_(Block.player_id == player_id, Block.blocked_id == player_id)))
    return {b if a == player_id else a for a, b in result.all()}


async def blocked_pairs(session: AsyncSession, players: list[str]) -> set[frozenset[str]]:
    """Every pair among `players` where one blocked the other."""
    if not players:
        return set()
    result = await session.execute(select(Block.player_id, Block.blocked_id).where(
        Block.player_id.in_(players), Block.blocked_id.in_(players)))
    return {frozenset(pair) for pair in result.all()}


async def blocks_since(session: AsyncSession, since: datetime) -> list[tuple[str, str]]:
    """(blocker, blocked) of blocks made since `since` (other instances' sockets catch up)."""
    result = await session.execute(select(Block.player_id, Block.blocked_id).where(Block.created_at >= since))
    return [(a, b) for a, b in result.all()]


# Who is online: a lobby socket or a room socket open, with a fresh heartbeat.
async def online_rooms(session: AsyncSession, players: list[str], ttl: float) -> dict[str, list[str]]:
    """For each of `players` who is online: the rooms they have a socket in (maybe none)."""
    if not players:
        return {}
    fresh = utcnow() - timedelta(seconds=ttl)
    out: dict[str, list[str]] = {}
    lobby = await session.execute(select(LobbyPresence.player_id).where(
        LobbyPresence.player_id.in_(players), LobbyPresence.sockets > 0, LobbyPresence.seen_at >= fresh))
    for (p,) in lobby.all():
        out.setdefault(p, [])
    rooms = await session.execute(select(Presence.player_id, Presence.room_code).where(
        Presence.player_id.in_(players), Presence.sockets > 0, Presence.seen_at >= fresh))
    for p, code in rooms.all():
        out.setdefault(p, []).append(code)
    return out


async def lobby_add(session: AsyncSession, player_id: str, instance: str) -> None:
    """One more lobby socket of the player on this instance."""
    now = utcnow()
    stmt = _insert(session)(LobbyPresence).values(player_id=player_id, instance_id=instance, sockets=1, seen_at=now)
    await session.execute(stmt.on_conflict_do_update(
        index_elements=[LobbyPresence.player_id, LobbyPresence.instance_id],
        set_={"sockets": LobbyPresence.sockets + 1, "seen_at": now}))
    await session.commit()


async def lobby_drop(session: AsyncSession, player_id: str, instance: str) -> None:
    """One lobby socket fewer (the row goes with the last)."""
    await session.execute(update(LobbyPresence).where(
        LobbyPresence.player_id == player_id, LobbyPresence.instance_id == instance)
        .values(sockets=LobbyPresence.sockets - 1))
    await session.execute(delete(LobbyPresence).where(LobbyPresence.player_id == player_id,
                                                      LobbyPresence.instance_id == instance,
                                                      LobbyPresence.sockets <= 0))
    await session.commit()


async def lobby_heartbeat(session: AsyncSession, instance: str, players: list[str]) -> None:
    """Refresh this instance's rows of players with lobby sockets open; drop its stale rows."""
    now = utcnow()
    if players:
        await session.execute(update(LobbyPresence).where(
            LobbyPresence.instance_id == instance, LobbyPresence.player_id.in_(players)).values(seen_at=now))
    await session.execute(delete(LobbyPresence).where(LobbyPresence.instance_id == instance,
                                                      LobbyPresence.player_id.not_in(players)))
    await session.commit()


async def lobby_online(session: AsyncSession, player_id: str, ttl: float) -> bool:
    """Whether the player has a lobby socket open on any instance."""
    fresh = utcnow() - timedelta(seconds=ttl)
    n = await session.execute(select(func.count()).select_from(LobbyPresence).where(
        LobbyPresence.player_id == player_id, LobbyPresence.sockets > 0, LobbyPresence.seen_at >= fresh))
    return int(n.scalar_one()) > 0


async def lobby_forget(session: AsyncSession, instance: str) -> None:
    """This instance stops: its lobby sockets are gone."""
    await session.execute(delete(LobbyPresence).where(LobbyPresence.instance_id == instance))
    await session.commit()
