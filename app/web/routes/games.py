"""Your games: every room the caller sits in that is not over, the caller's turns
first, then the soonest deadline."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter

from app.store.repositories.games import GameRow, player_games
from app.web.http.deps import CurrentPlayer, Session
from app.web.wire.responses import GameList

router = APIRouter(prefix="/api/players/me", tags=["games"])


def _item(row: GameRow) -> dict[str, Any]:
    playing = row.match_status == "playing"
    your_turn = playing and row.turn_seat is not None and row.turn_seat == row.my_seat
    return {
        "code": row.code, "url": f"/r/{row.code}", "pace": row.pace,
        "status": row.match_status or row.status, "your_turn": your_turn,
        "deadline": row.deadline.isoformat() if playing and row.deadline is not None else None,
        "turn_seat": row.turn_seat if playing else None, "you": row.my_seat,
        "seats": [{"seat": s["seat"], "name": s["name"], "bot": s["bot"], "team": s["team"]} for s in row.seats],
        "last_move_at": row.last_move_at.isoformat() if row.last_move_at is not None else None,
        "started_at": row.started_at.isoformat() if row.started_at is not None else None,
        "match_id": row.match_id, "turn_seconds": row.turn_seconds,
    }


FAR = datetime.max.replace(tzinfo=UTC)


@router.get("/games", response_model=GameList)
async def my_games(player: CurrentPlayer, session: Session) -> dict[str, Any]:
    """Every room you sit in that is not over: yours to move first, then by the soonest deadline."""
    rows = await player_games(session, player.id)
    items = [_item(r) for r in rows]
    deadline = {r.code: (r.deadline or FAR) for r in rows}
    items.sort(key=lambda i: (not i["your_turn"], i["deadline"] is None, deadline[i["code"]], i["code"]))
    return {"items": items, "your_turn": sum(1 for i in items if i["your_turn"])}
