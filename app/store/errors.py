"""Store errors."""

from __future__ import annotations


class Conflict(Exception):
    """Another writer got there first (a unique version or revision was already taken).

    The caller's picture of the room is stale: reload it from the store.
    """
