"""Page cursors: the position of a page's last row, as URL-safe base64 of a JSON list. A cursor
comes back from a stranger, so `decode` checks it strictly against the shape the server makes
(each part's type, range and characters) before any of it reaches a query: anything else is
`BadCursor` (a 400), never a 5xx from an overflowing date, a huge integer or a NUL byte."""

from __future__ import annotations

import base64
import binascii
import json
import math
from datetime import UTC, datetime
from typing import Any, Literal

from app.store.repositories.players import plain_id

Part = Literal["time", "id", "row", "float", "count"]
ROW_MAX = 2**31 - 1  # an Integer primary key, on SQLite and PostgreSQL alike
EARLIEST, LATEST = datetime(2000, 1, 1, tzinfo=UTC), datetime(3000, 1, 1, tzinfo=UTC)


class BadCursor(ValueError):
    """A pagination cursor this server did not make."""

    def __init__(self) -> None:
        super().__init__("that cursor is not one this server gave out")


def encode(*parts: Any) -> str:
    """A cursor of these parts (datetimes as ISO 8601 text)."""
    plain = [p.isoformat() if isinstance(p, datetime) else p for p in parts]
    return base64.urlsafe_b64encode(json.dumps(plain).encode()).decode().rstrip("=")


def _part(kind: Part, value: Any) -> Any:
    if kind == "time":
        at = datetime.fromisoformat(value) if isinstance(value, str) and len(value) <= 40 else None
        if at is None or at.tzinfo is None:
            raise ValueError("not a time with its offset")
        at = at.astimezone(UTC)  # OverflowError at the ends of the calendar
        if not EARLIEST <= at <= LATEST:
            raise ValueError("out of range")
        return at
    if kind == "id":
        if not (isinstance(value, str) and plain_id(value)):
            raise ValueError("not an id")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or abs(value) > 1e9:
            raise ValueError("not a number in range")
        return float(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= ROW_MAX:  # row, count
        raise ValueError("not a whole number in range")
    return value


def decode(cursor: str, *shape: Part) -> list[Any]:
    """The parts of `cursor`, checked against `shape`; raises BadCursor."""
    try:
        parts = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not isinstance(parts, list) or len(parts) != len(shape):
            raise ValueError("wrong shape")
        return [_part(kind, value) for kind, value in zip(shape, parts, strict=True)]
    except (ValueError, TypeError, OverflowError, binascii.Error, RecursionError) as e:
        raise BadCursor() from e
