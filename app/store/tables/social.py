"""The tables of friends, blocks, invitations, the lobby's presence, quick match and the daily
deal. Part of `app.store.tables`, which re-exports them (one metadata, one set of
migrations)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from app.store.tables.base import Base, utcnow


class Follow(Base):
    """`player_id` asked to be friends with `friend_id`. Two rows, one each way, make
    a friendship; one row alone is a pending request."""

    __tablename__ = "follows"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    friend_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True,
                                           index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Block(Base):
    """`player_id` blocked `blocked_id`: private to the blocker (docs/protocol.md, blocks)."""

    __tablename__ = "blocks"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True,
                                            index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class Invitation(Base):
    """An invitation to a room: `pending` until accepted, declined, withdrawn or `expires_at`."""

    __tablename__ = "invitations"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), index=True)
    from_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    to_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column()


class LobbyPresence(Base):
    """Lobby sockets a player has open on one instance (heartbeat `seen_at`): who is online."""

    __tablename__ = "lobby_presence"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    instance_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    sockets: Mapped[int] = mapped_column(Integer, default=0)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)


class QuickTicket(Base):
    """A quick-match ticket: `waiting` (at most one per player: a partial unique index), then
    `matched` (with its room) or `cancelled`. `ordinal` is the player's rating when it was made."""

    __tablename__ = "quick_tickets"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    seats: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    pace: Mapped[str] = mapped_column(String(16), default="live")
    bots: Mapped[bool] = mapped_column(Boolean, default=True)
    ordinal: Mapped[float] = mapped_column(Float, default=0.0)
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    room_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("uq_quick_tickets_waiting_player", "player_id", unique=True,
                            sqlite_where=text("status IN ('waiting', 'pairing')"),
                            postgresql_where=text("status IN ('waiting', 'pairing')")),
                      Index("ix_quick_tickets_status_created", "status", "created_at"))


class DailyDeal(Base):
    """One UTC day's deal: the secret seed (shown once the day is over) and its commitment."""

    __tablename__ = "daily_deals"
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    seed: Mapped[str] = mapped_column(String(128))
    commitment: Mapped[str] = mapped_column(String(64))
    preset: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DailyEntry(Base):
    """A player's one attempt at a day's deal (the primary key makes it one) and its room."""

    __tablename__ = "daily_entries"
    day: Mapped[str] = mapped_column(ForeignKey("daily_deals.day", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    room_code: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DailyClaim(Base):
    """A try at a day's deal taken from a client address or a device (`kind`), known only by
    `key`, a SHA-256 of the day, the kind and the address (its /64 for IPv6) or device id:
    `slot` counts the tries (0 .. the limit less one; the primary key makes each slot one, however
    many requests race). The player whose try it is, to give it back with the entry."""

    __tablename__ = "daily_claims"
    day: Mapped[str] = mapped_column(ForeignKey("daily_deals.day", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
