"""Who is told outside the page, once a step is committed and applied: pure.

In a turn-based room, when the turn passes to a person who has no open socket in the room (on
any instance), they get one `your_turn` message; when a match ends, each of its people who is
not connected gets `match_over`. Live rooms send none (their players are at the table, and a
stand-in plays for one who is away within a minute). A seat handed to a bot is not told: the
bot plays it at once. Each reminder has a `key` that names its cause (the room, the match, the
version the turn began at), so the outbox keeps at most one per turn and device however often
it is asked. Messages carry names and the room code only: never a card.
"""

from __future__ import annotations

from app.domain.reminder import MATCH_OVER, YOUR_TURN, Reminder
from app.rooms.core.effects import BeginMatch, CommitMove, DealHand, Effect
from app.rooms.core.model import Room
from app.rooms.core.pace import TURN_BASED, handed


def _names(room: Room, seat: int) -> tuple[str, ...]:
    m = room.match
    assert m is not None
    return tuple(s.name for i, s in enumerate(m.seats) if i != seat)


def _others(room: Room, seat: int) -> str:
    names = _names(room, seat)
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else "your friends"


def decide(room: Room, effect: Effect, missed_turns: int) -> list[Reminder]:
    """The reminders a committed and applied `effect` calls for (often none)."""
    m = room.match
    if m is None or room.state.pace != TURN_BASED:
        return []
    if isinstance(effect, CommitMove) and effect.ends_match:
        return [Reminder(MATCH_OVER, s.player_id, room.code, f"{MATCH_OVER}:{room.code}:{m.id}:{s.player_id}",
                         "Game over", f"Your game with {_others(room, i)} is over: see how it ended.",
                         names=_names(room, i))
                for i, s in enumerate(m.seats)
                if s.player_id is not None and s.bot is None and not room.is_connected(s.player_id)]
    if not isinstance(effect, CommitMove | BeginMatch | DealHand) or not m.playing:
        return []
    if isinstance(effect, CommitMove) and effect.step.seat == m.turn:
        return []  # the same seat moves on: the turn has not passed
    info = m.seats[m.turn]
    if info.player_id is None or info.bot is not None or room.is_connected(info.player_id):
        return []
    if handed(m.missed, m.turn, missed_turns):
        return []
    return [Reminder(YOUR_TURN, info.player_id, room.code, f"{YOUR_TURN}:{room.code}:{m.id}:{m.v}",
                     "Your turn", f"It is your move in the game with {_others(room, m.turn)}.", m.deadline,
                     names=_names(room, m.turn))]
