"""Finding a game across instances on PostgreSQL + Redis: a quick match pairs players whose lobby
sockets are on different instances, and an invitation made on one instance reaches a lobby
socket on another."""

from __future__ import annotations

import asyncio
import itertools

import httpx

from tests.web.helpers import Sock, new_person
from tests.web.social_helpers import befriend, lobby, ticket

from .cluster import Cluster


async def test_a_quick_match_pairs_players_on_different_instances(cluster: Cluster) -> None:
    one, two = cluster.start(2, SPITE_QUICK_MATCH_INTERVAL="0.2")
    async with httpx.AsyncClient(base_url=one.base, timeout=30) as h1, \
            httpx.AsyncClient(base_url=two.base, timeout=30) as h2:
        ann, bob = await new_person(h1, "Ann"), await new_person(h2, "Bob")
        la, lb = await lobby(one.base, ann), await lobby(two.base, bob)
        ta = await ticket(h1, ann, bots=False)
        tb = await ticket(h2, bob, bots=False)
        ma = await la.wait(lambda m: m["type"] == "matched", timeout=20)
        mb = await lb.wait(lambda m: m["type"] == "matched", timeout=20)
        assert ma["room"] == mb["room"] and (ma["ticket"], mb["ticket"]) == (ta, tb)
        a, b = await Sock.open(one.base, ma["room"], ann), await Sock.open(two.base, mb["room"], bob)
        sa, sb = await a.state_at(0), await b.state_at(0)
        assert sa["match_id"] == sb["match_id"] and {sa["view"]["you"], sb["view"]["you"]} == {0, 1}
        for s in (a, b, la, lb):
            await s.close()


async def test_an_invitation_crosses_instances_and_friends_see_each_other_online(cluster: Cluster) -> None:
    one, two = cluster.start(2)
    async with httpx.AsyncClient(base_url=one.base, timeout=30) as h1, \
            httpx.AsyncClient(base_url=two.base, timeout=30) as h2:
        ann, bob = await new_person(h1, "Ann"), await new_person(h1, "Bob")
        await befriend(h1, ann, bob)
        lb = await lobby(two.base, bob)
        la = await lobby(one.base, ann)
        came = await lb.wait(lambda m: m["type"] == "friend" and m["online"], timeout=20)
        assert came["player_id"] == ann.id
        assert (await h2.get("/api/players/me/friends", headers=bob.auth)).json()["items"][0]["online"] is True
        room = (await h1.post("/api/rooms", json={}, headers=ann.auth)).json()
        r = await h1.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": bob.id}, headers=ann.auth)
        assert r.status_code == 201, r.text
        got = await lb.wait(lambda m: m["type"] == "invitation", timeout=20)
        assert got["room"] == room["code"]
        for s in (la, lb):
            await s.close()


async def test_a_block_made_on_one_instance_hides_chat_on_another(cluster: Cluster) -> None:
    one, two = cluster.start(2)
    async with httpx.AsyncClient(base_url=one.base, timeout=30) as h1:
        ann, bob = await new_person(h1, "Ann"), await new_person(h1, "Bob")
        room = (await h1.post("/api/rooms", json={}, headers=ann.auth)).json()
        a = await Sock.open(two.base, room["code"], ann)  # Ann's socket is on instance two
        b = await Sock.open(one.base, room["code"], bob)
        await b.send({"type": "chat", "text": "before"})
        await a.wait(lambda m: m["type"] == "chat" and m["text"] == "before")
        assert (await h1.put(f"/api/players/me/blocks/{bob.id}", headers=ann.auth)).status_code == 204  # on one
        await asyncio.sleep(2.0)  # instance two picks the block up within a heartbeat (0.5 s here)
        await b.send({"type": "chat", "text": "after"})
        await b.wait(lambda m: m["type"] == "chat" and m["text"] == "after")
        await asyncio.sleep(1.0)
        assert not any(m["type"] == "chat" and m["text"] == "after" for m in a.messages)
        for s in (a, b):
            await s.close()


async def _heard(a: Sock, b: Sock, cat: Sock, *, hidden: bool) -> None:
    """Until Ann (`a`) hears Bob (`b`) as `hidden` says: each round Bob speaks, then Cat; Cat's line
    reaching Ann shows whether Bob's, sent before it through the same room, did."""
    for i in itertools.count():
        assert i < 60, "the block change never reached the other instance"
        await b.send({"type": "chat", "text": f"bob {hidden} {i}"})
        await b.wait(lambda m, i=i: m["type"] == "chat" and m["text"] == f"bob {hidden} {i}")
        await cat.send({"type": "chat", "text": f"cat {hidden} {i}"})
        await a.wait(lambda m, i=i: m["type"] == "chat" and m["text"] == f"cat {hidden} {i}", timeout=10)
        if any(m["type"] == "chat" and m["text"] == f"bob {hidden} {i}" for m in a.messages) != hidden:
            return
        await asyncio.sleep(0.05)


async def test_a_block_and_an_unblock_on_one_instance_apply_at_once_to_a_socket_on_another(cluster: Cluster) -> None:
    one, two = cluster.start(2, SPITE_HEARTBEAT_SECONDS="30", SPITE_PRESENCE_TTL="120",  # no watch pass meanwhile
                             SPITE_CHAT_PER_SECOND="100", SPITE_CHAT_BURST="100", SPITE_ROOM_CHAT_PER_SECOND="100",
                             SPITE_ROOM_CHAT_BURST="100")
    async with httpx.AsyncClient(base_url=one.base, timeout=30) as h1:
        ann, bob, cat = [await new_person(h1, n) for n in ("Ann", "Bob", "Cat")]
        room = (await h1.post("/api/rooms", json={}, headers=ann.auth)).json()
        a = await Sock.open(two.base, room["code"], ann)  # Ann's socket is on instance two
        b, c = await Sock.open(one.base, room["code"], bob), await Sock.open(one.base, room["code"], cat)
        await _heard(a, b, c, hidden=False)
        assert (await h1.put(f"/api/players/me/blocks/{bob.id}", headers=ann.auth)).status_code == 204  # on one
        await _heard(a, b, c, hidden=True)
        assert (await h1.delete(f"/api/players/me/blocks/{bob.id}", headers=ann.auth)).status_code == 204
        await _heard(a, b, c, hidden=False)  # before: only when Ann reconnected
        for s in (a, b, c):
            await s.close()
