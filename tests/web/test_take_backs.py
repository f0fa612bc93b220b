"""Take-backs over real sockets: `{"kind": "take_back"}` is a committed move like any other —
every receiver gets the restored table as a new version, the store keeps it, the replay shows
it, and a room without `take_backs` refuses it with the move's id."""

from __future__ import annotations

import random

import httpx

from .helpers import ServerThread, Sock, new_person, new_room, play_to_end, seat_everyone
from .truth import rebuild_and_check

OPTIONS = {"take_backs": True, "side_plays": "many", "must_discard": False}


async def test_a_take_back_is_a_move_everyone_sees(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
    room = await new_room(http, ann, preset="short", seats=2, seed="undo", options=OPTIONS)
    a, b = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], bob)
    c = await Sock.open(server.base, room["code"], cat)
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    sa, sb = await a.state_at(0), await b.state_at(0)
    mover, waiter = (a, b) if sa["view"]["legal_moves"] else (b, a)
    start = sa if mover is a else sb
    v0 = start["v"]
    assert {"kind": "take_back"} not in start["view"]["legal_moves"]
    discard = next(m for m in start["view"]["legal_moves"] if m["kind"] == "discard")
    after = await mover.request({"type": "move", "id": mover.next_id(), "move": discard},
                                lambda m: m["type"] == "state" and m["v"] == v0 + 1)
    assert {"kind": "take_back"} in after["view"]["legal_moves"]
    undone = await mover.request({"type": "move", "id": mover.next_id(), "move": {"kind": "take_back"}},
                                 lambda m: m["type"] == "state" and m["v"] == v0 + 2)
    assert [e["type"] for e in undone["events"]] == ["take_back"]
    assert undone["view"]["hand"] == start["view"]["hand"]
    assert undone["view"]["players"] == start["view"]["players"]
    for s in (waiter, c):
        seen = await s.state_at(v0 + 2)
        assert seen["view"]["players"] == start["view"]["players"] and seen["events"] == undone["events"]
    # Nothing left to take back: refused, with the move's id, and nothing changes.
    err = await mover.error({"type": "move", "id": "again", "move": {"kind": "take_back"}})
    assert err["code"] == "illegal_move" and err["id"] == "again" and "taken back" in err["message"]
    detail = (await http.get(f"/api/matches/{undone['match_id']}")).json()
    assert detail["v"] == v0 + 2

    last = await play_to_end([a, b], random.Random(4), undone["match_id"])
    replay = (await http.get(f"/api/matches/{last['match_id']}/replay")).json()
    assert any(mv["move"] == {"kind": "take_back"} for mv in replay["moves"])
    received = {0: a.states(), 1: b.states(), None: c.states()}
    assert rebuild_and_check(replay, received, last["match_id"]) > 0


async def test_a_room_without_take_backs_refuses_one(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    room = await new_room(http, ann, preset="short", seats=2, seed="no-undo")
    a, b = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], bob)
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    sa = await a.state_at(0)
    mover = a if sa["view"]["legal_moves"] else b
    err = await mover.error({"type": "move", "id": "u1", "move": {"kind": "take_back"}})
    assert err["code"] == "illegal_move" and err["id"] == "u1" and "not allowed" in err["message"]
