"""The move log of the hand being played, rebuilt from its moves for a socket that (re)connects,
and which of those moves the server made for the receiver's seat while they were away.

Pure: the hand is replayed from its seed and moves (the engine's `HandRecord`) with events on,
each version's events filtered for the receiver by the observer (`events_for`), the moves the
clock or a stand-in made announced by an `autoplay` event as they were when made. A client shows
this log instead of what it had, so a reload loses nothing and a reconnect doubles nothing.
"""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from app.engine import Game, events_for
from app.rooms.core.model import LiveMatch


class LogEntry(TypedDict):
    v: int
    events: list[dict[str, Any]]


class HandLog(TypedDict):
    """The protocol's `log` message, beside its `type`."""

    match_id: str
    hand_number: int
    entries: list[LogEntry]
    made_for_you: list[int]


def hand_log(m: LiveMatch, seat: int | None) -> HandLog | None:
    """Every version of the current hand (its deal first) with the events receiver `seat` (None:
    a spectator) may know; `made_for_you`: the versions at which the server moved for `seat`
    since that seat's own last move of the hand (what happened while they were away). None
    before the first deal."""
    engine = m.engine
    if not engine.started:
        return None
    hand = engine.hands[-1]
    start = engine.v - len(hand.moves)
    game = Game.deal(engine.options, hand.seed, hand.order, events=True)
    entries: list[LogEntry] = [{"v": start, "events": events_for(game.events or [], seat)}]
    made_for_you: list[int] = []
    for i, move in enumerate(hand.moves):
        v = start + 1 + i
        mover = game.turn
        game.events = []
        game.apply(move)
        events = game.events or []
        actor = m.actors.get(v)
        if actor is not None:
            events = [{"type": "autoplay", "seat": mover, "by": actor}, *events]
        entries.append({"v": v, "events": events_for(events, seat)})
        if seat is not None and mover == seat:
            made_for_you = [*made_for_you, v] if actor is not None else []
    return {"match_id": m.id, "hand_number": len(engine.hands), "entries": entries, "made_for_you": made_for_you}
