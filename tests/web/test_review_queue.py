"""The reviews queue is fair per requester. A player may have SPITE_MAX_QUEUED_REVIEWS_PER_PLAYER
reviews waiting or running at once, and a requester's second review waits behind other
requesters' first: one address playing many quick matches and asking for all their reviews once
filled the queue ahead of everyone else's. On the real queue on Redis, asked while no worker serves
it (so the reviews asked stay queued, as they do behind a long queue), then made by a real
`python -m app.worker`."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx
from sqlalchemy import select

from app.store.db import make_engine, make_sessions
from app.store.tables import Review
from tests.children import die_with_parent

from .helpers import ROOT, ServerThread, new_person
from .review_helpers import SMALL_REVIEWS, play_match, wait_review

REDIS = os.environ.get("SPITE_TEST_REDIS_URL")


async def test_a_player_has_at_most_so_many_reviews_waiting(start_server: Callable[..., ServerThread]) -> None:
    assert REDIS, "set SPITE_TEST_REDIS_URL: the reviews queue is saq's, on Redis"
    server = start_server(redis_url=REDIS, redis_prefix=f"test-{uuid.uuid4().hex}:")
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        matches = [await play_match(server.base, http, ann, bob, f"queue-{i}") for i in range(3)]
        asks = [await http.post(f"/api/matches/{m}/review", headers=ann.auth) for m in matches]
        assert [r.status_code for r in asks] == [202, 202, 429], [r.text for r in asks]  # the default: 2
        refused = asks[2].json()
        assert refused["reason"] == "review_queue_full" and refused["params"] == {"n": 2}
        assert "2 reviews waiting" in refused["message"]
        assert (await http.get(f"/api/matches/{matches[2]}/review")).status_code == 404  # nothing was queued
        # asking again for a review already waiting only reports it
        again = await http.post(f"/api/matches/{matches[0]}/review", headers=ann.auth)
        assert again.status_code == 202 and again.json()["status"] == "queued"
        # the limit is the asker's: Bob played the third match too, and may ask for its review
        r = await http.post(f"/api/matches/{matches[2]}/review", headers=bob.auth,
                            params={"lang": "fr"})
        assert r.status_code == 202, r.text
        r = await http.post(f"/api/matches/{matches[1]}/review", headers=ann.auth, params={"lang": "fr"})
        assert r.status_code == 202  # already waiting: reported, not refused


async def test_the_limit_holds_for_asks_at_the_same_moment(start_server: Callable[..., ServerThread]) -> None:
    """Every ask of one moment passes the check made before the row is written; the count made
    after it refuses those past the limit and takes their rows back (standards: every limit holds
    under concurrency)."""
    assert REDIS, "set SPITE_TEST_REDIS_URL: the reviews queue is saq's, on Redis"
    server = start_server(redis_url=REDIS, redis_prefix=f"test-{uuid.uuid4().hex}:", max_queued_reviews_per_player=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        matches = [await play_match(server.base, http, ann, bob, f"moment-{i}") for i in range(4)]
        await asyncio.gather(*(http.get("/healthz") for _ in matches))  # a connection each, open already
        asks = await asyncio.gather(*(http.post(f"/api/matches/{m}/review", headers=ann.auth) for m in matches))
        codes = [r.status_code for r in asks]
        assert set(codes) <= {202, 429} and codes.count(202) <= 1, [r.text for r in asks]
        kept = [m for m in matches if (await http.get(f"/api/matches/{m}/review")).status_code == 200]
        assert len(kept) == codes.count(202)  # a refused ask left nothing queued


STARTED = re.compile(r"review of match (\S+) started")


async def _all_done(db_url: str) -> bool:
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            return all(status == "done" for (status,) in (await s.execute(select(Review.status))).all())
    finally:
        await engine.dispose()


async def test_a_requesters_second_review_waits_behind_anothers_first(
        db_url: str, start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    assert REDIS, "set SPITE_TEST_REDIS_URL: the reviews queue is saq's, on Redis"
    prefix = f"test-{uuid.uuid4().hex}:"
    server = start_server(redis_url=REDIS, redis_prefix=prefix, **SMALL_REVIEWS)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        flooder, victim, bob = [await new_person(http, n) for n in ("Flo", "Vic", "Bob")]
        first, second = [await play_match(server.base, http, flooder, bob, f"flood-{i}") for i in range(2)]
        theirs = await play_match(server.base, http, victim, bob, "victim")
        for match_id, who in ((first, flooder), (second, flooder), (theirs, victim)):  # asked in this order
            assert (await http.post(f"/api/matches/{match_id}/review", headers=who.auth)).status_code == 202
        env = {**os.environ, "SPITE_DATABASE_URL": db_url, "SPITE_REDIS_URL": REDIS, "SPITE_REDIS_PREFIX": prefix,
               **{f"SPITE_{k.upper()}": str(v) for k, v in SMALL_REVIEWS.items()}}
        log = tmp_path / "worker.log"
        with open(log, "ab") as err:
            worker = subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=ROOT, env=env, stderr=err,
                                      preexec_fn=die_with_parent)
        try:
            for match_id in (first, second, theirs):
                await wait_review(http, match_id, lambda b: b["status"] == "done")
        finally:
            worker.kill()
            worker.wait(10)
    # the worker's log says when it started each review: the victim's before the flooder's second
    text = log.read_text()
    assert STARTED.findall(text) == [first, theirs, second], (first, second, theirs, text[-4000:])
    assert await _all_done(db_url)
