"""A rated game cannot be stalled for ever: a rated room always has a turn
clock (60 s unless the host names one), and the host cannot take it away."""

from __future__ import annotations

from typing import Any

import httpx

from .helpers import ServerThread, Sock, new_account, new_room, seat_everyone
from .test_ratings import SHORT


async def test_a_rated_room_always_has_a_turn_clock(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_account(http, "Ann", "ann")
    rated = await new_room(http, ann, rated=True)
    assert rated["turn_seconds"] == 60
    assert (await new_room(http, ann, rated=True, turn_seconds=30))["turn_seconds"] == 30
    assert (await new_room(http, ann))["turn_seconds"] is None  # unrated rooms may go without
    a = await Sock.open(server.base, rated["code"], ann)
    room = await a.room({"type": "configure", "turn_seconds": None}, lambda r: True)
    assert room["turn_seconds"] == 60


async def test_a_rated_match_whose_clock_keeps_running_out_for_one_seat_is_lost_by_it(start_server: Any) -> None:
    """Forfeit: the seat that stays at the table and never moves
    loses the match at its `SPITE_TIMEOUTS_TO_FORFEIT`-th timeout in a row (a `forfeit` move by
    the clock, in the log and the replay), and the ratings count it as a loss."""
    server: ServerThread = start_server(timeouts_to_forfeit=2, absent_grace=600, bot_delay=0.02,
                                        rated_min_turn_seconds=1, rated_forfeit_min_moves=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_account(http, "Ann", "ann"), await new_account(http, "Bob", "bob")
        room = await new_room(http, ann, rated=True, seed="forfeit", turn_seconds=1, **SHORT)
        socks = [await Sock.open(server.base, room["code"], p) for p in (ann, bob)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        st = await socks[0].state_at(0)
        v = st["v"]
        for _ in range(2):  # each plays a turn of their own (a match nobody played is not rated)
            seat = st["view"]["turn"]
            v = await play_turn(socks[seat], v)
            st = await socks[0].state_at(v)
        idle = st["view"]["turn"]  # from now on this seat never moves
        active = socks[1 - idle]
        over = await socks[0].wait(lambda m: m["type"] == "state" and m["view"]["status"] == "match_over"
                                   or (m["type"] == "state" and m["view"]["turn"] == 1 - idle and m["v"] > v),
                                   timeout=15)
        if over["view"]["status"] != "match_over":  # the first timeout: the clock played the turn
            v = await play_turn(active, over["v"])
            over = await socks[0].wait(lambda m: m["type"] == "state" and m["view"]["status"] == "match_over",
                                       timeout=15)
        events = over["events"]
        assert {"type": "autoplay", "seat": idle, "by": "clock"} in events
        assert {"type": "forfeit", "seat": idle} in events
        result = over["view"]["result"]
        assert result["reason"] == "forfeit" and result["match_winners"] == [1 - idle]
        match_id = over["match_id"]
        for s in socks:
            await s.close()
        people = (ann, bob)
        loser, winner = people[idle], people[1 - idle]
        lost = (await http.get(f"/api/players/{loser.id}")).json()["rating"]
        won = (await http.get(f"/api/players/{winner.id}")).json()["rating"]
        assert lost["games"] == won["games"] == 1
        assert won["mu"] > lost["mu"] and won["ordinal"] > lost["ordinal"]
        replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
        last = replay["moves"][-1]
        assert (last["move"], last["actor"], last["seat"]) == ({"kind": "forfeit"}, "clock", idle)
        assert replay["hands"][-1]["result"]["reason"] == "forfeit"
        step = (await http.get(f"/api/matches/{match_id}/replay", params={"at": replay["total"]})).json()
        assert step["view"]["status"] == "match_over"


async def play_turn(sock: Sock, v: int) -> int:
    """The sock's player plays (the last legal move each time) until the turn passes."""
    st = await sock.state_at(v)
    seat = st["view"]["you"]
    while st["view"]["turn"] == seat and st["view"]["status"] == "playing":
        await sock.send({"type": "move", "id": sock.next_id(), "move": st["view"]["legal_moves"][-1]})
        v = st["v"] + 1
        st = await sock.state_at(v)
    return int(st["v"])
