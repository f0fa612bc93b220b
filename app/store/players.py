"""Players: guest identities whose bearer token is stored only as its SHA-256."""

from __future__ import annotations

import hashlib
import re
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


ID_CHARS = re.compile(r"[A-Za-z0-9_-]{1,32}")


def plain_id(value: str) -> bool:
    """Could this be an id the store gave out? (URL-safe letters, at most 32.) Anything else
    (a control character, a NUL byte that PostgreSQL refuses) is never sent to the database."""
    return ID_CHARS.fullmatch(value) is not None


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
    if not plain_id(player_id):
        return None
    return await session.get(Player, player_id)


async def rename_player(session: AsyncSession, player: Player, name: str) -> Player:
    player = await session.merge(player)
    player.name = name
    await session.commit()
    return player


async def names(session: AsyncSession, ids: list[str]) -> dict[str, str]:
    """Display names of these players (missing ids are left out)."""
    if not ids:
        return {}
    rows = await session.execute(select(Player.id, Player.name).where(Player.id.in_(set(ids))))
    return {pid: name for pid, name in rows.all()}
