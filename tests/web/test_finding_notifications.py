"""Finding a game outside the page, over real sockets and a real push endpoint on 127.0.0.1: an
invitation reaches the invitee's device as a Web Push message (decrypted here with the
device's keys), and the lobby socket hears `your_turn` when the turn of a turn-based game
passes to a player who is not in that room."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from .helpers import ServerThread, Sock, new_person, new_room, seat_everyone
from .pushsink import Device, PushSink
from .social_helpers import befriend, lobby
from .test_push import PUSH, eventually, play_turn


@pytest.mark.parametrize(("lang", "title", "text"), [
    (None, "An invitation", "Ann invites you to a game of Spite and Malice."),
    ("de", "Eine Einladung", "Ann lädt dich zu einer Partie Spite and Malice ein."),  # the invitee's language
])
async def test_an_invitation_is_pushed_to_the_invitees_device(start_server: Any, lang: str | None, title: str,
                                                              text: str) -> None:
    sink = PushSink()
    endpoint = ServerThread(sink).start()
    try:
        server = start_server(**PUSH)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
            await befriend(http, ann, bob)
            if lang is not None:
                r = await http.patch("/api/players/me", json={"lang": lang}, headers=bob.auth)
                assert r.status_code == 200
            phone = Device()
            r = await http.post("/api/players/me/push", headers=bob.auth,
                                json={"endpoint": endpoint.base + "/bob/1", "keys": phone.keys})
            assert r.status_code == 201, r.text
            room = await new_room(http, ann)
            r = await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": bob.id},
                                headers=ann.auth)
            assert r.status_code == 201
            got = await eventually(lambda: asyncio.sleep(0, sink.at("/bob/")))
            body = phone.decrypt(got[0].body)
            assert body == {"type": "invitation", "room": room["code"], "url": f"/r/{room['code']}",
                            "title": title, "body": text}
            again = await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": bob.id},
                                    headers=ann.auth)
            assert again.json()["id"] == r.json()["id"]
            await asyncio.sleep(1.0)
            assert len(sink.at("/bob/")) == 1, "one push per invitation and device"
    finally:
        endpoint.stop()


async def test_the_lobby_socket_hears_your_turn_from_a_turn_based_room(start_server: Any) -> None:
    server: ServerThread = start_server(**PUSH)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        code = (await new_room(http, ann, preset="short", seats=2, seed="lobby-turn", pace="turn_based",
                               turn_seconds=3600))["code"]
        a, b = await Sock.open(server.base, code, ann), await Sock.open(server.base, code, bob)
        await seat_everyone(a, [a, b])
        await a.send({"type": "start"})
        st = await a.state_at(0)
        v = st["v"]
        if st["view"]["turn"] == 1:
            v = await play_turn(b, v)
        bob_lobby = await lobby(server.base, bob)
        start = len(a.messages)
        await b.close()
        await a.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["connected"] is False, start=start)
        await play_turn(a, v)  # the turn passes to Bob, who is in the lobby but not in the room
        told = await bob_lobby.wait(lambda m: m["type"] == "your_turn", timeout=15)
        assert told["room"] == code and told["deadline"] is not None
        await a.close()
        await bob_lobby.close()
