"""Accounts: a guest identity claims a username and a password (its argon2id hash; the
password itself is never stored or logged) and keeps its player id, so its history stays.
Usernames are unique without regard to case (`username_key`, casefolded, is unique)."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.repositories.tokens import issue
from app.store.tables import Player, Token, utcnow


class UsernameTaken(Exception):
    """Someone already has that username (in any case)."""


class AlreadyAnAccount(Exception):
    """This player has claimed an account already."""


def username_key(username: str) -> str:
    return username.casefold()


async def claim(session: AsyncSession, player: Player, username: str, password_hash: str) -> Player:
    """Give the guest `player` an account; raises UsernameTaken or AlreadyAnAccount."""
    if await by_username(session, username) is not None:
        raise UsernameTaken(username)
    try:
        done = await session.execute(
            update(Player).where(Player.id == player.id, Player.username.is_(None))
            .values(username=username, username_key=username_key(username), password_hash=password_hash,
                    account_at=utcnow())
            .execution_options(synchronize_session=False))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            await session.rollback()
            raise AlreadyAnAccount(player.id)
        await session.commit()
    except IntegrityError as e:  # the same username claimed at the same moment
        await session.rollback()
        raise UsernameTaken(username) from e
    found = await session.get(Player, player.id, populate_existing=True)
    assert found is not None
    return found


async def by_username(session: AsyncSession, username: str) -> Player | None:
    return (await session.execute(select(Player).where(Player.username_key == username_key(username)))
            ).scalar_one_or_none()


async def new_session(session: AsyncSession, player: Player, max_live: int,
                      device: str | None = None) -> tuple[str, list[str]]:
    """A new bearer token for the player (another device; the only time it is known), and the
    hashes of the tokens it ended: past `max_live` live tokens the least recently used go.
    The player's row is locked first (PostgreSQL), so parallel sign-ins trim one at a time."""
    await session.execute(select(Player.id).where(Player.id == player.id).with_for_update())
    token = issue(session, player.id, device)
    await session.flush()
    keep = (select(Token.token_hash).where(Token.player_id == player.id, Token.revoked_at.is_(None))
            .order_by(Token.used_at.desc(), Token.created_at.desc()).limit(max_live))
    ended = (await session.execute(
        update(Token).where(Token.player_id == player.id, Token.revoked_at.is_(None), Token.token_hash.not_in(keep))
        .values(revoked_at=utcnow()).returning(Token.token_hash)
        .execution_options(synchronize_session=False))).scalars().all()
    await session.commit()
    return token, list(ended)


async def failed_signin(session: AsyncSession, player_id: str) -> None:
    """Count a failed sign-in on this account (its owner sees the count and the last time)."""
    await session.execute(update(Player).where(Player.id == player_id)
                          .values(failed_signins=Player.failed_signins + 1, failed_signin_at=utcnow())
                          .execution_options(synchronize_session=False))
    await session.commit()


async def set_password(session: AsyncSession, player_id: str, password_hash: str, keep: str) -> list[str]:
    """Change the password, zero the failed sign-ins, end every live token but `keep` (a hash);
    returns the hashes ended."""
    await session.execute(update(Player).where(Player.id == player_id)
                          .values(password_hash=password_hash, failed_signins=0, failed_signin_at=None)
                          .execution_options(synchronize_session=False))
    ended = (await session.execute(
        update(Token).where(Token.player_id == player_id, Token.revoked_at.is_(None), Token.token_hash != keep)
        .values(revoked_at=utcnow()).returning(Token.token_hash)
        .execution_options(synchronize_session=False))).scalars().all()
    await session.commit()
    return list(ended)
