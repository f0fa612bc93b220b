"""Accounts: a guest claims a username and password (`POST /api/account`) and can then sign in
on any device (`POST /api/sessions`: a new token for the same player), and change the password
(`PUT /api/account/password`, which ends every other device's token). Passwords are hashed with
argon2id behind the hash gate (`passwords`) and never logged; no database connection is held
while a password is hashed.

Wrong username or wrong password is one `401` with one message. How many tries are let through,
and from where, is `signin.SignInGuard`'s to decide, before the hash.
"""

from __future__ import annotations

import asyncio
from typing import NoReturn

from fastapi import APIRouter, Depends, Request, Response, status

from app.domain.device import device_of
from app.store.repositories import accounts
from app.store.repositories.accounts import AlreadyAnAccount, UsernameTaken
from app.store.repositories.tokens import hash_token
from app.web.http.addresses import client_key
from app.web.http.deps import AppSettings, BearerToken, CurrentPlayer, Session, per_address
from app.web.http.passwords import Busy, HashGate
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.http.signin import FAILURE, SUCCESS, Ticket
from app.web.wire.requests import USERNAME, NewAccount, NewPassword, SignIn
from app.web.wire.responses import AccountOut, PlayerCreated

router = APIRouter(tags=["accounts"])
WRONG = "wrong username or password"


def _gate(request: Request) -> HashGate:
    gate = services(request.app).hash_gate
    return gate


def _busy() -> NoReturn:
    raise Refused(status.HTTP_429_TOO_MANY_REQUESTS, "the server is busy checking passwords; try again in 1 s",
                  reason="hash_busy", headers={"Retry-After": "1"})


@router.post("/api/account", status_code=status.HTTP_201_CREATED, response_model=AccountOut,
             dependencies=[Depends(per_address("new_accounts"))])
async def claim(body: NewAccount, player: CurrentPlayer, session: Session, request: Request) -> AccountOut:
    """Turn the calling guest into an account: same player id, so its history stays."""
    if player.has_account:
        raise Refused(status.HTTP_409_CONFLICT, "you already have an account", reason="has_account")
    if await accounts.by_username(session, body.username) is not None:
        raise Refused(status.HTTP_409_CONFLICT, "that username is taken", reason="username_taken")
    await session.close()  # no connection held across the hash
    try:
        hashed = await _gate(request).hash(body.password)
    except Busy:
        _busy()
    try:
        done = await accounts.claim(session, player, body.username, hashed)
    except UsernameTaken as e:
        raise Refused(status.HTTP_409_CONFLICT, "that username is taken", reason="username_taken") from e
    except AlreadyAnAccount as e:
        raise Refused(status.HTTP_409_CONFLICT, "you already have an account", reason="has_account") from e
    assert done.username is not None
    return AccountOut(id=done.id, name=done.name, username=done.username)


async def _check(request: Request, ticket: Ticket, hashed: str | None, password: str) -> bool:
    """Hash-check `password` under `ticket`: every count given back if it cannot be checked."""
    guard = services(request.app).signin_guard
    try:
        ok = await _gate(request).verify(hashed, password)
    except BaseException as e:
        ticket.give_back(*SUCCESS, *FAILURE)
        if isinstance(e, Busy):
            _busy()
        raise
    guard.settle(ticket, ok)
    return ok


async def _refuse(request: Request, user: str, headers: dict[str, str] | None, code: int, message: str,
                  reason: str) -> NoReturn:
    guard = services(request.app).signin_guard
    delay = guard.failure_delay(user)
    if delay:
        await asyncio.sleep(delay)
    raise Refused(code, message, reason=reason, headers=headers)


@router.post("/api/sessions", status_code=status.HTTP_201_CREATED, response_model=PlayerCreated)
async def sign_in(body: SignIn, session: Session, request: Request, settings: AppSettings) -> PlayerCreated:
    """Sign in with a username and password: a new bearer token for the same player."""
    user = accounts.username_key(body.username)[:100]
    ticket = services(request.app).signin_guard.admit(user, client_key(request))
    try:
        player = await accounts.by_username(session, body.username) if USERNAME.fullmatch(body.username) else None
        await session.close()  # no connection held across the hash
    except BaseException:
        ticket.give_back(*SUCCESS, *FAILURE)
        raise
    ok = await _check(request, ticket, player.password_hash if player is not None else None, body.password)
    if player is None or not ok:
        if player is not None:
            await accounts.failed_signin(session, player.id)
        await _refuse(request, user, {"WWW-Authenticate": "Bearer"}, status.HTTP_401_UNAUTHORIZED, WRONG,
                      reason="wrong_password")
    token, ended = await accounts.new_session(session, player, settings.max_tokens_per_player,
                                              device_of(request.headers.get("user-agent")))
    for gone in ended:
        services(request.app).open_sockets.revoked(gone)
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.put("/api/account/password", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def change_password(body: NewPassword, player: CurrentPlayer, token: BearerToken, session: Session,
                          request: Request) -> Response:
    """Change the password (the old one is asked for): every other device is signed out."""
    if player.username is None or player.password_hash is None:
        raise Refused(status.HTTP_409_CONFLICT, "claim an account first (POST /api/account)", reason="claim_first")
    user = accounts.username_key(player.username)
    ticket = services(request.app).signin_guard.admit(user, client_key(request))
    if not await _check(request, ticket, player.password_hash, body.old_password):
        await accounts.failed_signin(session, player.id)
        await _refuse(request, user, None, status.HTTP_403_FORBIDDEN, "that is not your password",
                      reason="not_your_password")
    try:
        hashed = await _gate(request).hash(body.new_password)
    except Busy:
        _busy()
    for gone in await accounts.set_password(session, player.id, hashed, keep=hash_token(token)):
        services(request.app).open_sockets.revoked(gone)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
