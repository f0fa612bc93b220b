"""The room core's API, in the style of a sans-I/O protocol: two pure functions the shell's
pump (`app.rooms.shell.pump`) calls, and nothing else of the core on a command's path.

- `handle(room, who, command, at, rules, fresh) -> Decision`: what a command asks for. Either an
  `Effect` to commit (`app.rooms.core.effects`), or a `Reply` that changes nothing (the table or
  the room shown again to the asker, a hint to ask the bots for); a refusal is a `RoomError`.
  It never changes the room: memory changes only once the store has committed.
- `committed(room, effect, done, at, rules) -> Outbox`: make a committed effect true in memory
  and say what the shell must deliver: the room object and the table to this instance's
  sockets, a chat line, the notice for the other instances, whether to re-arm the room's timer,
  reminders to queue, a vacation to end, who is at the table. Another instance's change, already committed there,
  goes through the same function with `publish=False`.

The shell reads the clock once per command (`Moment`), draws the randomness of new matches and
hands (`fresh`, called only when a deal needs it) and holds the room's lock around both calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.domain.reminder import Reminder
from app.rooms.core import commands as C
from app.rooms.core.config import RoomRules
from app.rooms.core.effects import ChangeRoom, CommitMove, Committed, Effect, apply, notice
from app.rooms.core.forfeit import decide_resign
from app.rooms.core.lobby import Actor, ChatLine, decide_chat, decide_lobby
from app.rooms.core.match_rules import (
    AlreadyMade,
    AskHint,
    Fresh,
    arm_next_hand,
    decide_hint,
    decide_move,
    decide_next_hand,
    decide_start,
)
from app.rooms.core.model import Moment, Room
from app.rooms.core.notices import notice_json
from app.rooms.core.rematch import decide_rematch
from app.rooms.core.reminders import decide as reminders_for
from app.rooms.core.timers import AtTable, at_table


class NextHandRules(RoomRules, Protocol):
    """The settings `committed` reads besides the decisions' (`RoomRules`)."""

    @property
    def next_hand_seconds(self) -> float: ...  # the countdown between hands


@dataclass(frozen=True, slots=True)
class ShowTable:
    """Send the asker the table as it is now, whole (a move it resent was already made, or it
    asked: `sync`)."""


@dataclass(frozen=True, slots=True)
class ShowRoom:
    """Send every socket the room as it is (a lobby command that changes nothing)."""


Reply = ShowTable | ShowRoom | AskHint
Decision = Effect | Reply


def handle(room: Room, who: Actor, command: C.Command, at: Moment, rules: RoomRules,
           fresh: Callable[[], Fresh]) -> Decision:
    """What `who`'s `command` asks of `room` at `at` (RoomError if refused)."""
    now = at.now
    match command:
        case C.MakeMove(move=move, id=move_id):
            decided = decide_move(room, who, move, move_id, now, rules.missed_turns)
            return ShowTable() if isinstance(decided, AlreadyMade) else decided
        case C.Sit() | C.Stand() | C.AddBot() | C.RemoveBot() | C.FreeSeat() | C.RemovePlayer() | C.Configure():
            patch = decide_lobby(room, who, command, now, rules)
            return ShowRoom() if patch is None else ChangeRoom(patch, room.state.rev)
        case C.Start():
            return decide_start(room, who, rematch=False, now=now, fresh=fresh(), settings=rules)
        case C.Rematch(accept=accept):
            return decide_rematch(room, who, accept, now=now, fresh=fresh(), settings=rules)
        case C.NextHand():
            return decide_next_hand(room, who, now, fresh(), rules.missed_turns)
        case C.Chat(text=text):
            return decide_chat(room, who, text, now, rules)
        case C.Hint():
            return decide_hint(room, who)
        case C.Resign():
            return decide_resign(room, who, now, rules)
        case C.Sync():
            return ShowTable()


@dataclass(slots=True)
class Outbox:
    """What the shell delivers once an effect is committed and applied, in this order: the
    room object and every socket's state (`table`; `new_match`: from its deal on) or a chat
    line to this instance's sockets, the `notice` to the other instances, the room's timer
    re-armed (`schedule`), the `reminders` queued and a player's vacation ended (`back`)."""

    room: bool = False
    table: bool = False
    new_match: bool = False
    chat: ChatLine | None = None
    notice: dict[str, Any] | None = None  # the bus message (`notices.notice_json`), its origin to add
    schedule: bool = False
    reminders: list[Reminder] = field(default_factory=list)
    back: str | None = None  # a player whose own move ends their vacation
    seen: AtTable | None = None  # who is at the table now (with `table`)


def committed(room: Room, effect: Effect, done: Committed, at: Moment, rules: NextHandRules, *,
              publish: bool = True) -> Outbox:
    """Make the committed `effect` true in memory; what to deliver. `publish=False`: the change
    was committed by another instance, which has told the others already."""
    shown = apply(room, effect, done, at.mono)
    m = room.match
    if m is not None and shown.table:
        arm_next_hand(m, at.now, rules.next_hand_seconds)  # between hands, the countdown starts
    out = Outbox(room=shown.room, table=shown.table, new_match=shown.new_match, chat=shown.chat,
                 notice=notice_json(notice(room, effect)) if publish else None, schedule=shown.room or shown.table,
                 seen=at_table(room, at.now, rules.absent_grace, rules.missed_turns) if shown.table and m else None)
    if not publish:
        return out
    out.reminders = reminders_for(room, effect, rules.missed_turns)
    if isinstance(effect, CommitMove) and effect.step.actor == "player" and m is not None:
        pid = m.seats[effect.step.seat].player_id
        if pid is not None and room.vacations.pop(pid, None) is not None:
            out.back = pid
    return out
