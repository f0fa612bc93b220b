"""Players: guest identities, profiles, match history and stats."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, status

from app.domain.device import device_of
from app.rooms.core.achievements import CATALOG, TOURNAMENT_KINDS
from app.store.repositories import awards, history
from app.store.repositories.players import create_player, get_player, rename_player
from app.store.tables import Player, utcnow
from app.web.http.deps import AppSettings, CurrentPlayer, MaybePlayer, Session, per_address
from app.web.http.refused import Refused
from app.web.wire.requests import NewPlayer, Rename
from app.web.wire.responses import (
    AchievementList,
    Leaderboard,
    Page,
    PlayerChanged,
    PlayerCreated,
    PlayerMe,
    PlayerProfile,
    PlayerStats,
    RatingPage,
)

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=PlayerCreated,
             dependencies=[Depends(per_address("new_players"))])
async def new_player(body: NewPlayer, session: Session, request: Request) -> PlayerCreated:
    """A guest identity. Keep the token: it is shown once and is stored only as a hash."""
    player, token = await create_player(session, body.name, device_of(request.headers.get("user-agent")))
    return PlayerCreated(id=player.id, name=player.name, token=token)


async def _profile(session: Session, player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "account": player.has_account,
            "rating": awards.rating_json(await awards.rating_of(session, player.id))}


@router.get("/me", response_model=PlayerMe)
async def me(player: CurrentPlayer, session: Session) -> dict[str, Any]:
    """Your profile, with the username you sign in with (null while you are a guest)."""
    failed = ({"count": player.failed_signins, "last_at": player.failed_signin_at}
              if player.has_account else None)
    return {**await _profile(session, player), "username": player.username, "failed_sign_ins": failed,
            "lang": player.lang, "quiet_requests": player.quiet_requests}


@router.patch("/me", response_model=PlayerChanged)
async def rename(body: Rename, player: CurrentPlayer, session: Session) -> PlayerChanged:
    """Change your display name (matches already played keep the old one), the language the
    server and the client speak to you, and/or whether friend requests arrive quietly."""
    if body.name is None and body.lang is None and body.quiet_requests is None:
        raise Refused(422, "give a name, a lang, or both", reason="name_or_lang")
    player = await rename_player(session, player, body.name, body.lang, body.quiet_requests)
    return PlayerChanged(id=player.id, name=player.name, lang=player.lang, quiet_requests=player.quiet_requests)


async def _known(session: Session, player_id: str) -> None:
    if await get_player(session, player_id) is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no player has that id", reason="no_player")


@router.get("/{player_id}", response_model=PlayerProfile)
async def profile(player_id: str, session: Session) -> dict[str, Any]:
    """A player's name, whether they hold an account, and their rating (null before any rated match)."""
    player = await get_player(session, player_id)
    if player is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no player has that id", reason="no_player")
    return await _profile(session, player)


@router.get("/{player_id}/ratings", response_model=RatingPage)
async def ratings(player_id: str, session: Session, cursor: Annotated[str | None, Query(max_length=200)] = None,
                  limit: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
    """The player's rating before and after each rated match, newest first."""
    await _known(session, player_id)
    try:
        items, nxt = await awards.rating_history(session, player_id, cursor, limit)
    except awards.BadCursor as e:
        raise Refused(status.HTTP_400_BAD_REQUEST, str(e), reason="bad_cursor") from e
    return {"items": items, "next": nxt}


@router.get("/{player_id}/achievements", response_model=AchievementList)
async def achievements(player_id: str, session: Session) -> dict[str, Any]:
    """Every achievement there is, with when the player earned it (null if not yet)."""
    await _known(session, player_id)
    got = await awards.earned_by(session, player_id)
    return {"items": [{"key": k.key, "name": k.name, "description": k.description,
                       "earned_at": got[k.key].earned_at.isoformat() if k.key in got else None,
                       "match_id": got[k.key].match_id if k.key in got else None}
                      for k in CATALOG + TOURNAMENT_KINDS]}


@router.get("/{player_id}/matches", response_model=Page)
async def matches(player_id: str, session: Session, viewer: MaybePlayer, settings: AppSettings,
                  cursor: Annotated[str | None, Query(max_length=200)] = None,
                  limit: Annotated[int, Query(ge=1, le=100)] = 20) -> Page:
    """The player's matches, newest first; pass `next` back as `cursor` for the next page.
    Each names its room only if the room is public or the caller (by token) played in it."""
    await _known(session, player_id)
    try:
        items, nxt = await history.player_matches(session, player_id, cursor, limit, viewer.id if viewer else None,
                                                   settings.abandoned_after)
    except history.BadCursor as e:
        raise Refused(status.HTTP_400_BAD_REQUEST, str(e), reason="bad_cursor") from e
    return Page.model_validate({"items": items, "next": nxt})


@router.get("/{player_id}/stats", response_model=PlayerStats)
async def stats(player_id: str, session: Session, settings: AppSettings) -> dict[str, Any]:
    """Matches played and won, points, matches going on, hands, and the average pay-off cards left per hand."""
    player = await get_player(session, player_id)
    if player is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no player has that id", reason="no_player")
    return {"name": player.name, **await history.player_stats(session, player_id, settings.abandoned_after)}


leaders = APIRouter(prefix="/api/leaderboard", tags=["players"])


@leaders.get("", response_model=Leaderboard)
async def leaderboard(session: Session, settings: AppSettings, viewer: MaybePlayer,
                      cursor: Annotated[str | None, Query(max_length=200)] = None,
                      limit: Annotated[int, Query(ge=1, le=100)] = 50) -> dict[str, Any]:
    """Players with at least SPITE_LEADERBOARD_MIN_GAMES rated matches against
    SPITE_LEADERBOARD_MIN_OPPONENTS established players, highest ordinal first (docs/rules.md,
    "Ratings"); the rules themselves, and where the caller stands against them."""
    min_age = timedelta(hours=settings.leaderboard_min_age_hours)
    try:
        items, nxt = await awards.leaderboard(session, settings.leaderboard_min_games, cursor, limit,
                                              settings.leaderboard_min_opponents, min_age)
    except awards.BadCursor as e:
        raise Refused(status.HTTP_400_BAD_REQUEST, str(e), reason="bad_cursor") from e
    you = None
    if viewer is not None:
        games, opponents, made = await awards.standing(session, viewer.id, min_age)
        old_enough = (made or utcnow()) + min_age
        you = {"games": games, "opponents": opponents, "old_enough_at": old_enough.isoformat(),
               "listed": games >= settings.leaderboard_min_games and opponents >= settings.leaderboard_min_opponents
               and old_enough <= utcnow()}
    return {"items": items, "next": nxt, "min_games": settings.leaderboard_min_games,
            "min_opponents": settings.leaderboard_min_opponents,
            "min_age_hours": settings.leaderboard_min_age_hours, "you": you}
