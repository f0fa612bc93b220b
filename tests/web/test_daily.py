"""The daily deal over real sockets and a real database: one deal a day for
everyone, once per player, its seed hidden (in the room, the match and its replay) until the
day is over, and the day's results."""

from __future__ import annotations

import hashlib
import random

import httpx

from .helpers import ServerThread, Sock, new_person, pick

# Every test client is on 127.0.0.1: many players' tries from it (each with its own client, so
# its own device cookie) are let through here; test_daily_tries.py tests those limits.
QUICK = {"daily_options": {"payoff_size": 5}, "bot_think_ms": 10, "bot_delay": 0.0, "daily_tries_per_address": 100}


async def play_alone(sock: Sock, rng: random.Random, max_moves: int = 3000) -> dict:  # type: ignore[type-arg]
    """Play seat 0 against the bot until the match is over; the last state."""
    v = 0
    for _ in range(max_moves):
        state = await sock.state_at(v, timeout=30)
        latest = sock.last_state()
        assert latest is not None
        state = latest if latest["v"] >= state["v"] else state
        view = state["view"]
        if view["status"] == "match_over":
            return state
        if view["legal_moves"]:
            await sock.send({"type": "move", "id": sock.next_id(), "move": pick(view["legal_moves"], rng)})
        v = state["v"] + 1
    raise AssertionError("the daily match did not end")


async def test_one_deal_a_day_once_per_player_with_its_seed_sealed_all_day(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**QUICK)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        public = (await http.get("/api/daily")).json()
        assert public["seed"] is None and public["you"] is None and len(public["commitment"]) == 64
        assert public["options"]["payoff_size"] == 5 and public["preset"] == "standard"
        r = await http.post("/api/daily", headers=ann.auth)
        assert r.status_code == 201, r.text
        code = r.json()["room"]
        again = await http.post("/api/daily", headers=ann.auth)
        assert again.status_code == 409 and again.json()["room"] == code
        assert (await http.post("/api/daily")).status_code == 401
        mine = (await http.get("/api/daily", headers=ann.auth)).json()
        assert mine["you"]["room"] == code and mine["you"]["result"]["finished"] is False
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as bobs_device:
            bob_code = (await bobs_device.post("/api/daily", headers=bob.auth)).json()["room"]
        room = (await http.get(f"/api/rooms/{code}")).json()
        assert room["public"] is False and [s["bot"] for s in room["seats"]] == [None, "hard"]
        assert room["daily"] == public["date"]  # the client shows no invitation in it (docs/client.md)
        assert (await http.post("/api/rooms", json={}, headers=bob.auth)).json()["daily"] is None
        a, b = await Sock.open(server.base, code, ann), await Sock.open(server.base, bob_code, bob)
        first_a, first_b = await a.state_at(0), await b.state_at(0)
        # The same deal for everyone: the room's commitment is the day's.
        assert first_a["view"]["deal_commitment"] == first_b["view"]["deal_commitment"] == public["commitment"]
        assert first_a["view"]["players"][0]["payoff_top"] == first_b["view"]["players"][0]["payoff_top"]
        last = await play_alone(a, random.Random(1))
        assert last["view"]["result"]["seed"] is None  # over, but the day is not
        match_id = last["match_id"]
        detail = (await http.get(f"/api/matches/{match_id}")).json()
        assert all(h["seed"] is None and (h["result"] or {}).get("seed") is None for h in detail["hands"])
        replay = await http.get(f"/api/matches/{match_id}/replay")
        assert replay.status_code == 403 and "daily deal" in replay.json()["message"]
        results = (await http.get(f"/api/daily/{public['date']}/results")).json()
        assert results["seed"] is None and [i["player_id"] for i in results["items"]] == [ann.id]
        row = results["items"][0]
        assert row["rank"] == 1 and row["moves"] > 0 and row["won"] == (0 in last["view"]["result"]["winners"])
        done = (await http.get("/api/daily", headers=ann.auth)).json()["you"]["result"]
        assert done["finished"] is True and done["payoff_left"] == row["payoff_left"]
        await a.close()
        await b.close()


async def test_the_seed_is_revealed_once_the_day_is_over(start_server, db_url: str) -> None:  # type: ignore[no-untyped-def]
    yesterday: ServerThread = start_server(daily_day="2020-01-01", **QUICK)
    async with httpx.AsyncClient(base_url=yesterday.base, timeout=30) as http:
        ann = await new_person(http, "Ann")
        day = (await http.get("/api/daily")).json()
        assert day["date"] == "2020-01-01" and day["seed"] is None
        code = (await http.post("/api/daily", headers=ann.auth)).json()["room"]
        match_id = (await http.get(f"/api/rooms/{code}")).json()["match_id"]
        assert (await http.get("/api/daily/2020-01-01/results")).json()["seed"] is None
        assert (await http.get(f"/api/matches/{match_id}/replay")).status_code == 403
    today: ServerThread = start_server(daily_day="2020-01-02", **QUICK)
    async with httpx.AsyncClient(base_url=today.base, timeout=30) as http:
        shown = (await http.get("/api/daily/2020-01-01/results")).json()
        assert shown["seed"] is not None and shown["seed"].startswith("daily-2020-01-01-")
        assert hashlib.sha256(shown["seed"].encode()).hexdigest() == shown["commitment"] == day["commitment"]
        assert (await http.get("/api/daily")).json()["commitment"] != day["commitment"]  # a new day, a new deal
        assert (await http.get(f"/api/matches/{match_id}/replay")).status_code == 409  # not over, but not sealed


async def test_bad_days_are_4xx(server: ServerThread, http: httpx.AsyncClient) -> None:
    for bad in ("2020-13-01", "yesterday", "2020-1-1", "%00", "2020-02-30"):
        assert (await http.get(f"/api/daily/{bad}/results")).status_code == 422, bad
    assert (await http.get("/api/daily/1999-01-01/results")).status_code == 404


async def test_one_attempt_however_many_requests_race(start_server) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    server: ServerThread = start_server(**QUICK)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        ann = await new_person(http, "Ann")
        answers = await asyncio.gather(*[http.post("/api/daily", headers=ann.auth) for _ in range(6)])
        assert sorted(r.status_code for r in answers) == [201] + [409] * 5
        rooms = [r.json()["room"] for r in answers if r.status_code == 201]
        results = (await http.get(f"/api/daily/{(await http.get('/api/daily')).json()['date']}/results")).json()
        assert results["items"] == [] and len(rooms) == 1  # not finished yet: not ranked
