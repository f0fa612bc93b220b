"""Players: guest identities, profiles, match history and stats."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, status

from app.store import history
from app.store.players import create_player, get_player, rename_player

from .deps import CurrentPlayer, MaybePlayer, Session
from .ratelimit import per_address
from .responses import Page, PlayerCreated, PlayerOut, PlayerStats
from .schemas import NewPlayer, Rename

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=PlayerCreated,
             dependencies=[Depends(per_address("new_players", "new players from your address"))])
async def new_player(body: NewPlayer, session: Session) -> PlayerCreated:
    """A guest identity. Keep the token: it is shown once and is stored only as a hash."""
    player, token = await create_player(session, body.name)
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me", response_model=PlayerOut)
async def me(player: CurrentPlayer) -> PlayerOut:
    return PlayerOut(id=player.id, name=player.name)


@router.patch("/me", response_model=PlayerOut)
async def rename(body: Rename, player: CurrentPlayer, session: Session) -> PlayerOut:
    """Change your display name (matches already played keep the old one)."""
    player = await rename_player(session, player, body.name)
    return PlayerOut(id=player.id, name=player.name)


async def _known(session: Session, player_id: str) -> None:
    if await get_player(session, player_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "no player has that id")


@router.get("/{player_id}", response_model=PlayerOut)
async def profile(player_id: str, session: Session) -> PlayerOut:
    player = await get_player(session, player_id)
    if player is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "no player has that id")
    return PlayerOut(id=player.id, name=player.name)


@router.get("/{player_id}/matches", response_model=Page)
async def matches(player_id: str, session: Session, viewer: MaybePlayer,
                  cursor: Annotated[str | None, Query(max_length=200)] = None,
                  limit: Annotated[int, Query(ge=1, le=100)] = 20) -> Page:
    """The player's matches, newest first; pass `next` back as `cursor` for the next page.
    Each names its room only if the room is public or the caller (by token) played in it."""
    await _known(session, player_id)
    try:
        items, nxt = await history.player_matches(session, player_id, cursor, limit, viewer.id if viewer else None)
    except history.BadCursor as e:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, str(e)) from e
    return Page.model_validate({"items": items, "next": nxt})


@router.get("/{player_id}/stats", response_model=PlayerStats)
async def stats(player_id: str, session: Session) -> dict[str, Any]:
    """Matches played and won, points, hands, and the average pay-off cards left per hand."""
    player = await get_player(session, player_id)
    if player is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "no player has that id")
    return {"name": player.name, **await history.player_stats(session, player_id)}
