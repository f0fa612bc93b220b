"""Reconnects, a server killed with SIGKILL mid-game, and several instances sharing a room."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from app.platform.bus import LocalBus

from .helpers import (
    CROWD_ENV,
    Person,
    ServerProcess,
    ServerThread,
    Sock,
    new_person,
    new_room,
    pick,
    play_to_end,
    seat_everyone,
)
from .truth import rebuild_and_check


async def _start_pair(base: str, http: httpx.AsyncClient, seed: str, **room: Any) -> tuple[list[Person], str,
                                                                                          list[Sock]]:
    people = [await new_person(http, "Ann"), await new_person(http, "Bob")]
    code = (await new_room(http, people[0], preset="short", seats=2, seed=seed, **room))["code"]
    socks = [await Sock.open(base, code, p) for p in people]
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    for s in socks:
        await s.state_at(0)
    return people, code, socks


async def _play(socks: list[Sock], moves: int, rng: random.Random) -> int:
    """Make `moves` moves; returns the version reached."""
    v = max(s.last_state()["v"] for s in socks)  # type: ignore[index]
    for _ in range(moves):
        latest = [await s.state_at(v) for s in socks]
        mover = next(i for i, st in enumerate(latest) if st["view"]["legal_moves"])
        await socks[mover].send({"type": "move", "id": socks[mover].next_id(),
                                 "move": pick(latest[mover]["view"]["legal_moves"], rng)})
        v += 1
    for s in socks:
        await s.state_at(v)
    return v


async def test_reconnect_resumes_the_seat(server: ServerThread, http: httpx.AsyncClient) -> None:
    people, code, (a, b) = await _start_pair(server.base, http, "reconnect")
    v = await _play([a, b], 6, random.Random(2))
    hand_before = b.last_state()["view"]["hand"]  # type: ignore[index]
    start = len(a.messages)
    await b.close()
    gone = await a.wait(lambda m: m["type"] == "state" and m["view"]["players"][1]["connected"] is False,
                        start=start)
    assert gone["v"] == v
    room = await a.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["connected"] is False, start=start)
    assert room["room"]["seats"][1]["player_id"] == people[1].id
    # Ann moves while Bob is away (if it is her turn she finishes it).
    while a.last_state()["view"]["legal_moves"]:  # type: ignore[index]
        st = a.last_state()
        await a.send({"type": "move", "id": a.next_id(), "move": pick(st["view"]["legal_moves"], random.Random(3))})  # type: ignore[index]
        await a.state_at(st["v"] + 1)  # type: ignore[index]
    now = a.last_state()["v"]  # type: ignore[index]
    b2 = await Sock.open(server.base, code, people[1], last_v=v)
    kinds = [m["type"] for m in b2.messages[:1]]
    assert kinds == ["welcome"] and b2.messages[0]["you"]["seat"] == 1
    await b2.wait(lambda m: m["type"] == "room")
    st = await b2.state_at(now)
    assert st["v"] == now and st["view"]["you"] == 1
    if now > v:
        assert st["events"], "the moves missed while away come as events"
    else:
        assert st["view"]["hand"] == hand_before
    await a.wait(lambda m: m["type"] == "state" and m["view"]["players"][1]["connected"] is True, start=start)
    await play_to_end([a, b2], random.Random(4))


async def test_kill_and_restart_loses_nothing(db_url: str, tmp_path: Any) -> None:
    env = {"SPITE_DATABASE_URL": db_url, "SPITE_SEEDED_ROOMS": "true", "SPITE_BOT_WORKERS": "1",
           "SPITE_STATIC_DIR": str(tmp_path), "SPITE_RATE_PER_SECOND": "1000", "SPITE_RATE_BURST": "1000",
           **CROWD_ENV}
    first = ServerProcess(env).start()
    try:
        async with httpx.AsyncClient(base_url=first.base, timeout=30) as http:
            people, code, socks = await _start_pair(first.base, http, "crash")
            v = await _play(socks, 12, random.Random(7))
            seen = [s.last_state() for s in socks]
            # One more move in flight when the server dies: it may or may not have been stored.
            mover = next(i for i, st in enumerate(seen) if st["view"]["legal_moves"])  # type: ignore[index]
            last_id = socks[mover].next_id()
            await socks[mover].send({"type": "move", "id": last_id,
                                     "move": seen[mover]["view"]["legal_moves"][0]})  # type: ignore[index]
            first.kill()
    finally:
        first.kill()
    before = [s.states() for s in socks]
    second = ServerProcess(env).start()
    try:
        async with httpx.AsyncClient(base_url=second.base, timeout=30) as http:
            again = [await Sock.open(second.base, code, p, last_v=v) for p in people]
            states = [await s.state_at(v) for s in again]
            now = states[0]["v"]
            assert now in (v, v + 1), "every move anyone saw is still there"
            if now == v:
                for old, new in zip(seen, states, strict=True):
                    assert new["view"]["hand"] == old["view"]["hand"]  # type: ignore[index]
                    assert new["view"]["players"] == [{**p, "connected": True} for p in old["view"]["players"]]  # type: ignore[index]
            # The move id resent after the restart is not applied twice.
            await again[mover].send({"type": "move", "id": last_id,
                                     "move": seen[mover]["view"]["legal_moves"][0]})  # type: ignore[index]
            await again[mover].request({"type": "ping"}, lambda m: m["type"] == "pong")
            assert again[mover].last_state()["v"] == v + 1  # type: ignore[index]
            assert [m for m in again[mover].messages if m["type"] == "error"] == []
            last = await play_to_end(again, random.Random(8))
            replay = (await http.get(f"/api/matches/{last['match_id']}/replay")).json()
            received = {i: before[i] + again[i].states() for i in range(2)}
            assert rebuild_and_check(replay, received, last["match_id"]) > 0
    finally:
        second.stop()


async def test_two_instances_share_a_room(start_server, db_url: str) -> None:  # type: ignore[no-untyped-def]
    bus = LocalBus()
    one: ServerThread = start_server(bus=bus)
    two: ServerThread = start_server(bus=bus)
    async with httpx.AsyncClient(base_url=one.base, timeout=30) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        code = (await new_room(http, ann, preset="short", options={"payoff_size": 6}, seats=2,
                               seed="two-instances"))["code"]
        a = await Sock.open(one.base, code, ann)
        b = await Sock.open(two.base, code, bob)
        await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
        await b.wait(lambda m: m["type"] == "room" and m["room"]["seats"][0]["player_id"] == ann.id)
        await b.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == bob.id)
        await a.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"] == bob.id)
        await a.send({"type": "start"})
        last = await play_to_end([a, b], random.Random(9))
        replay = (await http.get(f"/api/matches/{last['match_id']}/replay")).json()
        assert rebuild_and_check(replay, {0: a.states(), 1: b.states()}, last["match_id"]) > 0
        events = [st["events"] for st in b.states()[1:]]
        assert all(events), "the other instance rebuilds each move's events from the store"


async def test_racing_instances_cannot_both_win(start_server) -> None:  # type: ignore[no-untyped-def]
    one: ServerThread = start_server(bus=LocalBus())
    two: ServerThread = start_server(bus=LocalBus())  # deaf to the first: its memory goes stale
    async with httpx.AsyncClient(base_url=one.base, timeout=30) as http:
        people, code, (a, b) = await _start_pair(one.base, http, "race")
        st = [a.last_state(), b.last_state()]
        mover = 0 if st[0]["view"]["legal_moves"] else 1  # type: ignore[index]
        twin = await Sock.open(two.base, code, people[mover])
        base = await twin.state_at(0)
        moves = base["view"]["legal_moves"]
        discards = [m for m in moves if m["kind"] == "discard"]
        first, second = discards[0], next(m for m in discards if m["card"] != discards[0]["card"])
        socks = [a, b]
        await socks[mover].request({"type": "move", "id": "one", "move": first},
                                   lambda m: m["type"] == "state" and m["v"] == 1)
        err = await twin.error({"type": "move", "id": "two", "move": second})
        assert err["code"] == "conflict" and err["id"] == "two"
        fresh = await twin.state_at(1)
        assert fresh["v"] == 1 and fresh["view"]["legal_moves"] == []
        await asyncio.sleep(0.2)
        assert a.last_state()["v"] == 1 and b.last_state()["v"] == 1  # type: ignore[index]
        detail = (await http.get(f"/api/matches/{fresh['match_id']}")).json()
        assert detail["v"] == 1
