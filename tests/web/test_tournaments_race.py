"""Two instances' round runners racing (as after a lease lapsed on a busy machine), on
PostgreSQL and Redis: each round is paired once and each table gets one room, however the passes
interleave."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections import Counter
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import func, select

from app.store.tables import Room
from app.web.http.services import services

from .helpers import new_person

REDIS = os.environ.get("SPITE_TEST_REDIS_URL")
pytestmark = pytest.mark.parametrize("db_url", ["postgres"], indirect=True)


async def test_two_runners_racing_pair_each_round_once(start_clocked, clock, db_url: str) -> None:  # type: ignore[no-untyped-def]
    assert REDIS, "set SPITE_TEST_REDIS_URL (and SPITE_TEST_POSTGRES_URL): the race is run on both"
    prefix = f"test-{uuid.uuid4().hex}:"
    # The runners' own loops pass once a minute: the test runs the passes, both at once.
    a = await start_clocked(redis_url=REDIS, redis_prefix=prefix, tournament_interval=60)
    b = await start_clocked(redis_url=REDIS, redis_prefix=prefix, tournament_interval=60)
    runners = [services(s.app).tournaments for s in (a, b)]
    async with httpx.AsyncClient(base_url=a.base, timeout=30) as http:
        org = await new_person(http, "Org")
        made = []
        starts = (clock.now() + timedelta(minutes=5)).isoformat()
        for i in range(3):
            r = await http.post("/api/tournaments", json={"name": f"Race {i}", "format": "swiss", "public": True,
                                                          "preset": "short", "options": {"payoff_size": 5},
                                                          "starts_at": starts}, headers=org.auth)
            assert r.status_code == 201, r.text
            made.append(r.json()["id"])
        for i in range(8):
            p = await new_person(http, f"P{i}")
            for tid in made:
                assert (await http.post(f"/api/tournaments/{tid}/players", headers=p.auth)).status_code == 201
        # Their start time comes: both runners race to start them, pair round 1 and make its rooms.
        await clock.advance(301)
        for _ in range(3):
            await asyncio.gather(*(r.run_once() for r in runners * 2))
        for tid in made:
            t = (await http.get(f"/api/tournaments/{tid}")).json()
            assert t["status"] == "running" and [r["round"] for r in t["rounds"]] == [1], t["rounds"]
            rooms = [tb["room"] for tb in t["rounds"][0]["tables"]]
            assert len(rooms) == 4 and None not in rooms and len(set(rooms)) == 4
            seated = Counter(s["player_id"] for tb in t["rounds"][0]["tables"] for s in tb["seats"])
            assert len(seated) == 8 and set(seated.values()) == {1}
        # No room beyond the tables': every room the store holds is one table's.
        async with services(a.app).sessions() as session:
            rooms_made = (await session.execute(select(func.count()).select_from(Room))).scalar_one()
        assert rooms_made == 12
