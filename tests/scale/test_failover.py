"""Two instances on PostgreSQL + Redis; players on different instances; the instance that
drives the room is killed with SIGKILL mid-game. Its player reconnects to the survivor, the
bot and the turn clock carry on there (each automatic move made once), and nothing anyone was
shown is lost."""

from __future__ import annotations

import random
import time

import httpx

from tests.web.helpers import Sock, new_person, new_room, seat_everyone

from .cluster import Cluster, drive, instance_id, metrics, query, reopen, total
from .conftest import needs_services
from .consistency import actors_after, check_prefix, client_ids

pytestmark = needs_services


async def test_players_on_two_instances_survive_a_kill(cluster: Cluster) -> None:
    one, two = cluster.start(2)
    rng = random.Random(11)
    async with httpx.AsyncClient(base_url=one.base, timeout=30) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        code = (await new_room(http, ann, preset="short", options={"payoff_size": 7}, seats=3, seed="failover",
                               turn_seconds=3))["code"]
    a = await Sock.open(one.base, code, ann)
    b = await Sock.open(two.base, code, bob)
    await seat_everyone(a, [a, b])
    await a.room({"type": "add_bot", "seat": 2, "level": "random"}, lambda r: r["seats"][2]["bot"] == "random")
    await a.send({"type": "start"})
    first = await b.state_at(0)
    match_id = first["match_id"]

    # Views of every version reach both instances' sockets (the other one through Redis).
    reached = await drive([a, b], rng, lambda st: st["v"] >= 25, timeout=60)
    for s in (a, b):
        await s.state_at(reached["v"])
    versions = [{st["v"] for st in s.states()} for s in (a, b)]
    assert versions[0] == versions[1] and set(range(reached["v"] + 1)) <= versions[0]
    bot_moves = (await actors_after(cluster.db_url, match_id, 0)).get("bot", 0)
    assert bot_moves > 0, "the bot has played"

    # Exactly one instance drives the room: the other has thought for no bot.
    holder_id = (await query(cluster.db_url, "SELECT instance_id FROM leases WHERE room_code = :c", c=code))[0][0]
    ids = {instance_id(s): s for s in (one, two)}
    holder = ids[holder_id]
    survivor = two if holder is one else one
    before = await metrics(survivor)
    assert total(before, "spite_bot_think_seconds_count") == 0
    assert total(before, "spite_automatic_moves_total") == 0

    holder.kill()
    killed_at = (await query(cluster.db_url, "SELECT v FROM matches WHERE id = :m", m=match_id))[0][0]
    old = [a, b]
    dead = 0 if holder is one else 1
    socks = list(old)
    socks[dead] = await reopen(old[dead], survivor.base)
    await socks[dead].state_at(killed_at)

    # The turn clock fires on the survivor: let a human's turn run out once.
    started = time.monotonic()
    await drive(socks, rng, lambda st: st["view"]["status"] == "playing" and st["view"]["turn"] in (0, 1),
                timeout=30)
    waiting = socks[0].last_state()
    assert waiting is not None
    slow = waiting["view"]["turn"]
    clocked = await socks[slow].wait(lambda m: m["type"] == "state" and any(
        e.get("type") == "autoplay" and e.get("by") == "clock" for e in m["events"]), timeout=15)
    assert clocked["v"] > waiting["v"]

    last = await drive(socks, rng, lambda st: st["view"]["status"] == "match_over", timeout=120)
    assert time.monotonic() - started < 120
    for s in socks:
        await s.state_at(last["v"])

    async with httpx.AsyncClient(base_url=survivor.base, timeout=30) as http:
        replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
    assert replay["total"] == last["v"]
    received = {0: a.states() + (socks[0].states() if socks[0] is not a else []),
                1: b.states() + (socks[1].states() if socks[1] is not b else [])}
    assert check_prefix(replay, received, match_id) > 2 * last["v"]
    assert all(n == 1 for _, _, n in await client_ids(cluster.db_url, match_id))

    # After the kill, the survivor made every automatic move, each exactly once.
    after = await actors_after(cluster.db_url, match_id, killed_at)
    assert after.get("bot", 0) > 0 and after.get("clock", 0) > 0
    end = await metrics(survivor)
    assert total(end, "spite_automatic_moves_total", kind="bot", outcome="committed") == after["bot"]
    assert total(end, "spite_automatic_moves_total", kind="clock", outcome="committed") == after["clock"]
    assert total(end, "spite_automatic_moves_total", outcome="conflict") == 0
    assert total(end, "spite_bot_think_seconds_count", level="random") == after["bot"] + total(
        end, "spite_automatic_moves_total", kind="bot", outcome="dropped")
