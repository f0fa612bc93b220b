"""The socket protocol's messages, typed both ways (docs/protocol.md).

Client messages are a discriminated union on `type`, validated strictly (a number where a
string belongs is an error, not a guess); unknown fields are ignored, unknown types refused.
Server messages are built from the models below and sent as JSON; the two the room layer
fills (`room` and `state`, sent on every change) are TypedDicts around its own
(`app.rooms.core.messages`), built as plain dicts and encoded by orjson on the hot path, checked by
mypy here and validated by the tests against the same types. `scripts/gen_types.py` writes
static/types.js from all of them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, TypeAdapter
from typing_extensions import TypedDict

from app.domain.records import ChatSender
from app.rooms.core import commands as C
from app.rooms.core.messages import Doc, RoomInfo, StateExtra

# Move ids are the client's, stored with the move: printable ASCII only (no control character,
# no NUL byte, which PostgreSQL refuses).
MoveId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\x20-\x7e]+$")] | \
    Annotated[int, Field(ge=-(2**53), le=2**53)]


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class Hello(_In):
    type: Literal["hello"]
    token: str = Field(max_length=256)
    last_v: int | None = None
    format: Literal["full", "split"] = "full"  # split: `state` carries `shared` and `own` for `view`
    lang: str | None = Field(default=None, max_length=16)  # the language to speak (else the player's)


class Sit(_In):
    type: Literal["sit"]
    seat: int | None = None


class Stand(_In):
    type: Literal["stand"]
    seat: int | None = None


class AddBot(_In):
    type: Literal["add_bot"]
    seat: int | None = None
    level: str = Field(default="easy", max_length=16)


class RemoveBot(_In):
    type: Literal["remove_bot"]
    seat: int


class FreeSeat(_In):
    type: Literal["free_seat"]
    seat: int


class RemovePlayer(_In):
    type: Literal["remove_player"]
    seat: int


class Configure(_In):
    type: Literal["configure"]
    preset: str | None = Field(default=None, max_length=32)
    options: dict[str, Any] | None = None
    seats: int | None = None
    turn_seconds: int | None = None
    public: bool | None = None
    hints: bool | None = None


class Start(_In):
    type: Literal["start"]


class MoveRequest(_In):
    type: Literal["move"]
    id: MoveId | None = None
    move: dict[str, Any] = Field(json_schema_extra={"x-js": "Move"})


class Chat(_In):
    type: Literal["chat"]
    text: str = Field(max_length=4000)


class NextHand(_In):
    type: Literal["next_hand"]


class Rematch(_In):
    type: Literal["rematch"]
    accept: bool = True  # false: decline the rematch offered


class Ping(_In):
    type: Literal["ping"]


class Hint(_In):
    type: Literal["hint"]


ClientMessage = Annotated[
    Hello | Sit | Stand | AddBot | RemoveBot | FreeSeat | RemovePlayer | Configure | Start | MoveRequest | Chat
    | NextHand | Rematch | Ping | Hint,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "sit", "stand", "add_bot", "remove_bot", "free_seat", "remove_player", "configure", "start",
                "move", "chat", "next_hand", "rematch", "ping", "hint")


def to_command(msg: BaseModel) -> C.Command:
    """The room command a client message asks for (not `hello` or `ping`, which the socket
    answers itself). Move ids become strings; `configure` keeps "turn_seconds: null" apart
    from "not given"."""
    match msg:
        case Sit(seat=seat):
            return C.Sit(seat)
        case Stand():
            return C.Stand()
        case AddBot(seat=seat, level=level):
            return C.AddBot(seat, level)
        case RemoveBot(seat=seat):
            return C.RemoveBot(seat)
        case FreeSeat(seat=seat):
            return C.FreeSeat(seat)
        case RemovePlayer(seat=seat):
            return C.RemovePlayer(seat)
        case Configure():
            given = msg.model_fields_set
            return C.Configure(preset=msg.preset, options=msg.options, seats=msg.seats,
                               turn_seconds=msg.turn_seconds if "turn_seconds" in given else C.UNSET,
                               public=msg.public, hints=msg.hints)
        case Start():
            return C.Start()
        case Rematch(accept=accept):
            return C.Rematch(accept)
        case NextHand():
            return C.NextHand()
        case MoveRequest(id=move_id, move=move):
            return C.MakeMove(move, str(move_id) if move_id is not None else None)
        case Chat(text=text):
            return C.Chat(text)
        case Hint():
            return C.Hint()
    raise ValueError(f"{type(msg).__name__} is not a room command")


class _Out(BaseModel):
    # every field is always sent, defaults too (so the schema calls them all required)
    model_config = ConfigDict(populate_by_name=True, json_schema_serialization_defaults_required=True)


class You(_Out):
    player_id: str
    name: str
    seat: int | None
    host: bool
    account: bool = False


class Welcome(_Out):
    type: Literal["welcome"] = "welcome"
    you: You
    room: RoomInfo


class RoomMessage(TypedDict):
    type: Literal["room"]
    room: RoomInfo


class _StateHead(TypedDict):
    type: Literal["state"]
    v: int


class _Events(TypedDict):
    events: Annotated[list[dict[str, Any]], Doc(js="GameEvent[]")]


class State(_StateHead, _Events, StateExtra):
    """A `state` on a socket that said hello without `"format": "split"`: the receiver's whole view."""

    view: Annotated[dict[str, Any], Doc(js="View")]


class SplitState(_StateHead, _Events, StateExtra):
    """A `state` on a socket that said hello with `"format": "split"`: the view in two parts,
    `{**shared, **own}` being the receiver's whole view."""

    shared: Annotated[dict[str, Any], Doc("the same for every receiver of this version",
                                          'Omit<View, "you" | "hand" | "legal_moves">')]
    own: Annotated[dict[str, Any], Doc("this receiver's own part", 'Pick<View, "you" | "hand" | "legal_moves">')]


class Error(_Out):
    type: Literal["error"] = "error"
    code: str = Field(json_schema_extra={"x-js": "ErrorCode"})
    message: str
    id: str | None = None
    option: str | None = None
    reason: str | None = None  # a stable key of the refusal (catalogues: `reason.<key>`), with its params
    params: dict[str, Any] | None = None


class ChatLine(_Out):
    type: Literal["chat"] = "chat"
    sender: ChatSender = Field(validation_alias=AliasChoices("from", "sender"), serialization_alias="from")
    text: str
    at: str


class ChatHistory(_Out):
    """The room's recent chat, oldest first, sent after the welcome (and state) on each join."""

    type: Literal["chat_history"] = "chat_history"
    lines: list[ChatLine]


class HintMessage(_Out):
    type: Literal["hint"] = "hint"
    v: int
    move: dict[str, Any] = Field(json_schema_extra={"x-js": "Move"})
    reason: str  # in the receiver's language
    reason_key: str | None = None  # the catalogues' `hint.<key>`, with its params
    params: dict[str, Any] | None = None


class LogEntry(_Out):
    v: int
    events: Annotated[list[dict[str, Any]], Doc(js="GameEvent[]")]


class LogMessage(_Out):
    """The current hand's move log, sent on each (re)connect after the first state
    (`app.rooms.core.handlog`): every version of the hand with its events, and the versions the
    server played for the receiver's seat since their own last move."""

    type: Literal["log"] = "log"
    match_id: str
    hand_number: int
    entries: list[LogEntry]
    made_for_you: list[int]


class Pong(_Out):
    type: Literal["pong"] = "pong"


ServerMessage = Annotated[Welcome | RoomMessage | State | Error | ChatLine | ChatHistory | HintMessage | LogMessage
                          | Pong, Field(discriminator="type")]
SplitServerMessage = Annotated[Welcome | RoomMessage | SplitState | Error | ChatLine | ChatHistory | HintMessage
                               | LogMessage | Pong, Field(discriminator="type")]
"""What a socket that said hello with `"format": "split"` receives (the browser client's)."""
