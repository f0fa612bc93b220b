"""Rooms over REST, the option catalogue, pages, health and request limits."""

from __future__ import annotations

import re
from typing import Any

import httpx

from app.rooms.core.config import CODE_ALPHABET
from app.web.app import create_app

from .helpers import make_settings


async def _player(api: httpx.AsyncClient, name: str = "Host") -> dict[str, str]:
    body = (await api.post("/api/players", json={"name": name})).json()
    return {"Authorization": f"Bearer {body['token']}", "id": body["id"]}


async def test_create_room(api: httpx.AsyncClient) -> None:
    host = await _player(api)
    auth = {"Authorization": host["Authorization"]}
    r = await api.post("/api/rooms", json={"preset": "pagat", "options": {"payoff_size": 13, "players": 3},
                                           "public": True, "turn_seconds": 45}, headers=auth)
    assert r.status_code == 201, r.text
    room = r.json()
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{10}}", room["code"])
    assert room["invite_url"] == f"http://127.0.0.1:8000/r/{room['code']}"  # SPITE_PUBLIC_URL's default
    assert room["host"] == host["id"] and room["status"] == "waiting" and room["seat_count"] == 3
    assert room["options"]["centre_stacks"] == 3 and room["options"]["payoff_size"] == 13
    assert room["turn_seconds"] == 45 and room["hints"] is True and len(room["seats"]) == 3
    one = (await api.get(f"/api/rooms/{room['code'].lower()}")).json()
    assert one["code"] == room["code"]
    listed = (await api.get("/api/rooms")).json()["items"]
    assert [x["code"] for x in listed] == [room["code"]]
    assert listed[0]["host_name"] == "Host" and listed[0]["seats_taken"] == 0 and room["host_name"] == "Host"
    private = (await api.post("/api/rooms", json={}, headers=auth)).json()
    assert private["preset"] == "standard" and private["seat_count"] == 2
    assert private["code"] not in [x["code"] for x in (await api.get("/api/rooms")).json()["items"]]
    assert (await api.get("/api/rooms/NOPE")).status_code == 404


async def test_room_refusals(api: httpx.AsyncClient) -> None:
    host = await _player(api)
    auth = {"Authorization": host["Authorization"]}

    async def refused(body: Any, status: int) -> dict[str, Any]:
        r = await api.post("/api/rooms", json=body, headers=auth)
        assert r.status_code == status, (body, r.text)
        return r.json()  # type: ignore[no-any-return]

    assert (await api.post("/api/rooms", json={})).status_code == 401
    err = await refused({"seats": 3, "options": {"players": 4}}, 422)
    assert "seats" in err["message"]
    err = await refused({"options": {"payoff_size": 40}}, 422)
    assert err["option"] == "payoff_size" and "payoff_size" in err["message"]
    err = await refused({"seats": 3, "options": {"teams": "pairs"}}, 422)
    assert err["option"] == "teams"
    err = await refused({"options": {"decks": 1, "payoff_size": 30}, "seats": 6}, 422)
    assert err["option"] == "decks"
    err = await refused({"options": {"colour": "red"}}, 422)
    assert err["option"] == "colour"
    err = await refused({"preset": "poker"}, 422)
    assert err["option"] == "preset"
    for body in ({"seats": 9}, {"seats": "2"}, {"public": "yes"}, {"options": [1]}, {"turn_seconds": 0},
                 {"turn_seconds": 10**9}, {"seed": ""}, {"seats": True}):
        await refused(body, 422)
    r = await api.post("/api/rooms", content=b'{"seats": 2', headers={**auth, "Content-Type": "application/json"})
    assert r.status_code == 422
    r = await api.post("/api/rooms", content=b"x" * 70000, headers={**auth, "Content-Type": "application/json"})
    assert r.status_code == 413


async def test_seeds_only_when_allowed(db_url: str) -> None:
    app = create_app(make_settings(db_url, seeded_rooms=False))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as api:
            host = await _player(api)
            auth = {"Authorization": host["Authorization"]}
            r = await api.post("/api/rooms", json={"seed": "abc"}, headers=auth)
            assert r.status_code == 403 and "seed" in r.json()["message"]
            assert (await api.post("/api/rooms", json={"seed": None}, headers=auth)).status_code == 201


async def test_rooms_per_player(db_url: str) -> None:
    app = create_app(make_settings(db_url, max_rooms_per_player=2, public_url="https://play.example/"))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as api:
            host = await _player(api)
            auth = {"Authorization": host["Authorization"]}
            first = (await api.post("/api/rooms", json={}, headers={**auth, "Host": "evil.example"})).json()
            assert first["invite_url"] == f"https://play.example/r/{first['code']}"  # not from the Host header
            assert (await api.post("/api/rooms", json={}, headers=auth)).status_code == 201
            r = await api.post("/api/rooms", json={}, headers=auth)
            assert r.status_code == 429 and r.json()["message"]


async def test_options_catalogue(api: httpx.AsyncClient) -> None:
    body = (await api.get("/api/options")).json()
    assert set(body["presets"]) >= {"standard", "pagat", "hoyle", "wikipedia", "short", "cat_and_mouse", "book",
                                    "massachusetts"}
    assert body["presets"]["short"]["options"]["payoff_size"] == 13 and body["presets"]["short"]["help"]
    assert body["options"]["payoff_size"]["default"] == 20 and body["options"]["payoff_size"]["help"]
    assert body["options"]["teams"]["choices"] == ["none", "pairs"]
    assert body["options"]["match_target"]["suggested"] == [None, 25, 50, 100]
    assert "easy" in body["bot_levels"] and body["turn_seconds"]["min"] >= 1


async def test_pages_and_health(api: httpx.AsyncClient) -> None:
    health = (await api.get("/healthz")).json()
    assert health["ok"] is True and isinstance(health["instance"], str) and health["instance"]
    index = await api.get("/")
    assert index.status_code == 200 and "<html" in index.text.lower()
    invite = await api.get("/r/ABCDEFGHJK")
    # the same page, preloading the room's modules rather than the home page's (test_static.py)
    assert invite.status_code == 200 and invite.text.split("<body")[1] == index.text.split("<body")[1]
    assert 'href="/room.js"' in invite.text and 'href="/room.js"' not in index.text
    assert (await api.get("/no/such/page.js")).status_code == 404


async def test_random_bodies_never_break_the_server(api: httpx.AsyncClient) -> None:
    import json
    import random

    from .helpers import random_json

    host = await _player(api)
    auth = {"Authorization": host["Authorization"], "Content-Type": "application/json"}
    rng = random.Random(1234)
    seen = set()
    for _ in range(300):
        body = random_json(rng)
        for path in ("/api/rooms", "/api/players"):
            r = await api.post(path, content=json.dumps(body), headers=auth)
            assert r.status_code < 500, (path, body, r.text)
            assert r.status_code in (201, 403, 422, 429), (path, body, r.status_code)
            assert "message" in r.json() or r.status_code == 201
            seen.add(r.status_code)
    assert {201, 422} <= seen


async def test_the_catalogue_speaks_a_players_words(api: httpx.AsyncClient) -> None:
    """Every option, choice and preset has a label a person reads; no help text quotes a code name."""
    body = (await api.get("/api/options")).json()
    assert body["options"]["payoff_size"]["label"] == "Pay-off pile size"
    assert body["presets"]["cat_and_mouse"]["label"] == "Cat and Mouse"
    codes = {str(c) for o in body["options"].values() for c in o.get("choices", []) if "_" in str(c)}
    codes |= {name for name in body["options"] if "_" in name} | {"'pairs'", "'unlimited'"}
    for name, o in body["options"].items():
        assert o["label"] and "_" not in o["label"], name
        for c in o.get("choices", []):
            assert o["choice_labels"][str(c)], (name, c)
        assert not [code for code in codes if code in o["help"]], (name, o["help"])
    for name, p in body["presets"].items():
        assert p["label"] and "_" not in p["label"], name
