"""Invitations to a room over REST.

A player in a room (its host, or seated) invites a friend: the friend is told on the lobby
socket at once and, once the notifications queue exists, by push (`invite_notices.invitation`). The
invitee accepts (the answer names the room to open) or declines; the inviter may withdraw;
an invitation expires after `SPITE_INVITATION_SECONDS`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from app.social.core.lobby_messages import InvitationStatus, LobbyInvitation, LobbyInvitationClosed, PlayerRef
from app.social.shell import invite_notices
from app.store.repositories import invites, social
from app.store.tables import Invitation, utcnow
from app.web.http.deps import AppSettings, CurrentPlayer, Rooms, Session
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.routes.social import other_player

router = APIRouter(tags=["invitations"])


class NewInvitation(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    player_id: str = Field(min_length=1, max_length=64)


class InvitationOut(BaseModel):
    id: str
    room: str
    from_: dict[str, str] = Field(serialization_alias="from")
    to: str
    status: str
    expires_at: str


class InvitationList(BaseModel):
    items: list[InvitationOut]


class Accepted(BaseModel):
    room: str
    url: str


def _out(inv: Invitation, from_name: str) -> dict[str, Any]:
    return {"id": inv.id, "room": inv.room_code, "from_": {"player_id": inv.from_id, "name": from_name},
            "to": inv.to_id, "status": invites.status_of(inv, utcnow()), "expires_at": inv.expires_at.isoformat()}


@router.post("/api/rooms/{code}/invitations", status_code=status.HTTP_201_CREATED, response_model=InvitationOut,
             response_model_by_alias=True)
async def invite(code: str, body: NewInvitation, me: CurrentPlayer, session: Session, rooms: Rooms,
                 settings: AppSettings, request: Request) -> dict[str, Any]:
    room = await rooms.describe(code)
    if room is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no room has that code", reason="no_room")
    other = await other_player(session, me.id, body.player_id, "invite", reason="self_invite")
    if me.id != room["host"] and all(s["player_id"] != me.id for s in room["seats"]):
        raise Refused(status.HTTP_403_FORBIDDEN, "only the host or a player seated in the room can invite",
                      reason="invite_seated_only")
    if other in await social.blocked_by(session, me.id):
        raise Refused(status.HTTP_403_FORBIDDEN, "you blocked this player", reason="you_blocked")
    # A blocked player is answered as a stranger is (a block ends a friendship): nothing tells
    # them they are blocked (docs/protocol.md, "What a block does").
    if me.id in await social.blocked_by(session, other) or not await social.are_friends(session, me.id, other):
        raise Refused(status.HTTP_403_FORBIDDEN, "you can invite only your friends", reason="friends_only")
    found = await invites.existing(session, room["code"], me.id, other)
    if found is not None:  # asked again: the same invitation, not a second one
        return _out(found, me.name)
    if await invites.pending_sent(session, me.id) >= settings.max_pending_invitations:
        raise Refused(status.HTTP_429_TOO_MANY_REQUESTS,
                      f"you have {settings.max_pending_invitations} invitations waiting for an answer",
                      reason="too_many_invitations", n=settings.max_pending_invitations)
    svc = services(request.app)
    svc.limiter.check("invitations", me.id)
    inv = await invites.create(session, room["code"], me.id, other, settings.invitation_seconds)
    await svc.channels.tell(other, LobbyInvitation(id=inv.id, room=inv.room_code,
                                               from_=PlayerRef(player_id=me.id, name=me.name),
                                               expires_at=inv.expires_at.isoformat()))
    await invite_notices.invitation(svc.sessions, svc.notifier.poke, inv, me.name,
                                   settings.notify_player_hour)
    return _out(inv, me.name)


@router.get("/api/players/me/invitations", response_model=InvitationList, response_model_by_alias=True)
async def mine(me: CurrentPlayer, session: Session) -> dict[str, Any]:
    """Invitations to you that are still open, newest first."""
    return {"items": [_out(inv, name) for inv, name in await invites.open_for(session, me.id)]}


async def _answerable(session: Session, inv_id: str, player_id: str, as_invitee: bool) -> Invitation:
    inv = await invites.get(session, inv_id)
    if inv is None or (inv.to_id if as_invitee else inv.from_id) != player_id:
        raise Refused(status.HTTP_404_NOT_FOUND, "no invitation of yours has that id", reason="no_invitation")
    now_status = invites.status_of(inv, utcnow())
    if now_status == "expired":
        raise Refused(status.HTTP_410_GONE, "that invitation has expired", reason="invitation_expired")
    if now_status != "pending":
        raise Refused(status.HTTP_409_CONFLICT, f"that invitation was already {now_status}",
                      reason="invitation_answered", status=now_status)
    return inv


async def _close(request: Request, session: Session, inv: Invitation, to_status: InvitationStatus) -> None:
    if not await invites.answer(session, inv.id, to_status):
        raise Refused(status.HTTP_409_CONFLICT, "that invitation was answered meanwhile", reason="invitation_raced")
    channels = services(request.app).channels
    message = LobbyInvitationClosed(id=inv.id, room=inv.room_code, status=to_status)
    await channels.tell(inv.from_id, message)
    await channels.tell(inv.to_id, message)


@router.post("/api/invitations/{inv_id}/accept", response_model=Accepted)
async def accept(inv_id: str, me: CurrentPlayer, session: Session, settings: AppSettings,
                 request: Request) -> dict[str, Any]:
    """Accept: the answer names the room to open (sit there as in any room)."""
    inv = await _answerable(session, inv_id, me.id, as_invitee=True)
    await _close(request, session, inv, "accepted")
    return {"room": inv.room_code, "url": f"{settings.public_url.rstrip('/')}/r/{inv.room_code}"}


@router.post("/api/invitations/{inv_id}/decline", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def decline(inv_id: str, me: CurrentPlayer, session: Session, request: Request) -> Response:
    inv = await _answerable(session, inv_id, me.id, as_invitee=True)
    await _close(request, session, inv, "declined")
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/api/invitations/{inv_id}", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def withdraw(inv_id: str, me: CurrentPlayer, session: Session, request: Request) -> Response:
    """The inviter takes an invitation back."""
    inv = await _answerable(session, inv_id, me.id, as_invitee=False)
    await _close(request, session, inv, "withdrawn")
    return Response(status_code=status.HTTP_204_NO_CONTENT)
