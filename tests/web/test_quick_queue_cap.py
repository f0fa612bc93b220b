"""The quick-match queue's size cap (`SPITE_QUICK_MATCH_QUEUE`) holds under racing
joins: two app instances on one database (SQLite file or PostgreSQL), many joins at once."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter

import httpx

from app.web.app import create_app

from .helpers import make_settings, new_person

CAP = 5


async def test_many_concurrent_joins_on_two_instances_never_pass_the_cap(db_url: str) -> None:
    # a matcher pass a minute away: nothing pairs or cancels the tickets while they are counted
    apps = [create_app(make_settings(db_url, quick_match_queue=CAP, quick_match_interval=60)) for _ in range(2)]
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for app in apps:
            await stack.enter_async_context(app.router.lifespan_context(app))
            clients.append(await stack.enter_async_context(
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver", timeout=60)))
        people = [await new_person(clients[i % 2], f"P{i}") for i in range(24)]
        answers = await asyncio.gather(*[clients[i % 2].post("/api/quick-match", json={"bots": False},
                                                             headers=p.auth) for i, p in enumerate(people)])
        codes = Counter(r.status_code for r in answers)
        assert codes == {202: CAP, 429: len(people) - CAP}, codes
        assert all(r.headers["Retry-After"] == "10" for r in answers if r.status_code == 429)
        # a place freed is a place taken again
        first = next(r for r in answers if r.status_code == 202).json()["ticket"]
        owner = people[[r.status_code == 202 and r.json()["ticket"] == first for r in answers].index(True)]
        assert (await clients[0].delete(f"/api/quick-match/{first}", headers=owner.auth)).status_code == 204
        late = next(p for p, r in zip(people, answers, strict=True) if r.status_code == 429)
        assert (await clients[1].post("/api/quick-match", json={}, headers=late.auth)).status_code == 202
        assert (await clients[0].post("/api/quick-match", json={}, headers=owner.auth)).status_code == 429
