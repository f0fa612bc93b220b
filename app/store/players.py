"""Players: guest identities whose bearer token is stored only as its SHA-256."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .models import Player


def hash_token(token: str) -> str:
    """SHA-256 of a token (tokens carry 256 random bits, so a plain hash is enough)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh bearer token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def new_id() -> str:
    """A public identifier for a player or a match (96 random bits)."""
    return secrets.token_urlsafe(12)


async def create_player(session: AsyncSession, name: str) -> tuple[Player, str]:
    """Insert a player; returns it and its token (the only time the token is known)."""
    token = new_token()
    player = Player(id=new_id(), name=name, token_hash=hash_token(token))
    session.add(player)
    await session.commit()
    return player, token


async def player_by_token(session: AsyncSession, token: str) -> Player | None:
    if not token or len(token) > 256:
        return None
    return (await session.execute(select(Player).where(Player.token_hash == hash_token(token)))).scalar_one_or_none()


async def get_player(session: AsyncSession, player_id: str) -> Player | None:
    if len(player_id) > 32:
        return None
    return await session.get(Player, player_id)


async def rename_player(session: AsyncSession, player: Player, name: str) -> Player:
    player = await session.merge(player)
    player.name = name
    await session.commit()
    return player
