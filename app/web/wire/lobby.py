"""The lobby socket's messages (`/ws/lobby`), one schema each (docs/protocol.md).

Client messages are validated strictly, as on the room socket. Every server message is one of
the models below; what arrives from a player's channel is checked against its model before it
is sent, so nothing but these shapes ever reaches a client.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class LobbyHello(_In):
    type: Literal["hello"]
    token: str = Field(max_length=256)
    lang: str | None = Field(default=None, max_length=16)  # the language to speak on this socket (v1.3)


class LobbyPing(_In):
    type: Literal["ping"]


LobbyClientMessage = Annotated[LobbyHello | LobbyPing, Field(discriminator="type")]
LOBBY_CLIENT: TypeAdapter[LobbyHello | LobbyPing] = TypeAdapter(LobbyClientMessage)
LOBBY_CLIENT_TYPES = ("hello", "ping")


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerRef(_Out):
    player_id: str
    name: str


class LobbyWelcome(_Out):
    """After hello: who you are."""

    type: Literal["welcome"] = "welcome"
    you: PlayerRef


class LobbyInvitation(_Out):
    """Someone invited you to a room (accept: `POST /api/invitations/{id}/accept`)."""

    type: Literal["invitation"] = "invitation"
    id: str
    room: str
    from_: PlayerRef = Field(alias="from", serialization_alias="from")
    expires_at: str

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class LobbyInvitationClosed(_Out):
    """An invitation to you or from you was accepted, declined, withdrawn or expired."""

    type: Literal["invitation_closed"] = "invitation_closed"
    id: str
    room: str
    status: Literal["accepted", "declined", "withdrawn", "expired"]


class LobbyYourTurn(_Out):
    """It is your turn in one of your rooms (sent by the turn-based rooms' notifications)."""

    type: Literal["your_turn"] = "your_turn"
    room: str
    deadline: str | None


class LobbyFriend(_Out):
    """A friend came online or went; `room`: a room of theirs you may join or watch, or null."""

    type: Literal["friend"] = "friend"
    player_id: str
    online: bool
    room: str | None


class LobbyFriendRequest(_Out):
    """A player asked to be your friend (or accepted your request: `friends` true)."""

    type: Literal["friend_request"] = "friend_request"
    from_: PlayerRef = Field(alias="from", serialization_alias="from")
    friends: bool

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class LobbyMatched(_Out):
    """Your quick-match ticket found a table: go to `room`."""

    type: Literal["matched"] = "matched"
    room: str
    ticket: str


class LobbyQuickMatch(_Out):
    """Your quick-match ticket ended without a table (cancelled: you left, or it could not be made)."""

    type: Literal["quick_match"] = "quick_match"
    ticket: str
    status: Literal["cancelled"]
    room: None = None


class LobbyError(_Out):
    """A refusal: `message` in the socket's language, `reason` (the catalogues' `reason.<key>`)
    and `params` beside it; both null for a field of the wrong type (English only)."""

    type: Literal["error"] = "error"
    code: str
    message: str
    reason: str | None = None
    params: dict[str, Any] | None = None


class LobbyPong(_Out):
    type: Literal["pong"] = "pong"


ChannelMessage = Annotated[LobbyInvitation | LobbyInvitationClosed | LobbyYourTurn | LobbyFriend | LobbyFriendRequest
                           | LobbyMatched | LobbyQuickMatch, Field(discriminator="type")]
CHANNEL_MESSAGE: TypeAdapter[BaseModel] = TypeAdapter(ChannelMessage)
SERVER_MODELS: tuple[type[_Out], ...] = (LobbyWelcome, LobbyInvitation, LobbyInvitationClosed, LobbyYourTurn,
                                         LobbyFriend, LobbyFriendRequest, LobbyMatched, LobbyQuickMatch, LobbyError,
                                         LobbyPong)
