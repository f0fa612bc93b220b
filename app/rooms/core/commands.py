"""What a socket asks a room to do, as typed values (the server builds them from the wire's
messages, docs/protocol.md). The core dispatches on them with `match`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Unset:
    """Marks a `Configure` field the client did not send (null is a value: "no clock")."""

    _instance: Unset | None = None

    def __new__(cls) -> Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"


UNSET = Unset()


@dataclass(frozen=True, slots=True)
class Sit:
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Stand:
    pass


@dataclass(frozen=True, slots=True)
class AddBot:
    seat: int | None = None
    level: str = "easy"


@dataclass(frozen=True, slots=True)
class RemoveBot:
    seat: int


@dataclass(frozen=True, slots=True)
class FreeSeat:
    """The host frees the seat of a player who is away (a squatter), in the lobby."""

    seat: int


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    """The host takes the person in `seat` out of it, here or away, in the lobby."""

    seat: int


@dataclass(frozen=True, slots=True)
class Configure:
    """The host's settings; only the fields given change (`options` replaces the overrides)."""

    preset: str | None = None
    options: dict[str, Any] | None = None
    seats: int | None = None
    turn_seconds: int | None | Unset = UNSET
    public: bool | None = None
    hints: bool | None = None


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class Rematch:
    """Offer or accept a rematch (`accept`), or decline one."""

    accept: bool = True


@dataclass(frozen=True, slots=True)
class NextHand:
    pass


@dataclass(frozen=True, slots=True)
class MakeMove:
    """A person's move: `move` is the wire object, parsed by the core; `id` the client's."""

    move: dict[str, Any]
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Chat:
    text: str


@dataclass(frozen=True, slots=True)
class Hint:
    pass


LobbyCommand = Sit | Stand | AddBot | RemoveBot | FreeSeat | RemovePlayer | Configure
Command = LobbyCommand | Start | Rematch | NextHand | MakeMove | Chat | Hint
