"""Who moves when nobody sends a move: the rules of the room's one timer.

Pure. After every change the shell asks `next_timer` and arms the room's timer for the
earliest of:
- a bot's turn: after `bot_delay` (so people can follow), chosen in the bot process pool;
  only while someone (a player or a watcher) is connected: a room nobody watches waits, so
  bots never play on for nobody and hold no lease or worker;
- the turn clock: at the stored deadline (and then again after `bot_delay`) the server plays
  for the player until the turn passes;
- an absent player: once they have been away `absent_grace` seconds (and someone else is in
  the room) a bot plays their turns until they return;
- between hands: the next hand is dealt at once when every seat is ready, else when the
  countdown (`next_hand_seconds`) ends (`match_rules.decide_due_deal`).
In a turn-based room (`pace.TURN_BASED`) the timer runs whether or not anyone is connected:
bots move at once (after `bot_delay` only while someone watches); at the stored deadline the
server plays the turn (`DEADLINE`); a seat that missed `missed_turns` deadlines in a row is
played by a bot at once (`STANDIN`) while its player is not connected; no absent-player
stand-in. Once every person's seat is handed over (`pace.nobody_plays`) and nobody is
connected, nothing is armed: bots facing only bots do not play on for nobody.
A deadline further off than `deadline_horizon` arms nothing: the room waits in the
store, whose due list (`Leases.due`) brings it back in time, so idle rooms cost no memory,
lease or task.
When the timer fires, `decide_automatic` checks the match is still at the version it was
armed for (a move that happened meanwhile cancels it) and says who chooses the move; the
chosen move goes through `match_rules.decide_seat_move`, the same path as a person's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.engine import MatchStatus, Move, view
from app.rooms.core.config import RoomRules
from app.rooms.core.match_rules import people, ready_seats
from app.rooms.core.model import LiveMatch, Room
from app.rooms.core.pace import CLOCK, DEADLINE, STANDIN, TURN_BASED, handed, nobody_plays, person_deadline
from app.rooms.core.steps import BOT

ABSENT, DEAL = "absent", "deal"
DUE = 0.05  # a timer this close to its time acts now


@dataclass(frozen=True, slots=True)
class Timer:
    """Act for the seat to move in `delay` seconds, as `kind` (bot, clock or absent)."""

    delay: float
    kind: str
    v: int


def absent_seats(room: Room, now: datetime, grace: float, missed_limit: int = 3) -> list[int]:
    """Human seats of the match whose player has been away longer than `grace` while someone
    else is in the room: the server plays for them until they return. In a turn-based room:
    the seats handed to a bot (`missed_limit` turns missed) whose player is not connected."""
    m = room.match
    if m is not None and room.state.pace == TURN_BASED:
        return [seat for seat, info in enumerate(m.seats) if info.player_id is not None
                and handed(m.missed, seat, missed_limit) and not room.is_connected(info.player_id)]
    if m is None or not room.anyone_here():
        return []
    return [seat for seat, info in enumerate(m.seats)
            if info.player_id is not None and not room.is_connected(info.player_id)
            and (now - room.away_since(info.player_id)).total_seconds() >= grace]


@dataclass(frozen=True, slots=True)
class AtTable:
    """Who is at the table, as what is shown says it (worked out once per change shown): each
    lobby seat connected, the seats the server plays for (`absent_seats`), anyone here at all."""

    seating: tuple[bool, ...]
    absent: tuple[int, ...]
    anyone_here: bool


def at_table(room: Room, now: datetime, grace: float, missed_limit: int = 3) -> AtTable:
    return AtTable(tuple(room.connected_flags(room.state.seating)),
                   tuple(absent_seats(room, now, grace, missed_limit)), room.anyone_here())


def next_timer(room: Room, now: datetime, mono: float, settings: RoomRules) -> Timer | None:
    """When, and as whom, to act for the seat to move; None if we wait for a person."""
    m = room.match
    if m is not None and room.state.pace == TURN_BASED:
        return _turn_based(room, m, now, mono, settings)
    if m is None or not room.anyone_here():  # nobody watches: the room waits
        return None
    if m.engine.status == MatchStatus.HAND_OVER and m.next_deadline is not None:
        everyone = len(ready_seats(room)) == len(m.seats)
        return Timer(0.0 if everyone else max(0.0, (m.next_deadline - now).total_seconds()), DEAL, m.v)
    if not m.playing:
        return None
    info = m.seats[m.turn]
    pause = max(0.0, room.changed_at + settings.bot_delay - mono)
    if info.bot is not None:
        return Timer(pause, BOT, m.v)
    best: Timer | None = None
    if m.turn_seconds and m.deadline is not None:
        best = Timer(max(pause, (m.deadline - now).total_seconds()), CLOCK, m.v)
    if info.player_id is not None and not room.is_connected(info.player_id):
        since = room.away_since(info.player_id)
        due = max(pause, since.timestamp() + settings.absent_grace - now.timestamp())
        if best is None or due < best.delay:
            best = Timer(due, ABSENT, m.v)
    return best


def _turn_based(room: Room, m: LiveMatch, now: datetime, mono: float, settings: RoomRules) -> Timer | None:
    """`next_timer` of a turn-based room: acts with nobody connected, unless nobody plays
    any more (every person's seat handed to a bot): bots facing only bots wait for someone."""
    watched = room.anyone_here()
    if not watched and nobody_plays(people(m.seats), m.missed, settings.missed_turns):
        return None
    if m.engine.status == MatchStatus.HAND_OVER and m.next_deadline is not None:
        everyone = len(ready_seats(room)) == len(m.seats)
        return Timer(0.0 if everyone else max(0.0, (m.next_deadline - now).total_seconds()), DEAL, m.v)
    if not m.playing or m.deadline is None:
        return None
    info = m.seats[m.turn]
    pause = max(0.0, room.changed_at + settings.bot_delay - mono) if watched else 0.0
    if info.bot is not None:
        return Timer(pause, BOT, m.v)
    handed_over = handed(m.missed, m.turn, settings.missed_turns)
    if handed_over and info.player_id is not None and not room.is_connected(info.player_id):
        return Timer(pause, STANDIN, m.v)
    delay = max(pause, (person_deadline(m.deadline, m.turn_seconds, handed_over) - now).total_seconds())
    return Timer(delay, DEADLINE, m.v) if delay <= settings.deadline_horizon else None


@dataclass(frozen=True, slots=True)
class ChooseFor:
    """Ask a bot of `level` to choose the move of `seat` from its view (at version `v`)."""

    seat: int
    view: dict[str, Any]
    level: str
    kind: str
    v: int


def decide_automatic(room: Room, armed: Timer, now: datetime, mono: float, settings: RoomRules) -> ChooseFor | None:
    """The timer armed as `armed` fired: who chooses the move now, or None if the table has
    moved on or the time is not yet (then the shell asks `next_timer` again)."""
    m = room.match
    if m is None or m.v != armed.v or not m.playing or armed.kind == DEAL:
        return None
    timer = next_timer(room, now, mono, settings)
    if timer is None or timer.delay > DUE:
        return None
    seat = m.turn
    if timer.kind == ABSENT and seat not in absent_seats(room, now, settings.absent_grace):
        return None
    info = m.seats[seat]
    if timer.kind == BOT and info.bot:
        level = info.bot
    else:
        level = settings.clock_level if timer.kind in (CLOCK, DEADLINE) else settings.takeover_level
    return ChooseFor(seat, view(m.engine, seat, room.connected_flags(m.seats)), level, timer.kind, m.v)


def fallback_move(room: Room) -> Move:
    """The move played when a bot's choice is refused: the first legal one."""
    assert room.match is not None
    return room.match.engine.game.legal_moves()[0]
