"""The messages a player's lobby channel carries (docs/protocol.md, "The lobby socket"): one
frozen dataclass each, built once where the news happens (the invitation and friend routes,
quick match, the player channels, the turn reminders) and told over the bus as its JSON
(`to_json`). The lobby socket checks what arrives against these same classes:
`app/web/wire/lobby.py` derives its validation, its serialisation and the client's types from
them. Pure (no pydantic), so every layer with news may build one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Literal

# A field whose JSON key is a Python keyword: its name here, its key on the wire.
JSON_NAMES = {"from_": "from"}

InvitationStatus = Literal["accepted", "declined", "withdrawn", "expired"]


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerRef:
    player_id: str
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyInvitation:
    """Someone invited you to a room (accept: `POST /api/invitations/{id}/accept`)."""

    type: Literal["invitation"] = "invitation"
    id: str
    room: str
    from_: PlayerRef
    expires_at: str


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyInvitationClosed:
    """An invitation to you or from you was accepted, declined, withdrawn or expired."""

    type: Literal["invitation_closed"] = "invitation_closed"
    id: str
    room: str
    status: InvitationStatus


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyYourTurn:
    """It is your turn in one of your rooms (sent by the turn-based rooms' notifications)."""

    type: Literal["your_turn"] = "your_turn"
    room: str
    deadline: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyFriend:
    """A friend came online or went; `room`: a room of theirs you may join or watch, or null."""

    type: Literal["friend"] = "friend"
    player_id: str
    online: bool
    room: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyFriendRequest:
    """A player asked to be your friend (or accepted your request: `friends` true)."""

    type: Literal["friend_request"] = "friend_request"
    from_: PlayerRef
    friends: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyFriendRequests:
    """A friend request arrived quietly (you chose `quiet_requests`): no name, only how many
    requests to you wait for an answer (the Friends list has them)."""

    type: Literal["friend_requests"] = "friend_requests"
    waiting: int


def request_notice(sender: PlayerRef, *, mutual: bool, quiet: bool, waiting: int) -> LobbyMessage:
    """What a player is told when `sender` asks to be friends (`mutual`: it accepted theirs):
    an acceptance, or a request to a player who wants pop-ups, names the sender; a request to
    a player who chose quiet requests is only the count of requests waiting."""
    if quiet and not mutual:
        return LobbyFriendRequests(waiting=waiting)
    return LobbyFriendRequest(from_=sender, friends=mutual)


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyMatched:
    """Your quick-match ticket found a table: go to `room`."""

    type: Literal["matched"] = "matched"
    room: str
    ticket: str


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyQuickMatch:
    """Your quick-match ticket ended without a table (cancelled: you left, or it could not be made)."""

    type: Literal["quick_match"] = "quick_match"
    ticket: str
    status: Literal["cancelled"]
    room: None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyTournament:
    """Your table in round `round` of tournament `id` is ready: go to `room`."""

    type: Literal["tournament"] = "tournament"
    id: str
    round: int
    room: str


@dataclass(frozen=True, kw_only=True, slots=True)
class LobbyStandings:
    """The standings of tournament `id` changed (read them again: `GET /api/tournaments/{id}`)."""

    type: Literal["standings"] = "standings"
    id: str


LobbyMessage = (LobbyInvitation | LobbyInvitationClosed | LobbyYourTurn | LobbyFriend | LobbyFriendRequest
                | LobbyFriendRequests | LobbyMatched | LobbyQuickMatch | LobbyTournament | LobbyStandings)
MESSAGES: tuple[type[LobbyMessage], ...] = (LobbyInvitation, LobbyInvitationClosed, LobbyYourTurn, LobbyFriend,
                                            LobbyFriendRequest, LobbyFriendRequests, LobbyMatched, LobbyQuickMatch,
                                            LobbyTournament, LobbyStandings)


def to_json(message: LobbyMessage) -> dict[str, Any]:
    """The message's JSON form (what the bus carries and the socket sends)."""
    return _plain(message)


def _plain(value: Any) -> Any:
    if is_dataclass(value):
        return {JSON_NAMES.get(f.name, f.name): _plain(getattr(value, f.name)) for f in fields(value)}
    return value
