"""A rated game cannot be stalled for ever (issue 22, item 5): a rated room always has a turn
clock (60 s unless the host names one), and the host cannot take it away."""

from __future__ import annotations

import httpx

from .helpers import ServerThread, Sock, new_account, new_room


async def test_a_rated_room_always_has_a_turn_clock(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_account(http, "Ann", "ann")
    rated = await new_room(http, ann, rated=True)
    assert rated["turn_seconds"] == 60
    assert (await new_room(http, ann, rated=True, turn_seconds=30))["turn_seconds"] == 30
    assert (await new_room(http, ann))["turn_seconds"] is None  # unrated rooms may go without
    a = await Sock.open(server.base, rated["code"], ann)
    room = await a.room({"type": "configure", "turn_seconds": None}, lambda r: True)
    assert room["turn_seconds"] == 60
