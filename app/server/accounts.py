"""Accounts: a guest claims a username and password (`POST /api/account`) and can then sign in
on any device (`POST /api/sessions`: a new token for the same player). Passwords are hashed
with argon2id (argon2-cffi, in a worker thread: hashing is slow on purpose) and never logged.

Wrong username or wrong password is one `401` with one message. Failed sign-ins are counted
per username and per client address; once either is used up every sign-in for it is `429`
(with `Retry-After`) until the window moves on, right password or not.
"""

from __future__ import annotations

import asyncio
import functools

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, HTTPException, Request, status

from app.store import accounts
from app.store.accounts import AlreadyAnAccount, UsernameTaken

from .deps import CurrentPlayer, Session
from .ratelimit import client_address, per_address
from .responses import AccountOut, PlayerCreated
from .schemas import USERNAME, NewAccount, SignIn

router = APIRouter(tags=["accounts"])
HASHER = PasswordHasher()  # argon2id, the library's recommended cost
WRONG = "wrong username or password"


@functools.cache
def _decoy() -> str:
    """A hash to verify against when the username is unknown, so both refusals take as long."""
    return HASHER.hash("not anybody's password")


def _verify(hashed: str | None, password: str) -> bool:
    try:
        return HASHER.verify(hashed or _decoy(), password) and hashed is not None
    except (VerificationError, InvalidHashError):
        return False


@router.post("/api/account", status_code=status.HTTP_201_CREATED, response_model=AccountOut,
             dependencies=[Depends(per_address("new_accounts", "accounts claimed from your address"))])
async def claim(body: NewAccount, player: CurrentPlayer, session: Session) -> AccountOut:
    """Turn the calling guest into an account: same player id, so its history stays."""
    if player.has_account:
        raise HTTPException(status.HTTP_409_CONFLICT, "you already have an account")
    if await accounts.by_username(session, body.username) is not None:
        raise HTTPException(status.HTTP_409_CONFLICT, "that username is taken")
    hashed = await asyncio.to_thread(HASHER.hash, body.password)
    try:
        done = await accounts.claim(session, player, body.username, hashed)
    except UsernameTaken as e:
        raise HTTPException(status.HTTP_409_CONFLICT, "that username is taken") from e
    except AlreadyAnAccount as e:
        raise HTTPException(status.HTTP_409_CONFLICT, "you already have an account") from e
    assert done.username is not None
    return AccountOut(id=done.id, name=done.name, username=done.username)


def _too_many(wait: int) -> HTTPException:
    return HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, f"too many failed sign-ins; try again in {wait} s",
                         headers={"Retry-After": str(wait)})


@router.post("/api/sessions", status_code=status.HTTP_201_CREATED, response_model=PlayerCreated)
async def sign_in(body: SignIn, session: Session, request: Request) -> PlayerCreated:
    """Sign in with a username and password: a new bearer token for the same player."""
    limiter = request.app.state.limiter
    address = client_address(request)
    user_key = accounts.username_key(body.username)[:100]
    for kind, key in (("signin_user_failures", user_key), ("signin_failures", address)):
        wait = limiter.used_up(kind, key)
        if wait is not None:
            raise _too_many(wait)
    player = await accounts.by_username(session, body.username) if USERNAME.fullmatch(body.username) else None
    ok = await asyncio.to_thread(_verify, player.password_hash if player is not None else None, body.password)
    if player is None or not ok:
        limiter.count("signin_user_failures", user_key)
        limiter.count("signin_failures", address)
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, WRONG, headers={"WWW-Authenticate": "Bearer"})
    token = await accounts.new_session(session, player)
    return PlayerCreated(id=player.id, name=player.name, token=token)
