"""The room and match a log line is about, carried in context variables so every log call
made while serving a room (a socket request, a timer, a bus update) names them. The server's
JSON log formatter adds them to each line."""

from __future__ import annotations

from contextvars import ContextVar

ROOM: ContextVar[str | None] = ContextVar("spite_room", default=None)
MATCH: ContextVar[str | None] = ContextVar("spite_match", default=None)


def about(room: str | None, match: str | None = None) -> None:
    """From now on in this task (and tasks it starts), log lines name this room and match."""
    ROOM.set(room)
    MATCH.set(match)
