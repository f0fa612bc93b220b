"""The tables of notifications: Web Push subscriptions, the outbox, the server's
keys and vacations. Part of `app.store.tables`, which re-exports them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.store.tables.base import Base, utcnow


class PushSubscription(Base):
    """One device's Web Push subscription: the push service's endpoint (checked
    against SPITE_PUSH_HOSTS when it was given) and the browser's keys for RFC 8291. `failures`
    counts the sends to it that failed in a row (a success resets it); at SPITE_PUSH_FAILURE_BUDGET
    the subscription is dropped."""

    __tablename__ = "push_subscriptions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Notification(Base):
    """The outbox: one message to send on one channel (a push subscription, or an email
    address), written after the step that caused it is committed and drained by a worker with
    timeouts, retries and backoff. `key` is unique: at most one message per cause and device."""

    __tablename__ = "notifications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    channel: Mapped[str] = mapped_column(String(16))  # push | email
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    subscription_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column()
    state: Mapped[str] = mapped_column(String(16), default="queued")  # queued | sent | failed | dropped
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(300), nullable=True)

    __table_args__ = (Index("ix_notifications_state_next_at", "state", "next_at"),)


class ServerKey(Base):
    """A key the server makes once and keeps (the VAPID key pair: `vapid`, as PEM)."""

    __tablename__ = "server_keys"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(4000))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Vacation(Base):
    """An account holder's vacation: their turn-based deadlines wait until `until`;
    `days_used` of the `year`'s allowance (SPITE_VACATION_DAYS) are spent."""

    __tablename__ = "vacations"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    until: Mapped[datetime] = mapped_column()
    year: Mapped[int] = mapped_column(Integer)
    days_used: Mapped[int] = mapped_column(Integer, default=0)


class EmailAddress(Base):
    """An account holder's email address (the optional channel): `confirmed_at` is set
    once its confirmation link was followed (no mail but the confirmation goes to it before);
    `digests` counts the "your turn" digests done (the key of the next one), `digest_at` is when
    the last was mailed (the next waits SPITE_EMAIL_DIGEST_MINUTES from it)."""

    __tablename__ = "email_addresses"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    confirmed_at: Mapped[datetime | None] = mapped_column(nullable=True)
    digests: Mapped[int] = mapped_column(Integer, default=0)
    digest_at: Mapped[datetime | None] = mapped_column(nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class EmailRecipient(Base):
    """What the site knows of an address it mails, whoever's it is (`email` lower-cased):
    `confirm_at`, when a confirmation mail last went to it (none more within
    SPITE_EMAIL_RESEND_MINUTES, until one is followed); `never_at`, when its recipient said
    "never mail me" (no mail goes to it again, and no account may set it)."""

    __tablename__ = "email_recipients"
    email: Mapped[str] = mapped_column(String(254), primary_key=True)
    confirm_at: Mapped[datetime | None] = mapped_column(nullable=True)
    never_at: Mapped[datetime | None] = mapped_column(nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
