"""Turn-based deadlines on two instances sharing PostgreSQL and Redis: with nobody connected,
every deadline is played once (by whichever instance holds the room's lease), never twice and
never by both: the moves in the store are exactly the ones the instances say they committed (a
second firing, possible only when a commit outlives the lease on a very busy machine, is refused
by the unique move version and counted as a `conflict`)."""

from __future__ import annotations

import asyncio

import httpx

from tests.web.helpers import Sock, new_person, new_room, seat_everyone

from .cluster import Cluster, metrics, query, total

ROOMS = 4


async def test_two_instances_play_each_deadline_exactly_once(cluster: Cluster) -> None:
    a, b = cluster.start(2, SPITE_TURN_BASED_MIN_SECONDS="2", SPITE_DEADLINE_HORIZON="30",
                         SPITE_MISSED_TURNS="100")
    codes: list[str] = []
    for i in range(ROOMS):
        server = (a, b)[i % 2]
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann, bob = [await new_person(http, n) for n in ("Ann", "Bob")]
            room = await new_room(http, ann, preset="short", seats=2, seed=f"tb2-{i}", pace="turn_based",
                                  turn_seconds=2)
            socks = [await Sock.open(server.base, room["code"], p) for p in (ann, bob)]
            await seat_everyone(socks[0], socks)
            await socks[0].send({"type": "start"})
            await socks[0].state_at(0)
            for s in socks:
                await s.close()
            codes.append(room["code"])
    # Several deadlines per room, nobody connected anywhere: wait until every room has had two.
    per_room: dict[str, int] = {}
    for _ in range(600):
        rows = await query(cluster.db_url, "SELECT m.match_id, count(*) FROM moves m JOIN rooms r "
                                           "ON r.match_id = m.match_id WHERE m.actor = 'deadline' GROUP BY m.match_id")
        per_room = {match: n for match, n in rows}
        if len(per_room) == ROOMS and min(per_room.values()) >= 2:
            break
        await asyncio.sleep(0.1)
    assert len(per_room) == ROOMS and min(per_room.values()) >= 2, \
        f"every room's deadlines were played with nobody connected: {per_room}"
    before = (await query(cluster.db_url, "SELECT count(*) FROM moves WHERE actor = 'deadline'"))[0][0]
    samples = [await metrics(s) for s in (a, b)]
    committed = sum(total(m, "spite_automatic_moves_total", kind="deadline", outcome="committed") for m in samples)
    lost = sum(v for m in samples for (name, labels), v in m.items()
               if name == "spite_automatic_moves_total" and ("kind", "deadline") in labels
               and dict(labels)["outcome"] not in ("committed", "dropped", "conflict"))
    after = await query(cluster.db_url, "SELECT count(*) FROM moves WHERE actor = 'deadline'")
    outcomes = {(dict(labels)["outcome"], i): v for i, m in enumerate(samples) for (name, labels), v in m.items()
                if name == "spite_automatic_moves_total" and ("kind", "deadline") in labels}
    # "dropped": a choice abandoned before its commit because the lease's trust ran out while the
    # bot thought; "conflict": on a machine so busy that a commit outlived the lease, the other
    # instance fired too and the unique move version refused the second (the move was made once).
    conflicts = sum(v for (outcome, _), v in outcomes.items() if outcome == "conflict")
    assert lost == 0 and conflicts <= 2, f"deadline moves by outcome: {outcomes}"
    # The games go on while this reads: at most one move per room is between its commit and its count.
    assert before - ROOMS <= committed <= after[0][0], "the store holds the deadline moves committed, once each"

