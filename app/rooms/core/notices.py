"""What one instance tells the others about a room on the bus (`app.platform.bus`): typed notices with
one JSON form each. Each message names the instance that sent it (`origin`); a subscriber is
not sent its own. None carries a view or a hidden card: a plain move carries its public
record (`steps.MoveStep.to_json`), everything else says "read the store"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, cast

from app.domain.records import ChatSender
from app.rooms.core.steps import MoveStep


@dataclass(frozen=True, slots=True)
class Advanced:
    """Match `match` is at version `v`; `move` is the move that got it there, if plain (the
    others apply it without reading the store); `room` if the room row changed too."""

    match: str
    v: int
    room: bool = False
    move: MoveStep | None = None
    deadline: datetime | None = None
    kind: Literal["v"] = "v"


@dataclass(frozen=True, slots=True)
class RoomChanged:
    """The lobby or who is connected changed."""

    kind: Literal["room"] = "room"


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """Sockets joined or left: read who is connected (debounced by each receiver)."""

    kind: Literal["presence"] = "presence"


@dataclass(frozen=True, slots=True)
class ChatSaid:
    sender: ChatSender
    text: str
    at: str
    kind: Literal["chat"] = "chat"


@dataclass(frozen=True, slots=True)
class ReadyMarked:
    """At version `v` of match `match` (between hands), `seat` said it is ready."""

    match: str
    v: int
    seat: int
    kind: Literal["ready"] = "ready"


@dataclass(frozen=True, slots=True)
class Resync:
    """The bus may have lost messages: read the store."""

    kind: Literal["resync"] = "resync"


Notice = Advanced | RoomChanged | PresenceChanged | ChatSaid | ReadyMarked | Resync


def notice_json(notice: Notice, origin: str | None = None) -> dict[str, Any]:
    """The bus message of `notice`; `origin`, the instance that sends it, may be added later."""
    match notice:
        case Advanced():
            out: dict[str, Any] = {"kind": "v", "match": notice.match, "v": notice.v, "room": notice.room}
            if notice.move is not None:
                out["move"] = notice.move.to_json()
                out["deadline"] = notice.deadline.isoformat() if notice.deadline is not None else None
        case ChatSaid():
            out = {"kind": "chat", "from": notice.sender, "text": notice.text, "at": notice.at}
        case ReadyMarked():
            out = {"kind": "ready", "match": notice.match, "v": notice.v, "seat": notice.seat}
        case RoomChanged() | PresenceChanged() | Resync():
            out = {"kind": notice.kind}
    if origin is not None:
        out["origin"] = origin
    return out


def notice_from_json(data: dict[str, Any]) -> Notice:
    """A bus message as a value; anything unreadable is a `Resync` (read the store)."""
    try:
        kind = data.get("kind")
        if kind == "v":
            move = data.get("move")
            deadline = data.get("deadline")
            return Advanced(str(data["match"]), int(data["v"]), bool(data.get("room")),
                            MoveStep.from_json(move) if isinstance(move, dict) else None,
                            datetime.fromisoformat(deadline) if deadline else None)
        if kind == "ready":
            return ReadyMarked(str(data["match"]), int(data["v"]), int(data["seat"]))
        if kind == "room":
            return RoomChanged()
        if kind == "presence":
            return PresenceChanged()
        if kind == "chat":
            sender, text, at = data["from"], data["text"], data["at"]
            if not (isinstance(sender, dict) and isinstance(text, str) and isinstance(at, str)):
                raise TypeError("a chat notice names its sender, text and time")
            return ChatSaid(cast(ChatSender, sender), text, at)
    except (KeyError, TypeError, ValueError):
        pass
    return Resync()
