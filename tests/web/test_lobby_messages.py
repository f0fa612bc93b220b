"""The lobby channel's messages (`app.social.core.lobby_messages`): each typed value has the JSON
docs/protocol.md documents ("The lobby socket"), the same whether the bus carries it (`to_json`)
or the socket sends it (`app.web.wire.lobby.CHANNEL_MESSAGE`), and the socket's edge drops what
is none of them."""

from __future__ import annotations

import logging
from typing import Any

import orjson
import pytest

from app.social.core import lobby_messages as M
from app.web.sockets.lobby import LobbyConnection
from app.web.wire.lobby import CHANNEL_MESSAGE

BOB = M.PlayerRef(player_id="Hk2", name="Bob")
DOCUMENTED: list[tuple[M.LobbyMessage, dict[str, Any]]] = [
    (M.LobbyInvitation(id="q1Z", room="3FR8YVHKNJ", from_=BOB, expires_at="2026-12-01T23:40:00+00:00"),
     {"type": "invitation", "id": "q1Z", "room": "3FR8YVHKNJ", "from": {"player_id": "Hk2", "name": "Bob"},
      "expires_at": "2026-12-01T23:40:00+00:00"}),
    (M.LobbyInvitationClosed(id="q1Z", room="3FR8YVHKNJ", status="declined"),
     {"type": "invitation_closed", "id": "q1Z", "room": "3FR8YVHKNJ", "status": "declined"}),
    (M.LobbyYourTurn(room="3FR8YVHKNJ", deadline=None),
     {"type": "your_turn", "room": "3FR8YVHKNJ", "deadline": None}),
    (M.LobbyFriend(player_id="Hk2", online=True, room="3FR8YVHKNJ"),
     {"type": "friend", "player_id": "Hk2", "online": True, "room": "3FR8YVHKNJ"}),
    (M.LobbyFriendRequest(from_=BOB, friends=False),
     {"type": "friend_request", "from": {"player_id": "Hk2", "name": "Bob"}, "friends": False}),
    (M.LobbyFriendRequests(waiting=3), {"type": "friend_requests", "waiting": 3}),
    (M.LobbyMatched(room="3FR8YVHKNJ", ticket="t1"), {"type": "matched", "room": "3FR8YVHKNJ", "ticket": "t1"}),
    (M.LobbyQuickMatch(ticket="t1", status="cancelled"),
     {"type": "quick_match", "ticket": "t1", "status": "cancelled", "room": None}),
    (M.LobbyTournament(id="T9x", round=2, room="3FR8YVHKNJ"),
     {"type": "tournament", "id": "T9x", "round": 2, "room": "3FR8YVHKNJ"}),
    (M.LobbyStandings(id="T9x"), {"type": "standings", "id": "T9x"}),
]


class Socket:
    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int, reason: str) -> None: ...


def test_every_message_is_documented_here() -> None:
    assert {type(m) for m, _ in DOCUMENTED} == set(M.MESSAGES)


@pytest.mark.parametrize(("message", "documented"), DOCUMENTED, ids=[d["type"] for _, d in DOCUMENTED])
def test_a_message_has_its_documented_json_on_the_bus_and_on_the_socket(
        message: M.LobbyMessage, documented: dict[str, Any]) -> None:
    carried = M.to_json(message)
    assert carried == documented and list(carried) == list(documented)  # the keys in the documented order
    assert orjson.loads(CHANNEL_MESSAGE.dump_json(message, by_alias=True)) == documented
    assert CHANNEL_MESSAGE.validate_python(orjson.loads(orjson.dumps(carried))) == message
    fake: Any = Socket()
    conn = LobbyConnection(fake, "p1", 8)
    conn.send_json(orjson.loads(orjson.dumps(carried)))  # as the Redis bus hands it over
    text, _ = conn.queue.take()  # type: ignore[misc]
    assert orjson.loads(text) == documented


@pytest.mark.parametrize("message", [
    {"type": "invite_everyone", "room": "3FR8YVHKNJ"},  # no known type
    {"room": "3FR8YVHKNJ", "ticket": "t1"},  # no type at all
    {"type": "matched", "room": "3FR8YVHKNJ", "ticket": "t1", "seat": 0},  # a field of no schema
    {"type": "invitation_closed", "id": "q1Z", "room": "3FR8YVHKNJ", "status": "lost"},
])
def test_a_channel_message_of_no_known_schema_is_refused_at_the_edge(
        message: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    fake: Any = Socket()
    conn = LobbyConnection(fake, "p1", 8)
    with caplog.at_level(logging.WARNING, logger="app.web.sockets.lobby"):
        conn.send_json(message)
    assert len(conn.queue) == 0 and conn.close_code is None
    assert "no known schema" in caplog.text
