"""Email addresses (the optional channel; docs/protocol.md, "Email"). Present only
with SPITE_SMTP_URL: without it every route here answers `404` with `code: "email_disabled"`.

An account holder sets an address (`PUT`), which queues a confirmation mail; following its link
(`GET /api/email/confirm?token=…`, no sign-in: the token is signed) confirms it, and only then
do digests go to it. Each digest's unsubscribe link is one click (RFC 8058): a `POST` to it,
with or without the `List-Unsubscribe=One-Click` body, forgets the address; a `GET` of it shows
a page with that button (a link scanner's GET never unsubscribes anyone).

Against mail bombing a stranger: addresses set per client address (SPITE_LIMIT_EMAIL_CLIENTS)
and confirmation mails per recipient address (SPITE_LIMIT_EMAIL_RECIPIENTS) are limited, one
confirmation mail is pending per address at a time (SPITE_EMAIL_RESEND_MINUTES: asking again
within it keeps the address but mails nothing, `confirmation: "pending"`), and the confirmation
mail carries a "never mail me" link (`/api/email/never`, the same GET-asks, POST-does pair): the
address then gets no more mail from the site, and setting it is `403` `email_refused`.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Request, Response, status
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from app.i18n import pick, render
from app.platform.notify.email import CONFIRM, NEVER, UNSUBSCRIBE, BadToken
from app.platform.notify.mailing import NEVER_PATH, UNSUBSCRIBE_PATH, Mailer
from app.store.repositories import emails
from app.web.http.addresses import client_key
from app.web.http.deps import CurrentPlayer, Session
from app.web.http.refused import Refused, too_many
from app.web.http.services import services

router = APIRouter(tags=["email"])
# One address: a local part and a domain with a dot; no spaces, no CR or LF (header injection).
ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                     r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$")


# The site's icon (as static/index.html has it), so a browser does not ask for /favicon.ico.
ICON = (
    '<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns=\'http://www.w3.org/2000/svg\' viewBox=\'0 0 16 '
    "16'%3E%3Crect x='2' y='1' width='12' height='14' rx='2' fill='%23fff' stroke='%23333'/%3E%3Ctext x='"
    '8\' y=\'12\' font-size=\'10\' text-anchor=\'middle\' fill=\'%23c00\'%3E%E2%99%A5%3C/text%3E%3C/svg%3E">'
)


class SetEmail(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")
    email: str = Field(min_length=3, max_length=254)


class EmailOut(BaseModel):
    email: str | None = Field(description="the address kept, null if none")
    confirmed: bool = Field(description="its confirmation link was followed: digests go to it")
    digest_minutes: int = Field(description="at most one digest this often (SPITE_EMAIL_DIGEST_MINUTES)")
    confirmation: Literal["sent", "pending"] | None = Field(
        default=None, description="what setting it did: `sent`, a confirmation mail is on its way; `pending`, one "
                                  "went to this address less than SPITE_EMAIL_RESEND_MINUTES ago and was not "
                                  "followed, so none was sent now; null, nothing (a GET, or already confirmed)")


def _mailer(request: Request) -> Mailer:
    mailer = services(request.app).mailer
    if mailer is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "email is not enabled on this server (SPITE_SMTP_URL is not set)",
                      reason="email_disabled", fields={"code": "email_disabled"})
    return mailer


def _out(row: Any, minutes: int, confirmation: str | None = None) -> dict[str, Any]:
    return {"email": row.email if row else None, "confirmed": bool(row and row.confirmed_at), "digest_minutes": minutes,
            "confirmation": confirmation}


@router.get("/api/players/me/email", response_model=EmailOut)
async def show(request: Request, player: CurrentPlayer, session: Session) -> dict[str, Any]:
    """Your address, if any, and whether it is confirmed."""
    mailer = _mailer(request)
    return _out(await emails.address_of(session, player.id), mailer.settings.email_digest_minutes)


@router.put("/api/players/me/email", status_code=status.HTTP_202_ACCEPTED, response_model=EmailOut)
async def set_address(request: Request, body: SetEmail, player: CurrentPlayer, session: Session) -> dict[str, Any]:
    """Keep this address (unconfirmed) and mail it a confirmation link."""
    mailer = _mailer(request)
    if not player.has_account:
        raise Refused(status.HTTP_403_FORBIDDEN, "email is for players with an account", reason="email_account")
    address = body.email.strip()
    if not ADDRESS.match(address):
        raise Refused(422, "email: not an email address", reason="email_invalid")
    local, _, domain = address.rpartition("@")
    address = f"{local}@{domain.lower()}"
    limiter = services(request.app).limiter
    limiter.check("email_changes", player.id)
    limiter.check("email_clients", client_key(request))
    if await emails.never_mailed(session, address):
        raise Refused(status.HTTP_403_FORBIDDEN, "this address asked never to get mail from this site",
                      reason="email_refused")
    settings = mailer.settings
    kept = await emails.address_of(session, player.id)
    if kept is not None and kept.email == address and kept.confirmed_at is not None:
        return _out(kept, settings.email_digest_minutes)  # confirmed already: nothing to mail
    pending = await emails.confirmation_pending(session, address, settings.email_resend_minutes)
    wait = None if pending else limiter.used_up("email_recipients", address.lower())
    if wait is not None:
        raise too_many("email_recipients", wait)
    row = await emails.set_address(session, player.id, address)
    if pending or not await emails.claim_confirmation(session, address, settings.email_resend_minutes):
        return _out(row, settings.email_digest_minutes, "pending")
    limiter.count("email_recipients", address.lower())
    await emails.queue_confirmation(session, player.id, address, mailer.confirm_expiry())
    if mailer.poke is not None:
        mailer.poke()
    return _out(row, settings.email_digest_minutes, "sent")


@router.delete("/api/players/me/email", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def remove(request: Request, player: CurrentPlayer, session: Session) -> Response:
    """Forget your address (no more mail)."""
    _mailer(request)
    await emails.remove(session, player.id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


async def _page(request: Request, session: Session, player_id: str | None, key: str, code: int = 200,
                form: str | None = None, button_key: str = "email.page.unsubscribe_button") -> HTMLResponse:
    lang = await emails.player_lang(session, player_id) if player_id else None
    lang = pick(lang, accept_language=request.headers.get("accept-language"))
    text = escape(render(lang, key))
    button = ""
    if form is not None:
        button = (f'<form method="post" action="{escape(form)}"><input type="hidden" name="List-Unsubscribe" '
                  f'value="One-Click"><button>{escape(render(lang, button_key))}</button></form>')
    html = (f'<!doctype html><html lang="{lang}"><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width"><title>Spite and Malice</title>{ICON}<p>{text}</p>{button}'
            f'<p><a href="/">Spite and Malice</a></p></html>')
    return HTMLResponse(html, status_code=code, headers={"Cache-Control": "no-store"})


@router.get("/api/email/confirm", response_class=HTMLResponse, include_in_schema=False)
async def confirm(request: Request, session: Session, token: str = "") -> HTMLResponse:
    """Follow the confirmation link: the address gets digests from now on."""
    mailer = _mailer(request)
    try:
        player_id, address = mailer.signer.check(token, CONFIRM)
    except BadToken:
        return await _page(request, session, None, "email.page.bad_link", 400)
    if not await emails.confirm(session, player_id, address):
        return await _page(request, session, player_id, "email.page.bad_link", 400)
    return await _page(request, session, player_id, "email.page.confirmed")


@router.get("/api/email/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe_page(request: Request, session: Session, token: str = "") -> HTMLResponse:
    """The unsubscribe link opened in a browser: a page with the button (GET changes nothing)."""
    mailer = _mailer(request)
    try:
        player_id, _ = mailer.signer.check(token, UNSUBSCRIBE)
    except BadToken:
        return await _page(request, session, None, "email.page.bad_link", 400)
    return await _page(request, session, player_id, "email.page.unsubscribe_ask",
                       form=f"{UNSUBSCRIBE_PATH}?token={quote(token)}")


@router.post("/api/email/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe(request: Request, session: Session, token: str = "") -> HTMLResponse:
    """One-click unsubscribe (RFC 8058): no sign-in, the signed token says whose address."""
    mailer = _mailer(request)
    try:
        player_id, address = mailer.signer.check(token, UNSUBSCRIBE)
    except BadToken:
        return await _page(request, session, None, "email.page.bad_link", 400)
    await emails.remove(session, player_id, address)  # gone already: the same answer
    return await _page(request, session, player_id, "email.page.unsubscribed")


@router.get("/api/email/never", response_class=HTMLResponse, include_in_schema=False)
async def never_page(request: Request, session: Session, token: str = "") -> HTMLResponse:
    """The "never mail me" link opened in a browser: a page with the button (GET changes nothing)."""
    mailer = _mailer(request)
    try:
        mailer.signer.check(token, NEVER)
    except BadToken:
        return await _page(request, session, None, "email.page.bad_link", 400)
    return await _page(request, session, None, "email.page.never_ask", form=f"{NEVER_PATH}?token={quote(token)}",
                       button_key="email.page.never_button")


@router.post("/api/email/never", response_class=HTMLResponse, include_in_schema=False)
async def never(request: Request, session: Session, token: str = "") -> HTMLResponse:
    """The recipient says "never mail me" (no sign-in: the signed token names the address): no
    more mail goes to it, every account's copy of it is forgotten, and no account may set it."""
    mailer = _mailer(request)
    try:
        _, address = mailer.signer.check(token, NEVER)
    except BadToken:
        return await _page(request, session, None, "email.page.bad_link", 400)
    await emails.never_mail(session, address)  # said already: the same answer
    return await _page(request, session, None, "email.page.never_done")
