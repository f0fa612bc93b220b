from __future__ import annotations

import random

import httpx

from .helpers import ServerThread, Sock, new_person, new_room, play_to_end, seat_everyone


async def test_two_seat_game(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    room = await new_room(http, ann, preset="short", options={"payoff_size": 5}, seats=2, seed="smoke")
    a = await Sock.open(server.base, room["code"], ann)
    b = await Sock.open(server.base, room["code"], bob)
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    last = await play_to_end([a, b], random.Random(1))
    assert last["view"]["status"] == "match_over"
    print(len(a.states()), last["v"])
