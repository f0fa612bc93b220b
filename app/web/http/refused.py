"""A REST refusal in the caller's language (docs/protocol.md, "Errors over HTTP" and "Languages").

`raise Refused(404, "no room has that code", reason="no_room")` answers
`{"message": <the caller's language>, "detail": <the English>, "reason": "no_room", "params": {}}`:
`detail` stays the server's English sentence (what clients read before v1.3), `message` is the
catalogue's `reason.<reason>` with `params` filled in, in the caller's language: `?lang=`, else
the signed-in player's (`PATCH /api/players/me`), else `Accept-Language`, else English.
`fields` are more keys of the body (`option`, `room`, `ticket`, ...)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import HTTPException, Request

from app.i18n import pick
from app.web.http.language import refusal

log = logging.getLogger(__name__)

# What a `too_many` refusal (429) counts: the catalogues say each as `limit.<kind>`.
LIMITS: dict[str, str] = {
    "new_players": "new players from your address", "new_rooms": "rooms created from your address",
    "player_rooms": "rooms created by you", "public_rooms": "public rooms from your address",
    "new_accounts": "accounts claimed from your address", "replays": "replays asked from your address",
    "reviews": "review requests from your address", "social": "friend and block changes",
    "invitations": "invitations", "email_changes": "address changes", "signins": "sign-ins",
    "email_recipients": "confirmation mails to this address", "email_clients": "addresses set from your address",
    "signin_failures": "failed sign-ins", "connects": "connections",
    "friend_requests_received": "friend requests to this player",
}


class Refused(HTTPException):
    """An HTTP refusal with a stable `reason` key and its `params` (plain JSON values)."""

    def __init__(self, status_code: int, english: str, *, reason: str | None,
                 headers: dict[str, str] | None = None, fields: dict[str, Any] | None = None,
                 **params: Any) -> None:
        super().__init__(status_code, english, headers=headers)
        self.english = english
        self.reason = reason
        self.params = params
        self.fields = dict(fields or {})


def too_many(kind: str, wait: int) -> Refused:
    """429: `kind` (one of LIMITS) is used up for `wait` seconds."""
    return Refused(429, f"too many {LIMITS[kind]}; try again in {wait} s", reason="too_many",
                   headers={"Retry-After": str(wait)}, what=kind, wait=wait)


def note_player_lang(request: Request, lang: str | None) -> None:
    """Remember the signed-in caller's language for the refusals of this request."""
    request.state.player_lang = lang


def header_lang(request: Request) -> str:
    """The caller's language without asking the database (`?lang=`, a player already known,
    `Accept-Language`): for the answers given when the database is away or the request is bad."""
    return pick(request.query_params.get("lang"), getattr(request.state, "player_lang", None),
                accept_language=request.headers.get("accept-language"))


def said(lang: str, english: str, reason: str, **params: Any) -> dict[str, Any]:
    """A refusal's body said in `lang`, for the answers made outside `Refused`."""
    return {"message": refusal(lang, reason, params, english), "detail": english, "reason": reason,
            "params": params}
