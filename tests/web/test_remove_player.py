"""`remove_player` on the room socket: the host takes a person, here or away, out
of their seat in the lobby; anyone else is refused with `not_host` and a sentence that says so."""

from __future__ import annotations

import httpx

from .helpers import ServerThread, Sock, new_person, new_room


async def test_the_host_removes_a_person_and_nobody_else_may(server: ServerThread, http: httpx.AsyncClient) -> None:
    host, bob, cat = [await new_person(http, n) for n in ("Host", "Bob", "Cat")]
    room = await new_room(http, host, seats=3)
    h = await Sock.open(server.base, room["code"], host)
    b = await Sock.open(server.base, room["code"], bob)
    c = await Sock.open(server.base, room["code"], cat)
    await h.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == host.id)
    await b.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == bob.id)
    await c.room({"type": "sit", "seat": 2}, lambda r: r["seats"][2]["player_id"] == cat.id)
    refused = await c.error({"type": "remove_player", "seat": 1})
    assert refused["code"] == "not_host"
    assert refused["message"] == "only the host can remove a person from the room"
    removed = await h.room({"type": "remove_player", "seat": 1}, lambda r: r["seats"][1]["player_id"] is None)
    assert removed["seats"][2]["player_id"] == cat.id and b.closed is None  # Bob may watch
    empty = await h.error({"type": "remove_player", "seat": 1})
    assert (empty["code"], empty["reason"]) == ("not_allowed_now", "seat_empty")
    own = await h.error({"type": "remove_player", "seat": 0})
    assert own["reason"] == "own_seat"


async def test_a_room_made_with_sit_seats_its_host_at_once(server: ServerThread, http: httpx.AsyncClient) -> None:
    """`POST /api/rooms` with `"sit": true` seats the host in the first seat (the
    home page's form asks for it); without it the seats stay empty, as before."""
    host = await new_person(http, "Host")
    seated = await new_room(http, host, seats=3, sit=True)
    assert [s["player_id"] for s in seated["seats"]] == [host.id, None, None]
    assert seated["seats"][0]["name"] == "Host" and seated["seats_taken"] == 1
    plain = await new_room(http, host, seats=2)
    assert [s["player_id"] for s in plain["seats"]] == [None, None]
