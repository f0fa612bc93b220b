"""What a stranger could do to the room socket: open many sockets at once, send frames nested
past any parser's patience, flood with moves, churn joins and leaves in a crowded room. Each
gets a clear answer and changes nothing for anyone else."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
import pytest

from .helpers import ServerThread, Sock, match_with_bot, new_person, new_room


async def test_sockets_opened_at_the_same_moment_respect_the_cap(start_server: Any) -> None:
    server: ServerThread = start_server(max_sockets_per_player=3)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
    socks = await asyncio.gather(*(Sock.open(server.base, room["code"], ann, hello=False) for _ in range(30)))
    await asyncio.gather(*(s.send({"type": "hello", "token": ann.token}) for s in socks))
    for _ in range(200):
        if sum(1 for s in socks if s.closed) >= 27 and all(
                s.closed or any(m["type"] == "welcome" for m in s.messages) for s in socks):
            break
        await asyncio.sleep(0.05)
    welcomed = [s for s in socks if any(m["type"] == "welcome" for m in s.messages) and not s.closed]
    refused = [s for s in socks if s.closed and s.closed[0] == 4429]
    assert len(welcomed) == 3 and len(refused) == 27
    for s in welcomed:  # the ones let in are served
        assert (await s.request({"type": "ping"}, lambda m: m["type"] == "pong"))["type"] == "pong"
    for s in welcomed:
        await s.close()
    for _ in range(100):  # closing frees the places, once the server has noticed (at most 10 s)
        later = await Sock.open(server.base, room["code"], ann, hello=False)
        await later.send({"type": "hello", "token": ann.token})
        with contextlib.suppress(AssertionError):
            await later.wait(lambda m: m["type"] == "welcome")
        if later.closed is None and later.find(lambda m: m["type"] == "welcome"):
            break
        await asyncio.sleep(0.1)
    assert later.closed is None and later.find(lambda m: m["type"] == "welcome")


async def test_a_frame_nested_past_any_limit_is_a_bad_message(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    room = await new_room(http, ann)
    a = await Sock.open(server.base, room["code"], ann)
    for depth in (1100, 1300):  # within the 8 KiB frame limit, past every JSON parser's depth
        deep = '{"type": "move", "id": "x", "move": ' + '{"a":' * depth + "1" + "}" * depth + "}"
        lists = '{"type": "chat", "text": "hi", "x": ' + "[" * depth + "]" * depth + "}"
        for text in (deep, lists):
            assert len(text) < 8192
            err = await a.error(text)  # type: ignore[arg-type]
            assert err["code"] == "bad_message", err
    assert (await a.request({"type": "ping"}, lambda m: m["type"] == "pong"))["type"] == "pong"


async def test_a_rate_limited_move_names_its_id(start_server: Any) -> None:
    server: ServerThread = start_server(rate_per_second=2.0, rate_burst=2, rate_strikes=50)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
    a = await Sock.open(server.base, room["code"], ann)
    start = len(a.messages)
    for i in range(8):
        await a.send({"type": "move", "id": f"m{i}", "move": {"kind": "end_turn"}})
    await a.wait(lambda m: m["type"] == "error" and m["code"] == "rate_limited", start=start)
    await asyncio.sleep(0.2)
    limited = [m for m in a.messages[start:] if m["type"] == "error" and m["code"] == "rate_limited"]
    assert limited and all(m["id"] is not None and m["id"].startswith("m") for m in limited)


async def test_joins_and_leaves_reach_a_crowded_room_as_a_few_updates(server: ServerThread,
                                                                     http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    room = await new_room(http, ann)
    watchers = [await Sock.open(server.base, room["code"], await new_person(http, f"W{i}")) for i in range(10)]
    await asyncio.sleep(0.6)  # their own joins are shown
    eve = await new_person(http, "Eve")
    start = [len(w.messages) for w in watchers]
    for _ in range(6):  # one guest reconnecting a handful of sockets in a loop
        socks = await asyncio.gather(*(Sock.open(server.base, room["code"], eve) for _ in range(4)))
        await asyncio.gather(*(s.close() for s in socks))
    await asyncio.sleep(0.5)
    for w in watchers:  # until Eve is seen gone
        await w.wait(lambda m: m["type"] == "room" and m["room"]["spectators"] == 10
                     and not any(s["player_id"] == eve.id for s in m["room"]["seats"]), start=len(w.messages) - 1)
    for w, n in zip(watchers, start, strict=True):
        updates = [m for m in w.messages[n:] if m["type"] == "room"]
        assert 1 <= len(updates) <= 12, len(updates)  # 48 joins and leaves; one update per quiet spell
        assert updates[-1]["room"]["spectators"] == 10  # and the last one is right: Eve has gone
    late = await Sock.open(server.base, room["code"], eve)  # who joins sees the room as it is
    welcome = await late.wait(lambda m: m["type"] == "welcome")
    assert welcome["room"]["code"] == room["code"]
    update = await watchers[0].wait(lambda m: m["type"] == "room" and m["room"]["spectators"] == 11)
    assert update["room"]["spectators"] == 11


async def test_control_characters_never_reach_the_store(server: ServerThread, http: httpx.AsyncClient) -> None:
    """A NUL byte (which PostgreSQL refuses) in any path, cursor, seed or move id gets a clear
    4xx, never a 500."""
    ann = await new_person(http, "Ann")
    room = await new_room(http, ann, seats=2)
    paths = ["/api/players/a%00b", "/api/players/a%00b/matches", "/api/players/a%00b/stats", "/api/matches/a%00b",
             "/api/matches/a%00b/replay", "/api/rooms/a%00b", "/api/rooms/%01%02",
             f"/api/players/{ann.id}/matches?cursor=WyIyMDI2LTAxLTAxIiwgImFcdTAwMDBiIl0"]
    for path in paths:
        r = await http.get(path)
        assert r.status_code in (400, 404, 422), (path, r.status_code, r.text)  # 422: nul_character
    r = await http.post("/api/rooms", json={"seed": "a\x00b"}, headers=ann.auth)
    assert r.status_code == 422
    for name in ("Easy bot 2", "hard BOT", "a\x00b"):
        assert (await http.post("/api/players", json={"name": name})).status_code == 422, name
    a = await Sock.open(server.base, room["code"], ann)
    err = await a.error({"type": "move", "id": "evil\x00x", "move": {"kind": "end_turn"}})
    assert err["code"] == "bad_message"
    bad = await Sock.open(server.base, "a%00b", ann, hello=False)
    for _ in range(100):
        if bad.closed:
            break
        await asyncio.sleep(0.05)
    assert bad.closed is not None and bad.closed[0] == 4404


async def test_every_answer_carries_the_security_headers_and_the_docs_are_off(api: httpx.AsyncClient) -> None:
    for path in ("/", "/main.js", "/api/options", "/healthz", "/r/ABCDEFGHJK", "/api/rooms/nope"):
        r = await api.get(path)
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"
    for path in ("/docs", "/openapi.json", "/redoc"):
        assert (await api.get(path)).status_code == 404, path


async def test_metrics_answer_this_machine_or_the_token_holder(db_url: str) -> None:
    from app.web.app import create_app

    from .helpers import make_settings

    for token, client, headers, status in [
            (None, ("127.0.0.1", 5000), {}, 200), (None, ("203.0.113.9", 5000), {}, 403),
            ("s3cret", ("203.0.113.9", 5000), {"Authorization": "Bearer s3cret"}, 200),
            ("s3cret", ("127.0.0.1", 5000), {"Authorization": "Bearer nope"}, 401)]:
        app = create_app(make_settings(db_url, metrics_token=token))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app, client=client)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
                r = await http.get("/metrics", headers=headers)
                assert r.status_code == status, (token, client, r.text)
                if status == 200:
                    assert "spite_rooms_loaded" in r.text


async def test_a_private_rooms_code_is_shown_only_to_those_who_played(server: ServerThread,
                                                                       http: httpx.AsyncClient) -> None:
    ann, eve = await new_person(http, "Ann"), await new_person(http, "Eve")
    codes = {}
    socks = []
    for public in (False, True):
        code, match_id, a = await match_with_bot(server.base, http, ann, public=public)
        codes[public] = (code, match_id)
        socks.append(a)
    for public, (code, match_id) in codes.items():
        for who, sees in ((None, public), (eve, public), (ann, True)):
            headers = who.auth if who else {}
            detail = (await http.get(f"/api/matches/{match_id}", headers=headers)).json()
            assert detail["room"] == (code if sees else None), (public, who)
            page = (await http.get(f"/api/players/{ann.id}/matches", headers=headers)).json()
            item = next(i for i in page["items"] if i["id"] == match_id)
            assert item["room"] == (code if sees else None)


def _defaults(*names: str) -> dict[str, Any]:
    """The shipped values of these settings (the tests' helpers raise them for their crowd)."""
    from app.platform.settings import Settings

    return {n: Settings.model_fields[n].default for n in names}


async def test_identities_rooms_and_replays_are_limited_per_address(db_url: str) -> None:
    from app.web.app import create_app

    from .helpers import make_settings

    limits = _defaults("limit_new_players", "limit_new_rooms", "limit_player_rooms", "max_public_rooms_per_player")
    app = create_app(make_settings(db_url, **limits, limit_replays="3/minute"))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("198.51.100.7", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            made = [await http.post("/api/players", json={"name": f"P{i}"}) for i in range(12)]
            assert [r.status_code for r in made] == [201] * 10 + [429, 429]  # 10 a minute
            assert 1 <= int(made[-1].headers["retry-after"]) <= 60 and "too many" in made[-1].json()["message"]
            auth = {"Authorization": f"Bearer {made[0].json()['token']}"}
            public = [await http.post("/api/rooms", json={"public": True}, headers=auth) for _ in range(3)]
            assert [r.status_code for r in public] == [201, 201, 429]  # two public rooms waiting at a time
            rooms = [await http.post("/api/rooms", json={}, headers=auth) for _ in range(9)]
            assert [r.status_code for r in rooms] == [201] * 7 + [429] * 2  # ten tries a minute per player
            assert "retry-after" in rooms[-1].headers
            asked = [(await http.get("/api/matches/nosuchmatch/replay")).status_code for _ in range(5)]
            assert asked == [404, 404, 404, 429, 429]
        other = httpx.ASGITransport(app=app, client=("198.51.100.8", 4000))  # another address is not held up
        async with httpx.AsyncClient(transport=other, base_url="http://testserver") as http:
            assert (await http.post("/api/players", json={"name": "Q"})).status_code == 201


async def test_room_sockets_are_limited_per_address(start_server: Any) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    server: ServerThread = start_server(limit_connects="4/minute")
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
    url = server.base.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}"
    for _ in range(4):
        ws = await connect(url)
        await ws.close()
    with pytest.raises(InvalidStatus) as refused:
        await connect(url)
    assert refused.value.response.status_code == 429 and refused.value.response.headers["Retry-After"]


# Concurrency: each limit holds when its requests arrive at once.

async def test_limits_hold_against_parallel_requests(db_url: str) -> None:
    from app.web.app import create_app

    from .helpers import make_settings

    limits = _defaults("limit_new_players", "limit_new_rooms", "limit_player_rooms", "limit_new_accounts")
    app = create_app(make_settings(db_url, **limits))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("198.51.100.9", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            made = await asyncio.gather(*(http.post("/api/players", json={"name": f"P{i}"}) for i in range(25)))
            assert sorted(r.status_code for r in made) == [201] * 10 + [429] * 15
            guests = [r.json() for r in made if r.status_code == 201]
            auth = {"Authorization": f"Bearer {guests[0]['token']}"}
            rooms = await asyncio.gather(*(http.post("/api/rooms", json={}, headers=auth) for _ in range(25)))
            assert sorted(r.status_code for r in rooms) == [201] * 10 + [429] * 15  # 10 a minute per player
            claims = await asyncio.gather(*(http.post(
                "/api/account", json={"username": f"user{i}", "password": "correct horse"},
                headers={"Authorization": f"Bearer {g['token']}"}) for i, g in enumerate(guests)))
            assert sorted(r.status_code for r in claims) == [201] * 10  # 10 a minute per address: all fit
            again = await http.post("/api/players", json={"name": "late"})
            assert again.status_code == 429
