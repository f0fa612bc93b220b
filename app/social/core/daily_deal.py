"""The daily deal, the pure part: which day it is, the day's seed and when it may be
shown, how the day's results are ranked, and what a try is counted against besides the player
(the client's address, its device). The shell (`app/web/routes/daily.py`) reads the clock
and the store.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime

from app.domain.records import Attempt
from app.engine import commitment, seed_sealed
from app.engine.observer import DAILY_PREFIX


def today(now: datetime, override: str | None = None) -> str:
    """The UTC day of `now` as `YYYY-MM-DD` (`override`: a settable day, for tests)."""
    return override or now.astimezone(UTC).date().isoformat()


def valid_day(text: str) -> bool:
    """Is `text` a real calendar day written `YYYY-MM-DD`?"""
    if len(text) != 10:
        return False
    try:
        return date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def day_seed(day: str, secret_hex: str) -> str:
    """The seed of a day's deal: the day, then 128 secret random bits (drawn by the shell)."""
    return f"{DAILY_PREFIX}{day}-{secret_hex}"


def day_commitment(seed: str) -> str:
    return commitment(seed)


def seed_shown(seed: str, now_day: str) -> str | None:
    """The day's seed once its day is over, else None."""
    return None if seed_sealed(seed, now_day) else seed


def ranked(attempts: list[Attempt]) -> list[Attempt]:
    """Finished attempts best first: a win, then fewer pay-off cards left, then fewer moves;
    ties by name and id so the order is stable."""
    done = [a for a in attempts if a.finished]
    return sorted(done, key=lambda a: (not a.won, a.payoff_left, a.moves, a.name.casefold(), a.player_id))


DEVICE_COOKIE = "spite_device"  # the device's id: random, set by `POST /api/daily`, kept 400 days
DEVICE_SHAPE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def device_id(cookie: str | None) -> str | None:
    """The device id a request's cookie names, if it is one this server could have made."""
    if cookie is None or not 16 <= len(cookie) <= 64 or not set(cookie) <= DEVICE_SHAPE:
        return None
    return cookie


def claim_key(day: str, kind: str, value: str) -> str:
    """How a try's address or device is kept: a SHA-256 of the day, the kind and the value (the
    store never holds the address itself)."""
    return hashlib.sha256(f"{day}|{kind}|{value}".encode()).hexdigest()
