"""Moves nobody sends: the turn clock, a stand-in for an absent player, bots, and hints."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx

from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread, Sock, new_person, new_room, on_the_clock, pick, seat_everyone
from .jump_clock import JumpClock
from .truth import rebuild_and_check

pytestmark = SQLITE_ONLY  # the database is not what this module is about (tests/conftest.py)

Msg = dict[str, Any]


def autoplayed(by: str, seat: int) -> Callable[[Msg], bool]:
    return lambda m: m["type"] == "state" and any(
        e.get("type") == "autoplay" and e["by"] == by and e["seat"] == seat for e in m["events"])


async def _pair(server: ServerThread, http: httpx.AsyncClient, **room: Any) -> tuple[Any, str, list[Sock]]:
    people = [await new_person(http, "Ann"), await new_person(http, "Bob")]
    code = (await new_room(http, people[0], preset="short", seats=2, **room))["code"]
    socks = [await Sock.open(server.base, code, p) for p in people]
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    for s in socks:
        await s.state_at(0)
    return people, code, socks


async def test_turn_clock_plays_for_a_slow_player(start_clocked: Any, clock: JumpClock) -> None:
    server = await start_clocked()
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        _, _, (a, b) = await _pair(server, http, seed="clock", turn_seconds=1)
    st = a.last_state()
    assert st is not None
    mover = st["view"]["turn"]
    other = 1 - mover
    turn_clock = st["clock"]
    assert turn_clock["seat"] == mover and turn_clock["turn_seconds"] == 1 and 0 < turn_clock["remaining"] <= 1
    first = await on_the_clock(clock, a, autoplayed("clock", mover))
    deadline = datetime.fromisoformat(turn_clock["deadline"]).replace(tzinfo=UTC)  # stored and sent in UTC
    assert clock.now() >= deadline, "the clock waits for the deadline"
    passed = await on_the_clock(clock, a, lambda m: m["type"] == "state" and m["view"]["turn"] == other)
    assert passed["v"] > first["v"] - 1 and passed["clock"]["seat"] == other
    # Every move in between was the server's, for the slow player, until the turn passed.
    between = [m for m in a.states() if first["v"] <= m["v"] <= passed["v"]]
    assert all(any(e.get("type") == "autoplay" for e in m["events"]) for m in between if m["events"])
    await on_the_clock(clock, b, autoplayed("clock", other))


async def test_clock_deadline_survives_a_restart(start_clocked: Any, clock: JumpClock) -> None:
    one = await start_clocked()
    async with httpx.AsyncClient(base_url=one.base, timeout=30) as http:
        people, code, socks = await _pair(one, http, seed="clock-restart", turn_seconds=2)
    st = socks[0].last_state()
    assert st is not None
    deadline = st["clock"]["deadline"]
    for s in socks:
        await s.close()
    await one.stop()
    await clock.advance(2.2)  # the deadline passes while no server is up
    two = await start_clocked()
    a = await Sock.open(two.base, code, people[0], last_v=st["v"])
    resumed = await a.state_at(st["v"])
    assert resumed["clock"]["deadline"] == deadline and resumed["clock"]["remaining"] == 0
    auto = await on_the_clock(clock, a, autoplayed("clock", st["view"]["turn"]))
    assert auto["v"] == st["v"] + 1


async def test_absent_player_is_stood_in_for_and_handed_back(start_clocked: Any, clock: JumpClock) -> None:
    server = await start_clocked(absent_grace=1.0)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        people, code, socks = await _pair(server, http, seed="absent")
    st = socks[0].last_state()
    assert st is not None
    away = st["view"]["turn"]
    here = socks[1 - away]
    start = len(here.messages)
    left_at = clock.monotonic()  # no later than the server sees the socket go
    await socks[away].close()
    gone = await on_the_clock(clock, here, lambda m: m["type"] == "state"
                              and m["view"]["players"][away]["connected"] is False, start=start, step=0.01)
    assert gone["autoplay"] == []
    auto = await on_the_clock(clock, here, autoplayed("absent", away), start=start)
    assert clock.monotonic() - left_at >= 1.0, "the stand-in waits for the grace period"
    assert auto["autoplay"] == [away]
    # The stand-in finishes the absent player's turn; then it is our turn and nothing happens.
    mine = await on_the_clock(clock, here, lambda m: m["type"] == "state" and m["view"]["turn"] == 1 - away,
                              start=start)
    back = await Sock.open(server.base, code, people[away], last_v=mine["v"])
    now = await back.state_at(mine["v"])
    assert now["autoplay"] == [] and now["view"]["you"] == away
    await on_the_clock(clock, here, lambda m: m["type"] == "state" and m["view"]["players"][away]["connected"] is True,
                       start=start)
    rng = random.Random(1)
    while True:
        latest = here.last_state()
        assert latest is not None
        if latest["view"]["turn"] == away:
            break
        await here.send({"type": "move", "id": here.next_id(), "move": pick(latest["view"]["legal_moves"], rng)})
        await here.state_at(latest["v"] + 1)
    v = here.last_state()["v"]  # type: ignore[index]
    await clock.advance(1.5)  # past the grace period: nobody stands in for a player who is here
    mine_now = await back.state_at(v)
    assert mine_now["view"]["legal_moves"] and mine_now["autoplay"] == []
    played = await back.request({"type": "move", "id": back.next_id(), "move": mine_now["view"]["legal_moves"][0]},
                                lambda m: m["type"] in ("state", "error"))
    assert played["type"] == "state" and played["v"] == v + 1, "the returned player's turn is theirs again"


async def _watch_to_end(socks: list[Sock], rng: random.Random, timeout: float = 60) -> Msg:
    """Play our own turns from legal moves while bots play theirs, to the end of the match."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for s in socks:
            st = s.last_state()
            if st is None:
                continue
            if st["view"]["status"] == "match_over":
                return st
            if st["view"]["status"] == "hand_over":
                await s.request({"type": "next_hand"}, lambda m: m["type"] in ("state", "error"))
            elif st["view"]["legal_moves"]:
                await s.request({"type": "move", "id": s.next_id(), "move": pick(st["view"]["legal_moves"], rng)},
                                lambda m: m["type"] in ("state", "error"))
        await asyncio.sleep(0.01)
    raise AssertionError("the match with bots did not end")


async def test_bots_play_to_the_end(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, cat = await new_person(http, "Ann"), await new_person(http, "Cat")
    code = (await new_room(http, ann, preset="short", options={"payoff_size": 5}, seats=3, seed="bots"))["code"]
    a = await Sock.open(server.base, code, ann)
    watcher = await Sock.open(server.base, code, cat)
    await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    await a.room({"type": "add_bot", "seat": 1, "level": "easy"}, lambda r: r["seats"][1]["bot"] == "easy")
    await a.room({"type": "add_bot", "level": "random"}, lambda r: r["seats"][2]["bot"] == "random")
    await a.send({"type": "start"})
    await a.state_at(0)
    last = await _watch_to_end([a], random.Random(2))
    replay = (await http.get(f"/api/matches/{last['match_id']}/replay")).json()
    actors = {(m["seat"], m["actor"]) for m in replay["moves"]}
    assert {(1, "bot"), (2, "bot")} <= actors and all(actor == "player" for seat, actor in actors if seat == 0)
    await watcher.state_at(last["v"])
    assert rebuild_and_check(replay, {0: a.states(), None: watcher.states()}, last["match_id"]) > 0
    detail = (await http.get(f"/api/matches/{last['match_id']}")).json()
    assert [p["bot"] for p in detail["players"]] == [None, "easy", "random"]


async def test_normal_and_hard_bots_play_a_room_to_the_end(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(bot_think_ms=40, hint_level="hard")
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann = await new_person(http, "Ann")
        code = (await new_room(http, ann, preset="short", options={"payoff_size": 5}, seats=3, seed="levels"))["code"]
    a = await Sock.open(server.base, code, ann)
    await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    await a.room({"type": "add_bot", "seat": 1, "level": "normal"}, lambda r: r["seats"][1]["bot"] == "normal")
    await a.room({"type": "add_bot", "seat": 2, "level": "hard"}, lambda r: r["seats"][2]["bot"] == "hard")
    await a.send({"type": "start"})
    mine = await a.wait(lambda m: m["type"] == "state" and bool(m["view"]["legal_moves"]), timeout=60)
    hint = await a.request({"type": "hint"}, lambda m: m["type"] in ("hint", "error"))
    assert hint["type"] == "hint" and hint["move"] in mine["view"]["legal_moves"] and hint["reason"] != "suggested"
    last = await _watch_to_end([a], random.Random(4), timeout=120)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        replay = (await http.get(f"/api/matches/{last['match_id']}/replay")).json()
    actors = {(m["seat"], m["actor"]) for m in replay["moves"]}
    assert {(1, "bot"), (2, "bot")} <= actors
    assert rebuild_and_check(replay, {0: a.states()}, last["match_id"]) > 0


async def test_a_room_of_bots_only_does_not_start(server: ServerThread, http: httpx.AsyncClient) -> None:
    """Bots alone would play for nobody (hardening 3, #1): the host watching is not enough."""
    ann = await new_person(http, "Ann")
    code = (await new_room(http, ann, preset="short", options={"payoff_size": 5}, seats=2, seed="botsonly"))["code"]
    a = await Sock.open(server.base, code, ann)
    for seat in (0, 1):
        await a.room({"type": "add_bot", "seat": seat}, lambda r, s=seat: r["seats"][s]["bot"] == "easy")
    refused = await a.error({"type": "start"})
    assert refused["code"] == "not_allowed_now" and refused["reason"] == "need_person"
    assert a.states() == []


async def test_hints(server: ServerThread, http: httpx.AsyncClient) -> None:
    _, _, (a, b) = await _pair(server, http, seed="hints")
    st = [a.last_state(), b.last_state()]
    mover = 0 if st[0]["view"]["legal_moves"] else 1  # type: ignore[index]
    socks = [a, b]
    hint = await socks[mover].request({"type": "hint"}, lambda m: m["type"] in ("hint", "error"))
    assert hint["type"] == "hint" and hint["move"] in st[mover]["view"]["legal_moves"] and hint["reason"]  # type: ignore[index]
    assert hint["v"] == st[mover]["v"]  # type: ignore[index]
    assert (await socks[1 - mover].error({"type": "hint"}))["code"] == "not_your_turn"
    _, _, (c, d) = await _pair(server, http, seed="nohints", hints=False)
    assert (await c.error({"type": "hint"}))["code"] == "hints_off"


async def test_an_absent_host_hands_over(start_clocked: Any, clock: JumpClock) -> None:
    server = await start_clocked(absent_grace=1.0)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
        code = (await new_room(http, ann, preset="short", seats=2, seed="host"))["code"]
    a, b, c = [await Sock.open(server.base, code, p) for p in (ann, bob, cat)]
    await seat_everyone(a, [a, b])
    start = len(b.messages)
    await a.close()
    await on_the_clock(clock, b, lambda m: m["type"] == "room" and m["room"]["seats"][0]["connected"] is False,
                       start=start, step=0.01)
    assert (await b.error({"type": "start"}))["code"] == "not_host"
    await clock.advance(1.2)  # the host has been away longer than the grace period
    assert (await c.error({"type": "add_bot"}))["code"] == "not_host", "a spectator never stands in for the host"
    await b.send({"type": "start"})
    st = await b.state_at(0)
    assert st["view"]["you"] == 1
