"""The tables of tournaments (docs/tournaments.md): the tournament, its players, its rounds and
each round's tables. Part of `app.store.tables`, which re-exports them.

A round is paired exactly once: its row and its tables are inserted in one transaction, and the
primary key (tournament, round) refuses a second pairing, whichever instance races.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.store.tables.base import Base, utcnow


class Tournament(Base):
    """A tournament: its validated `settings` (the create request's fields, as JSON), `status`
    open → running → over, and `round`, the last round paired (0 before the first)."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    organiser_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    format: Mapped[str] = mapped_column(String(16))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="open")
    round: Mapped[int] = mapped_column(Integer, default=0)
    # Players who ever joined (withdrawn ones too): a join raises it only while under the cap,
    # in one conditional update, so the cap holds however many join at once.
    entries: Mapped[int] = mapped_column(Integer, default=0)
    starts_at: Mapped[datetime | None] = mapped_column(nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(nullable=True)
    ends_at: Mapped[datetime | None] = mapped_column(nullable=True)  # arena: no table starts after it
    finished_at: Mapped[datetime | None] = mapped_column(nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_tournaments_status_public", "status", "public"),)


class TournamentPlayer(Base):
    """A player in a tournament: `order` is when they joined (the first round's seeding),
    `withdrawn_at` set once they withdraw (never paired again)."""

    __tablename__ = "tournament_players"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True,
                                           index=True)
    name: Mapped[str] = mapped_column(String(64))
    order: Mapped[int] = mapped_column(Integer)
    rating: Mapped[float | None] = mapped_column(nullable=True)
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    withdrawn_at: Mapped[datetime | None] = mapped_column(nullable=True)


class TournamentRound(Base):
    """A round as paired: `byes` (player ids), with duplicate deals the round's `seed` (kept
    secret until the round is over) and its `commitment` (shown from the start)."""

    __tablename__ = "tournament_rounds"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing | over
    byes: Mapped[list[Any]] = mapped_column(JSON, default=list)
    seed: Mapped[str | None] = mapped_column(String(128), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(nullable=True)


class TournamentTable(Base):
    """One table of a round: `seats` (player ids by seat), its room and match once made, and
    once over each seat's `scores` (1, ½, 0) and `totals` (the match's points); `forfeits`: the
    seats that withdrew while it ran (they score 0)."""

    __tablename__ = "tournament_tables"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    room_code: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    scores: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    totals: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    forfeits: Mapped[list[Any]] = mapped_column(JSON, default=list)
