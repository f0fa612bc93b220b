"""A daily deal's room, the pure part: what it refuses while the deal's day lasts.

A room made for the daily deal (`app/web/routes/daily.py`) carries the day's seed
(`daily-YYYY-MM-DD-…`), so the room itself knows it is one. Until that day is over (UTC) nobody
without a seat in it may watch it (the table, the hand log and every later state would show the
draw order the day's other players have yet to meet: the socket is refused before anything is
sent, with the answer of the sealed replay, `daily_sealed`), and it gives no hints, whatever its
row says (docs/rules.md, "The daily deal").
"""

from __future__ import annotations

from datetime import UTC, datetime

from app.engine import daily_seed_day, seed_sealed
from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.core.model import RoomState

NO_HINTS = "the daily deal gives no hints: everyone plays the same deal on their own"


def today(now: datetime, override: str | None = None) -> str:
    """The UTC day of `now` as `YYYY-MM-DD` (`override`: the settable day, `SPITE_DAILY_DAY`)."""
    return override or now.astimezone(UTC).date().isoformat()


def is_daily(state: RoomState) -> bool:
    """Was this room made for a daily deal (its seed is a day's)?"""
    return daily_seed_day(state.seed) is not None


def check_watch(state: RoomState, seat: int | None, day: str) -> None:
    """Refuse a socket without a seat (`seat` None) in a daily deal's room while its day lasts
    (`day`: today): `not_allowed_now`, reason `daily_sealed`, as the sealed replay."""
    if seat is None and seed_sealed(state.seed, day):
        sealed = daily_seed_day(state.seed)
        raise RoomError(E.NOT_ALLOWED_NOW, f"this is the daily deal of {sealed}: its replay opens when that day "
                        "is over (UTC), so nobody can learn the deal before everyone has played",
                        reason="daily_sealed", params={"day": sealed})
