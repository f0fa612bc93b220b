"""REST responses: every JSON route declares its response model, and the JSON each route sends
is exactly what the room service and the history store return (plus the links a REST room
carries), so a response model that dropped, added or retyped a field would show here.

The expected side never goes through a response model: it is computed in the test from the
same store and room functions the routes call (on a connection of the test's own), or taken
from what the room socket sent, and encoded as the routes encoded plain dicts before they had
models (`jsonable_encoder`). Values are compared as canonical JSON text, so `1` and `1.0`, or
`1` and `true`, differ.
"""

from __future__ import annotations

import json
import random
import types
import typing
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi.datastructures import DefaultPlaceholder
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from typing_extensions import is_typeddict

from app.rooms.core.config import catalog
from app.rooms.shell import directory
from app.rooms.shell.replay import replay
from app.rooms.shell.sql_storage import SqlRooms
from app.store.db import make_engine, make_sessions
from app.store.repositories import history
from app.store.tables import utcnow
from app.web.app import create_app
from app.web.http.services import services

from .helpers import ServerThread, Sock, make_settings, new_person, new_room, play_to_end, seat_everyone

# Routes that send no JSON body: the home and invite pages (index.html), Prometheus text, a
# language catalogue (a static file), signing out, changing the password, and the social
# changes that answer 204 (friends, blocks, declining or withdrawing an invitation, leaving the
# quick-match queue).
NOT_JSON = {"/", "/r/{code}", "/t/{code}", "/metrics", "/i18n/{lang}.json", "/api/sessions/current",
            "/api/sessions/{session_id}", "/api/account/password", "/api/players/me/friends/{player_id}",
            "/api/players/me/blocks/{player_id}",
            "/api/invitations/{inv_id}", "/api/invitations/{inv_id}/decline",
            "/api/email/confirm", "/api/email/unsubscribe", "/api/email/never"}  # pages a mail links to (HTML)


def _same(got: Any, raw: Any) -> None:
    """`got` (a response's JSON) is `raw` as the routes sent plain dicts: same keys, values, types."""
    want = jsonable_encoder(raw)
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def _response_class(route: APIRoute) -> type:
    rc = route.response_class
    return rc.value if isinstance(rc, DefaultPlaceholder) else rc


def _models(model: Any) -> bool:
    """`model` is a pydantic model or a TypedDict (the room layer's, such as the room object),
    or a union of them."""
    if isinstance(model, type):
        return issubclass(model, BaseModel) or is_typeddict(model)
    args = typing.get_args(model)
    return typing.get_origin(model) in (typing.Union, types.UnionType) and all(_models(a) for a in args)


def test_every_json_route_declares_a_response_model(tmp_path: Any) -> None:
    app = create_app(make_settings(f"sqlite:///{tmp_path}/routes.db"))
    routes = [c.original_route for c in iter_route_contexts(app.routes)]
    api = [r for r in routes if isinstance(r, APIRoute)]
    json_routes = [r for r in api if issubclass(_response_class(r), JSONResponse)]
    assert {r.path for r in api} - {r.path for r in json_routes} == NOT_JSON
    assert all(not r.include_in_schema or r.status_code == 204 for r in api if r.path in NOT_JSON)
    assert len(json_routes) >= 13  # players 6, rooms 3, matches 2, health and options
    # FastAPI takes a route's return annotation (such as `dict[str, Any]`) as its model when
    # none is given: only a pydantic model or a TypedDict (or a union of them) counts.
    missing = sorted(f"{sorted(r.methods or ())} {r.path}" for r in json_routes if not _models(r.response_model))
    assert missing == [], f"routes without a response model: {missing}"
    schema = app.openapi()
    for r in json_routes:
        for method in r.methods or ():
            ok = schema["paths"][r.path][method.lower()]["responses"]
            body = ok[str(r.status_code or 200)]["content"]["application/json"]["schema"]
            named = [body] if "$ref" in body else body.get("anyOf", [])
            assert named and all("$ref" in x for x in named), (r.path, body)  # a model, not `{}` or `object`


@pytest.fixture
async def reader(db_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Sessions of the test's own on the server's database (reads only)."""
    engine = make_engine(db_url)
    try:
        yield make_sessions(engine)
    finally:
        await engine.dispose()


def _links(room: dict[str, Any]) -> dict[str, Any]:
    base = "http://127.0.0.1:8000"  # SPITE_PUBLIC_URL's default, whichever port the test server has
    return {**room, "invite_url": f"{base}/r/{room['code']}", "socket_path": f"/ws/rooms/{room['code']}"}


def _last_room(sock: Sock) -> dict[str, Any]:
    rooms = [m["room"] for m in sock.messages if m["type"] in ("room", "welcome")]
    return rooms[-1]


async def test_each_route_sends_what_the_service_returns(server: ServerThread, http: httpx.AsyncClient,
                                                         reader: async_sessionmaker[AsyncSession]) -> None:
    base = server.base

    # Players (already modelled): creation, me, rename, profile.
    r = await http.post("/api/players", json={"name": "Ann"})
    ann_raw = r.json()
    assert r.status_code == 201 and set(ann_raw) == {"id", "name", "token"}
    ann = await new_person(http, "Ann")
    bob = await new_person(http, "Bob")
    _same((await http.get("/api/players/me", headers=ann.auth)).json(),
          {"id": ann.id, "name": "Ann", "account": False, "rating": None, "username": None, "failed_sign_ins": None,
           "lang": None, "quiet_requests": False})
    _same((await http.patch("/api/players/me", json={"name": "Annie"}, headers=ann.auth)).json(),
          {"id": ann.id, "name": "Annie", "lang": None, "quiet_requests": False})
    _same((await http.get(f"/api/players/{ann.id}")).json(), {"id": ann.id, "name": "Annie", "account": False,
                                                               "rating": None})

    # A public room, fresh (nobody connected): the creation answer, the list and the room itself
    # are the room as the directory reads it from the database, with its links.
    lobby = await new_room(http, bob, preset="pagat", options={"payoff_size": 13}, seats=3, public=True,
                           turn_seconds=45, seed="lobby")
    listed = [_links(dict(x)) for x in await directory.public_rooms(SqlRooms(reader), utcnow())]
    assert [x["code"] for x in listed] == [lobby["code"]]
    _same(lobby, listed[0])
    _same((await http.get("/api/rooms")).json(), {"items": listed})
    _same((await http.get(f"/api/rooms/{lobby['code']}")).json(), listed[0])

    # A room being played: the REST room is the socket's room plus the links.
    room = await new_room(http, ann, preset="short", options={"payoff_size": 5}, seats=2, seed="wire")
    a = await Sock.open(base, room["code"], ann)
    b = await Sock.open(base, room["code"], bob)
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    first = await a.state_at(0)
    match_id = first["match_id"]
    await a.wait(lambda m: m["type"] == "room" and m["room"]["status"] == "playing")
    await b.state_at(0, match_id=match_id)
    _same((await http.get(f"/api/rooms/{room['code']}")).json(), _links(_last_room(a)))

    # The match while it is played (seeds hidden, no winners, no end).
    async with reader() as s:
        _same((await http.get(f"/api/matches/{match_id}")).json(), await history.match_detail(s, match_id))
    assert (await http.get(f"/api/matches/{match_id}/replay")).status_code == 409
    async with reader() as s:
        _same((await http.get(f"/api/players/{ann.id}/stats")).json(),
              {"name": "Annie", **await history.player_stats(s, ann.id)})

    last = await play_to_end([a, b], random.Random(1), match_id)
    assert last["view"]["status"] == "match_over"
    await a.wait(lambda m: m["type"] == "room" and m["room"]["status"] == "over")
    _same((await http.get(f"/api/rooms/{room['code']}")).json(), _links(_last_room(a)))

    # A second match, so that history has two pages.
    await a.send({"type": "rematch"})  # an offer, which Bob accepts
    await b.wait(lambda m: m["type"] == "room" and (m["room"].get("rematch") or {}).get("by") == 0)
    await b.send({"type": "rematch"})
    second = await a.wait(lambda m: m["type"] == "state" and m["match_id"] != match_id)
    await b.state_at(0, match_id=second["match_id"])
    _same((await http.get(f"/api/rooms/{room['code']}")).json(), _links(_last_room(a)))

    async with reader() as s:
        _same((await http.get(f"/api/matches/{match_id}")).json(), await history.match_detail(s, match_id))
        for who, name in ((ann.id, "Annie"), (bob.id, "Bob")):
            _same((await http.get(f"/api/players/{who}/stats")).json(),
                  {"name": name, **await history.player_stats(s, who)})
        items, nxt = await history.player_matches(s, ann.id, None, 1)
        assert nxt is not None and len(items) == 1 and items[0]["won"] is None  # the rematch, being played
        _same((await http.get(f"/api/players/{ann.id}/matches", params={"limit": 1})).json(),
              {"items": items, "next": nxt})
        items2, nxt2 = await history.player_matches(s, ann.id, nxt, 1)
        assert nxt2 is None and len(items2) == 1 and isinstance(items2[0]["won"], bool)
        _same((await http.get(f"/api/players/{ann.id}/matches", params={"limit": 1, "cursor": nxt})).json(),
              {"items": items2, "next": None})

    # The replay of the finished match, whole and at a few versions (the table face up).
    whole = await replay(reader, match_id, None)
    assert whole is not None
    assert whole["started_at"] == (await http.get(f"/api/matches/{match_id}")).json()["started_at"]  # dated alike
    _same((await http.get(f"/api/matches/{match_id}/replay")).json(), whole)
    for at in (0, 1, whole["total"] // 2, whole["total"]):
        _same((await http.get(f"/api/matches/{match_id}/replay", params={"at": at})).json(),
              await replay(reader, match_id, at))

    # The option catalogue and health.
    settings = services(server.app).settings
    _same((await http.get("/api/options")).json(),
          {**catalog(), "turn_seconds": {"min": settings.min_turn_seconds, "max": settings.max_turn_seconds,
                                         "default": None}, "hints": {"default": True},
           "rated_turn_seconds": {"min": max(settings.min_turn_seconds, settings.rated_min_turn_seconds),
                                  "max": settings.max_turn_seconds, "default": 60},
           "turn_based_seconds": {"min": settings.turn_based_min_seconds, "max": 14 * 86_400,
                                  "default": max(settings.turn_based_min_seconds, 86_400)},
           "away": {"stand_in_seconds": settings.absent_grace, "missed_turns": settings.missed_turns}})
    _same((await http.get("/healthz")).json(), {"ok": True, "instance": services(server.app).rooms.instance})
    for sock in (a, b):
        await sock.close()
