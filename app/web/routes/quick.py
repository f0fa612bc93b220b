"""Quick match over REST: a ticket per player at a time, in the database's queue,
paired by `app.social.shell.quick_match.QuickMatch` on whichever instance holds the matcher's lease."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel, ConfigDict

from app.social.core.lobby_messages import LobbyQuickMatch
from app.store.repositories import quick_tickets as quick_store
from app.web.http.deps import AppSettings, CurrentPlayer, Session
from app.web.http.refused import Refused
from app.web.http.services import services

router = APIRouter(prefix="/api/quick-match", tags=["quick match"])


class NewTicket(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seats: Literal[2, 4] = 2
    rated: bool = False
    pace: Literal["live"] = "live"
    bots: bool = True  # an unrated ticket may get bots after SPITE_QUICK_MATCH_BOT_SECONDS


class TicketMade(BaseModel):
    ticket: str
    status: str


class TicketStatus(BaseModel):
    ticket: str
    status: Literal["waiting", "matched", "cancelled"]
    room: str | None
    seats: int
    rated: bool
    bots: bool
    created_at: str


@router.post("", status_code=status.HTTP_202_ACCEPTED, response_model=TicketMade)
async def join(body: NewTicket, me: CurrentPlayer, session: Session, settings: AppSettings,
               request: Request) -> dict[str, Any]:
    """Join the queue. One open ticket per player (`409`, naming it); rated play needs an account."""
    if body.rated and not me.has_account:
        raise Refused(status.HTTP_403_FORBIDDEN, "only players with an account can play rated matches",
                      reason="quick_rated")
    ordinal = await quick_store.ordinal_of(session, me.id)
    try:
        ticket = await quick_store.create(session, me.id, seats=body.seats, rated=body.rated, pace=body.pace,
                                          bots=body.bots and not body.rated, ordinal=ordinal,
                                          cap=settings.quick_match_queue)
    except quick_store.QueueFull:
        raise Refused(status.HTTP_429_TOO_MANY_REQUESTS, "the quick-match queue is full; try again shortly",
                      reason="quick_full", headers={"Retry-After": "10"}) from None
    except quick_store.AlreadyWaiting:
        found = await quick_store.open_ticket(session, me.id)
        raise Refused(status.HTTP_409_CONFLICT, "you are already waiting for a quick match", reason="quick_waiting",
                      fields={"ticket": found.id if found else None}) from None
    return {"ticket": ticket, "status": "waiting"}


@router.get("/{ticket_id}", response_model=TicketStatus)
async def one(ticket_id: str, me: CurrentPlayer, session: Session) -> dict[str, Any]:
    t = await quick_store.get(session, ticket_id)
    if t is None or t.player_id != me.id:
        raise Refused(status.HTTP_404_NOT_FOUND, "no ticket of yours has that id", reason="no_ticket")
    shown = "waiting" if t.status == "pairing" else t.status
    return {"ticket": t.id, "status": shown, "room": t.room_code, "seats": t.seats, "rated": t.rated, "bots": t.bots,
            "created_at": t.created_at.isoformat()}


@router.delete("/{ticket_id}", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def cancel(ticket_id: str, me: CurrentPlayer, session: Session, request: Request) -> Response:
    """Leave the queue (`409` once the ticket is matched: go to its room)."""
    t = await quick_store.get(session, ticket_id)
    if t is None or t.player_id != me.id:
        raise Refused(status.HTTP_404_NOT_FOUND, "no ticket of yours has that id", reason="no_ticket")
    if t.status == "cancelled":
        return Response(status_code=status.HTTP_204_NO_CONTENT)
    if not await quick_store.cancel(session, t.id, me.id):
        raise Refused(status.HTTP_409_CONFLICT, "that ticket has found a table already", reason="ticket_matched")
    channels = services(request.app).channels
    await channels.tell(me.id, LobbyQuickMatch(ticket=t.id, status="cancelled"))
    return Response(status_code=status.HTTP_204_NO_CONTENT)
