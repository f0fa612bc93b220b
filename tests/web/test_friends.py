"""Friends and blocks over REST, on a real database (SQLite, and PostgreSQL when
SPITE_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import asyncio

import httpx

from .helpers import Person, ServerThread, new_person
from .social_helpers import lobby


async def friends_of(api: httpx.AsyncClient, p: Person) -> list[dict]:
    r = await api.get("/api/players/me/friends", headers=p.auth)
    assert r.status_code == 200, r.text
    return r.json()["items"]


async def befriend(api: httpx.AsyncClient, a: Person, b: Person) -> None:
    assert (await api.put(f"/api/players/me/friends/{b.id}", headers=a.auth)).status_code == 204
    assert (await api.put(f"/api/players/me/friends/{a.id}", headers=b.auth)).status_code == 204


async def test_a_request_then_its_acceptance_make_friends_and_removing_ends_it_for_both(api: httpx.AsyncClient) -> None:
    ann, bob = await new_person(api, "Ann"), await new_person(api, "Bob")
    assert (await api.put(f"/api/players/me/friends/{bob.id}", headers=ann.auth)).status_code == 204
    assert [(f["name"], f["status"]) for f in await friends_of(api, ann)] == [("Bob", "requested")]
    assert [(f["name"], f["status"]) for f in await friends_of(api, bob)] == [("Ann", "incoming")]
    assert (await api.put(f"/api/players/me/friends/{ann.id}", headers=bob.auth)).status_code == 204
    mine = await friends_of(api, ann)
    assert [(f["player_id"], f["status"], f["online"], f["room"]) for f in mine] == [(bob.id, "friends", False, None)]
    assert (await api.delete(f"/api/players/me/friends/{ann.id}", headers=bob.auth)).status_code == 204
    assert await friends_of(api, ann) == [] and await friends_of(api, bob) == []


async def test_asked_for_it_the_answer_says_whether_the_request_was_sent_or_accepted(api: httpx.AsyncClient) -> None:
    ann, bob = await new_person(api, "Ann"), await new_person(api, "Bob")
    want = {**ann.auth, "Prefer": "return=representation"}
    r = await api.put(f"/api/players/me/friends/{bob.id}", headers=want)
    assert r.status_code == 200 and r.json() == {"status": "requested", "name": "Bob"}, r.text
    assert r.headers["preference-applied"] == "return=representation"
    r = await api.put(f"/api/players/me/friends/{bob.id}", headers=want)  # asked again: still waiting
    assert r.status_code == 200 and r.json()["status"] == "requested", r.text
    r = await api.put(f"/api/players/me/friends/{ann.id}", headers={**bob.auth, "Prefer": "return=representation"})
    assert r.status_code == 200 and r.json() == {"status": "friends", "name": "Ann"}, r.text
    r = await api.put(f"/api/players/me/friends/{bob.id}", headers=want)  # already friends
    assert r.status_code == 200 and r.json()["status"] == "friends", r.text
    # Not asked for: 204 and no body, as the contract says.
    r = await api.put(f"/api/players/me/friends/{bob.id}", headers=ann.auth)
    assert r.status_code == 204 and r.content == b""


async def test_asking_twice_at_once_leaves_one_request(api: httpx.AsyncClient) -> None:
    ann, bob = await new_person(api, "Ann"), await new_person(api, "Bob")
    answers = await asyncio.gather(*[api.put(f"/api/players/me/friends/{bob.id}", headers=ann.auth) for _ in range(6)])
    assert {r.status_code for r in answers} == {204}
    assert len(await friends_of(api, ann)) == 1


async def test_unknown_ids_are_404_and_yourself_is_422_for_friends_and_blocks(api: httpx.AsyncClient) -> None:
    ann = await new_person(api, "Ann")
    for path in ("friends", "blocks"):
        for method in (api.put, api.delete):
            r = await method(f"/api/players/me/{path}/nobody-has-this", headers=ann.auth)
            assert r.status_code == 404, r.text
            r = await method(f"/api/players/me/{path}/{ann.id}", headers=ann.auth)
            assert r.status_code == 422, r.text
            assert "yourself" in r.json()["message"]
        r = await api.put(f"/api/players/me/{path}/%00%0a", headers=ann.auth)
        assert r.status_code == 422 and r.json()["reason"] == "nul_character"  # a NUL is refused at the edge
        assert (await api.get(f"/api/players/me/{path}")).status_code == 401


async def test_blocking_ends_a_friendship_is_private_and_refuses_a_new_request(api: httpx.AsyncClient) -> None:
    ann, bob = await new_person(api, "Ann"), await new_person(api, "Bob")
    await befriend(api, ann, bob)
    assert (await api.put(f"/api/players/me/blocks/{bob.id}", headers=ann.auth)).status_code == 204
    assert await friends_of(api, ann) == [] and await friends_of(api, bob) == []
    r = await api.get("/api/players/me/blocks", headers=ann.auth)
    assert r.json()["items"] == [{"player_id": bob.id, "name": "Bob"}]
    assert (await api.get("/api/players/me/blocks", headers=bob.auth)).json()["items"] == []  # private
    # Bob may still ask (he is not told of the block), but Ann never sees it.
    assert (await api.put(f"/api/players/me/friends/{ann.id}", headers=bob.auth)).status_code == 204
    assert await friends_of(api, ann) == []
    r = await api.put(f"/api/players/me/friends/{bob.id}", headers=ann.auth)
    assert r.status_code == 409 and "unblock" in r.json()["message"]
    assert (await api.delete(f"/api/players/me/blocks/{bob.id}", headers=ann.auth)).status_code == 204
    assert (await api.get("/api/players/me/blocks", headers=ann.auth)).json()["items"] == []


async def test_the_friends_limit_holds(db_url: str) -> None:
    from app.web.app import create_app

    from .helpers import make_settings

    app = create_app(make_settings(db_url, max_friends=2))
    async with app.router.lifespan_context(app), \
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as api:
        ann = await new_person(api, "Ann")
        others = [await new_person(api, f"P{i}") for i in range(3)]
        codes = [(await api.put(f"/api/players/me/friends/{o.id}", headers=ann.auth)).status_code for o in others]
        assert codes == [204, 204, 429]
        assert len(await friends_of(api, ann)) == 2


async def test_random_input_to_every_social_endpoint_is_a_4xx_never_a_5xx(api: httpx.AsyncClient) -> None:
    import random

    from .helpers import random_json

    rng = random.Random(28)
    ann = await new_person(api, "Ann")
    room = (await api.post("/api/rooms", json={}, headers=ann.auth)).json()["code"]
    weird_ids = ["x" * 300, "%00", "a%00b", "%00" * 3, "..", "%2F", "nobody", "😀", "a b", "'; drop table players; --"]
    for _ in range(60):
        body = random_json(rng)
        for method, path in (("POST", "/api/quick-match"), ("POST", f"/api/rooms/{room}/invitations"),
                             ("POST", "/api/daily"), ("POST", "/api/invitations/x/accept")):
            r = await api.request(method, path, json=body, headers=ann.auth)
            assert r.status_code < 500, (path, body, r.text)
    for bad in weird_ids:
        for method, path in (("PUT", f"/api/players/me/friends/{bad}"), ("DELETE", f"/api/players/me/blocks/{bad}"),
                             ("GET", f"/api/quick-match/{bad}"), ("DELETE", f"/api/quick-match/{bad}"),
                             ("GET", f"/api/daily/{bad}/results"), ("POST", f"/api/invitations/{bad}/decline"),
                             ("DELETE", f"/api/invitations/{bad}"), ("POST", f"/api/rooms/{bad}/invitations")):
            r = await api.request(method, path, json={"player_id": bad}, headers=ann.auth)
            assert 400 <= r.status_code < 500, (method, path, r.status_code, r.text)


async def test_friend_requests_received_are_limited_per_player(start_server) -> None:  # type: ignore[no-untyped-def]
    """Strangers cannot pile pop-ups on one player: past SPITE_LIMIT_FRIEND_REQUESTS_RECEIVED new
    requests to them are refused (and not kept); an acceptance or a request asked again is no
    new request."""
    server: ServerThread = start_server(limit_friend_requests_received="3/hour")
    async with httpx.AsyncClient(base_url=server.base) as api:
        ann, dan = await new_person(api, "Ann"), await new_person(api, "Dan")
        strangers = [await new_person(api, f"Ann (admin {i})") for i in range(4)]
        sock = await lobby(server.base, ann)
        answers = [await api.put(f"/api/players/me/friends/{ann.id}", headers=s.auth) for s in strangers]
        assert [r.status_code for r in answers] == [204, 204, 204, 429]
        refused = answers[3].json()
        assert refused["reason"] == "too_many" and refused["params"]["what"] == "friend_requests_received"
        assert int(answers[3].headers["Retry-After"]) >= 1
        assert [f["player_id"] for f in await friends_of(api, ann)] == [s.id for s in strangers[:3]]
        assert (await api.put(f"/api/players/me/friends/{ann.id}", headers=strangers[0].auth)).status_code == 204
        assert (await api.put(f"/api/players/me/friends/{dan.id}", headers=ann.auth)).status_code == 204
        assert (await api.put(f"/api/players/me/friends/{ann.id}", headers=dan.auth)).status_code == 204  # accepted
        await sock.wait(lambda m: m["type"] == "friend_request" and m["friends"])  # after the three requests
        popped = [m["from"]["player_id"] for m in sock.messages if m["type"] == "friend_request"]
        assert popped == [s.id for s in strangers[:3]] + [dan.id]
        await sock.close()


async def test_a_player_may_choose_quiet_friend_requests(server: ServerThread, http: httpx.AsyncClient) -> None:
    """With `quiet_requests`, a request arrives as the count of requests waiting (no name, no
    pop-up); an acceptance still names the friend."""
    ann, bob, cat, dan, eve = [await new_person(http, n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve")]
    assert (await http.get("/api/players/me", headers=ann.auth)).json()["quiet_requests"] is False
    r = await http.patch("/api/players/me", json={"quiet_requests": True}, headers=ann.auth)
    assert r.status_code == 200 and r.json()["quiet_requests"] is True and r.json()["name"] == "Ann"
    assert (await http.get("/api/players/me", headers=ann.auth)).json()["quiet_requests"] is True
    for bad in ("yes", 1, None):
        assert (await http.patch("/api/players/me", json={"quiet_requests": bad}, headers=ann.auth)).status_code == 422
    sock = await lobby(server.base, ann)
    for n, who in enumerate((bob, cat), 1):
        assert (await http.put(f"/api/players/me/friends/{ann.id}", headers=who.auth)).status_code == 204
        assert await sock.wait(lambda m, n=n: m["type"] == "friend_requests" and m["waiting"] == n) == {
            "type": "friend_requests", "waiting": n}
    assert (await http.put(f"/api/players/me/friends/{dan.id}", headers=ann.auth)).status_code == 204
    assert (await http.put(f"/api/players/me/friends/{ann.id}", headers=dan.auth)).status_code == 204
    accepted = await sock.wait(lambda m: m["type"] == "friend_request")
    assert accepted["from"]["player_id"] == dan.id and accepted["friends"] is True
    assert (await http.patch("/api/players/me", json={"quiet_requests": False}, headers=ann.auth)).status_code == 200
    assert (await http.put(f"/api/players/me/friends/{ann.id}", headers=eve.auth)).status_code == 204
    loud = await sock.wait(lambda m: m["type"] == "friend_request" and not m["friends"])
    assert loud["from"]["player_id"] == eve.id
    popped = [m["from"]["player_id"] for m in sock.messages if m["type"] == "friend_request"]
    assert popped == [dan.id, eve.id]  # never Bob's or Cat's name
    await sock.close()
