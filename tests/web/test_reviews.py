"""Match review over REST with the local queue (no Redis): a finished match is reviewed in the
background, once, by child processes; live and unknown matches, strangers, floods and failures
get clear answers."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable

import httpx

from app.engine import Match, Move, options_from_json, view
from app.store.db import make_engine, make_sessions
from app.store.repositories import reviews as review_store

from .helpers import ROOT, ServerThread, Sock, new_person, new_room, seat_everyone
from .review_helpers import SMALL_REVIEWS, finished_match, wait_review


async def _row(db_url: str, match_id: str) -> review_store.Review | None:
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            return await review_store.get(s, match_id)
    finally:
        await engine.dispose()


async def test_a_finished_match_is_reviewed_once_in_the_background(
        start_server: Callable[..., ServerThread], db_url: str) -> None:
    server = start_server(**SMALL_REVIEWS)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob, match_id = await finished_match(server.base, http)
        assert (await http.get(f"/api/matches/{match_id}/review")).status_code == 404  # never asked
        r = await http.post(f"/api/matches/{match_id}/review", headers=ann.auth)
        assert r.status_code == 202, r.text
        assert r.json()["status"] in ("queued", "running", "done")
        body = await wait_review(http, match_id, lambda b: b["status"] == "done")
        assert body["progress"] == 1.0 and body["level"].startswith("rollout-")
        replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
        moves = {m["seq"]: m for m in replay["moves"]}
        assert body["decisions"], "two people made decisions"
        for d in body["decisions"]:
            assert moves[d["v"]]["seat"] == d["seat"] and moves[d["v"]]["move"] == d["played"]
            assert d["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert {c["v"] for c in body["chances"]} >= set(moves)
        # every best move was one of that seat's own legal moves at that step (its view's)
        m = Match(options_from_json(replay["options"]), replay["names"])
        m.deal(replay["hands"][0]["seed"])
        judged = {d["v"]: d for d in body["decisions"]}
        for seq in sorted(moves):
            seat = moves[seq]["seat"]
            if seq in judged:
                assert judged[seq]["best"] in view(m, seat)["legal_moves"]
            m.apply(Move.from_wire(moves[seq]["move"]), seat)
        assert {(x["hand"], x["seat"]) for x in body["luck"]} == {(1, 0), (1, 1)}
        assert [s["seat"] for s in body["summary"]] == [0, 1]
        # made once: asking again (either player) reports it and queues nothing
        again = await http.post(f"/api/matches/{match_id}/review", headers=bob.auth)
        assert again.status_code == 202 and again.json()["status"] == "done"
        await asyncio.sleep(0.5)
        row = await _row(db_url, match_id)
        assert row is not None and row.attempts == 1 and row.requested_by == ann.id
        assert (await http.get(f"/api/matches/{match_id}/review")).json() == body


async def test_who_may_ask_and_what_is_refused(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(**SMALL_REVIEWS, limit_reviews="6/minute")
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, _bob, match_id = await finished_match(server.base, http)
        carol = await new_person(http, "Carol")
        assert (await http.post(f"/api/matches/{match_id}/review")).status_code == 401
        r = await http.post(f"/api/matches/{match_id}/review", headers=carol.auth)
        assert r.status_code == 403 and r.json()["message"]
        assert (await http.get(f"/api/matches/{match_id}/review")).status_code == 404  # nobody asked
        r = await http.post("/api/matches/nosuchmatch/review", headers=ann.auth)
        assert r.status_code == 404 and r.json()["message"]
        assert (await http.get("/api/matches/nosuchmatch/review")).status_code == 404
        assert (await http.post("/api/matches/%00%27;drop/review", headers=ann.auth)).status_code == 422

        # a live match: 409 for asking and for reading
        room = await new_room(http, ann, preset="short", seats=2)
        dan = await new_person(http, "Dan")
        a, d = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], dan)
        await seat_everyone(a, [a, d])
        await a.send({"type": "start"})
        live = (await a.state_at(0))["match_id"]
        r = await http.post(f"/api/matches/{live}/review", headers=ann.auth)
        assert r.status_code == 409 and "played" in r.json()["message"]
        assert (await http.get(f"/api/matches/{live}/review")).status_code == 409
        await a.close()
        await d.close()

        # a flood from one address: refused with 429 once the limit (6/minute here) is spent
        codes = [(await http.post(f"/api/matches/{match_id}/review", headers=ann.auth)).status_code
                 for _ in range(4)]
        assert codes[:1] == [202] and codes[-1] == 429, codes
        assert "retry-after" in {k.lower() for k in (await http.post(
            f"/api/matches/{match_id}/review", headers=ann.auth)).headers}


async def test_a_review_that_overruns_fails_with_a_reason_in_the_readers_language_and_can_be_asked_again(
        start_server: Callable[..., ServerThread], db_url: str) -> None:
    # 10 s a decision and 5 s a try: the try is killed; no retries: failed, saying why
    server = start_server(review_ms=10000.0, review_samples=100000, review_timeout=5.0, review_retries=0)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, _bob, match_id = await finished_match(server.base, http)
        assert (await http.post(f"/api/matches/{match_id}/review", headers=ann.auth)).status_code == 202
        failed = await wait_review(http, match_id, lambda b: b["status"] == "failed", timeout=60)
        assert failed["error"] == "the review took longer than 5 s"
        assert failed["reason"] == "review_timeout" and failed["params"] == {"seconds": "5"}
        de = (await http.get(f"/api/matches/{match_id}/review", headers={"Accept-Language": "de"})).json()
        assert de["error"] == "die Analyse hat länger als 5 s gedauert" and de["reason"] == "review_timeout"
        fr = (await http.get(f"/api/matches/{match_id}/review", params={"lang": "fr"})).json()
        assert fr["error"] == "l'analyse a pris plus de 5 s"
        again = await http.post(f"/api/matches/{match_id}/review", headers=ann.auth)
        assert again.status_code == 202 and again.json()["status"] in ("queued", "running")
        row = await _row(db_url, match_id)
        assert row is not None and row.status in ("queued", "running") and row.error is None


def test_the_worker_needs_redis() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SPITE_REDIS_URL"}
    out = subprocess.run([sys.executable, "-m", "app.worker"], cwd=ROOT, env=env, capture_output=True, timeout=60)
    assert out.returncode == 2 and b"SPITE_REDIS_URL" in out.stderr


async def test_a_review_cut_short_by_a_restart_is_made_by_the_next_process(
        start_server: Callable[..., ServerThread], db_url: str) -> None:
    slow = {"review_ms": 60.0, "review_samples": 400}
    first = start_server(**slow)
    async with httpx.AsyncClient(base_url=first.base, timeout=30) as http:
        ann, _bob, match_id = await finished_match(first.base, http, seed="review-restart")
        assert (await http.post(f"/api/matches/{match_id}/review", headers=ann.auth)).status_code == 202
        await wait_review(http, match_id, lambda b: b["status"] == "running")
    first.stop()  # its child is killed with it
    row = await _row(db_url, match_id)
    assert row is not None and row.status == "running" and row.result is None
    second = start_server(**SMALL_REVIEWS)
    async with httpx.AsyncClient(base_url=second.base, timeout=30) as http:
        done = await wait_review(http, match_id, lambda b: b["status"] == "done")
        assert done["decisions"] and done["summary"]
    row = await _row(db_url, match_id)
    assert row is not None and row.attempts == 2
