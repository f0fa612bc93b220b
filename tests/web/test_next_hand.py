"""Between hands over real sockets: `next_hand` marks a seated person ready, the state says who
is ready and when the next hand is dealt anyway, and the hand is dealt once everyone is ready."""

from __future__ import annotations

import random

import httpx

from .helpers import ServerThread, Sock, new_person, new_room, pick, seat_everyone


async def play_one_hand(socks: list[Sock], rng: random.Random) -> dict:  # type: ignore[type-arg]
    """Move from the legal moves until the first hand is over; returns that last state."""
    v = 0
    for _ in range(5000):
        latest = [await s.state_at(v) for s in socks]
        if latest[0]["view"]["status"] != "playing":
            return latest[0]
        mover = next(i for i, st in enumerate(latest) if st["view"]["legal_moves"])
        sock = socks[mover]
        await sock.send({"type": "move", "id": sock.next_id(), "move": pick(latest[mover]["view"]["legal_moves"], rng)})
        v = latest[0]["v"] + 1
    raise AssertionError("the hand did not end")


async def test_next_hand_waits_for_every_seated_person(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    room = await new_room(http, ann, preset="short", options={"payoff_size": 5, "match_target": 500},
                          seed="ready-1")
    socks = [await Sock.open(server.base, room["code"], p) for p in (ann, bob)]
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    over = await play_one_hand(socks, random.Random(3))
    assert over["view"]["status"] == "hand_over"
    info = over["next_hand"]
    assert info["ready"] == [] and 0 < info["remaining"] <= 20 and info["deadline"]
    v = over["v"]
    # Ann is ready: everyone hears it, nothing is dealt while Bob reads the result.
    for s in socks:
        await s.state_at(v)
    start = len(socks[1].messages)
    await socks[0].send({"type": "next_hand"})
    said = await socks[1].wait(lambda m: m["type"] == "state" and m.get("next_hand") is not None
                               and m["next_hand"]["ready"] == [0], start=start)
    assert said["v"] == v and said["view"]["status"] == "hand_over" and said["events"] == []
    # Bob too: the next hand is dealt at once.
    await socks[1].send({"type": "next_hand"})
    dealt = await socks[0].state_at(v + 1)
    assert dealt["view"]["status"] == "playing" and dealt["view"]["hand_number"] == 2 and dealt["next_hand"] is None
