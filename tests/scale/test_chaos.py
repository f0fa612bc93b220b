"""Chaos: several rooms played at once across two instances while the clients misbehave at
random: they drop their connection and come back (to either instance), send the same move
twice, resend a move id already applied, and send stale moves. Every game still ends
consistent: versions contiguous and unique, the replay reproduces what everyone saw, and no
move id applied twice."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.web.helpers import Person, ServerProcess, Sock, new_person, new_room, pick, seat_everyone

from .cluster import Cluster, metrics, reopen, total
from .conftest import needs_services
from .consistency import check_prefix, client_ids

pytestmark = needs_services
Msg = dict[str, Any]


@dataclass
class Seat:
    """One player: the socket in use, the ones before it, and every move id sent."""

    person: Person
    sock: Sock
    old: list[Sock] = field(default_factory=list)
    sent: dict[str, Msg] = field(default_factory=dict)
    twice: set[str] = field(default_factory=set)
    stale: int = 0
    stale_ids: set[str] = field(default_factory=set)

    def states(self) -> list[Msg]:
        return [st for s in [*self.old, self.sock] for st in s.states()]


async def _play_seat(me: Seat, servers: list[ServerProcess], rng: random.Random, stop: float) -> None:
    while time.monotonic() < stop:
        st = me.sock.last_state()
        if st is not None and st["view"]["status"] == "match_over":
            return
        roll = rng.random()
        if roll < 0.02 or me.sock.closed is not None:  # drop the connection; come back anywhere
            await me.sock.close()
            me.old.append(me.sock)
            me.sock = await reopen(me.sock, rng.choice(servers).base)
            await me.sock.wait(lambda m: m["type"] == "state", timeout=10)
            continue
        if st is None:
            await asyncio.sleep(0.01)
            continue
        view = st["view"]
        if view["status"] == "hand_over":
            await me.sock.send({"type": "next_hand"})
            await asyncio.sleep(0.05)
            continue
        if not view["legal_moves"]:
            if roll < 0.08 and me.sent:  # a stale move (with a new id) while it is not our turn
                old_id = rng.choice(list(me.sent))
                me.stale += 1
                # Our turn may have come while this was on its way (the state saying so not yet
                # here): then it is a real move, applied if it happens to be legal.
                stale_id = me.sock.next_id()
                me.stale_ids.add(stale_id)
                await me.sock.send({"type": "move", "id": stale_id, "move": me.sent[old_id]["move"]})
            await asyncio.sleep(0.01)
            continue
        move = pick(view["legal_moves"], rng)
        msg = {"type": "move", "id": me.sock.next_id(), "move": move}
        me.sent[msg["id"]] = msg
        mark = len(me.sock.messages)
        await me.sock.send(msg)
        if roll < 0.15:  # the same message twice
            me.twice.add(msg["id"])
            await me.sock.send(msg)
        elif roll < 0.2 and len(me.sent) > 1:  # an old move id again, with its old move
            old_id = rng.choice(list(me.sent))
            await me.sock.send({"type": "move", "id": old_id, "move": me.sent[old_id]["move"]})
        await me.sock.wait(lambda m, v=st["v"]: m["type"] == "error" or (m["type"] == "state" and m["v"] > v),
                           timeout=10, start=mark)
    raise AssertionError("the game did not end in time")


async def _room(http: httpx.AsyncClient, servers: list[ServerProcess], index: int) -> tuple[str, list[Seat]]:
    people = [await new_person(http, f"P{index}a"), await new_person(http, f"P{index}b")]
    code = (await new_room(http, people[0], preset="short", options={"payoff_size": 8}, seats=2,
                           seed=f"chaos-{index}"))["code"]
    socks = [await Sock.open(servers[(index + i) % 2].base, code, p) for i, p in enumerate(people)]
    await seat_everyone(socks[0], socks)
    await socks[0].wait(lambda m: m["type"] == "room" and all(x["player_id"] for x in m["room"]["seats"]))
    await socks[0].send({"type": "start"})
    for s in socks:
        await s.state_at(0)
    return code, [Seat(p, s) for p, s in zip(people, socks, strict=True)]


async def test_chaotic_clients_cannot_break_a_game(cluster: Cluster) -> None:
    servers = cluster.start(2)
    rooms = 8
    async with httpx.AsyncClient(base_url=servers[0].base, timeout=30) as http:
        tables = [await _room(http, servers, i) for i in range(rooms)]
        stop = time.monotonic() + 150
        await asyncio.gather(*(_play_seat(seat, servers, random.Random(f"{i}-{j}"), stop)
                               for i, (_, seats) in enumerate(tables) for j, seat in enumerate(seats)))
        for _, seats in tables:
            last = seats[0].sock.last_state()
            assert last is not None and last["view"]["status"] == "match_over"
            match_id = last["match_id"]
            for seat in seats:
                await seat.sock.state_at(last["v"], match_id=match_id)
            replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
            assert replay["total"] == last["v"]
            # Every state anyone saw is the store's history up to its version. (How many that is
            # depends on how long each seat was away: a seat away for several versions is sent
            # only the latest when it comes back. So the count is of what was received.)
            received = {i: s.states() for i, s in enumerate(seats)}
            seen = sum(1 for states in received.values() for st in states if st["match_id"] == match_id)
            assert check_prefix(replay, received, match_id) == seen >= len(seats)  # each saw the last, above
            # Each move id was applied at most once; ids sent twice were applied once.
            stored = await client_ids(cluster.db_url, match_id)
            assert all(n == 1 for _, _, n in stored), stored
            applied = {(seat, cid) for seat, cid, _ in stored}
            for i, seat in enumerate(seats):
                assert {cid for s, cid in applied if s == i} <= set(seat.sent) | seat.stale_ids
    everyone = [seat for _, seats in tables for seat in seats]
    assert sum(len(s.old) for s in everyone) > 0 and sum(len(s.twice) for s in everyone) > 0
    assert sum(s.stale for s in everyone) > 0
    refused = [total(await metrics(s), "spite_errors_total", code="not_your_turn") for s in servers]
    assert sum(refused) > 0, "the servers refused the stale moves"
