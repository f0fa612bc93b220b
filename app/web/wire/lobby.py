"""The lobby socket's messages (`/ws/lobby`), one schema each (docs/protocol.md).

Client messages are validated strictly, as on the room socket. Every server message is one of
the models below or one of the player channel's messages, which are defined once, as pure
dataclasses, in `app.social.core.lobby_messages` (the routes and the social shell build them);
what arrives from a player's channel is checked against them (`CHANNEL_MESSAGE`) before it is
sent, so nothing but these shapes ever reaches a client.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, with_config

from app.social.core import lobby_messages
from app.social.core.lobby_messages import (
    LobbyFriend,
    LobbyFriendRequest,
    LobbyInvitation,
    LobbyInvitationClosed,
    LobbyMatched,
    LobbyMessage,
    LobbyQuickMatch,
    LobbyYourTurn,
    PlayerRef,
)


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

__all__ = ["CHANNEL_MESSAGE", "LOBBY_CLIENT", "LOBBY_CLIENT_TYPES", "SERVER_MODELS", "LobbyError", "LobbyFriend",
           "LobbyFriendRequest", "LobbyHello", "LobbyInvitation", "LobbyInvitationClosed", "LobbyMatched",
           "LobbyMessage", "LobbyPing", "LobbyPong", "LobbyQuickMatch", "LobbyWelcome", "LobbyYourTurn", "PlayerRef"]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# The channel's messages are `app.social.core.lobby_messages`' dataclasses, validated and
# serialised by pydantic through this config: no unknown field, `from_` is `from` on the wire.
_CHANNEL = ConfigDict(extra="forbid", alias_generator=lambda name: lobby_messages.JSON_NAMES.get(name, name))
for _cls in (PlayerRef, *lobby_messages.MESSAGES):
    with_config(_CHANNEL)(_cls)


class LobbyWelcome(_Out):
    """After hello: who you are."""

    type: Literal["welcome"] = "welcome"
    you: PlayerRef


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


ChannelMessage = Annotated[LobbyMessage, Field(discriminator="type")]
CHANNEL_MESSAGE: TypeAdapter[LobbyMessage] = TypeAdapter(ChannelMessage)
SERVER_MODELS: tuple[type, ...] = (LobbyWelcome, *lobby_messages.MESSAGES, LobbyError, LobbyPong)
