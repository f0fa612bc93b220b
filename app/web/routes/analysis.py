"""The analysis board over REST (docs/protocol.md, "Analysis board (v1.4)").

`POST /api/matches/{id}/analysis` (a player's token, guests included; a finished match whose
replay the caller may see: not a daily deal on its day, not a duplicate tournament's table while
its round is played): the position at version `v` as seat `seat` saw it, after that seat's what-if
moves, with its best moves and their chances from that seat's view (app/analysis)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.analysis.shell import Refusal
from app.web.http.caller_lang import caller_lang
from app.web.http.deps import CurrentPlayer
from app.web.http.language import refusal
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.routes import daily
from app.web.routes.matches import _known_shape
from app.web.wire.analysis import AnalysisAnswer, AnalysisQuestion

router = APIRouter(prefix="/api/matches", tags=["analysis"])


@router.post("/{match_id}/analysis", response_model=AnalysisAnswer)
async def analyse(match_id: str, body: AnalysisQuestion, player: CurrentPlayer, request: Request) -> dict[str, Any]:
    """The board's answer for one position (4xx with a `reason` for a question it refuses)."""
    _known_shape(match_id)
    await daily.refuse_sealed(request, match_id)  # a daily deal on its day, a duplicate round being played
    svc = services(request.app)
    try:
        return await svc.analysis.ask(svc.sessions, player.id, match_id, body.v, body.seat, body.moves)
    except Refusal as e:
        headers = {"Retry-After": str(e.params["wait"])} if e.status == 429 and "wait" in e.params else None
        english, params = str(e), e.params
        if e.reason == "illegal_move":  # the engine's reason, said in the caller's language inside ours
            why = refusal(await caller_lang(request), e.fields.get("move_reason"), e.fields.get("move_params"), english)
            english, params = f"that move cannot be tried here: {english}", {"why": why}
        raise Refused(e.status, english, reason=e.reason, headers=headers, fields=e.fields, **params) from e
