"""A reminder: what a player is told outside the page (a push message, an email digest line), as
the rooms' core decides it (`app.rooms.core.reminders`) and the outbox's senders send it
(`app.platform.notify`). Names and the room code only: never a card."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

YOUR_TURN, MATCH_OVER = "your_turn", "match_over"
TOURNAMENT = "tournament"  # a tournament's table is ready (app/tournaments/shell/notices.py)


@dataclass(frozen=True, slots=True)
class Reminder:
    """Tell `player_id` about `room`: `kind` (your_turn or match_over), its unique `key`, and
    the message (`title`, `body`, the deadline if any)."""

    kind: str
    player_id: str
    room: str
    key: str
    title: str
    body: str
    deadline: datetime | None = None
    names: tuple[str, ...] = ()  # the others at the table: the body's parameter in every language

    def payload(self) -> dict[str, object]:
        """The push message's JSON (docs/protocol.md, "Notifications"), with the catalogue keys
        its title and body are said by in the recipient's language (`app/platform/notify/texts.py`)."""
        key = f"push.{self.kind}" + ("" if self.names else "_friends")
        return {"type": self.kind, "room": self.room, "url": f"/r/{self.room}", "title": self.title,
                "body": self.body, "deadline": self.deadline.isoformat() if self.deadline is not None else None,
                "i18n": {"title": f"push.{self.kind}.title", "body": key, "params": self.params()}}

    def params(self) -> dict[str, object]:
        """The body's parameters: `names`, and for a tournament's table (names: the tournament's
        name, the round) each by itself, `tournament` and `round`, so a sentence can place them."""
        out: dict[str, object] = {"names": list(self.names)}
        if self.kind == TOURNAMENT and len(self.names) == 2:
            out.update(tournament=self.names[0], round=self.names[1])
        return out
