"""A quick-match ticket as the matcher sees it: one player waiting for a table of `seats`, rated
or not, with bots allowed or not, their rating `ordinal`, since when, and whether they have a lobby
socket open somewhere (`online`). The store reads it (`app.store.repositories.quick_tickets`), the
pure pairing takes it (`app.social.core.quick_pairing`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Ticket:
    id: str
    player_id: str
    seats: int
    rated: bool
    bots: bool
    ordinal: float
    created_at: datetime
    online: bool  # the player has a lobby socket open somewhere
