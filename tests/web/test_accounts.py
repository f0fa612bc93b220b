"""Accounts: a guest claims a username and password and keeps its id and history; signing in
on another device gives a new token for the same player; wrong credentials are one 401;
failed sign-ins are limited per username and per address (at their shipped values)."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.platform.settings import Settings
from app.store.db import make_engine, make_sessions
from app.store.tables import Player

from .helpers import ServerThread, Sock, new_account, new_person, new_room, play_to_end, seat_everyone

PASSWORD = "correct horse"


async def _claim(http: httpx.AsyncClient, token: str, username: str, password: str = PASSWORD) -> httpx.Response:
    return await http.post("/api/account", json={"username": username, "password": password},
                           headers={"Authorization": f"Bearer {token}"})


async def _sign_in(http: httpx.AsyncClient, username: str, password: str = PASSWORD) -> httpx.Response:
    return await http.post("/api/sessions", json={"username": username, "password": password})


async def test_claiming_keeps_the_id_and_the_history(server: ServerThread, http: httpx.AsyncClient,
                                                     db_url: str) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    code = (await new_room(http, ann, preset="short", options={"payoff_size": 5}, seed="claim"))["code"]
    socks = [await Sock.open(server.base, code, p) for p in (ann, bob)]
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    await play_to_end(socks, random.Random(1))
    before = (await http.get(f"/api/players/{ann.id}/matches")).json()["items"]
    assert len(before) == 1
    r = await _claim(http, ann.token, "Ann_the_First")
    assert r.status_code == 201, r.text
    assert r.json() == {"id": ann.id, "name": "Ann", "username": "Ann_the_First"}
    me = (await http.get("/api/players/me", headers=ann.auth)).json()
    assert me["id"] == ann.id and me["username"] == "Ann_the_First" and me["account"] is True
    # A second device: a new token, the same player and history.
    r = await _sign_in(http, "ann_THE_first")
    assert r.status_code == 201, r.text
    second = r.json()
    assert second["id"] == ann.id and second["name"] == "Ann" and second["token"] != ann.token
    auth2 = {"Authorization": f"Bearer {second['token']}"}
    assert (await http.get("/api/players/me", headers=auth2)).json()["id"] == ann.id
    after = (await http.get(f"/api/players/{ann.id}/matches", headers=auth2)).json()["items"]
    assert [m["id"] for m in after] == [m["id"] for m in before]
    assert (await http.get(f"/api/players/{ann.id}")).json()["account"] is True
    assert (await http.get(f"/api/players/{bob.id}")).json() == {"id": bob.id, "name": "Bob", "account": False,
                                                                  "rating": None}
    # Signing one device out leaves the other signed in.
    assert (await http.delete("/api/sessions/current", headers=auth2)).status_code == 204
    assert (await http.get("/api/players/me", headers=auth2)).status_code == 401
    assert (await http.get("/api/players/me", headers=ann.auth)).status_code == 200
    # Only an argon2id hash is stored.
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            row = (await s.execute(select(Player).where(Player.id == ann.id))).scalar_one()
    finally:
        await engine.dispose()
    assert row.password_hash is not None and row.password_hash.startswith("$argon2id$")
    assert PASSWORD not in row.password_hash


async def test_usernames_are_unique_without_regard_to_case(api: httpx.AsyncClient) -> None:
    ann, bob = await new_person(api, "Ann"), await new_person(api, "Bob")
    assert (await _claim(api, ann.token, "Spite-Queen")).status_code == 201
    r = await _claim(api, bob.token, "spite-QUEEN")
    assert r.status_code == 409 and "taken" in r.json()["message"]
    assert (await _claim(api, ann.token, "another_one")).status_code == 409  # one account per player
    assert (await api.get("/api/players/me", headers=bob.auth)).json()["username"] is None
    for bad in ("ab", "x" * 25, "has space", "émile", "semi;colon", ""):
        r = await _claim(api, bob.token, bad)
        assert r.status_code == 422, (bad, r.text)
    assert (await _claim(api, bob.token, "bobby", "short")).status_code == 422
    assert (await _claim(api, bob.token, "bobby", "x" * 257)).status_code == 422
    assert (await api.post("/api/account", json={"username": "bobby", "password": PASSWORD})).status_code == 401
    assert (await _claim(api, bob.token, "bobby")).status_code == 201


async def test_wrong_username_and_wrong_password_are_one_401(api: httpx.AsyncClient,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    await new_account(api, "Ann", "ann", PASSWORD)
    unknown = await _sign_in(api, "nobody", PASSWORD)
    wrong = await _sign_in(api, "ann", "not the password")
    malformed = await _sign_in(api, "a b", PASSWORD)
    assert unknown.status_code == wrong.status_code == malformed.status_code == 401
    assert unknown.json() == wrong.json() == malformed.json()
    assert (await _sign_in(api, "ANN", PASSWORD)).status_code == 201
    assert (await api.post("/api/sessions", json={"username": "ann"})).status_code == 422
    assert (await api.post("/api/sessions", json={"username": "ann", "password": 12345678})).status_code == 422
    assert PASSWORD not in caplog.text and "not the password" not in caplog.text


async def test_failed_sign_ins_are_limited_per_username(api: httpx.AsyncClient) -> None:
    await new_account(api, "Ann", "ann")
    await new_account(api, "Bob", "bob")
    for _ in range(5):  # SPITE_LIMIT_SIGNIN_USER_FAILURES: 5/minute
        assert (await _sign_in(api, "ann", "guessing!")).status_code == 401
    r = await _sign_in(api, "ANN", PASSWORD)  # even the right password, in any case
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert (await _sign_in(api, "bob")).status_code == 201  # other usernames are not locked


async def test_failed_sign_ins_are_limited_per_address(api: httpx.AsyncClient) -> None:
    await new_account(api, "Ann", "ann")
    for i in range(20):  # SPITE_LIMIT_SIGNIN_FAILURES: 20/minute, over many usernames
        assert (await _sign_in(api, f"user{i}", "guessing!")).status_code == 401
    r = await _sign_in(api, "ann")
    assert r.status_code == 429 and "Retry-After" in r.headers


async def test_a_revoked_token_closes_its_open_socket(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_account(http, "Ann", "ann")
    phone = (await _sign_in(http, "ann")).json()
    room = await new_room(http, ann)
    laptop_sock = await Sock.open(server.base, room["code"], ann)
    phone_person: Any = type(ann)(phone["id"], phone["name"], phone["token"])
    phone_sock = await Sock.open(server.base, room["code"], phone_person)
    assert phone_sock.messages[0]["you"]["account"] is True
    r = await http.delete("/api/sessions/current", headers=phone_person.auth)
    assert r.status_code == 204
    for _ in range(40):
        if phone_sock.closed:
            break
        await asyncio.sleep(0.05)
    assert phone_sock.closed is not None and phone_sock.closed[0] == 4401
    assert laptop_sock.closed is None
    pong = await laptop_sock.request({"type": "ping"}, lambda m: m["type"] == "pong")
    assert pong["type"] == "pong"


async def test_accounts_claimed_are_limited_per_address(db_url: str) -> None:
    from app.web.app import create_app

    from .helpers import make_settings

    shipped = Settings.model_fields["limit_new_accounts"].default
    assert shipped == "10/minute;100/day"
    app = create_app(make_settings(db_url, limit_new_accounts=shipped))
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver") as api:
        guests = [await new_person(api, f"G{i}") for i in range(11)]
        for i, g in enumerate(guests[:10]):
            assert (await _claim(api, g.token, f"guest{i}")).status_code == 201
        r = await _claim(api, guests[10].token, "guest10")
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert (await api.get("/api/players/me", headers=guests[10].auth)).json()["username"] is None
