"""The room socket before the game: hello and its refusals, seats, bots, settings, chat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from pydantic import TypeAdapter
from websockets.asyncio.client import connect

from app.web.wire.room import ServerMessage

from .helpers import ServerThread, Sock, new_person, new_room


async def _closed_with(sock: Sock) -> int | None:
    for _ in range(100):
        if sock.closed is not None:
            return sock.closed[0]
        await asyncio.sleep(0.05)
    raise AssertionError("the socket stayed open")


async def test_hello_refusals(start_server, db_url: str) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(hello_timeout=0.5)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
    code = room["code"]
    silent = await Sock.open(server.base, code, ann, hello=False)
    assert await _closed_with(silent) == 4401
    liar = await Sock.open(server.base, code, ann, hello=False)
    await liar.send({"type": "hello", "token": "not-a-token"})
    assert await _closed_with(liar) == 4401
    rude = await Sock.open(server.base, code, ann, hello=False)
    await rude.send({"type": "sit", "seat": 0})
    assert await _closed_with(rude) == 4401
    garbage = await Sock.open(server.base, code, ann, hello=False)
    await garbage.send("{not json")
    assert await _closed_with(garbage) == 4401
    lost = await Sock.open(server.base, "NOSUCHROOM", ann, hello=False)
    assert await _closed_with(lost) == 4404
    # The token never travels in the URL: a token in the query string is ignored.
    async with connect(server.base.replace("http", "ws") + f"/ws/rooms/{code}?token={ann.token}") as ws:
        await asyncio.sleep(0.7)
        assert ws.close_code == 4401 or (await _wait_close(ws)) == 4401
    # Codes are case-insensitive; a good hello gets welcome then room.
    ok = await Sock.open(server.base, code.lower(), ann)
    welcome = ok.messages[0]
    assert welcome["type"] == "welcome" and welcome["you"] == {"player_id": ann.id, "name": "Ann", "seat": None,
                                                                 "host": True, "account": False}
    assert welcome["room"]["code"] == code
    await ok.wait(lambda m: m["type"] == "room")
    again = await ok.error({"type": "hello", "token": ann.token})
    assert again["code"] == "bad_message"


async def _wait_close(ws) -> int | None:  # type: ignore[no-untyped-def]
    try:
        await asyncio.wait_for(ws.wait_closed(), 5)
    except TimeoutError:
        return None
    return ws.close_code  # type: ignore[no-any-return]


async def test_seats_bots_and_settings(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
    room = await new_room(http, ann, seats=2)
    a, b, c = [await Sock.open(server.base, room["code"], p) for p in (ann, bob, cat)]
    r = await a.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == ann.id)
    assert r["seats"][1]["connected"] is True
    assert (await b.error({"type": "sit", "seat": 1}))["code"] == "seat_taken"
    assert (await b.error({"type": "sit", "seat": 7}))["code"] == "bad_message"
    await b.room({"type": "sit"}, lambda r: r["seats"][0]["player_id"] == bob.id)
    assert (await c.error({"type": "sit"}))["code"] == "room_full"
    assert (await c.error({"type": "sit", "seat": 0}))["code"] in ("room_full", "seat_taken")
    # Only the host configures, adds bots, starts.
    assert (await b.error({"type": "add_bot", "seat": 0, "level": "easy"}))["code"] == "not_host"
    assert (await b.error({"type": "configure", "seats": 3}))["code"] == "not_host"
    assert (await b.error({"type": "start"}))["code"] == "not_host"
    bad = await a.error({"type": "configure", "options": {"payoff_size": 99}})
    assert bad["code"] == "bad_options" and bad["option"] == "payoff_size" and "payoff_size" in bad["message"]
    bad = await a.error({"type": "configure", "seats": 3, "options": {"teams": "pairs"}})
    assert bad["code"] == "bad_options" and bad["option"] == "teams"
    r = await a.room({"type": "configure", "seats": 3, "preset": "pagat", "turn_seconds": 30},
                     lambda r: r["seat_count"] == 3)
    assert r["preset"] == "pagat" and r["options"]["centre_stacks"] == 3 and r["turn_seconds"] == 30
    assert r["seats"][1]["player_id"] == ann.id and r["seats"][2]["player_id"] is None
    assert (await a.error({"type": "start"}))["code"] == "not_allowed_now"
    r = await a.room({"type": "add_bot", "seat": 2, "level": "easy"}, lambda r: r["seats"][2]["bot"] == "easy")
    assert r["seats"][2]["connected"] is True and r["seats"][2]["name"]
    assert (await a.error({"type": "add_bot", "seat": 2}))["code"] == "seat_taken"
    assert (await a.error({"type": "add_bot", "level": "genius"}))["code"] == "bad_message"
    assert (await a.error({"type": "remove_bot", "seat": 1}))["code"] == "not_allowed_now"
    await a.room({"type": "remove_bot", "seat": 2}, lambda r: r["seats"][2]["player_id"] is None
                  and r["seats"][2]["bot"] is None)
    r = await a.room({"type": "configure", "seats": 2, "turn_seconds": None}, lambda r: r["seat_count"] == 2)
    assert r["turn_seconds"] is None and len(r["seats"]) == 2
    await b.room({"type": "stand"}, lambda r: r["seats"][0]["player_id"] is None)
    await c.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == cat.id)
    # Everyone sees the same lobby, and the REST view agrees.
    rest = (await http.get(f"/api/rooms/{room['code']}")).json()
    assert [s["player_id"] for s in rest["seats"]] == [cat.id, ann.id]
    assert rest["spectators"] == 1
    await a.send({"type": "start"})
    for s in (a, b, c):
        st = await s.state_at(0)
        assert st["view"]["you"] == {a: 1, b: None, c: 0}[s]
    assert (await a.error({"type": "configure", "seats": 3}))["code"] == "not_allowed_now"
    assert (await b.error({"type": "sit", "seat": 0}))["code"] == "not_allowed_now"
    assert (await a.error({"type": "start"}))["code"] == "not_allowed_now"
    assert (await b.error({"type": "rematch"}))["code"] == "not_allowed_now"


async def test_chat_and_ping(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    room = await new_room(http, ann)
    a, b = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], bob)
    await a.send({"type": "chat", "text": "  hello\u0007 there  "})
    line = await b.wait(lambda m: m["type"] == "chat")
    TypeAdapter(ServerMessage).validate_python(line)
    assert line["text"] == "hello there" and line["from"]["name"] == "Ann" and line["at"]
    assert (await a.error({"type": "chat", "text": "   "}))["code"] == "bad_message"
    assert (await a.error({"type": "chat", "text": "x" * 501}))["code"] == "bad_message"
    assert (await a.request({"type": "ping"}, lambda m: m["type"] == "pong"))["type"] == "pong"


async def test_chat_history_is_kept_with_the_room_and_sent_on_reconnect(
        start_server: Callable[..., ServerThread]) -> None:
    server = start_server(chat_history=3)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        room = await new_room(http, ann)
    a = await Sock.open(server.base, room["code"], ann)
    first = await a.wait(lambda m: m["type"] == "chat_history")
    assert first["lines"] == []
    for i in range(5):
        await a.request({"type": "chat", "text": f"line {i}"},
                        lambda m, i=i: m["type"] == "chat" and m["text"] == f"line {i}")
    # Bob comes in later, and Ann reloads: both get the latest three lines, oldest first.
    b = await Sock.open(server.base, room["code"], bob)
    history = await b.wait(lambda m: m["type"] == "chat_history")
    TypeAdapter(ServerMessage).validate_python(history)
    assert [line["text"] for line in history["lines"]] == ["line 2", "line 3", "line 4"]
    assert history["lines"][0]["from"]["name"] == "Ann" and history["lines"][0]["at"]
    welcome = next(i for i, m in enumerate(b.messages) if m["type"] == "welcome")
    assert welcome < b.messages.index(history)
    await a.close()
    again = await Sock.open(server.base, room["code"], ann)
    assert [m["text"] for m in (await again.wait(lambda m: m["type"] == "chat_history"))["lines"]] == [
        "line 2", "line 3", "line 4"]
    # A server restart (a new process on the same database) keeps them too.
    server.stop()
    other = start_server(chat_history=3)
    c = await Sock.open(other.base, room["code"], bob)
    assert len((await c.wait(lambda m: m["type"] == "chat_history"))["lines"]) == 3
