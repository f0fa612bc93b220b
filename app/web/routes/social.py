"""Friends and blocks over REST (docs/protocol.md, "Friends, invitations, quick
match, the daily deal").

A friendship is asked for and accepted with the same call (`PUT /api/players/me/friends/{id}`:
the first asks, the other's answers); `DELETE` removes a friend, withdraws a request or declines
one. Blocks are private: nobody but the blocker can list them, and what a block hides is in
docs/protocol.md ("What a block does").
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.social.core.lobby_messages import PlayerRef, request_notice
from app.store.repositories import invites, social
from app.store.repositories.players import get_player
from app.web.http.deps import AppSettings, CurrentPlayer, Session
from app.web.http.refused import Refused, too_many
from app.web.http.services import services

router = APIRouter(prefix="/api/players/me", tags=["friends"])


class Friend(BaseModel):
    player_id: str
    name: str
    status: str  # friends | requested | incoming
    online: bool
    room: str | None


class FriendList(BaseModel):
    items: list[Friend]


class Blocked(BaseModel):
    player_id: str
    name: str


class BlockList(BaseModel):
    items: list[Blocked]


class Befriended(BaseModel):
    """What a friend request did (Extension, asked for with `Prefer: return=representation`):
    `requested` (your request waits for their answer) or `friends` (they had asked you: accepted),
    and their name (as their public profile shows it)."""

    status: str  # friends | requested
    name: str


def wants_answer(request: Request) -> bool:
    """The caller asked for the answer's body (RFC 7240 `Prefer: return=representation`)."""
    return any(p.strip().lower() == "return=representation"
               for p in request.headers.get("prefer", "").split(","))


def limit_social(request: Request, player_id: str) -> None:
    services(request.app).limiter.check("social", player_id)


async def other_player(session: Session, me: str, player_id: str, what: str, *, reason: str) -> str:
    """The other player's id once checked: 404 if unknown, 422 if it is the caller."""
    other = await get_player(session, player_id)
    if other is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no player has that id", reason="no_player")
    if other.id == me:
        raise Refused(status.HTTP_422_UNPROCESSABLE_CONTENT, f"you cannot {what} yourself", reason=reason)
    return other.id


@router.put("/friends/{player_id}", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def befriend(player_id: str, me: CurrentPlayer, session: Session, settings: AppSettings,
                   request: Request) -> Response:
    """Ask a player to be friends, or accept their request. A new request counts against what
    the other may receive (SPITE_LIMIT_FRIEND_REQUESTS_RECEIVED); it reaches them as a pop-up
    naming you, or, if they chose quiet requests, as the count of requests waiting. Asked with
    `Prefer: return=representation`, the answer is `200 {"status": "requested" | "friends", "name"}`
    rather than `204`."""
    other = await other_player(session, me.id, player_id, "befriend", reason="self_befriend")
    limit_social(request, me.id)
    if other in await social.blocked_by(session, me.id):
        raise Refused(status.HTTP_409_CONFLICT, "you blocked this player: unblock them first", reason="unblock_first")
    if await social.follows_count(session, me.id) >= settings.max_friends:
        raise Refused(status.HTTP_429_TOO_MANY_REQUESTS,
                      f"you have {settings.max_friends} friends and requests: remove some first",
                      reason="too_many_friends", n=settings.max_friends)
    added = await social.follow(session, me.id, other)
    mutual = added and await social.are_friends(session, me.id, other)
    if added and not mutual:  # a new request (not an acceptance, not asked again): counted for its
        # receiver, whoever sends it (a blocked sender too: the answer tells nothing of a block);
        # over the limit it is taken back (counted once it is made: the same request racing
        # itself counts once)
        wait = services(request.app).limiter.hit("friend_requests_received", other)
        if wait is not None:
            await social.take_back_request(session, me.id, other)
            raise too_many("friend_requests_received", wait)
    if added and me.id not in await social.blocked_by(session, other):  # a blocker is not told
        target = await get_player(session, other)
        quiet = target is not None and target.quiet_requests
        waiting = await social.requests_waiting(session, other) if quiet and not mutual else 0
        notice = request_notice(PlayerRef(player_id=me.id, name=me.name), mutual=mutual, quiet=quiet, waiting=waiting)
        await services(request.app).channels.tell(other, notice)
    if wants_answer(request):  # said only to the asker: whether they are friends now or their request waits
        now = "friends" if mutual or (not added and await social.are_friends(session, me.id, other)) else "requested"
        them = await get_player(session, other)
        answer = Befriended(status=now, name=them.name if them is not None else "")
        return JSONResponse(answer.model_dump(), headers={"Preference-Applied": "return=representation"})
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/friends/{player_id}", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def unfriend(player_id: str, me: CurrentPlayer, session: Session, request: Request) -> Response:
    """Remove a friend, withdraw a request, or decline one (both directions end)."""
    other = await other_player(session, me.id, player_id, "unfriend", reason="self_unfriend")
    limit_social(request, me.id)
    await social.unfollow(session, me.id, other)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/friends", response_model=FriendList)
async def friends(me: CurrentPlayer, session: Session, settings: AppSettings) -> dict[str, Any]:
    """Friends first, then requests to you, then yours; for friends, whether they are online
    and a room of theirs you may join or watch (a public room, or one you are invited to)."""
    hidden = await social.blocked_by(session, me.id)
    rows = [r for r in await social.friends_of(session, me.id) if r.player_id not in hidden]
    mutual = [r.player_id for r in rows if r.status == "friends"]
    online = await social.online_rooms(session, mutual, settings.presence_ttl)
    open_to_me = await invites.open_rooms(session, me.id, {c for rooms in online.values() for c in rooms})
    items = []
    for r in rows:
        rooms = sorted(c for c in online.get(r.player_id, []) if c in open_to_me) if r.status == "friends" else []
        items.append({"player_id": r.player_id, "name": r.name, "status": r.status,
                      "online": r.player_id in online, "room": rooms[0] if rooms else None})
    return {"items": items}


@router.put("/blocks/{player_id}", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def block(player_id: str, me: CurrentPlayer, session: Session, settings: AppSettings,
                request: Request) -> Response:
    """Block a player (it also ends a friendship or request between you). Private."""
    other = await other_player(session, me.id, player_id, "block", reason="self_block")
    limit_social(request, me.id)
    if await social.blocks_count(session, me.id) >= settings.max_blocks:
        raise Refused(status.HTTP_429_TOO_MANY_REQUESTS, f"you have blocked {settings.max_blocks} players",
                      reason="too_many_blocks", n=settings.max_blocks)
    await social.block(session, me.id, other)
    svc = services(request.app)
    await svc.hidden_chat.announce(svc.rooms.bus, me.id, other, True)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/blocks/{player_id}", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def unblock(player_id: str, me: CurrentPlayer, session: Session, request: Request) -> Response:
    other = await other_player(session, me.id, player_id, "unblock", reason="self_unblock")
    limit_social(request, me.id)
    await social.unblock(session, me.id, other)
    svc = services(request.app)
    await svc.hidden_chat.announce(svc.rooms.bus, me.id, other, False)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/blocks", response_model=BlockList)
async def blocks(me: CurrentPlayer, session: Session) -> dict[str, Any]:
    """The players you blocked (only you see this list)."""
    return {"items": [{"player_id": i, "name": n} for i, n in await social.blocked_list(session, me.id)]}
