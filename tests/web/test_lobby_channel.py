"""The lobby socket, invitations and what a block does at a table, over real
sockets against a real uvicorn server and a real database."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread, Sock, new_person, new_room
from .social_helpers import befriend, block, closed_with, lobby

pytestmark = SQLITE_ONLY  # the database is not what this module is about (tests/conftest.py)


async def test_the_lobby_socket_says_hello_like_the_room_socket(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(hello_timeout=0.5, max_message_bytes=512)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
    silent = await lobby(server.base, ann, hello=False)
    assert await closed_with(silent) == 4401
    liar = await lobby(server.base, ann, hello=False)
    await liar.send({"type": "hello", "token": "not-a-token"})
    assert await closed_with(liar) == 4401
    sock = await lobby(server.base, ann)
    welcome = sock.messages[0]
    assert welcome == {"type": "welcome", "you": {"player_id": ann.id, "name": "Ann"}}
    assert (await sock.request({"type": "ping"}, lambda m: m["type"] == "pong"))["type"] == "pong"
    bad = await sock.error({"type": "sit", "seat": 0})
    assert bad["code"] == "bad_message" and "known types: hello, ping" in bad["message"]
    big = await sock.error({"type": "ping", "pad": "x" * 600})
    assert "at most 512 bytes" in big["message"]
    again = await sock.error({"type": "hello", "token": ann.token})
    assert "already said hello" in again["message"]
    await sock.close()


async def test_an_invitation_reaches_the_lobby_socket_and_its_answer_the_inviter(
        server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    await befriend(http, ann, bob)
    ann_lobby, bob_lobby = await lobby(server.base, ann), await lobby(server.base, bob)
    room = await new_room(http, ann)
    r = await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": bob.id}, headers=ann.auth)
    assert r.status_code == 201, r.text
    inv = r.json()
    assert inv["from"] == {"player_id": ann.id, "name": "Ann"} and inv["status"] == "pending"
    got = await bob_lobby.wait(lambda m: m["type"] == "invitation")
    assert got["room"] == room["code"] and got["from"]["name"] == "Ann" and got["id"] == inv["id"]
    mine = (await http.get("/api/players/me/invitations", headers=bob.auth)).json()["items"]
    assert [i["id"] for i in mine] == [inv["id"]]
    # Asking again is the same invitation, not a second toast.
    again = await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": bob.id}, headers=ann.auth)
    assert again.json()["id"] == inv["id"]
    assert (await http.post(f"/api/invitations/{inv['id']}/accept", headers=ann.auth)).status_code == 404
    r = await http.post(f"/api/invitations/{inv['id']}/accept", headers=bob.auth)
    assert r.status_code == 200 and r.json()["room"] == room["code"] and r.json()["url"].endswith(room["code"])
    closed = await ann_lobby.wait(lambda m: m["type"] == "invitation_closed")
    assert closed["status"] == "accepted"
    assert (await http.post(f"/api/invitations/{inv['id']}/decline", headers=bob.auth)).status_code == 409
    assert sum(1 for m in bob_lobby.messages if m["type"] == "invitation") == 1
    for s in (ann_lobby, bob_lobby):
        await s.close()


async def test_invitations_refused_by_blocks_strangers_and_bad_input(server: ServerThread,
                                                                     http: httpx.AsyncClient) -> None:
    ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
    room = await new_room(http, ann)
    code = room["code"]
    path = f"/api/rooms/{code}/invitations"
    assert (await http.post(path, json={"player_id": bob.id}, headers=ann.auth)).status_code == 403  # not friends
    await befriend(http, ann, bob)
    await befriend(http, ann, cat)
    assert (await http.post(path, json={"player_id": cat.id}, headers=bob.auth)).status_code == 403  # not in the room
    assert (await http.post(path, json={"player_id": "nobody"}, headers=ann.auth)).status_code == 404
    assert (await http.post("/api/rooms/NOSUCHROOM/invitations", json={"player_id": bob.id},
                            headers=ann.auth)).status_code == 404
    assert (await http.post(path, json={"player_id": ann.id}, headers=ann.auth)).status_code == 422
    for body in ({}, {"player_id": 7}, {"player_id": ""}, {"player_id": bob.id, "x": 1}, []):
        assert (await http.post(path, json=body, headers=ann.auth)).status_code == 422, body
    assert (await http.post(path, content=b"{", headers=ann.auth)).status_code == 422
    await block(http, bob, ann)  # Bob blocked Ann: she cannot invite him
    r = await http.post(path, json={"player_id": bob.id}, headers=ann.auth)
    assert r.status_code == 403
    assert (await http.post("/api/invitations/nope/accept", headers=bob.auth)).status_code == 404


async def test_invitation_floods_are_limited_per_player(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(max_pending_invitations=2)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        friends = [await new_person(http, f"F{i}") for i in range(3)]
        for f in friends:
            await befriend(http, ann, f)
        room = await new_room(http, ann)
        codes = [(await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": f.id},
                                  headers=ann.auth)).status_code for f in friends]
        assert codes == [201, 201, 429]


async def test_an_invitation_expires(start_server, db_url: str) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(invitation_seconds=10)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
        await befriend(http, ann, bob)
        room = await new_room(http, ann)
        inv = (await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": bob.id},
                               headers=ann.auth)).json()
        from datetime import UTC, datetime, timedelta

        from sqlalchemy import update

        from app.store.db import make_engine, make_sessions
        from app.store.tables import Invitation

        engine = make_engine(db_url)  # this test's own connection (the server's belong to its loop)
        try:
            async with make_sessions(engine)() as s:  # the invitation's time passes
                await s.execute(update(Invitation).values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
                await s.commit()
        finally:
            await engine.dispose()
        r = await http.post(f"/api/invitations/{inv['id']}/accept", headers=bob.auth)
        assert r.status_code == 410
        assert (await http.get("/api/players/me/invitations", headers=bob.auth)).json()["items"] == []


async def test_a_blocked_player_cannot_sit_at_the_blockers_table_and_their_chat_is_hidden(
        server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob, cat = await new_person(http, "Ann"), await new_person(http, "Bob"), await new_person(http, "Cat")
    room = await new_room(http, ann, seats=3)
    code = room["code"]
    a, b, c = [await Sock.open(server.base, code, p) for p in (ann, bob, cat)]
    await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    await block(http, ann, bob)
    refused = await b.error({"type": "sit", "seat": 1})
    assert refused["code"] == "seat_refused" and "block" not in refused["message"]
    await c.room({"type": "sit", "seat": 2}, lambda r: r["seats"][2]["player_id"] == cat.id)  # others may
    # Ann hears Cat, not Bob; Cat hears both.
    await b.send({"type": "chat", "text": "from bob"})
    await c.send({"type": "chat", "text": "from cat"})
    await a.wait(lambda m: m["type"] == "chat" and m["text"] == "from cat")
    await c.wait(lambda m: m["type"] == "chat" and m["text"] == "from bob")
    await asyncio.sleep(0.3)
    assert not any(m["type"] == "chat" and m["text"] == "from bob" for m in a.messages)
    # Reconnected, Ann's chat history leaves Bob out too.
    await a.close()
    again = await Sock.open(server.base, code, ann)
    history = await again.wait(lambda m: m["type"] == "chat_history")
    assert [line["text"] for line in history["lines"]] == ["from cat"]
    # The blocker may not sit with the blocked either: at Cat's table Bob sits, Ann cannot join.
    other = (await new_room(http, cat))["code"]
    b2, a2 = await Sock.open(server.base, other, bob), await Sock.open(server.base, other, ann)
    await b2.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == bob.id)
    assert (await a2.error({"type": "sit", "seat": 0}))["code"] == "seat_refused"
    for s in (again, b, c, b2, a2):
        await s.close()


async def test_friends_are_told_when_a_friend_comes_online_and_the_list_shows_it(
        server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    await befriend(http, ann, bob)
    ann_lobby = await lobby(server.base, ann)
    bob_lobby = await lobby(server.base, bob)
    came = await ann_lobby.wait(lambda m: m["type"] == "friend" and m["online"])
    assert came["player_id"] == bob.id
    items = (await http.get("/api/players/me/friends", headers=ann.auth)).json()["items"]
    assert items[0]["online"] is True
    # Bob in a public room: Ann may join it, so the list shows it.
    room = await new_room(http, bob, public=True)
    in_room = await Sock.open(server.base, room["code"], bob)
    items = (await http.get("/api/players/me/friends", headers=ann.auth)).json()["items"]
    assert items[0]["room"] == room["code"]
    # A private room is not shown.
    private = await new_room(http, bob)
    await in_room.close()
    hidden = await Sock.open(server.base, private["code"], bob)
    for _ in range(100):  # until the server has seen Bob leave the public room (at most 10 s)
        items = (await http.get("/api/players/me/friends", headers=ann.auth)).json()["items"]
        if items[0]["room"] is None:
            break
        await asyncio.sleep(0.1)
    assert items[0]["room"] is None
    await hidden.close()
    await bob_lobby.close()
    gone = await ann_lobby.wait(lambda m: m["type"] == "friend" and not m["online"])
    assert gone["player_id"] == bob.id
    await ann_lobby.close()


async def test_the_friend_message_names_a_room_only_if_the_friend_may_join_or_watch_it(
        server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
    await befriend(http, ann, bob)
    await befriend(http, cat, bob)
    ann_lobby, cat_lobby = await lobby(server.base, ann), await lobby(server.base, cat)

    async def comes_online(room: dict) -> tuple[dict, dict]:  # Bob sits in `room`, then opens his lobby socket
        ann_lobby.messages.clear()
        cat_lobby.messages.clear()
        sock = await Sock.open(server.base, room["code"], bob)
        bob_lobby = await lobby(server.base, bob)
        got = [await s.wait(lambda m: m["type"] == "friend" and m["online"]) for s in (ann_lobby, cat_lobby)]
        await bob_lobby.close()
        gone = [await s.wait(lambda m: m["type"] == "friend" and not m["online"]) for s in (ann_lobby, cat_lobby)]
        assert [m["room"] for m in gone] == [None, None]
        await sock.close()
        return got[0], got[1]

    public = await new_room(http, bob, public=True)
    to_ann, to_cat = await comes_online(public)
    assert to_ann["room"] == to_cat["room"] == public["code"] and to_ann["player_id"] == bob.id
    private = await new_room(http, bob)
    to_ann, to_cat = await comes_online(private)
    assert to_ann["room"] is None and to_cat["room"] is None  # never leaked
    r = await http.post(f"/api/rooms/{private['code']}/invitations", json={"player_id": cat.id}, headers=bob.auth)
    assert r.status_code == 201, r.text
    to_ann, to_cat = await comes_online(private)
    assert to_ann["room"] is None and to_cat["room"] == private["code"]  # Cat is invited: she may join it
    for s in (ann_lobby, cat_lobby):
        await s.close()


async def test_a_blocked_player_is_answered_as_a_stranger_and_hidden_from_the_blockers_watchers(
        server: ServerThread, http: httpx.AsyncClient) -> None:
    """Nothing tells the blocked player: inviting the blocker is refused as a stranger's invitation
    is; and the blocker's room object lists no blocked watcher (the name it chose cannot reach
    them that way), while everyone else still sees them."""
    ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Ann (admin)", "Cat")]
    await befriend(http, ann, bob)
    await block(http, ann, bob)  # Ann blocked Bob (which ends their friendship)
    answers = []
    for who in (bob, cat):  # the blocked player, and a stranger
        room = await new_room(http, who)
        r = await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": ann.id}, headers=who.auth)
        answers.append((r.status_code, r.json()))
    assert answers[0] == answers[1] and answers[0][1]["reason"] == "friends_only"
    code = (await new_room(http, ann))["code"]
    a = await Sock.open(server.base, code, ann)
    b = await Sock.open(server.base, code, bob)
    c = await Sock.open(server.base, code, cat)

    def watching(m: dict[str, Any]) -> set[str]:
        return {w["player_id"] for w in m["room"]["watchers"]}

    seen = await a.wait(lambda m: m["type"] == "room" and cat.id in watching(m))
    assert seen["room"]["spectators"] == 2  # Ann and Cat
    assert not any(bob.id in watching(m) for m in a.messages if m["type"] in ("welcome", "room"))
    await c.wait(lambda m: m["type"] == "room" and {ann.id, bob.id, cat.id} <= watching(m))
    again = await Sock.open(server.base, code, ann)  # a welcome's room object too
    assert bob.id not in watching(again.messages[0]) and cat.id in watching(again.messages[0])
    mine = (await http.get(f"/api/rooms/{code}", headers=ann.auth)).json()  # and REST, asked by the blocker
    assert bob.id not in {w["player_id"] for w in mine["watchers"]} and mine["spectators"] == 2
    theirs = (await http.get(f"/api/rooms/{code}", headers=cat.auth)).json()
    assert bob.id in {w["player_id"] for w in theirs["watchers"]}
    for s in (a, b, c, again):
        await s.close()
