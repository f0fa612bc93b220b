"""The tables: rooms, matches, moves, players and ratings here; those of life outside rooms
(friends, blocks, invitations, quick match, the daily deal) in `social`, of tournaments in
`tournaments`, of lessons in `lessons`, of notifications in
`notify`, re-exported here; the base, column types and clock in `base`. Engine-agnostic: options,
moves and results are stored as their JSON form.

The truth of a match is its options, each hand's seed and its ordered moves: a `moves` row
with a unique (match_id, seq) is what makes move `seq` happen (seq is the match version `v`
after the move). Derived rows (hand results, scores, the match's status and totals) are
written in the same transaction as the move that caused them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from app.domain.records import RoomStatus
from app.store.tables.base import Base, utcnow

# Re-exported: every table is a name of this module (and of its metadata, which migrations read).
from app.store.tables.lessons import LessonDone as LessonDone
from app.store.tables.lessons import LessonRun as LessonRun
from app.store.tables.lessons import LessonsDismissed as LessonsDismissed
from app.store.tables.notify import EmailAddress as EmailAddress
from app.store.tables.notify import EmailRecipient as EmailRecipient
from app.store.tables.notify import Notification as Notification
from app.store.tables.notify import PushSubscription as PushSubscription
from app.store.tables.notify import ServerKey as ServerKey
from app.store.tables.notify import Vacation as Vacation
from app.store.tables.social import Block as Block
from app.store.tables.social import DailyClaim as DailyClaim
from app.store.tables.social import DailyDeal as DailyDeal
from app.store.tables.social import DailyEntry as DailyEntry
from app.store.tables.social import Follow as Follow
from app.store.tables.social import Invitation as Invitation
from app.store.tables.social import LobbyPresence as LobbyPresence
from app.store.tables.social import QuickTicket as QuickTicket
from app.store.tables.tournaments import Tournament as Tournament
from app.store.tables.tournaments import TournamentPlayer as TournamentPlayer
from app.store.tables.tournaments import TournamentRound as TournamentRound
from app.store.tables.tournaments import TournamentTable as TournamentTable


class Player(Base):
    """A player (its bearer tokens are rows of `tokens`): a guest, or an account once it has
    claimed a username and password. `username_key` is the username casefolded (unique);
    `password_hash` an argon2id hash."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    username: Mapped[str | None] = mapped_column(String(24), nullable=True)
    username_key: Mapped[str | None] = mapped_column(String(24), nullable=True, unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    account_at: Mapped[datetime | None] = mapped_column(nullable=True)
    # Failed sign-ins on this username since its password was last set (shown to its owner).
    failed_signins: Mapped[int] = mapped_column(default=0, server_default="0")
    failed_signin_at: Mapped[datetime | None] = mapped_column(nullable=True)
    lang: Mapped[str | None] = mapped_column(String(16), nullable=True)  # chosen language; null: the browser's
    # Friend requests arrive quietly (a count on the lobby socket, no pop-up): the player's choice.
    quiet_requests: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    @property
    def has_account(self) -> bool:
        return self.username is not None


class Token(Base):
    """A bearer token of a player, kept only as its SHA-256: one per device or sign-in. It
    stops working once revoked, or once unused for the configured number of days."""

    __tablename__ = "tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    used_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(nullable=True, index=True)
    device: Mapped[str | None] = mapped_column(String(40), nullable=True)  # app.domain.device: "Chrome/Android"


class HealthProbe(Base):
    """The row each instance's /healthz rewrites: the database is healthy when it takes writes."""

    __tablename__ = "health_probes"
    instance_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[datetime] = mapped_column()


class Room(Base):
    """A room: its settings, its lobby seating (JSON, guarded by `rev`) and its current match."""

    __tablename__ = "rooms"
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    preset: Mapped[str] = mapped_column(String(32))
    overrides: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seats: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hints: Mapped[bool] = mapped_column(Boolean, default=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    seed: Mapped[str | None] = mapped_column(String(128), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default=RoomStatus.WAITING)
    seating: Mapped[list[Any]] = mapped_column(default=list)
    rev: Mapped[int] = mapped_column(Integer, default=0)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    match_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    pace: Mapped[str] = mapped_column(String(16), default="live", server_default="live")
    # Once a match is over: the rematch offered, {"by": player id, "answers": {player id: bool}}.
    rematch: Mapped[dict[str, Any]] = mapped_column(default=dict)

    __table_args__ = (Index("ix_rooms_public_status", "public", "status"),)


class Match(Base):
    """One match in a room: resolved options, names, version and status, scores so far."""

    __tablename__ = "matches"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column()
    names: Mapped[list[Any]] = mapped_column()
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    v: Mapped[int] = mapped_column(Integer, default=0)
    totals: Mapped[list[Any]] = mapped_column()
    winners: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    turn_deadline: Mapped[datetime | None] = mapped_column(nullable=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    ended_at: Mapped[datetime | None] = mapped_column(nullable=True)
    # Turn-based matches only: when the server must act (the turn deadline, or at once for a
    # bot's turn); null for live matches and once over. Indexed: the deadline scheduler reads
    # the earliest few, never every room.
    wake_at: Mapped[datetime | None] = mapped_column(nullable=True, index=True)
    last_move_at: Mapped[datetime | None] = mapped_column(nullable=True)
    turn_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the seat to move (null between hands)

    __table_args__ = (UniqueConstraint("room_code", "number", name="uq_matches_room_number"),)


class Seat(Base):
    """Who played a seat of a match: a player, or a bot (player_id None, bot_level set)."""

    __tablename__ = "seats"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(64))
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    team: Mapped[int | None] = mapped_column(Integer, nullable=True)


class Hand(Base):
    """One hand: its secret seed (revealed once over), the public commitment, its result."""

    __tablename__ = "hands"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str] = mapped_column(String(128))
    commitment: Mapped[str] = mapped_column(String(64))
    deal_order: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    start_v: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(nullable=True)


class Move(Base):
    """Move `seq` of a match (seq = the version after it). Unique (match_id, seq) is the
    concurrency control; (match_id, seat, client_id) makes a resent move id harmless."""

    __tablename__ = "moves"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    hand_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    actor: Mapped[str] = mapped_column(String(16))
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("match_id", "seq", name="uq_moves_match_seq"),
        UniqueConstraint("match_id", "seat", "client_id", name="uq_moves_match_seat_client"),
    )


class Score(Base):
    """A seat's points in one hand, its match total after it, and its pay-off cards left."""

    __tablename__ = "scores"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    hand_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    points: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    payoff_left: Mapped[int] = mapped_column(Integer)


class Presence(Base):
    """Sockets a player has open in a room on one server instance (heartbeat `seen_at`)."""

    __tablename__ = "presence"
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    instance_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    sockets: Mapped[int] = mapped_column(Integer, default=0)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column(nullable=True)


class ChatLine(Base):
    """A line of a room's chat; only the room's latest `SPITE_CHAT_HISTORY` lines are kept."""

    __tablename__ = "chat_lines"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column()
    sender: Mapped[dict[str, Any]] = mapped_column()
    text: Mapped[str] = mapped_column(String(4000))

    __table_args__ = (Index("ix_chat_lines_room_code_id", "room_code", "id"),)


class Lease(Base):
    """Which instance drives a room's timers and bots (turn clock, absent players, bot turns)
    until `expires_at`; the holder renews it while alive, another instance takes it once it
    lapses. Not a foreign key: a lease may outlive nothing but its room's match."""

    __tablename__ = "leases"
    room_code: Mapped[str] = mapped_column(String(16), primary_key=True)
    instance_id: Mapped[str] = mapped_column(String(32), index=True)
    expires_at: Mapped[datetime] = mapped_column()


class Rating(Base):
    """A player's skill after their last rated match (Weng-Lin, Plackett-Luce): `mu`, `sigma`,
    the conservative `ordinal` (mu - 3 sigma) that ranks players, and rated matches played."""

    __tablename__ = "ratings"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_ratings_games_ordinal", "games", "ordinal"),)


class RatingChange(Base):
    """One player's rating before and after one rated match, written in the transaction that
    ends the match; unique per (match, player), so no match is ever rated twice."""

    __tablename__ = "rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    before: Mapped[dict[str, Any]] = mapped_column()
    after: Mapped[dict[str, Any]] = mapped_column()

    __table_args__ = (UniqueConstraint("match_id", "player_id", name="uq_rating_history_match_player"),)


class Achievement(Base):
    """An achievement a player earned: once per player and key, in the transaction of the hand
    (`hand_number`) or match that earned it."""

    __tablename__ = "achievements"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    hand_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    earned_at: Mapped[datetime] = mapped_column(default=utcnow)


class Review(Base):
    """The review of a finished match (made once, in the background, and kept): `status` is
    queued, running, done or failed (`error` says why); `progress` 0..1 while it runs;
    `result` the decisions, chances, luck and summary (docs/protocol.md, "Match review")."""

    __tablename__ = "reviews"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    level: Mapped[str] = mapped_column(String(32))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    requested_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
