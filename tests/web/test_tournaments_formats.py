"""The other formats and what players are told, through real sockets: an arena that pairs players
as they come free until its end time (on the test's clock), a duplicate Swiss whose tables play
the same sealed deals, and a push message for a player with no page open."""

from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any

import httpx

from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread, Sock, new_person, play_to_end
from .pushsink import Device, PushSink
from .test_push import PUSH, eventually
from .tournament_helpers import Tables, make, read


async def join_all(http: httpx.AsyncClient, tid: str, names: list[str]) -> dict[str, Any]:
    people = {}
    for name in names:
        p = await new_person(http, name)
        r = await http.post(f"/api/tournaments/{tid}/players", headers=p.auth)
        assert r.status_code == 201, r.text
        people[p.id] = p
    return people


@SQLITE_ONLY
async def test_an_arena_pairs_players_as_they_come_free_until_its_end(start_clocked, clock) -> None:  # type: ignore[no-untyped-def]
    server = await start_clocked(tournament_interval=0.1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        org = await new_person(http, "Org")
        made = await make(http, org, format="arena", minutes=10, public=True)
        people = await join_all(http, made["id"], ["Ann", "Bob", "Cat", "Dan"])
        assert (await http.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)).status_code == 200
        tables = Tables(server.base, people, random.Random(5))
        ended = False
        for _ in range(3000):
            t = await read(http, made["id"])
            if t["status"] == "over":
                break
            done = [tb for r in t["rounds"] for tb in r["tables"] if tb["result"] is not None]
            if len(done) >= 6 and not ended:
                await clock.advance(601)  # the end time passes: no new table starts
                ended = True
            for r in t["rounds"]:
                for tb in r["tables"]:
                    if tb["room"] and tb["result"] is None:
                        tables.play(tb["room"], [s["player_id"] for s in tb["seats"]])
            await tables.check()
            await asyncio.sleep(0.05)
        await asyncio.gather(*tables.tasks)
    assert t["status"] == "over" and ended
    played = [tb for r in t["rounds"] for tb in r["tables"]]
    assert len(played) >= 6 and all(tb["result"] is not None for tb in played)
    assert all(r["status"] == "over" for r in t["rounds"])  # each wave of tables ended with its last
    for pid in people:  # never the same opponent twice in a row
        opponents = [next(s["player_id"] for s in tb["seats"] if s["player_id"] != pid)
                     for tb in played if pid in {s["player_id"] for s in tb["seats"]}]
        assert all(a != b for a, b in zip(opponents, opponents[1:], strict=False)), opponents
    wins = sum(1 for tb in played for s in tb["result"]["scores"] if s == 1.0)
    assert sum(p["points"] for p in t["players"]) >= 2 * wins  # 2 a win, more on a streak


@SQLITE_ONLY
async def test_a_duplicate_round_deals_every_table_the_same_sealed_cards(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(tournament_interval=0.1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        org = await new_person(http, "Org")
        made = await make(http, org, format="swiss", rounds=1, duplicate=True, public=True)
        people = await join_all(http, made["id"], ["Ann", "Bob", "Cat", "Dan"])
        assert (await http.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)).status_code == 200
        for _ in range(300):
            t = await read(http, made["id"])
            if t["rounds"] and all(tb["room"] for tb in t["rounds"][0]["tables"]):
                break
            await asyncio.sleep(0.05)
        rnd = t["rounds"][0]
        assert rnd["seed"] is None and len(rnd["commitment"]) == 64 and t["seeds"] == []
        first, second = rnd["tables"]
        seats = [[people[s["player_id"]] for s in tb["seats"]] for tb in (first, second)]
        # A player still playing the round's deals may not watch the other table.
        peek = await Sock.open(server.base, second["room"], seats[0][0], hello=False)
        await peek.send({"type": "hello", "token": seats[0][0].token})
        refused = await peek.wait(lambda m: m["type"] == "error")
        assert refused["reason"] == "tournament_watch"
        await asyncio.sleep(0.2)
        assert peek.closed is not None and peek.closed[0] == 4403
        socks = [await Sock.open(server.base, first["room"], p) for p in seats[0]]
        last = await play_to_end(socks, random.Random(1))
        match_id = last["match_id"]
        r = await http.get(f"/api/matches/{match_id}/replay")
        assert r.status_code == 403 and r.json()["reason"] == "tournament_sealed"
        board = {"v": 1, "seat": 0, "moves": []}  # the analysis board is a read path too
        r = await http.post(f"/api/matches/{match_id}/analysis", json=board, headers=org.auth)
        assert r.status_code == 403 and r.json()["reason"] == "tournament_sealed"
        assert all(h["seed"] is None for h in (await http.get(f"/api/matches/{match_id}")).json()["hands"])
        others = [await Sock.open(server.base, second["room"], p) for p in seats[1]]
        other = await play_to_end(others, random.Random(2))
        for s in socks + others:
            await s.close()
        for _ in range(300):
            t = await read(http, made["id"])
            if t["status"] == "over":
                break
            await asyncio.sleep(0.05)
        seed = t["rounds"][0]["seed"]
        assert seed and hashlib.sha256(seed.encode()).hexdigest() == rnd["commitment"] and t["seeds"] == [seed]
        firsts = [(await http.get(f"/api/matches/{m}/replay")).json()["hands"][0]["seed"]
                  for m in (match_id, other["match_id"])]
        assert firsts == [seed, seed]  # both tables were dealt the round's seed
        r = await http.post(f"/api/matches/{match_id}/analysis", json=board, headers=org.auth)
        assert r.status_code == 200 and r.json()["position"]["you"] == 0  # open once the round is over
        assert sum(p["points"] for p in t["players"]) == 2.0  # match points: 1 a seat, n(n-1)/2 with n = 2


@SQLITE_ONLY
async def test_a_player_with_no_page_open_gets_a_push_when_their_table_is_ready(start_server) -> None:  # type: ignore[no-untyped-def]
    sink = PushSink()
    endpoint = ServerThread(sink).start()
    try:
        server: ServerThread = start_server(tournament_interval=0.1, **PUSH)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            org = await new_person(http, "Org")
            made = await make(http, org, format="swiss", rounds=1, public=True, name="Friday cup")
            people = await join_all(http, made["id"], ["Ann", "Bob"])
            phone = Device()
            bob = next(p for p in people.values() if p.name == "Bob")
            r = await http.post("/api/players/me/push", headers=bob.auth,
                                json={"endpoint": endpoint.base + "/bob/1", "keys": phone.keys})
            assert r.status_code == 201, r.text
            assert (await http.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)).status_code == 200
            got = await eventually(lambda: asyncio.sleep(0, sink.at("/bob/")))
            body = phone.decrypt(got[0].body)
            room = (await read(http, made["id"]))["rounds"][0]["tables"][0]["room"]
            assert body["type"] == "tournament" and body["room"] == room and body["url"] == f"/r/{room}"
            assert "Friday cup" in body["body"]
    finally:
        endpoint.stop()
