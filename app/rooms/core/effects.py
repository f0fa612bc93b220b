"""Decisions the shell carries out, as typed values, and what carrying each out means for
memory, for the other instances and for a lost race: pure functions of the effect and the room.

The shell's pump (`pump.Pump.run`) runs every effect the same way: **commit** it (the store;
an effect with nothing durable skips this), then the core's `room_core.committed` **applies**
it (`apply`) and says what to deliver (what `apply` says changed, its `notice`, ...). When the
store refuses the commit because another writer got there first, the shell re-reads the room
and `lost` says what that means for whoever asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.domain.records import Awards, HandEnd, Seen
from app.domain.writes import DealChange, MoveWrite
from app.engine import MatchStatus
from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import ChatLine
from app.rooms.core.model import LiveMatch, Room, RoomPatch, RoomState
from app.rooms.core.notices import Advanced, ChatSaid, Notice, ReadyMarked, RoomChanged
from app.rooms.core.steps import DealStep, MoveStep, Previewed, Step, apply_steps


@dataclass(frozen=True)
class ChangeRoom:
    """A lobby change: `patch`, decided on the room row at revision `rev`."""

    patch: RoomPatch
    rev: int


@dataclass(frozen=True)
class BeginMatch:
    """A new match for the room: its rows to insert, the deal of its first hand, and the room
    row pointed at it (`room`, decided at revision `room_rev`)."""

    match: LiveMatch  # not dealt yet: `deal` is applied once committed
    deal: DealStep
    commitment: str
    deadline: datetime | None
    preset: str
    options: dict[str, Any]
    teams: list[int | None]
    room: RoomPatch
    room_rev: int
    wake_at: datetime | None = None  # turn-based: when the server must act (the match row's `wake_at`)
    turn_seat: int | None = None  # who moves first in the hand dealt


@dataclass(frozen=True)
class DealHand:
    """The deal of the next hand of the match, and what it changes on the match row
    (`change`: the first turn's deadline, wake time and seat to move)."""

    match_id: str
    expect_v: int
    deal: DealStep
    commitment: str
    change: DealChange

    @property
    def deadline(self) -> datetime | None:
        return self.change.turn_deadline


@dataclass(frozen=True)
class CommitMove:
    """A move to commit: `write`, its record as the store takes it (its row, what it changes
    on its match, a hand's result, awards, and the room row's values a match's end changes);
    and for memory, once committed, the step, the preview it was checked on and the room's
    change (`room`: a match's end opens the lobby again; `write.room_values` is its row)."""

    write: MoveWrite
    step: MoveStep
    room: RoomPatch | None = None
    previewed: Previewed | None = field(default=None, repr=False, compare=False)

    @property
    def match_id(self) -> str:
        return self.write.match_id

    @property
    def expect_v(self) -> int:
        return self.write.expect_v

    @property
    def deadline(self) -> datetime | None:
        return self.write.match.turn_deadline

    @property
    def hand_end(self) -> HandEnd | None:
        return self.write.hand_end

    @property
    def ends_match(self) -> bool:
        return self.write.match.status == MatchStatus.MATCH_OVER


@dataclass(frozen=True)
class MarkReady:
    """Between hands of match `match_id` at version `v`, `seat` is ready for the next hand
    (memory only: nothing to commit)."""

    match_id: str
    v: int
    seat: int


@dataclass(frozen=True)
class Followed:
    """What another instance committed, read from its notice or from the store, to make true
    here (nothing to commit): the match's next steps (`deadline`: the turn's after them), the
    room row, who is here, what a hand's end earned (`awards`, when `read_awards`);
    `room_changed`: the room object changed too."""

    steps: Sequence[Step] = ()
    deadline: datetime | None = None
    state: RoomState | None = None
    presence: dict[str, Seen] | None = None
    awards: Awards | None = None
    read_awards: bool = False
    room_changed: bool = False


Effect = ChangeRoom | BeginMatch | DealHand | CommitMove | MarkReady | ChatLine | Followed


@dataclass(frozen=True, slots=True)
class Committed:
    """What the store answered a commit: the room row's new revision, what a hand's end earned."""

    rev: int | None = None
    awards: Awards | None = None


@dataclass(frozen=True, slots=True)
class Shown:
    """What an applied effect changed, so the shell knows what to show: the room object, the
    table (a state to every socket; `new_match`: from its deal on), a chat line."""

    room: bool = False
    table: bool = False
    new_match: bool = False
    chat: ChatLine | None = None


def apply(room: Room, effect: Effect, done: Committed, mono: float) -> Shown:
    """Make a committed effect true in memory (`mono`: the command's monotonic time)."""
    m = room.match
    match effect:
        case ChangeRoom(patch=patch):
            assert done.rev is not None
            room.state = patch.applied(room.state, done.rev)
            room.changed_at = mono
            return Shown(room=True)
        case BeginMatch():
            assert done.rev is not None
            room.state = effect.room.applied(room.state, done.rev)
            room.match = effect.match
            apply_steps(effect.match, [effect.deal], effect.deadline)
            room.changed_at = mono
            return Shown(room=True, table=True, new_match=True)
        case DealHand():
            assert m is not None
            apply_steps(m, [effect.deal], effect.deadline)
            room.changed_at = mono
            return Shown(table=True)
        case CommitMove():
            assert m is not None
            apply_steps(m, [effect.step], effect.deadline, previewed=effect.previewed)
            if effect.hand_end is not None:
                m.awards = done.awards
            if effect.room is not None:
                room.state = effect.room.applied(room.state, room.state.rev + 1)
            room.changed_at = mono
            return Shown(room=effect.room is not None, table=True)
        case MarkReady():
            assert m is not None
            m.ready.add(effect.seat)
            return Shown(table=True)
        case ChatLine():
            return Shown(chat=effect)
        case Followed():
            if effect.steps:
                assert m is not None
                apply_steps(m, effect.steps, effect.deadline)
                room.changed_at = mono
            if effect.state is not None:
                room.state = effect.state
            if effect.presence is not None:
                room.presence = effect.presence
            if effect.read_awards and m is not None:
                m.awards = effect.awards
            return Shown(room=effect.room_changed, table=True)


def notice(room: Room, effect: Effect) -> Notice:
    """What the other instances are told once `effect` is applied here."""
    m = room.match
    match effect:
        case ChangeRoom():
            return RoomChanged()
        case BeginMatch() | DealHand():
            assert m is not None
            return Advanced(m.id, m.v, isinstance(effect, BeginMatch))
        case CommitMove():
            assert m is not None
            plain = effect.hand_end is None  # a hand's end also writes results: others read the store
            return Advanced(m.id, m.v, effect.room is not None, effect.step if plain else None, effect.deadline)
        case MarkReady():
            return ReadyMarked(effect.match_id, effect.v, effect.seat)
        case ChatLine():
            return ChatSaid(effect.sender, effect.text, effect.at)
        case Followed():  # never published: the instance that committed it told everyone
            return RoomChanged()


def lost(room: Room, effect: Effect) -> RoomError | None:
    """Another writer committed first and `room` has been re-read from the store: the error to
    answer, or None when there is nothing to say (a lobby change is decided again; a move whose
    twin on another socket got there first is already made)."""
    match effect:
        case BeginMatch():
            return RoomError(E.CONFLICT, "the room changed just now; try again", reason="room_changed")
        case DealHand():
            return RoomError(E.CONFLICT, "the next hand was already dealt", reason="already_dealt")
        case CommitMove(step=step):
            m = room.match
            if step.client_id is not None and m is not None and (step.seat, step.client_id) in m.client_ids:
                return None
            return RoomError(E.CONFLICT, "another move was made first; here is the table now", reason="moved_first",
                             move_id=step.client_id)
    return None


def move_id(effect: Effect) -> str | None:
    """The client's move id an error about `effect` names."""
    return effect.step.client_id if isinstance(effect, CommitMove) else None
