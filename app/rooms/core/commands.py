"""What a socket asks a room to do: the one schema of the room socket's requests (docs/protocol.md).

Each command is a frozen dataclass with its wire `type` and the limits the socket enforces
(`annotated_types` metadata); the web layer validates a frame straight into these classes
(`app.web.wire.room.CLIENT_MESSAGE`, pydantic), and scripts/gen_types.py writes the client's types
from them. Pydantic reads the class-level `__pydantic_config__` (strict: a number where a string
belongs is refused, not coerced; unknown fields ignored) and the two hooks of `Wire`; this module
imports no pydantic. The core dispatches on the classes with `match`, and builds them positionally
(`Sit(2)`): `type` is set by the class, never passed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from annotated_types import Ge, Le, MaxLen, MinLen, Predicate

from app.engine.moves import Move


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


def _type_required(schema: dict[str, Any]) -> None:
    # The union is told apart by `type`, so a message must carry it, though the class fills it in.
    schema["required"] = ["type", *schema.get("required", ())]


WIRE_CONFIG: dict[str, Any] = {"strict": True, "extra": "ignore", "json_schema_extra": _type_required}
"""The commands' pydantic config (a plain dict, read from `__pydantic_config__`)."""


class Wire:
    """`Annotated` metadata for a field whose wire form is not its value: the socket reads it as
    `shape` (a type) and `parse` turns that into the value (a ValueError refuses the frame); `js`
    names its client type in static/types.js. Pydantic calls the two hooks below (the way
    `messages.Doc` is read; the first answers a pydantic-core schema, which is a plain dict), so
    this module need not import it."""

    __slots__ = ("shape", "parse", "js")

    def __init__(self, shape: Any, parse: Callable[[Any], Any] | None = None, js: str | None = None) -> None:
        self.shape, self.parse, self.js = shape, parse, js

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        schema = handler.generate_schema(self.shape)
        if self.parse is None:
            return schema
        return {"type": "function-after", "function": {"type": "no-info", "function": self.parse}, "schema": schema}

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> Any:
        schema = handler(core_schema)
        if self.js:
            schema["x-js"] = self.js
        return schema


def printable_ascii(text: str) -> bool:
    return text.isascii() and text.isprintable()


def _move_id(value: str | int) -> str:
    return str(value)


# Move ids are the client's, stored with the move: printable ASCII only (no control character, no
# NUL byte, which PostgreSQL refuses), or an integer a JavaScript number holds exactly; the room
# sees a string either way.
MoveId = Annotated[
    str,
    Wire(Annotated[str, MinLen(1), MaxLen(64), Predicate(printable_ascii)] | Annotated[int, Ge(-(2**53)), Le(2**53)],
         _move_id),
]
WireMove = Annotated[Move, Wire(dict[str, Any], Move.from_wire, js="Move")]
"""A move, sent as the protocol's move object and parsed by `Move.from_wire` (BadMove if it is not
shaped like one: the socket refuses it, `bad_message`/`bad_move`, before the room sees it)."""
NotGiven = Annotated[int | None | Unset, Wire(int | None)]
"""`int | None` on the wire; `UNSET` (the default) when the field is left out."""


@dataclass(frozen=True, slots=True)
class Sit:
    __pydantic_config__ = WIRE_CONFIG
    type: Literal["sit"] = field(default="sit", init=False)
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Stand:
    __pydantic_config__ = WIRE_CONFIG
    type: Literal["stand"] = field(default="stand", init=False)
    seat: int | None = None  # ignored: you stand from your own seat


@dataclass(frozen=True, slots=True)
class AddBot:
    __pydantic_config__ = WIRE_CONFIG
    type: Literal["add_bot"] = field(default="add_bot", init=False)
    seat: int | None = None
    level: Annotated[str, MaxLen(16)] = "easy"


@dataclass(frozen=True, slots=True)
class RemoveBot:
    __pydantic_config__ = WIRE_CONFIG
    type: Literal["remove_bot"] = field(default="remove_bot", init=False)
    seat: int


@dataclass(frozen=True, slots=True)
class FreeSeat:
    """The host frees the seat of a player who is away (a squatter), in the lobby."""

    __pydantic_config__ = WIRE_CONFIG
    type: Literal["free_seat"] = field(default="free_seat", init=False)
    seat: int


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    """The host takes the person in `seat` out of it, here or away, in the lobby."""

    __pydantic_config__ = WIRE_CONFIG
    type: Literal["remove_player"] = field(default="remove_player", init=False)
    seat: int


@dataclass(frozen=True, slots=True)
class Configure:
    """The host's settings; only the fields given change (`options` replaces the overrides).
    `turn_seconds` left out is `UNSET` (keep the clock); null turns the clock off."""

    __pydantic_config__ = WIRE_CONFIG
    type: Literal["configure"] = field(default="configure", init=False)
    preset: Annotated[str, MaxLen(32)] | None = None
    options: dict[str, Any] | None = None
    seats: int | None = None
    turn_seconds: NotGiven = field(default_factory=Unset)  # a factory: the schema shows no default
    public: bool | None = None
    hints: bool | None = None


@dataclass(frozen=True, slots=True)
class Start:
    __pydantic_config__ = WIRE_CONFIG
    type: Literal["start"] = field(default="start", init=False)


@dataclass(frozen=True, slots=True)
class Rematch:
    """Offer or accept a rematch (`accept`), or decline one."""

    __pydantic_config__ = WIRE_CONFIG
    type: Literal["rematch"] = field(default="rematch", init=False)
    accept: bool = True  # false: decline the rematch offered


@dataclass(frozen=True, slots=True)
class NextHand:
    __pydantic_config__ = WIRE_CONFIG
    type: Literal["next_hand"] = field(default="next_hand", init=False)


@dataclass(frozen=True, slots=True)
class MakeMove:
    """A person's move, parsed at the socket; `id` the client's (a string)."""

    __pydantic_config__ = WIRE_CONFIG
    type: Literal["move"] = field(default="move", init=False)
    move: WireMove
    id: MoveId | None = None


@dataclass(frozen=True, slots=True)
class Chat:
    __pydantic_config__ = WIRE_CONFIG
    type: Literal["chat"] = field(default="chat", init=False)
    text: Annotated[str, MaxLen(4000)]


@dataclass(frozen=True, slots=True)
class Hint:
    __pydantic_config__ = WIRE_CONFIG
    type: Literal["hint"] = field(default="hint", init=False)


@dataclass(frozen=True, slots=True)
class Resign:
    """A seated player gives up the match for their side (docs/rules.md, "Resign"), on any turn."""

    __pydantic_config__ = WIRE_CONFIG
    type: Literal["resign"] = field(default="resign", init=False)


@dataclass(frozen=True, slots=True)
class Sync:
    """Send me the whole table again (v1.4, delta frames: a client whose view does not match a
    `delta`'s base asks for a full `state`). Changes nothing; before a match, nothing is sent."""

    __pydantic_config__ = WIRE_CONFIG
    type: Literal["sync"] = field(default="sync", init=False)


LobbyCommand = Sit | Stand | AddBot | RemoveBot | FreeSeat | RemovePlayer | Configure
Command = LobbyCommand | Start | MakeMove | Chat | NextHand | Rematch | Hint | Resign | Sync
"""Every command, in the order of docs/protocol.md's table (static/types.js lists them so)."""
