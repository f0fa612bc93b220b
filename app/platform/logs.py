"""Logging: plain text, or one JSON object per line (`SPITE_LOG_FORMAT=json`) carrying the time,
level, logger, message, the room and match the line is about (from `app.platform.logctx`), the
instance id, and the exception if any."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import Any

import orjson

from app.platform.logctx import MATCH, ROOM
from app.platform.settings import Settings

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_HANDLER_MARK = "_spite_handler"


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON."""

    def __init__(self, instance: str | None = None) -> None:
        super().__init__()
        self.instance = instance

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        room, match = getattr(record, "room", None) or ROOM.get(), getattr(record, "match", None) or MATCH.get()
        if room is not None:
            out["room"] = room
        if match is not None:
            out["match"] = match
        if self.instance is not None:
            out["instance"] = self.instance
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return orjson.dumps(out, default=str).decode()


class TextFormatter(logging.Formatter):
    """Plain lines; the room and match are appended when known."""

    def __init__(self) -> None:
        super().__init__(TEXT)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        room, match = ROOM.get(), MATCH.get()
        if room is not None:
            line += f" [room={room}" + (f" match={match}]" if match else "]")
        return line


def configure(settings: Settings, instance: str | None = None) -> None:
    """Send the app's log (logger `app`) to stderr in the chosen format, at the chosen level.
    Called again (another app in the same process), it replaces its own handler only."""
    logger = logging.getLogger("app")
    logger.setLevel(settings.log_level.upper())
    for handler in [h for h in logger.handlers if getattr(h, _HANDLER_MARK, False)]:
        logger.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    setattr(handler, _HANDLER_MARK, True)
    handler.setFormatter(JsonFormatter(instance) if settings.log_format == "json" else TextFormatter())
    logger.addHandler(handler)
    logger.propagate = False
