"""Tournaments over REST: what a stranger may send, and what each refusal leaves unchanged."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from .helpers import Person, new_account, new_person

QUICK = {"preset": "short", "options": {"payoff_size": 5}}


async def make(api: httpx.AsyncClient, who: Person, status: int = 201, **body: Any) -> dict[str, Any]:
    r = await api.post("/api/tournaments", json={"name": "Cup", "format": "swiss", **QUICK, **body},
                       headers=who.auth)
    assert r.status_code == status, r.text
    return r.json()  # type: ignore[no-any-return]


async def join(api: httpx.AsyncClient, key: str, who: Person) -> httpx.Response:
    return await api.post(f"/api/tournaments/{key}/players", headers=who.auth)


async def players(api: httpx.AsyncClient, key: str) -> list[str]:
    return [p["player_id"] for p in (await api.get(f"/api/tournaments/{key}")).json()["players"]]


async def test_impossible_settings_are_refused_by_name_and_nothing_is_made(api: httpx.AsyncClient) -> None:
    ann = await new_person(api, "Ann")
    for body, reason in [({"seats": 3}, "tournament_seats"),
                         ({"format": "arena", "minutes": 1}, "tournament_minutes"),
                         ({"format": "arena", "minutes": 100_000}, "tournament_minutes"),
                         ({"format": "arena", "minutes": 30, "duplicate": True}, "tournament_duplicate_format"),
                         ({"name": "  "}, "tournament_name"),
                         ({"max_players": 1}, "tournament_max_players"),
                         ({"format": "round_robin", "max_players": 50}, "tournament_max_players")]:
        r = await api.post("/api/tournaments", json={"name": "Cup", "format": "swiss", **QUICK, **body},
                           headers=ann.auth)
        assert r.status_code == 422 and r.json()["reason"] == reason, (body, r.text)
    r = await api.post("/api/tournaments", json={"name": "Cup", "format": "swiss", "preset": "nope"},
                       headers=ann.auth)
    assert r.status_code == 422, r.text
    assert (await api.post("/api/tournaments", json={"name": "Cup", "format": "knockout"},
                           headers=ann.auth)).status_code == 422
    assert (await api.get("/api/tournaments")).json()["items"] == []


async def test_a_guest_may_not_organise_or_join_a_rated_tournament(api: httpx.AsyncClient) -> None:
    guest, acct = await new_person(api, "Gus"), await new_account(api, "Rita")
    r = await api.post("/api/tournaments", json={"name": "Ladder", "format": "swiss", "rated": True},
                       headers=guest.auth)
    assert r.status_code == 403 and r.json()["reason"] == "tournament_rated_host"
    made = await make(api, acct, rated=True, public=True)
    r = await join(api, made["id"], guest)
    assert r.status_code == 403 and r.json()["reason"] == "tournament_rated"
    assert await players(api, made["id"]) == []


async def test_joining_twice_past_the_cap_or_after_withdrawing_is_refused(api: httpx.AsyncClient) -> None:
    org = await new_person(api, "Org")
    made = await make(api, org, public=True, max_players=2)
    ann, bob, cat = [await new_person(api, n) for n in ("Ann", "Bob", "Cat")]
    assert (await join(api, made["id"], ann)).status_code == 201
    r = await join(api, made["id"], ann)
    assert r.status_code == 409 and r.json()["reason"] == "tournament_joined"
    assert (await join(api, made["id"], bob)).status_code == 201
    r = await join(api, made["id"], cat)
    assert r.status_code == 409 and r.json()["reason"] == "tournament_full"
    assert (await api.delete(f"/api/tournaments/{made['id']}/players/me", headers=ann.auth)).status_code == 200
    r = await join(api, made["id"], ann)
    assert r.status_code == 409 and r.json()["reason"] in ("tournament_joined", "tournament_full")
    r = await api.delete(f"/api/tournaments/{made['id']}/players/me", headers=cat.auth)
    assert r.status_code == 409 and r.json()["reason"] == "tournament_not_in"
    listed = (await api.get(f"/api/tournaments/{made['id']}")).json()["players"]
    assert {p["player_id"]: p["withdrawn"] for p in listed} == {ann.id: True, bob.id: False}


async def test_the_cap_holds_when_many_join_at_once(api: httpx.AsyncClient) -> None:
    org = await new_person(api, "Org")
    made = await make(api, org, public=True, max_players=5)
    people = [await new_person(api, f"P{i}") for i in range(12)]
    answers = await asyncio.gather(*(join(api, made["id"], p) for p in people))
    assert sorted(r.status_code for r in answers) == [201] * 5 + [409] * 7
    assert len(await players(api, made["id"])) == 5


async def test_only_the_organiser_starts_and_only_once(api: httpx.AsyncClient) -> None:
    org, ann, bob = await new_person(api, "Org"), await new_person(api, "Ann"), await new_person(api, "Bob")
    made = await make(api, org, public=True)
    r = await api.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)
    assert r.status_code == 409  # nobody joined: not enough players
    for p in (ann, bob):
        assert (await join(api, made["id"], p)).status_code == 201
    r = await api.post(f"/api/tournaments/{made['id']}/start", headers=ann.auth)
    assert r.status_code == 403 and r.json()["reason"] == "tournament_organiser"
    assert (await api.get(f"/api/tournaments/{made['id']}")).json()["status"] == "open"
    r = await api.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)
    assert r.status_code == 200 and r.json()["status"] == "running" and r.json()["round"] == 1
    r = await api.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)
    assert r.status_code == 409 and r.json()["reason"] == "tournament_started"


async def test_a_round_robin_with_more_rounds_than_opponents_cannot_start(api: httpx.AsyncClient) -> None:
    org = await new_person(api, "Org")
    made = await make(api, org, format="round_robin", public=True)
    for name in ("Ann", "Bob"):
        assert (await join(api, made["id"], await new_person(api, name))).status_code == 201
    r = await api.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)
    assert r.status_code == 200 and r.json()["rounds_total"] == 1
    late = await new_person(api, "Late")
    r = await join(api, made["id"], late)
    assert r.status_code == 409, r.text  # a round-robin takes no one once started


async def test_a_private_tournament_is_joined_by_its_code_only(api: httpx.AsyncClient) -> None:
    org, ann, eve = await new_person(api, "Org"), await new_person(api, "Ann"), await new_person(api, "Eve")
    made = await make(api, org)
    assert made["invite_url"].endswith(f"/t/{made['code']}")
    r = await join(api, made["id"], eve)
    assert r.status_code == 404 and r.json()["reason"] == "no_tournament"
    assert (await api.get(f"/api/tournaments/{made['id']}", headers=eve.auth)).status_code == 404
    assert (await api.get("/api/tournaments")).json()["items"] == []
    assert (await join(api, made["code"], ann)).status_code == 201
    assert (await api.get(f"/api/tournaments/{made['id']}", headers=ann.auth)).status_code == 200


async def test_the_caps_on_tournaments_organised_hold(api: httpx.AsyncClient) -> None:
    org = await new_person(api, "Org")
    answers = await asyncio.gather(*(api.post("/api/tournaments", json={"name": f"T{i}", "format": "swiss"},
                                              headers=org.auth) for i in range(8)))
    made = [r for r in answers if r.status_code == 201]
    assert len(made) == 5
    assert all(r.json()["reason"] == "tournament_cap_created" for r in answers if r.status_code != 201)
