"""Whole games over real sockets at 2, 3 and 4 seats (pairs), driven by view.legal_moves:
every view any socket received is checked against the omniscient truth afterwards."""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

import httpx
import pytest
from pydantic import TypeAdapter

from app.web.wire.room import ServerMessage

from .helpers import ServerThread, Sock, new_person, new_room, play_to_end, seat_everyone
from .truth import rebuild_and_check
from .wire_check import wire_problems

SERVER_MESSAGE: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
GAMES = [
    pytest.param(2, {"payoff_size": 8}, id="2-seats"),
    pytest.param(3, {"payoff_size": 5}, id="3-seats"),
    pytest.param(4, {"payoff_size": 5, "teams": "pairs"}, id="4-seats-pairs"),
]


@pytest.mark.parametrize(("seats", "options"), GAMES)
async def test_whole_game_leaks_nothing(server: ServerThread, http: httpx.AsyncClient, seats: int,
                                        options: dict[str, Any]) -> None:
    people = [await new_person(http, f"P{i}") for i in range(seats)]
    watcher = await new_person(http, "Watcher")
    room = await new_room(http, people[0], preset="short", options=options, seats=seats, seed=f"game-{seats}")
    socks = [await Sock.open(server.base, room["code"], p) for p in people]
    spectator = await Sock.open(server.base, room["code"], watcher)
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    last = await play_to_end(socks, random.Random(seats), watchers=[spectator])
    result = last["view"]["result"]
    assert last["view"]["status"] == "match_over" and result["match_over"]
    assert result["seed"] == f"game-{seats}"
    if seats == 4 and result["winners"]:
        assert len(result["winners"]) == 2 and result["winners"][0] % 2 == result["winners"][1] % 2
    match_id = last["match_id"]
    replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
    assert replay["total"] == last["v"]
    received: dict[int | None, list[dict[str, Any]]] = {i: s.states() for i, s in enumerate(socks)}
    received[None] = spectator.states()
    checked = rebuild_and_check(replay, received, match_id)
    print(f"{seats} seats: {last['v']} versions, {checked} views checked")
    assert checked >= last["v"] * (seats + 1)
    # Every message sent was one of the protocol's typed server messages.
    for sock in [*socks, spectator]:
        for msg in sock.messages:
            SERVER_MESSAGE.validate_python(msg)
            assert wire_problems(msg) == [], msg["type"]  # and no field its schema does not declare
    # The spectator saw every version and never a hand.
    assert {st["v"] for st in spectator.states()} >= set(range(1, last["v"] + 1))


async def test_refused_moves_change_nothing(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
    room = await new_room(http, ann, preset="short", seats=2, seed="refusals")
    a, b = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], bob)
    c = await Sock.open(server.base, room["code"], cat)
    early = await a.error({"type": "move", "id": "m0", "move": {"kind": "end_turn"}})
    assert early["code"] == "game_not_started" and early["id"] == "m0"
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    sa, sb = await a.state_at(0), await b.state_at(0)
    assert sa["events"][0]["type"] == "deal" and sa["events"] == sb["events"]
    mover, waiter = (a, b) if sa["view"]["legal_moves"] else (b, a)
    moving = sa if mover is a else sb
    legal = moving["view"]["legal_moves"]
    v0 = moving["v"]

    err = await waiter.error({"type": "move", "id": "w1", "move": legal[0]})
    assert err["code"] == "not_your_turn" and err["id"] == "w1"
    err = await c.error({"type": "move", "id": "c1", "move": legal[0]})
    assert err["code"] == "not_your_turn"
    bogus = {"kind": "play", "card": 9999, "from": "hand", "to": "centre:0"}
    err = await mover.error({"type": "move", "id": "x1", "move": bogus})
    assert err["code"] == "illegal_move" and err["message"]
    err = await mover.error({"type": "move", "id": "x2", "move": {"kind": "fly"}})
    assert err["code"] == "bad_message"
    err = await mover.error({"type": "move", "id": "x3", "move": "play"})
    assert err["code"] == "bad_message" and err["id"] == "x3"
    err = await mover.error({"type": "next_hand"})
    assert err["code"] == "not_allowed_now"
    err = await mover.error({"type": "sit", "seat": 0})
    assert err["code"] == "not_allowed_now"
    # Nothing changed: the next legal move is still version v0 + 1, and nobody got a new state.
    for s in (a, b, c):
        assert s.last_state()["v"] == v0  # type: ignore[index]
    ok = await mover.request({"type": "move", "id": "good", "move": legal[0]},
                             lambda m: m["type"] == "state" and m["v"] == v0 + 1)
    # The same move id again is not applied twice: the answer is the current state.
    again = await mover.request({"type": "move", "id": "good", "move": legal[0]},
                                lambda m: m["type"] in ("state", "error"))
    assert again["type"] == "state" and again["v"] == ok["v"]
    await waiter.state_at(v0 + 1)
    r = await http.get(f"/api/matches/{ok['match_id']}")
    assert r.json()["v"] == v0 + 1


async def test_a_malformed_move_is_refused_at_the_socket_before_the_room_sees_it(
        server: ServerThread, http: httpx.AsyncClient) -> None:
    """The move is parsed with the message: its shape is refused (`bad_move`, with the move's id)
    whoever sends it and whenever, before whose turn it is or whether the game began is asked."""
    ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
    room = await new_room(http, ann, preset="short", seats=2, seed="malformed")
    a, b = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], bob)
    c = await Sock.open(server.base, room["code"], cat)
    fly = {"kind": "fly"}
    early = await a.error({"type": "move", "id": "m0", "move": fly})  # the room would say game_not_started
    assert (early["code"], early["reason"], early["id"]) == ("bad_message", "bad_move", "m0"), early
    assert early["message"].startswith("a move's kind must be one of")
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    sa, sb = await a.state_at(0), await b.state_at(0)
    mover, waiter = (a, b) if sa["view"]["legal_moves"] else (b, a)
    legal = (sa if mover is a else sb)["view"]["legal_moves"]
    v0 = sa["v"]
    for sock, move_id, move in [(waiter, "w1", fly), (c, 7, fly), (mover, "x1", {**legal[0], "card": "7"}),
                                (waiter, "w2", {"kind": "play", "card": 1, "to": "centre:0"})]:
        err = await sock.error({"type": "move", "id": move_id, "move": move})  # not to move: not_your_turn, once
        assert (err["code"], err["reason"], err["id"], err["params"]) == ("bad_message", "bad_move", str(move_id), {})
    ping = await mover.request({"type": "ping"}, lambda m: m["type"] == "pong")
    assert ping and all(s.last_state()["v"] == v0 for s in (a, b, c))  # type: ignore[index]
    r = await http.get(f"/api/matches/{sa['match_id']}")
    assert r.json()["v"] == v0  # the room's version did not change
    ok = await mover.request({"type": "move", "id": "good", "move": legal[0]},
                             lambda m: m["type"] == "state" and m["v"] == v0 + 1)
    assert ok["v"] == v0 + 1


async def test_history_after_games(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    room = await new_room(http, ann, preset="short", options={"payoff_size": 5, "match_target": 12}, seats=2,
                          seed="history")
    a, b = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], bob)
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    first = await play_to_end([a, b], random.Random(5))
    totals = first["view"]["totals"]
    assert max(totals) >= 12
    await b.send({"type": "rematch"})  # an offer: Ann is shown it, and accepts
    offer = await a.wait(lambda m: m["type"] == "room" and m["room"].get("rematch") is not None)
    assert offer["room"]["rematch"] == {"by": 1, "seats": [{"seat": 0, "answer": "waiting"},
                                                            {"seat": 1, "answer": "offered"}]}
    await a.send({"type": "rematch"})
    st = await a.wait(lambda m: m["type"] == "state" and m["match_id"] != first["match_id"])
    assert st["v"] == 0 and st["match_number"] == 2 and st["view"]["totals"] == [0, 0]
    second = await play_to_end([a, b], random.Random(6), match_id=st["match_id"])

    page = (await http.get(f"/api/players/{ann.id}/matches", params={"limit": 1})).json()
    assert [m["id"] for m in page["items"]] == [second["match_id"]] and page["next"]
    page2 = (await http.get(f"/api/players/{ann.id}/matches", params={"cursor": page["next"]})).json()
    assert [m["id"] for m in page2["items"]] == [first["match_id"]] and page2["next"] is None
    item = page2["items"][0]
    assert item["seat"] == 0 and item["status"] == "match_over" and item["totals"] == totals
    assert [p["name"] for p in item["players"]] == ["Ann", "Bob"]

    detail = (await http.get(f"/api/matches/{first['match_id']}")).json()
    hands = detail["hands"]
    assert len(hands) >= 2 and all(h["seed"] and h["result"] for h in hands)
    later = hmac.new(b"test-secret", b"history/1/2", hashlib.sha256).hexdigest()  # not guessable from hand 1's
    assert hands[0]["seed"] == "history" and hands[1]["seed"] == later
    assert all(h["commitment"] == hashlib.sha256(h["seed"].encode()).hexdigest() for h in hands)
    assert [s["total"] for s in hands[-1]["scores"]] == totals
    assert sum(sum(s["points"] for s in h["scores"]) for h in hands) == sum(totals)
    assert detail["options"]["match_target"] == 12 and detail["ended_at"] and detail["started_at"]

    full = (await http.get(f"/api/matches/{first['match_id']}/replay")).json()
    assert full["total"] == first["v"] and len(full["moves"]) + len(full["hands"]) == first["v"] + 1
    step = (await http.get(f"/api/matches/{first['match_id']}/replay", params={"at": 3})).json()
    assert step["at"] == 3 and step["total"] == first["v"]
    from app.rooms.shell.replay import STEPS

    assert STEPS.get((first["match_id"], 3)) is not None  # kept: the next asker is not rebuilt for
    assert (await http.get(f"/api/matches/{first['match_id']}/replay", params={"at": 3})).json() == step
    assert all("hand" in p and "payoff" in p for p in step["view"]["players"]) and "stock" in step["view"]
    assert (await http.get(f"/api/matches/{first['match_id']}/replay", params={"at": 10**6})).status_code == 422
    assert (await http.get(f"/api/matches/{first['match_id']}/replay", params={"at": "x"})).status_code == 422

    stats = [(await http.get(f"/api/players/{p.id}/stats")).json() for p in (ann, bob)]
    assert [s["played"] for s in stats] == [2, 2]
    assert sum(s["won"] for s in stats) >= 2
    assert stats[0]["points"] == totals[0] + second["view"]["totals"][0]
    assert stats[0]["hands_played"] == len(hands) + len((await http.get(
        f"/api/matches/{second['match_id']}")).json()["hands"])
    assert stats[0]["average_cards_left"] is not None


async def test_replay_waits_for_the_end(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    room = await new_room(http, ann, preset="short", seats=2)
    a, b = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], bob)
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    st = await a.state_at(0)
    assert len(st["view"]["deal_commitment"]) == 64
    r = await http.get(f"/api/matches/{st['match_id']}/replay")
    assert r.status_code == 409 and r.json()["message"]
    detail = (await http.get(f"/api/matches/{st['match_id']}")).json()
    assert detail["hands"][0]["seed"] is None and detail["hands"][0]["commitment"] == st["view"]["deal_commitment"]
