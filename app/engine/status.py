"""Where a match stands: the one enum the wire, the store, `match` and `observer` share."""

from __future__ import annotations

from enum import StrEnum


class MatchStatus(StrEnum):
    """Where a match stands (the wire and the store use the values)."""

    WAITING = "waiting"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    MATCH_OVER = "match_over"
