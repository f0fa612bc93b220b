"""Players: guest identities (their bearer tokens are in `tokens`)."""

from __future__ import annotations

import re
import secrets

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.repositories.tokens import issue
from app.store.tables import Player

ID_CHARS = re.compile(r"[A-Za-z0-9_-]{1,32}")


def plain_id(value: str) -> bool:
    """Could this be an id the store gave out? (URL-safe letters, at most 32.) Anything else
    (a control character, a NUL byte that PostgreSQL refuses) is never sent to the database."""
    return ID_CHARS.fullmatch(value) is not None


def new_id() -> str:
    """A public identifier for a player or a match (96 random bits)."""
    return secrets.token_urlsafe(12)


async def create_player(session: AsyncSession, name: str, device: str | None = None) -> tuple[Player, str]:
    """Insert a player; returns it and its token (the only time the token is known)."""
    player = Player(id=new_id(), name=name)
    session.add(player)
    await session.flush()
    token = issue(session, player.id, device)
    await session.commit()
    return player, token


async def get_player(session: AsyncSession, player_id: str) -> Player | None:
    if not plain_id(player_id):
        return None
    return await session.get(Player, player_id)


async def rename_player(session: AsyncSession, player: Player, name: str | None,
                        lang: str | None = None, quiet_requests: bool | None = None) -> Player:
    """Change the display name, the chosen language and/or whether friend requests arrive
    quietly (None leaves each as it is)."""
    player = await session.merge(player)
    if name is not None:
        player.name = name
    if lang is not None:
        player.lang = lang
    if quiet_requests is not None:
        player.quiet_requests = quiet_requests
    await session.commit()
    return player


async def names(session: AsyncSession, ids: list[str]) -> dict[str, str]:
    """Display names of these players (missing ids are left out)."""
    if not ids:
        return {}
    rows = await session.execute(select(Player.id, Player.name).where(Player.id.in_(set(ids))))
    return {pid: name for pid, name in rows.all()}
