"""The socket protocol's messages, typed both ways (docs/protocol.md).

Client messages are a discriminated union on `type`, validated strictly (a number where a
string belongs is an error, not a guess); unknown fields are ignored, unknown types refused. Only
`hello` and `ping` are declared here: every other client message is the room command it asks for,
declared once in `app.rooms.core.commands` and validated straight into it (`CLIENT_MESSAGE`).
Server messages are built from the models below and sent as JSON; the two the room layer
fills (`room` and `state`, sent on every change) are TypedDicts around its own
(`app.rooms.core.messages`), built as plain dicts and encoded by orjson on the hot path, checked by
mypy here and validated by the tests against the same types. `scripts/gen_types.py` writes
static/types.js from all of them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args, get_type_hints

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, TypeAdapter
from typing_extensions import TypedDict

from app.domain.records import ChatSender
from app.rooms.core import commands as C
from app.rooms.core.messages import Doc, RoomInfo, StateExtra


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class Hello(_In):
    """The socket's first message (the socket answers it; no room command)."""

    type: Literal["hello"]
    token: str = Field(max_length=256)
    last_v: int | None = None
    # split: `state` carries `shared` and `own` for `view`; delta (v1.4): split, and after the first
    # state each change is a `delta` of what changed (docs/protocol.md, "Delta frames")
    format: Literal["full", "split", "delta"] = "full"
    lang: str | None = Field(default=None, max_length=16)  # the language to speak (else the player's)


class Ping(_In):
    """Answered with a `pong` by the socket itself."""

    type: Literal["ping"]


# Every other message is the room command it asks for (`app.rooms.core.commands`, their one schema):
# validated straight into it, the move parsed into the engine's `Move`, so a frame the room would
# refuse for its shape never reaches the room.
ClientMessage = Annotated[Hello | C.Command | Ping, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES: tuple[str, ...] = tuple(get_args(get_type_hints(tp, include_extras=False)["type"])[0]
                                      for tp in get_args(Hello | C.Command | Ping))
"""The `type` of every client message, in the union's order (an `unknown_type` refusal lists them)."""


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


class _DeltaHead(TypedDict):
    type: Literal["delta"]
    v: int


class DeltaState(_DeltaHead, _Events, StateExtra):
    """A change of the table on a socket that said hello with `"format": "delta"` (v1.4): the
    receiver's view at `base` (the version it holds) made the view at `v` by `gone`, `shared`,
    `players` and `own`, in that order. Any other message of such a socket is a split one."""

    base: Annotated[int, Doc("the version of the view this changes: the last `state` or `delta` sent")]
    gone: Annotated[list[str], Doc("top-level keys of the view no longer in it (none so far)")]
    shared: Annotated[dict[str, Any], Doc("the shared part's top-level keys that changed, with their new values",
                                          'Partial<Omit<View, "you" | "hand" | "legal_moves">>')]
    players: Annotated[dict[str, dict[str, Any]], Doc("by seat index: the keys of `players[seat]` that changed, "
                                                      "when `shared` does not carry `players` whole",
                                                      "Record<string, Partial<Player>>")]
    own: Annotated[dict[str, Any], Doc("the own part's keys that changed, with their new values",
                                       'Partial<Pick<View, "you" | "hand" | "legal_moves">>')]


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
"""What a socket that said hello with `"format": "split"` receives."""
DeltaServerMessage = Annotated[Welcome | RoomMessage | SplitState | DeltaState | Error | ChatLine | ChatHistory
                               | HintMessage | LogMessage | Pong, Field(discriminator="type")]
"""What a socket that said hello with `"format": "delta"` receives (the browser client's)."""
