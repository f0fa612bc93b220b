"""A turn-based round-robin across a kill -9: the server dies in the middle of round 1, another
starts on the same store, and the tournament goes on by itself to its end: the table is played
out, round 2's absent player is played for by the deadline, every pair meets once, every player
sits out one round (three players: a bye a round)."""

from __future__ import annotations

import asyncio
import random
from itertools import combinations
from typing import Any

import httpx

from tests.conftest import SQLITE_ONLY

from .helpers import ServerProcess, Sock, new_person, pick
from .tournament_helpers import QUICK, Tables, read, run_to_the_end

ENV = {"SPITE_TURN_BASED_MIN_SECONDS": "1", "SPITE_TOURNAMENT_INTERVAL": "0.2", "SPITE_MISSED_TURNS": "100",
       "SPITE_DEADLINE_HORIZON": "5", "SPITE_BOT_WORKERS": "1", "SPITE_RATE_PER_SECOND": "1000",
       "SPITE_RATE_BURST": "1000", "SPITE_SEED_SECRET": "durable"}


async def _table_of(http: httpx.AsyncClient, tid: str, round_no: int) -> dict[str, Any]:
    for _ in range(300):
        t = await read(http, tid)
        tables = [tb for r in t["rounds"] if r["round"] == round_no for tb in r["tables"] if tb["room"]]
        if tables:
            return tables[0]
        await asyncio.sleep(0.1)
    raise AssertionError(f"round {round_no}'s table was never made")


@SQLITE_ONLY  # the default deployment; PostgreSQL's exactly-once is the race test's and the live Swiss's
async def test_a_turn_based_round_robin_goes_on_after_kill_9(db_url: str, tmp_path: Any) -> None:
    env = {"SPITE_DATABASE_URL": db_url, "SPITE_STATIC_DIR": str(tmp_path), **ENV}
    first = ServerProcess(env).start()
    try:
        async with httpx.AsyncClient(base_url=first.base, timeout=30) as http:
            org = await new_person(http, "Org")
            r = await http.post("/api/tournaments", json={"name": "League", "format": "round_robin", **QUICK,
                                                          "pace": "turn_based", "turn_seconds": 1, "public": True},
                                headers=org.auth)
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            people = {p.id: p for p in [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]}
            for p in people.values():
                assert (await http.post(f"/api/tournaments/{tid}/players", headers=p.auth)).status_code == 201
            assert (await http.post(f"/api/tournaments/{tid}/start", headers=org.auth)).status_code == 200
            table = await _table_of(http, tid, 1)
            socks = [await Sock.open(first.base, table["room"], people[s["player_id"]]) for s in table["seats"]]
            rng = random.Random(9)
            for _ in range(6):  # a few moves of round 1, then the server dies
                latest = [s.last_state() or await s.state_at(0) for s in socks]
                mover = next((i for i, st in enumerate(latest) if st["view"]["legal_moves"]), None)
                if mover is None:
                    break
                v = latest[mover]["v"]
                await socks[mover].send({"type": "move", "id": socks[mover].next_id(),
                                         "move": pick(latest[mover]["view"]["legal_moves"], rng)})
                await socks[mover].state_at(v + 1)
            first.kill()
    finally:
        first.kill()
    second = ServerProcess(env).start()
    try:
        async with httpx.AsyncClient(base_url=second.base, timeout=30) as http:
            t = await read(http, tid)
            assert t["status"] == "running" and t["round"] == 1
            # Round 2's table: one player stays away a while; the deadline plays their turns.
            tables = Tables(second.base, people, random.Random(10))
            tables.play(table["room"], [s["player_id"] for s in table["seats"]])
            second_table = await _table_of(http, tid, 2)
            seats = [s["player_id"] for s in second_table["seats"]]
            present = await Sock.open(second.base, second_table["room"], people[seats[0]])
            start = await present.state_at(0)
            played_for = await present.wait(
                lambda m: m["type"] == "state" and m["v"] > start["v"] and m["view"]["turn"] == 1, timeout=60)
            assert played_for["view"]["turn"] == 1
            await present.wait(lambda m: m["type"] == "state" and m["v"] > played_for["v"], timeout=60)
            await present.close()
            done = await run_to_the_end(http, tid, tables, timeout=300)
    finally:
        second.stop()
    assert done["status"] == "over" and [r["round"] for r in done["rounds"]] == [1, 2, 3]
    met = [frozenset(s["player_id"] for s in tb["seats"]) for r in done["rounds"] for tb in r["tables"]]
    assert sorted(met, key=sorted) == sorted((frozenset(c) for c in combinations(people, 2)), key=sorted)
    assert sorted(b for r in done["rounds"] for b in r["byes"]) == sorted(people)
    assert sum(p["points"] for p in done["players"]) == 3 + 3  # a point a table, a point a bye
