"""Bearer tokens: issued to a player (one per device or sign-in), kept only as their SHA-256,
revocable, and expired once unused for a number of days (`SPITE_TOKEN_IDLE_DAYS`)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import Player, Token, utcnow

TOUCH_EVERY = timedelta(days=1)  # a token's last use is written at most this often


def hash_token(token: str) -> str:
    """SHA-256 of a token (tokens carry 256 random bits, so a plain hash is enough)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh bearer token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def issue(session: AsyncSession, player_id: str, device: str | None = None) -> str:
    """Add a new token for the player to the session (the caller commits); returns it. This is
    the only time the token itself is known. `device` names the browser and system it goes to
    (`app.domain.device`)."""
    token = new_token()
    now = utcnow()
    session.add(Token(token_hash=hash_token(token), player_id=player_id, created_at=now, used_at=now, device=device))
    return token


async def player_by_token(session: AsyncSession, token: str, idle_days: float) -> Player | None:
    """The player whose live token this is: not revoked, used within `idle_days`."""
    if not token or len(token) > 256:
        return None
    now = utcnow()
    found = (await session.execute(
        select(Player, Token.used_at).join(Token, Token.player_id == Player.id)
        .where(Token.token_hash == hash_token(token), Token.revoked_at.is_(None),
               Token.used_at > now - timedelta(days=idle_days)))).first()
    if found is None:
        return None
    player, used_at = found
    if now - used_at > TOUCH_EVERY:
        await session.execute(update(Token).where(Token.token_hash == hash_token(token)).values(used_at=now))
        await session.commit()
    return player


async def revoke(session: AsyncSession, token: str) -> bool:
    """Stop this token working, at once; False if it was not a live token."""
    done = await session.execute(update(Token).where(Token.token_hash == hash_token(token),
                                                     Token.revoked_at.is_(None)).values(revoked_at=utcnow())
                                 .execution_options(synchronize_session=False))
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def revoke_all(session: AsyncSession, player_id: str) -> list[str]:
    """End every live token of the player ("sign out everywhere"); returns their hashes."""
    ended = (await session.execute(
        update(Token).where(Token.player_id == player_id, Token.revoked_at.is_(None)).values(revoked_at=utcnow())
        .returning(Token.token_hash).execution_options(synchronize_session=False))).scalars().all()
    await session.commit()
    return list(ended)


async def live_tokens(session: AsyncSession, player_id: str, idle_days: float) -> list[Token]:
    """The player's tokens that still work, most recently used first."""
    rows = await session.execute(
        select(Token).where(Token.player_id == player_id, Token.revoked_at.is_(None),
                            Token.used_at > utcnow() - timedelta(days=idle_days))
        .order_by(Token.used_at.desc(), Token.created_at.desc()))
    return list(rows.scalars())


async def revoke_one(session: AsyncSession, player_id: str, prefix: str) -> str | None:
    """End the player's live token whose hash starts with `prefix` (a session's id); its hash."""
    rows = (await session.execute(select(Token.token_hash).where(
        Token.player_id == player_id, Token.revoked_at.is_(None), Token.token_hash.startswith(prefix, autoescape=True)))
    ).scalars().all()
    if len(rows) != 1:
        return None
    await session.execute(update(Token).where(Token.token_hash == rows[0]).values(revoked_at=utcnow())
                          .execution_options(synchronize_session=False))
    await session.commit()
    return rows[0]


async def revoked_since(session: AsyncSession, since: datetime) -> list[str]:
    """Hashes of the tokens revoked after `since` (open sockets holding them are closed)."""
    rows = await session.execute(select(Token.token_hash).where(Token.revoked_at > since))
    return list(rows.scalars())
