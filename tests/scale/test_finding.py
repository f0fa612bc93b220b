"""Issue 28 across instances on PostgreSQL + Redis: a quick match pairs players whose lobby
sockets are on different instances, and an invitation made on one instance reaches a lobby
socket on another."""

from __future__ import annotations

import httpx

from tests.server.helpers import Sock, new_person
from tests.server.social_helpers import befriend, lobby, ticket

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
        import asyncio

        await asyncio.sleep(2.0)  # instance two picks the block up within a heartbeat (0.5 s here)
        await b.send({"type": "chat", "text": "after"})
        await b.wait(lambda m: m["type"] == "chat" and m["text"] == "after")
        await asyncio.sleep(1.0)
        assert not any(m["type"] == "chat" and m["text"] == "after" for m in a.messages)
        for s in (a, b):
            await s.close()
