"""Split views (protocol v1.1) against full views, over real sockets and whole seeded games of
every preset: for every receiver (each seat, a spectator) and every version, `{**shared, **own}`
on a split socket equals, field for field, `view` on a full socket of the same receiver; `shared`
is the same for every receiver of a version; `own` carries only the receiver's own cards."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from app.engine import PRESETS
from tests.conftest import SQLITE_ONLY

from .helpers import Person, ServerThread, Sock, new_person, new_room, play_to_end
from .wire_check import wire_problems

pytestmark = SQLITE_ONLY  # the database is not what this module is about (tests/conftest.py)

OWN = {"you", "hand", "own_side", "legal_moves"}


async def _split(base: str, code: str, person: Person) -> Sock:
    sock = await Sock.open(base, code, person, hello=False)
    await sock.send({"type": "hello", "token": person.token, "last_v": None, "format": "split"})
    await sock.wait(lambda m: m["type"] == "welcome")
    return sock


def _by_version(sock: Sock, match_id: str) -> dict[int, dict[str, Any]]:
    return {m["v"]: m for m in sock.states() if m["match_id"] == match_id}


async def _play(server: ServerThread, http: httpx.AsyncClient, preset: str, seats: int, teams: str) -> None:
    people = [await new_person(http, f"P{i}") for i in range(seats)]
    watcher = await new_person(http, "Watcher")
    options = {"payoff_size": 5} | ({"teams": teams} if teams != "none" else {})
    room = await new_room(http, people[0], preset=preset, seats=seats, options=options, seed=f"split-{preset}")
    code = room["code"]
    full = [await Sock.open(server.base, code, p) for p in people]
    split = [await _split(server.base, code, p) for p in people]
    full_w, split_w = await Sock.open(server.base, code, watcher), await _split(server.base, code, watcher)
    for i, s in enumerate(full):
        await s.room({"type": "sit", "seat": i}, lambda r, i=i, s=s: r["seats"][i]["player_id"] == s.person.id)
    await full[0].send({"type": "start"})
    last = await play_to_end(full, random.Random(7), watchers=[*split, full_w, split_w])
    match_id, end = last["match_id"], last["v"]
    for s in [*split, split_w]:
        await s.state_at(end, match_id=match_id)
    for s in [*full, full_w]:  # every message is exactly its one schema (app/web/wire/room.py)
        assert [p for m in s.messages for p in wire_problems(m)] == []
    for s in [*split, split_w]:
        assert [p for m in s.messages for p in wire_problems(m, split=True)] == []
    receivers = [*zip(full, split, strict=True), (full_w, split_w)]
    seen = [(_by_version(f, match_id), _by_version(s, match_id)) for f, s in receivers]
    versions = set(seen[0][1])
    assert end in versions and len(versions) > 5
    for v in sorted(versions):
        shared = None
        hands = [{c["id"] for c in splits[v]["own"]["hand"]} for _, splits in seen[:seats] if v in splits]
        assert sum(len(h) for h in hands) == len(set().union(*hands))  # nobody is sent another's cards
        for seat, (fulls, splits) in enumerate(seen):
            if v not in fulls or v not in splits:
                continue  # a version one socket skipped (sent together with the next)
            f, s = fulls[v], splits[v]
            assert "view" not in s and "shared" not in f
            assert set(s["own"]) == OWN and not OWN & set(s["shared"])
            assert {**s["shared"], **s["own"]} == f["view"], (preset, v, seat)
            assert s["events"] == f["events"] and s["clock"] == f["clock"] and s["autoplay"] == f["autoplay"]
            if shared is None:
                shared = s["shared"]
            assert s["shared"] == shared  # one public table per version, whoever receives it
            you = seat if seat < seats else None
            assert s["own"]["you"] == you
            if you is None:
                assert s["own"]["hand"] == [] and s["own"]["legal_moves"] == [] and s["own"]["own_side"] is None
            else:  # exactly the receiver's own cards: as many as the table says it holds
                assert len(s["own"]["hand"]) == s["shared"]["players"][you]["hand_count"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_split_and_full_views_agree_for_two_seats_and_a_spectator(
        server: ServerThread, http: httpx.AsyncClient, preset: str) -> None:
    await _play(server, http, preset, 2, "none")


async def test_split_and_full_views_agree_in_partnerships(server: ServerThread, http: httpx.AsyncClient) -> None:
    await _play(server, http, "standard", 4, "pairs")
