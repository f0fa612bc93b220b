"""Rematch offers, once a match is over: a rematch is an offer the others accept.

Pure. The first seated person to ask offers it; each other seated person accepts or declines:
a lobby change (`ChangeRoom` of the room row's `rematch`, so every instance and a reload know
it). The accept that leaves no seated person unanswered or declined starts the new match
(`match_rules.decide_start`: a `BeginMatch`, which clears the offer). Bots always accept. Who is
seated is the lobby's seating (people may stand up or sit down once the match is over); a
person of the match whose seat is now empty has left.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from typing_extensions import TypedDict

from app.domain.records import RoomStatus
from app.rooms.core import errors as E
from app.rooms.core.config import RoomRules
from app.rooms.core.effects import BeginMatch, ChangeRoom
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import Actor
from app.rooms.core.match_rules import Fresh, decide_start
from app.rooms.core.model import Room, RoomPatch

Answer = Literal["offered", "accepted", "declined", "waiting", "left", "empty", "bot"]


class RematchSeat(TypedDict):
    seat: int
    answer: Answer


class RematchInfo(TypedDict):
    """The room object's `rematch`, once someone has offered one: who offered, each seat's answer."""

    by: int | None
    seats: list[RematchSeat]


def _answers(room: Room) -> dict[str, bool]:
    answers = room.state.rematch.get("answers")
    return {str(k): bool(v) for k, v in answers.items()} if isinstance(answers, dict) else {}


def decide_rematch(room: Room, who: Actor, accept: bool, *, now: datetime, fresh: Fresh,
                   settings: RoomRules) -> BeginMatch | ChangeRoom:
    """`who` offers or accepts a rematch (`accept`), or declines one."""
    st, m = room.state, room.match
    if st.status != RoomStatus.OVER or m is None:
        raise RoomError(E.NOT_ALLOWED_NOW, "a rematch can start only once the match is over",
                        reason="rematch_after_match")
    if room.lobby_seat(who.player_id) is None:
        raise RoomError(E.NOT_ALLOWED_NOW, "only a seated player can answer a rematch", reason="rematch_answer_seated")
    answers = _answers(room)
    by = st.rematch.get("by") if answers else None
    if not accept and by is None:
        raise RoomError(E.NOT_ALLOWED_NOW, "nobody has offered a rematch", reason="rematch_none_offered")
    people = [s.player_id for s in st.seating if s is not None and s.bot is None and s.player_id]
    if accept and all(p == who.player_id or answers.get(p) for p in people):
        return decide_start(room, who, rematch=True, now=now, fresh=fresh, settings=settings)
    offer = {"by": by or who.player_id, "answers": {**answers, who.player_id: accept}}
    return ChangeRoom(RoomPatch(rematch=offer), st.rev)


def rematch_info(room: Room) -> RematchInfo | None:
    """Each seat's answer to the rematch offered (None until someone offers one), the match's
    seats as the lobby seats them now."""
    answers = _answers(room)
    m = room.match
    if m is None or room.state.status != RoomStatus.OVER or not answers:
        return None
    by = room.lobby_seat(str(room.state.rematch.get("by")))
    seats: list[RematchSeat] = []
    for i, lobby in enumerate(room.state.seating):
        played = m.seats[i] if i < len(m.seats) else None
        answer: Answer
        if lobby is None:
            answer = "left" if played is not None and played.player_id else "empty"
        elif lobby.bot is not None:
            answer = "bot"
        else:
            said = answers.get(lobby.player_id or "")
            answer = "waiting" if said is None else "declined" if not said else "offered" if i == by else "accepted"
        seats.append({"seat": i, "answer": answer})
    return {"by": by, "seats": seats}
