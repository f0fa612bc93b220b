"""The language a refusal is said in (`refused.Refused`): `?lang=`, else the signed-in player's,
noted by the route's dependency or looked up here with the request's token, else `Accept-Language`.
The lookup reads the store, so it lives apart from the refusals the app's services raise."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Request

from app.i18n import LANGS, pick
from app.store.repositories.tokens import player_by_token
from app.web.http.language import refusal
from app.web.http.refused import Refused
from app.web.http.services import services

log = logging.getLogger(__name__)


async def _player_lang(request: Request) -> str | None:
    """The language of the player whose token the request carries: noted by the route's
    dependency, else looked up here (a route that does not read its caller's token)."""
    if hasattr(request.state, "player_lang"):
        return request.state.player_lang
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token or no_store(request):
        return None
    try:
        svc = services(request.app)
        async with svc.sessions() as s:
            player = await player_by_token(s, token.strip(), svc.settings.token_idle_days)
    except Exception:  # the database is away: the refusal is said all the same, in another language
        log.warning("could not read the language of a refused request's player", exc_info=True)
        return None
    return player.lang if player is not None else None


def no_store(request: Request) -> bool:
    return not services(request.app).started


async def caller_lang(request: Request) -> str:
    query = request.query_params.get("lang")
    return pick(query, None if query in LANGS else await _player_lang(request),
                accept_language=request.headers.get("accept-language"))


async def body_of(request: Request, exc: Refused) -> dict[str, Any]:
    message = refusal(await caller_lang(request), exc.reason, exc.params, exc.english) if exc.reason else exc.english
    return {**exc.fields, "message": message, "detail": exc.english, "reason": exc.reason,
            "params": exc.params if exc.reason else None}
