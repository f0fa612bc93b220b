"""Quick match over real sockets: tickets, pairing, bots after the wait, blocks,
tickets ending with the lobby socket, and bad input."""

from __future__ import annotations

import asyncio

import httpx

from .helpers import ServerThread, Sock, new_account, new_person
from .social_helpers import block, lobby, ticket

FAST = {"quick_match_interval": 0.1}


async def status_of(http: httpx.AsyncClient, p, t: str) -> dict:  # type: ignore[no-untyped-def]
    r = await http.get(f"/api/quick-match/{t}", headers=p.auth)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def test_two_players_are_quick_matched_into_one_started_room(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**FAST)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        la, lb = await lobby(server.base, ann), await lobby(server.base, bob)
        ta = await ticket(http, ann, seats=2, bots=False)
        assert (await status_of(http, ann, ta))["status"] == "waiting"
        tb = await ticket(http, bob, seats=2, bots=False)
        ma = await la.wait(lambda m: m["type"] == "matched")
        mb = await lb.wait(lambda m: m["type"] == "matched")
        assert ma["room"] == mb["room"] and ma["ticket"] == ta and mb["ticket"] == tb
        st = await status_of(http, bob, tb)
        assert st["status"] == "matched" and st["room"] == ma["room"]
        socks = [await Sock.open(server.base, ma["room"], p) for p in (ann, bob)]
        state = await socks[0].state_at(0)
        seats = {s["player_id"] for s in (await http.get(f"/api/rooms/{ma['room']}")).json()["seats"]}
        assert seats == {ann.id, bob.id} and state["view"]["status"] == "playing"
        assert (await http.get(f"/api/rooms/{ma['room']}")).json()["public"] is False
        for s in [*socks, la, lb]:
            await s.close()


async def test_a_bot_fills_the_seat_after_the_wait(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(quick_match_bot_seconds=0.5, **FAST)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        la = await lobby(server.base, ann)
        t = await ticket(http, ann, seats=2)
        await asyncio.sleep(0.2)
        assert (await status_of(http, ann, t))["status"] == "waiting"
        matched = await la.wait(lambda m: m["type"] == "matched", timeout=10)
        room = (await http.get(f"/api/rooms/{matched['room']}")).json()
        assert [s["bot"] is not None for s in room["seats"]] == [False, True]
        sock = await Sock.open(server.base, matched["room"], ann)
        assert (await sock.state_at(0))["view"]["you"] == 0
        await sock.close()
        await la.close()


async def test_four_seats_make_a_partnership_table(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(quick_match_bot_seconds=0.3, **FAST)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        la, lb = await lobby(server.base, ann), await lobby(server.base, bob)
        await ticket(http, ann, seats=4)
        await ticket(http, bob, seats=4)
        ma = await la.wait(lambda m: m["type"] == "matched", timeout=10)
        room = (await http.get(f"/api/rooms/{ma['room']}")).json()
        assert room["options"]["teams"] == "pairs" and len(room["seats"]) == 4
        assert sum(s["bot"] is not None for s in room["seats"]) == 2
        await lb.wait(lambda m: m["type"] == "matched" and m["room"] == ma["room"])
        await la.close()
        await lb.close()


async def test_blocked_players_are_never_matched(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(quick_match_widen=100.0, **FAST)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
        await block(http, ann, bob)
        socks = [await lobby(server.base, p) for p in (ann, bob, cat)]
        ta = await ticket(http, ann, bots=False)
        tb = await ticket(http, bob, bots=False)
        await asyncio.sleep(1.0)
        assert [(await status_of(http, p, t))["status"] for p, t in ((ann, ta), (bob, tb))] == ["waiting"] * 2
        await ticket(http, cat, bots=False)
        got = await socks[2].wait(lambda m: m["type"] == "matched")
        room = (await http.get(f"/api/rooms/{got['room']}")).json()
        assert cat.id in {s["player_id"] for s in room["seats"]}
        assert {ann.id, bob.id} - {s["player_id"] for s in room["seats"]}  # never both
        for s in socks:
            await s.close()


async def test_one_ticket_at_a_time_cancel_and_the_lobby_socket_ending_it(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**FAST)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        la = await lobby(server.base, ann)
        t = await ticket(http, ann, bots=False)
        again = await http.post("/api/quick-match", json={}, headers=ann.auth)
        assert again.status_code == 409 and again.json()["ticket"] == t
        assert (await http.get(f"/api/quick-match/{t}", headers=bob.auth)).status_code == 404
        assert (await http.delete(f"/api/quick-match/{t}", headers=bob.auth)).status_code == 404
        assert (await http.delete(f"/api/quick-match/{t}", headers=ann.auth)).status_code == 204
        told = await la.wait(lambda m: m["type"] == "quick_match")
        assert told == {"type": "quick_match", "ticket": t, "status": "cancelled", "room": None}
        assert (await status_of(http, ann, t))["status"] == "cancelled"
        assert (await http.delete(f"/api/quick-match/{t}", headers=ann.auth)).status_code == 204
        t2 = await ticket(http, ann, bots=False)  # a new one is allowed now
        await la.close()  # the lobby socket goes: the ticket with it
        for _ in range(50):
            if (await status_of(http, ann, t2))["status"] == "cancelled":
                break
            await asyncio.sleep(0.1)
        assert (await status_of(http, ann, t2))["status"] == "cancelled"


async def test_bad_quick_match_requests_are_4xx(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**FAST)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        for body in ({"seats": 3}, {"seats": "2"}, {"rated": "yes"}, {"pace": "turn_based"}, {"x": 1}, [], None):
            r = await http.post("/api/quick-match", json=body, headers=ann.auth)
            assert r.status_code == 422, (body, r.text)
        assert (await http.post("/api/quick-match", json={})).status_code == 401
        r = await http.post("/api/quick-match", json={"rated": True}, headers=ann.auth)
        assert r.status_code == 403 and "account" in r.json()["message"]
        for bad in ("nope", "%00", "x" * 300):
            r = await http.get(f"/api/quick-match/{bad}", headers=ann.auth)
            assert r.status_code == (422 if "%00" in bad else 404)  # 422: nul_character
        sam = await new_account(http, "Sam", "sam_1")
        r = await http.post("/api/quick-match", json={"rated": True}, headers=sam.auth)
        assert r.status_code == 202


async def test_rated_tickets_pair_into_a_rated_room(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**FAST)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann, bob = await new_account(http, "Ann", "ann_1"), await new_account(http, "Bob", "bob_1")
        la, lb = await lobby(server.base, ann), await lobby(server.base, bob)
        await ticket(http, ann, rated=True)
        await ticket(http, bob, rated=True)
        got = await la.wait(lambda m: m["type"] == "matched")
        assert (await http.get(f"/api/rooms/{got['room']}")).json()["rated"] is True
        await la.close()
        await lb.close()


async def test_tickets_made_at_once_by_one_player_leave_one_open(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(quick_match_interval=30.0)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann = await new_person(http, "Ann")
        answers = await asyncio.gather(*[http.post("/api/quick-match", json={"bots": False}, headers=ann.auth)
                                         for _ in range(8)])
        assert sorted(r.status_code for r in answers) == [202] + [409] * 7
        made = next(r.json()["ticket"] for r in answers if r.status_code == 202)
        assert {r.json()["ticket"] for r in answers if r.status_code == 409} == {made}
