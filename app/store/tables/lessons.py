"""The tables of lessons (docs/protocol.md, "Learning to play (v1.4)"): each player's run of a
lesson (its room code and the moves played, as the record `[[seat, wire move], ...]`), the
lessons a player has done, and whether they dismissed the home page's Learn to play card. Part of
`app.store.tables`, which re-exports them.

One run per player and lesson (unique): starting a lesson again reuses the run while it is
unfinished and replaces it once done, so a player's open runs are bounded by the lesson count.
`moves` (the record's length) guards each write: a move exists once its row is committed with
the record one longer than the one it was decided on.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.store.tables.base import Base, utcnow


class LessonRun(Base):
    """A player's run of a lesson, played in the solo room `code`."""

    __tablename__ = "lesson_runs"
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    lesson_id: Mapped[str] = mapped_column(String(32))
    record: Mapped[list[Any]] = mapped_column(JSON, default=list)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("player_id", "lesson_id", name="uq_lesson_runs_player_lesson"),)


class LessonDone(Base):
    """A lesson a player has finished (once; the first time counts)."""

    __tablename__ = "lesson_progress"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    lesson_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    done_at: Mapped[datetime] = mapped_column(default=utcnow)


class LessonsDismissed(Base):
    """A player who dismissed the home page's Learn to play card."""

    __tablename__ = "lessons_dismissed"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
