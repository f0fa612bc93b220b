"""The pace of a room: live (everyone at the table at once) or turn-based (hours or days a turn).

Pure. What differs in a turn-based room, decided here and nowhere else:
- the turn's bounds (`turn_bounds`): from the operator's minimum to 14 days, one day by default;
- the stored deadline (`act_at`): when the server must act for the seat to move, whoever is
  connected. A person's turn: the turn's start plus `turn_seconds`; a bot's turn, or a seat
  handed to a bot after `missed_turns` missed deadlines, or a hand that is over: at once;
- missed turns (`count_missed`): a turn the deadline ended counts one, a move of the player
  themselves starts the count again; all of it follows from the move log (each move's actor),
  so a restart rebuilds it by replay and nothing else is stored;
- who the seat is played by (`handed`): a person's seat is handed to a bot once it has missed
  `missed_turns` turns in a row, until the player moves again (while they are connected to the
  room they have their turn back, with the whole turn's time from when it began);
- when nobody plays any more (`nobody_plays`): every person's seat is handed to a bot, so bots
  face only bots. Then the match waits, unwatched: the server acts only while someone is
  connected (`timers.next_timer`) and the stored wake time is empty, so the store's due list
  never brings the room back on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

LIVE, TURN_BASED = "live", "turn_based"
PACES = (LIVE, TURN_BASED)
MAX_TURN_BASED_SECONDS = 14 * 86_400
DEFAULT_TURN_BASED_SECONDS = 86_400
DEADLINE, STANDIN = "deadline", "standin"  # the actors of moves the server makes in turn-based rooms
CLOCK = "clock"  # the actor of moves the turn clock makes in live rooms


def turn_bounds(pace: str, live_min: int, live_max: int, turn_based_min: int) -> tuple[int, int]:
    """The allowed `turn_seconds` of a room of this pace."""
    if pace == TURN_BASED:
        return turn_based_min, MAX_TURN_BASED_SECONDS
    return live_min, live_max


def count_missed(missed: list[int], seat: int, actor: str, turn_passed: bool) -> None:
    """Update the seat's count of turns missed in a row after a move of `seat` by `actor`: a
    turn ended by the deadline (turn-based) or the turn clock (live) counts one. Live rooms
    read the count only to rule a rated match's forfeit (`forfeit.decide_forfeit`)."""
    if seat >= len(missed):
        return
    if actor == "player":
        missed[seat] = 0
    elif actor in (DEADLINE, CLOCK) and turn_passed:
        missed[seat] += 1


def handed(missed: Sequence[int], seat: int, limit: int) -> bool:
    """Has the seat missed `limit` turns in a row (a bot plays it until its player moves)?"""
    return 0 <= seat < len(missed) and missed[seat] >= limit


def nobody_plays(people: Sequence[bool], missed: Sequence[int], limit: int) -> bool:
    """Is every person's seat (`people[seat]`: a person sits there) handed to a bot? Then only
    bots play the match."""
    return all(not person or handed(missed, seat, limit) for seat, person in enumerate(people))


def act_at(now: datetime, turn_seconds: int | None, *, person: bool, handed_over: bool) -> datetime:
    """The deadline stored when a turn begins in a turn-based room: when the server acts for
    the seat (at once for a bot or a seat handed to one)."""
    if person and not handed_over and turn_seconds:
        return now + timedelta(seconds=turn_seconds)
    return now


def on_vacation(deadline: datetime, until: datetime | None, turn_seconds: int | None) -> datetime:
    """A person's new deadline while they are on vacation (until `until`): the vacation's end
    plus a whole turn, if that is later."""
    if until is None or not turn_seconds:
        return deadline
    return max(deadline, until + timedelta(seconds=turn_seconds))


def over_cap(count: int, limit: int) -> str | None:
    """Why a player who sits in `count` turn-based rooms not over may not take another seat
    (`SPITE_MAX_TURN_BASED`), or None."""
    if count >= limit:
        return f"you already sit in {count} turn-based games that are not over (at most {limit}); finish one first"
    return None


def person_deadline(stored: datetime, turn_seconds: int | None, handed_over: bool) -> datetime:
    """The time a connected player has to move: the stored deadline, or for a seat handed to
    a bot (stored as the turn's start) the turn's start plus a whole turn."""
    if handed_over and turn_seconds:
        return stored + timedelta(seconds=turn_seconds)
    return stored
