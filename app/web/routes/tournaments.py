"""Tournaments over REST (docs/protocol.md, "Tournaments (v1.4)"; docs/tournaments.md): create,
list, read, join, withdraw, start. The rounds themselves are run by
`app.tournaments.shell.runner.TournamentRunner` on whichever instance holds its lease.

A public tournament is listed and may be joined by its id; a private one only by its code (the
invite link `/t/{code}`), and read by its id only by its players and organiser.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request, status

from app.i18n import DEFAULT, render
from app.rooms.core import commands as C
from app.rooms.core.config import resolve
from app.rooms.core.errors import ConfigError, RoomError
from app.store.repositories import awards
from app.store.repositories import tournaments as store
from app.store.repositories.players import new_id
from app.store.tables import Player, Tournament
from app.tournaments.core import settings as rules
from app.tournaments.shell import plan
from app.web.http.deps import AppSettings, CurrentPlayer, MaybePlayer, Session
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.wire.tournaments import NewTournament, TournamentList, TournamentMade, TournamentOut

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


def _refused(r: rules.Refusal | store.Refused, code: int = status.HTTP_422_UNPROCESSABLE_CONTENT) -> Refused:
    """A refusal of the core or the store, its English `detail` the catalogue's own sentence."""
    return Refused(code, render(DEFAULT, f"reason.{r.reason}", r.params), reason=r.reason, **r.params)


async def _find(session: Any, key: str, viewer: Player | None, *, for_join: bool = False) -> Tournament:
    """The tournament `key` names: its code (anyone), or its id (public ones; a private one
    only for its players and organiser, and never to join)."""
    t = await store.by_code(session, key)
    if t is not None:
        return t
    t = await store.get(session, key)
    if t is not None and not t.public:
        mine = viewer is not None and (viewer.id == t.organiser_id
                                       or any(p.player_id == viewer.id for p in await store.players(session, t.id)))
        if for_join or not mine:
            t = None
    if t is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no tournament has that id or code", reason="no_tournament")
    return t


@router.post("", status_code=status.HTTP_201_CREATED, response_model=TournamentMade)
async def create(body: NewTournament, me: CurrentPlayer, session: Session, settings: AppSettings,
                 request: Request) -> dict[str, Any]:
    """Create a tournament; the caller organises it (and does not join it by that)."""
    svc = services(request.app)
    now = svc.clock.now()
    raw = body.model_dump(mode="json")
    checked = rules.validate(body.model_dump(), now)
    if isinstance(checked, rules.Refusal):
        raise _refused(checked)
    if body.rated and not me.has_account:
        raise Refused(status.HTTP_403_FORBIDDEN, "only players with an account can organise a rated tournament",
                      reason="tournament_rated_host")
    try:
        resolve(body.preset, body.options, body.seats, body.turn_seconds, min_turn=settings.min_turn_seconds,
                max_turn=settings.max_turn_seconds, rated=body.rated, pace=body.pace,
                turn_based_min=settings.turn_based_min_seconds, rated_min_turn=settings.rated_min_turn_seconds)
    except ConfigError as e:
        raise Refused(422, e.message, reason=e.reason, fields={"option": e.option} if e.option else None,
                      **e.params) from e
    row = Tournament(id=new_id(), code=secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"),
                     name=body.name.strip(), organiser_id=me.id, format=body.format, settings=raw,
                     public=body.public, status=store.OPEN, round=0, entries=0, starts_at=body.starts_at,
                     created_at=now)
    try:
        await store.create(session, row, cap=settings.max_tournaments_organised)
    except store.Refused as e:
        raise _refused(e, status.HTTP_429_TOO_MANY_REQUESTS) from None
    return {"id": row.id, "code": row.code, "invite_url": f"{settings.public_url.rstrip('/')}/t/{row.code}",
            "name": row.name, "format": row.format, "status": row.status}


@router.get("", response_model=TournamentList)
async def listed(session: Session, viewer: MaybePlayer, player: str | None = None) -> dict[str, Any]:
    """Public tournaments open or running; with `?player=<id>`, that player's tournaments (their
    history and profile), newest first, public ones only unless it is the caller's."""
    rows = await (store.of_player(session, player) if player else store.listed(session))
    own = player is not None and viewer is not None and viewer.id == player
    return {"items": [{"id": t.id, "code": t.code if t.public else None, "name": t.name, "format": t.format,
                       "status": t.status, "players": t.entries, "max_players": t.settings.get("max_players"),
                       "pace": t.settings.get("pace"), "rated": t.settings.get("rated"),
                       "starts_at": t.starts_at.isoformat() if t.starts_at else None,
                       "finished_at": t.finished_at.isoformat() if t.finished_at else None}
                      for t in rows if t.public or player is None or own]}


@router.get("/{key}", response_model=TournamentOut)
async def one(key: str, session: Session, viewer: MaybePlayer) -> dict[str, Any]:
    """One tournament: settings, standings, rounds and their tables."""
    t = await _find(session, key, viewer)
    return await _described(session, t)


async def _described(session: Any, t: Tournament) -> dict[str, Any]:
    rows = list(await store.players(session, t.id))
    organiser = await session.get(Player, t.organiser_id)
    rounds = list(await store.rounds(session, t.id))
    tables = list(await store.tables(session, t.id))
    names = {p.player_id: p.name for p in rows}
    return plan.describe(t, organiser.name if organiser else "", plan.entrants_of(rows), rounds, tables, names)


@router.post("/{key}/players", status_code=status.HTTP_201_CREATED, response_model=TournamentOut)
async def join(key: str, me: CurrentPlayer, session: Session, settings: AppSettings,
               request: Request) -> dict[str, Any]:
    """Join (a rated tournament needs an account)."""
    t = await _find(session, key, me, for_join=True)
    if t.settings.get("rated") and not me.has_account:
        raise Refused(status.HTTP_403_FORBIDDEN, "only players with an account can play rated tournaments",
                      reason="tournament_rated")
    late = rules.may_join(plan.settings_of(t), t.status, t.round, services(request.app).clock.now(), t.ends_at,  # type: ignore[arg-type]
                          players=t.entries)
    if late is not None:
        raise _refused(late, status.HTTP_409_CONFLICT)
    rating = await awards.rating_of(session, me.id)
    try:
        await store.join(session, t, player_id=me.id, name=me.name, rating=rating.mu if rating else None,
                         max_players=int(t.settings.get("max_players") or 16), cap=settings.max_tournaments_joined)
    except store.Refused as e:
        code = status.HTTP_429_TOO_MANY_REQUESTS if e.reason == "tournament_cap_joined" else status.HTTP_409_CONFLICT
        raise _refused(e, code) from None
    await _tell(request, session, t)
    return await _described(session, t)


@dataclass
class _Withdrawing:
    """The withdrawing player as the room's pump sees a peer: they resign their running table."""

    player_id: str
    name: str
    account: bool
    avoid: frozenset[str] = field(default_factory=frozenset)


@router.delete("/{key}/players/me", response_model=TournamentOut)
async def withdraw(key: str, me: CurrentPlayer, session: Session, request: Request) -> dict[str, Any]:
    """Withdraw: never paired again; a table still running is resigned (a loss)."""
    t = await _find(session, key, me)
    svc = services(request.app)
    if not await store.withdraw(session, t.id, me.id, svc.clock.now()):
        raise Refused(status.HTTP_409_CONFLICT, "you are not playing in this tournament",
                      reason="tournament_not_in")
    for tb in await store.tables(session, t.id):
        if tb.finished or me.id not in tb.seats:
            continue
        await store.mark_forfeit(session, tb, tb.seats.index(me.id))
        if tb.room_code is not None:
            try:
                room = await svc.rooms.live(tb.room_code)
                await svc.rooms.pump.command(room, _Withdrawing(me.id, me.name, me.has_account),  # type: ignore[arg-type]
                                             C.Resign())
            except RoomError as e:
                log.info("tournament %s: the withdrawn player's table was not resigned: %s", t.id, e.message)
    await _tell(request, session, t)
    return await _described(session, await store.get(session, t.id) or t)


@router.post("/{key}/start", response_model=TournamentOut)
async def start(key: str, me: CurrentPlayer, session: Session, request: Request) -> dict[str, Any]:
    """The organiser starts the tournament now (pairs its first round)."""
    t = await _find(session, key, me)
    if me.id != t.organiser_id:
        raise Refused(status.HTTP_403_FORBIDDEN, "only the organiser may start the tournament",
                      reason="tournament_organiser")
    if t.status != store.OPEN:
        raise Refused(status.HTTP_409_CONFLICT, "the tournament has started already", reason="tournament_started")
    active = [p for p in await store.players(session, t.id) if p.withdrawn_at is None]
    refused = rules.check_start(plan.settings_of(t), len(active))
    if refused is not None:
        raise _refused(refused, status.HTTP_409_CONFLICT)
    runner = services(request.app).tournaments
    await session.commit()  # the runner uses sessions of its own: let go of this connection (SQLite has one)
    if not await runner.begin(t, services(request.app).clock.now()):
        raise Refused(status.HTTP_409_CONFLICT, "the tournament has started already", reason="tournament_started")
    runner.poke()  # its tables are made by the runner (on the instance holding its lease)
    return await _described(session, await store.get(session, t.id) or t)


async def _tell(request: Request, session: Any, t: Tournament) -> None:
    """The standings changed (a player came or went): tell the tournament's players."""
    ids = [p.player_id for p in await store.players(session, t.id)]
    await session.commit()  # let go of the connection (SQLite's pool has one)
    await services(request.app).tournaments.notices.standings(t.id, ids)
