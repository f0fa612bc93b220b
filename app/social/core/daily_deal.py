"""The daily deal, the pure part: which day it is, the day's seed and when it may be
shown, and how the day's results are ranked. The shell (`app/web/routes/daily.py`) reads the clock
and the store.
"""

from __future__ import annotations

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
