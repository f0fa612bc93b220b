"""Finished matches for the review tests: two people play a short hand through real sockets; a
review made by the test put in the store."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import httpx

from .helpers import Person, Sock, new_person, new_room, play_to_end, seat_everyone

SMALL_REVIEWS = {"review_ms": 5.0, "review_samples": 4}  # a short hand reviewed in seconds


async def finished_match(base: str, http: httpx.AsyncClient, seed: str = "review") -> tuple[Person, Person, str]:
    """Ann and Bob play one short hand to its end; returns them and the match id."""
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    return ann, bob, await play_match(base, http, ann, bob, seed)


async def play_match(base: str, http: httpx.AsyncClient, ann: Person, bob: Person, seed: str) -> str:
    """`ann` and `bob` play one short hand to its end in a new room; returns the match id."""
    room = await new_room(http, ann, preset="short", options={"payoff_size": 5}, seats=2, seed=seed)
    a, b = await Sock.open(base, room["code"], ann), await Sock.open(base, room["code"], bob)
    try:
        await seat_everyone(a, [a, b])
        await a.send({"type": "start"})
        last = await play_to_end([a, b], random.Random(3))
    finally:
        await a.close()
        await b.close()
    return str(last["match_id"])


async def wait_review(http: httpx.AsyncClient, match_id: str, until: Any, timeout: float = 120.0) -> dict[str, Any]:
    """Poll GET .../review until `until(body)`; every body seen must be a well-formed status."""
    deadline = time.monotonic() + timeout
    body: dict[str, Any] = {}
    while time.monotonic() < deadline:
        r = await http.get(f"/api/matches/{match_id}/review")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["status"] in ("queued", "running", "done", "failed") and 0 <= body["progress"] <= 1
        if until(body):
            return body
        await asyncio.sleep(0.2)
    raise AssertionError(f"the review did not get there: {body.get('status')} {body.get('progress')}")


async def store_review(db_url: str, match_id: str, asker: str, result: dict[str, Any]) -> None:
    """Put a finished review of `match_id` in the store as the worker would (a result made by
    the test, so a page can be checked against known figures without running the estimator)."""
    from app.store.db import make_engine, make_sessions
    from app.store.repositories import reviews

    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as session:
            await reviews.ask(session, match_id, "rollout-test", asker)
            await reviews.finish(session, match_id, result, "rollout-test")
    finally:
        await engine.dispose()


def in_a_thread(make: Callable[[], Coroutine[Any, Any, None]], timeout: float = 180.0) -> None:
    """Run `make()` on an event loop of its own (a browser test's thread has Playwright's)."""
    t = threading.Thread(target=lambda: asyncio.run(make()))
    t.start()
    t.join(timeout)
