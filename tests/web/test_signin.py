"""Sign-in under pressure: tries are counted before the hash, so
parallel requests cannot slip past a limit; successful sign-ins are limited too and each
player's live tokens capped; no database connection is held across a hash; a stranger cannot
lock an owner out; passwords change and devices sign out everywhere."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI

from app.web.app import create_app
from app.web.http.services import services

from .helpers import Person, make_settings, new_account

PASSWORD = "correct horse"
# The shipped amounts, counted per hour: a slow machine must not let a minute lapse mid-test.
HOURLY = {"limit_signin_user_failures": "5/hour", "limit_signin_username_failures": "20/hour",
          "limit_signin_failures": "20/hour", "limit_signins": "30/hour", "limit_user_signins": "10/hour"}


@asynccontextmanager
async def _app(db_url: str, **overrides: Any) -> AsyncIterator[FastAPI]:
    app = create_app(make_settings(db_url, **overrides))
    async with app.router.lifespan_context(app):
        yield app


def _client(app: FastAPI, address: str = "198.51.100.1") -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 4000)),
                             base_url="http://testserver")


async def _sign_in(http: httpx.AsyncClient, username: str, password: str = PASSWORD) -> httpx.Response:
    return await http.post("/api/sessions", json={"username": username, "password": password})


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_parallel_failed_sign_ins_pass_only_the_limit(db_url: str) -> None:
    """40 at once for one username from one address: exactly 5 are tried (5/minute), 35 refused
    before any hash, none a 5xx."""
    async with _app(db_url, hash_queue=64, **HOURLY) as app, _client(app) as http:
        await new_account(http, "Ann", "ann")
        got = await asyncio.gather(*(_sign_in(http, "ann", f"guess {i}!") for i in range(40)))
        counts = Counter(r.status_code for r in got)
        assert counts == {401: 5, 429: 35}, counts
        assert (await _sign_in(http, "ann")).status_code == 429  # this address, for this username
        async with _client(app, "198.51.100.2") as other:
            assert (await _sign_in(other, "ann")).status_code == 201


async def test_parallel_failed_sign_ins_over_many_usernames_pass_only_the_address_limit(db_url: str) -> None:
    async with _app(db_url, hash_queue=64, **HOURLY) as app, _client(app) as http:
        got = await asyncio.gather(*(_sign_in(http, f"user{i}", "guessing!") for i in range(30)))
        counts = Counter(r.status_code for r in got)
        assert counts == {401: 20, 429: 10}, counts  # SPITE_LIMIT_SIGNIN_FAILURES: 20/minute


async def test_successful_sign_ins_are_limited_per_username_even_in_parallel(db_url: str) -> None:
    async with _app(db_url, hash_queue=64, **HOURLY) as app, _client(app) as http:
        await new_account(http, "Ann", "ann")
        # From four addresses (a try in flight holds a failure of its address too: 5 at once).
        clients = [_client(app, f"198.51.100.{i + 10}") for i in range(4)]
        got = await asyncio.gather(*(_sign_in(clients[i % 4], "ann") for i in range(16)))
        counts = Counter(r.status_code for r in got)
        assert counts == {201: 10, 429: 6}, counts  # SPITE_LIMIT_USER_SIGNINS: 10/minute
        refused = next(r for r in got if r.status_code == 429)
        assert int(refused.headers["Retry-After"]) >= 1
        async with _client(app, "198.51.100.2") as other:  # the username, from anywhere
            assert (await _sign_in(other, "ann")).status_code == 429
        for c in clients:
            await c.aclose()


async def test_successful_sign_ins_are_limited_per_address(db_url: str) -> None:
    async with _app(db_url, hash_queue=64, **{**HOURLY, "limit_signins": "4/hour"}) as app, _client(app) as http:
        for name in ("ann", "bob", "cyd"):
            await new_account(http, name.title(), name)
        got = [(await _sign_in(http, name)).status_code for name in ("ann", "bob", "cyd", "ann", "bob")]
        assert got == [201, 201, 201, 201, 429]


async def test_hashes_beyond_the_queue_are_refused_at_once(db_url: str) -> None:
    """One worker, two waiting: while the worker is busy, of 12 parallel tries (12 usernames, 12
    addresses: no sign-in limit is near) two wait for it and ten are refused at once, 429 "busy"
    with Retry-After 1; the two waiting are hashed once the worker is free."""
    async with _app(db_url, hash_workers=1, hash_queue=2) as app:
        gate = services(app).hash_gate
        free = threading.Event()
        held = asyncio.ensure_future(gate._run(free.wait))  # the one worker, busy until `free`
        while not gate.slots.locked():
            await asyncio.sleep(0)
        clients = [_client(app, f"198.51.100.{i + 10}") for i in range(12)]
        tries = [asyncio.ensure_future(_sign_in(c, f"nobody{i}", "guessing!")) for i, c in enumerate(clients)]
        pending: set[asyncio.Future[httpx.Response]] = set(tries)
        while len(pending) > 2:  # the two in the queue cannot finish while the worker is held
            _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        busy = [t.result() for t in tries if t.done()]
        assert [r.status_code for r in busy] == [429] * 10
        assert all(r.headers["Retry-After"] == "1" and "busy" in r.json()["message"] for r in busy)
        free.set()
        await held
        assert [(await t).status_code for t in pending] == [401, 401]
        for c in clients:
            await c.aclose()


async def test_no_database_connection_is_held_across_a_hash(db_url: str) -> None:
    """SQLite's pool has one connection: 24 accounts signing in at once, with one hash worker
    and a 2 s wait for a connection at most, all get in, and the site answers meanwhile (each
    hash waits its turn without a connection)."""
    # SQLite: 2 s (the instance's heartbeats share the one connection too); PostgreSQL's pool
    # grows to 15 connections, each a new connection to set up: 3 s there. Holding the
    # connection across each hash, 24 sign-ins took 24 hashes' time for the last one: 503s.
    wait = 2.0 if db_url.startswith("sqlite") else 3.0
    async with _app(db_url, hash_workers=1, hash_queue=64, db_timeout=wait) as app, _client(app) as http:
        people = [await new_account(http, f"P{i}", f"p{i:02}") for i in range(24)]
        clients = [_client(app, f"198.51.100.{i + 10}") for i in range(24)]
        flood = [asyncio.ensure_future(_sign_in(c, f"p{i:02}")) for i, c in enumerate(clients)]
        await asyncio.sleep(0.05)
        me = await http.get("/api/players/me", headers=people[0].auth)
        got = await asyncio.gather(*flood)
        for c in clients:
            await c.aclose()
        assert me.status_code == 200
        assert Counter(r.status_code for r in got) == {201: 24}


async def test_live_tokens_per_player_are_capped(db_url: str) -> None:
    async with _app(db_url, max_tokens_per_player=3) as app, _client(app) as http:
        ann = await new_account(http, "Ann", "ann")
        tokens = [ann.token] + [(await _sign_in(http, "ann")).json()["token"] for _ in range(4)]
        works = [(await http.get("/api/players/me", headers=_auth(t))).status_code for t in tokens]
        assert works == [401, 401, 200, 200, 200]  # the least recently used ended
        listed = (await http.get("/api/sessions", headers=_auth(tokens[-1]))).json()["items"]
        assert len(listed) == 3 and [s["current"] for s in listed].count(True) == 1


async def test_a_stranger_cannot_lock_the_owner_out(db_url: str) -> None:
    """Many wrong passwords from one address and from twenty more: their addresses are refused
    and slowed, the owner (from an address without failures) signs in and is told of them."""
    async with _app(db_url, signin_failure_delay=0.3, hash_queue=64, **HOURLY) as app, \
            _client(app, "192.0.2.1") as owner:
        ann = await new_account(owner, "Ann", "ann")
        async with _client(app, "203.0.113.1") as attacker:
            tries = [(await _sign_in(attacker, "ann", "guessing!")).status_code for _ in range(8)]
            assert tries == [401] * 5 + [429] * 3
            for i in range(20):
                async with _client(app, f"203.0.113.{i + 10}") as helper:
                    assert (await _sign_in(helper, "ann", "guessing!")).status_code == 401
            assert (await _sign_in(attacker, "ann")).status_code == 429  # even with the right one
        async with _client(app, "203.0.113.10") as helper:  # failed here lately, under attack
            assert (await _sign_in(helper, "ann")).status_code == 429
        async with _client(app, "203.0.113.99") as fresh:
            started = time.monotonic()
            assert (await _sign_in(fresh, "ann", "guessing!")).status_code == 401
            assert time.monotonic() - started >= 0.3  # slowed while under attack
        r = await _sign_in(owner, "ann")
        assert r.status_code == 201, r.text
        me = (await owner.get("/api/players/me", headers=_auth(r.json()["token"]))).json()
        assert me["failed_sign_ins"]["count"] == 26 and me["failed_sign_ins"]["last_at"]
        guest = await owner.post("/api/players", json={"name": "G"})
        assert (await owner.get("/api/players/me", headers=_auth(guest.json()["token"]))).json()[
            "failed_sign_ins"] is None
        assert ann.id == me["id"]


async def test_changing_the_password_ends_every_other_device(db_url: str) -> None:
    async with _app(db_url) as app, _client(app) as http:
        ann = await new_account(http, "Ann", "ann")
        phone = (await _sign_in(http, "ann")).json()["token"]
        body = {"old_password": "not it at all", "new_password": "a new password"}
        r = await http.put("/api/account/password", json=body, headers=ann.auth)
        assert r.status_code == 403
        assert (await http.put("/api/account/password", json={**body, "old_password": PASSWORD, "new_password": "x"},
                               headers=ann.auth)).status_code == 422
        r = await http.put("/api/account/password", json={**body, "old_password": PASSWORD}, headers=ann.auth)
        assert r.status_code == 204, r.text
        assert (await http.get("/api/players/me", headers=_auth(phone))).status_code == 401
        me = (await http.get("/api/players/me", headers=ann.auth)).json()
        assert me["username"] == "ann" and me["failed_sign_ins"]["count"] == 0  # zeroed with the new password
        assert (await _sign_in(http, "ann")).status_code == 401
        assert (await _sign_in(http, "ann", "a new password")).status_code == 201
        guest = (await http.post("/api/players", json={"name": "G"})).json()
        assert (await http.put("/api/account/password", json=body, headers=_auth(guest["token"]))).status_code == 409


async def test_signing_out_everywhere_and_one_device(db_url: str) -> None:
    async with _app(db_url) as app, _client(app) as http:
        ann = await new_account(http, "Ann", "ann")
        others = [(await _sign_in(http, "ann")).json()["token"] for _ in range(3)]
        listed = (await http.get("/api/sessions", headers=ann.auth)).json()["items"]
        assert len(listed) == 4 and sum(s["current"] for s in listed) == 1
        victim = next(s for s in listed if not s["current"])
        assert (await http.delete(f"/api/sessions/{victim['id']}", headers=ann.auth)).status_code == 204
        assert (await http.delete(f"/api/sessions/{victim['id']}", headers=ann.auth)).status_code == 404
        assert (await http.delete("/api/sessions/zz%00", headers=ann.auth)).status_code == 422
        assert [(await http.get("/api/players/me", headers=_auth(t))).status_code for t in others].count(401) == 1
        bob: Person = await new_account(http, "Bob", "bob")  # another player's session is not yours to end
        bobs = (await http.get("/api/sessions", headers=bob.auth)).json()["items"][0]["id"]
        assert (await http.delete(f"/api/sessions/{bobs}", headers=ann.auth)).status_code == 404
        assert (await http.delete("/api/sessions", headers=ann.auth)).status_code == 204
        for t in [ann.token, *others]:
            assert (await http.get("/api/players/me", headers=_auth(t))).status_code == 401
        assert (await http.get("/api/players/me", headers=bob.auth)).status_code == 200


async def test_each_device_is_named_by_its_browser_and_system(db_url: str) -> None:
    phone_agent = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                   "Chrome/131.0.0.0 Mobile Safari/537.36")
    laptop_agent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
    async with _app(db_url) as app, _client(app) as http:
        r = await http.post("/api/players", json={"name": "Ann"}, headers={"User-Agent": laptop_agent})
        ann = Person(r.json()["id"], "Ann", r.json()["token"])
        assert (await http.post("/api/account", json={"username": "ann", "password": "correct horse"},
                                headers=ann.auth)).status_code == 201
        for agent in (phone_agent, "curl/8.5.0", "x" * 2000):
            r = await http.post("/api/sessions", json={"username": "ann", "password": "correct horse"},
                                headers={"User-Agent": agent})
            assert r.status_code == 201, r.text
        listed = (await http.get("/api/sessions", headers=ann.auth)).json()["items"]
        named = sorted(((s["browser"], s["system"]) for s in listed), key=str)
        assert named == sorted([("Firefox", "Windows"), ("Chrome", "Android"), (None, None), (None, None)], key=str)
        assert next(s for s in listed if s["current"])["browser"] == "Firefox"
