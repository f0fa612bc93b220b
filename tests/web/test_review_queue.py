"""A player may have SPITE_MAX_QUEUED_REVIEWS_PER_PLAYER reviews waiting or running at once:
one address playing many quick matches and asking for all their reviews once filled the queue
ahead of everyone else's. On the real queue on Redis with no worker serving it, so the reviews
asked stay queued (as they do behind a long queue)."""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable

import httpx

from .helpers import Person, ServerThread, Sock, new_person, new_room, play_to_end, seat_everyone

REDIS = os.environ.get("SPITE_TEST_REDIS_URL")


async def _play(base: str, http: httpx.AsyncClient, ann: Person, bob: Person, seed: str) -> str:
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


async def test_a_player_has_at_most_so_many_reviews_waiting(start_server: Callable[..., ServerThread]) -> None:
    assert REDIS, "set SPITE_TEST_REDIS_URL: the reviews queue is saq's, on Redis"
    server = start_server(redis_url=REDIS, redis_prefix=f"test-{uuid.uuid4().hex}:")
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        matches = [await _play(server.base, http, ann, bob, f"queue-{i}") for i in range(3)]
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
