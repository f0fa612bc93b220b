"""Delta frames (protocol v1.4, "Delta frames") against split views, over real sockets and whole
seeded games: for every receiver (each seat, a spectator), a delta socket's first `state` with
every later `delta` applied in turn equals, version by version, the view a split socket of the
same receiver was sent; every delta's base is the version its socket holds; a delta carries no
card the receiver's whole view lacks. `sync` answers with the whole table, and the deltas go on
from it; a lesson's socket speaks delta too."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from app.lessons.core import LESSONS
from app.rooms.core.delta import apply_delta
from tests.conftest import SQLITE_ONLY

from .helpers import Person, ServerThread, Sock, match_with_bot, new_person, new_room, play_to_end, seat_everyone
from .lesson_helpers import start, walk
from .wire_check import wire_problems

pytestmark = SQLITE_ONLY  # the database is not what this module is about (tests/conftest.py)

Msg = dict[str, Any]
EXTRA = ("events", "match_id", "match_number", "clock", "autoplay", "awards", "next_hand")


async def _open(base: str, code: str, person: Person, view_format: str) -> Sock:
    sock = await Sock.open(base, code, person, hello=False)
    await sock.send({"type": "hello", "token": person.token, "last_v": None, "format": view_format})
    await sock.wait(lambda m: m["type"] == "welcome")
    return sock


def _table(m: Msg) -> bool:
    return m["type"] in ("state", "delta")


def _replayed(sock: Sock, match_id: str | None = None) -> list[tuple[Msg, Msg]]:
    """Each table message of a delta socket with the view it leaves the socket holding: a
    `state` its parts joined, a `delta` applied to the view held (whose version is its base)."""
    held: Msg | None = None
    v: int | None = None
    out = []
    for m in sock.messages:
        if not _table(m) or (match_id is not None and m["match_id"] != match_id):
            continue
        if m["type"] == "state":
            assert "view" not in m
            held = {**m["shared"], **m["own"]}
        else:
            assert held is not None and m["base"] == v, (m["base"], v)
            held = apply_delta(held, m)
        v = m["v"]
        out.append((m, held))
    return out


def _card_ids(value: Any) -> set[int]:
    """Every card id anywhere in a JSON value (a card: an object with `id` and `rank`)."""
    if isinstance(value, dict):
        found = {value["id"]} if "rank" in value and isinstance(value.get("id"), int) else set()
        return found.union(*(_card_ids(x) for x in value.values()))
    if isinstance(value, list):
        return set().union(*(_card_ids(x) for x in value))
    return set()


def _compare(delta: Sock, split: Sock, match_id: str) -> int:
    """Check `delta`'s tables against `split`'s, version by version; the number of deltas."""
    replayed = _replayed(delta, match_id)
    last_split = {m["v"]: m for m in split.states() if m["match_id"] == match_id}
    last_delta: dict[int, tuple[Msg, Msg]] = {m["v"]: (m, view) for m, view in replayed}
    assert set(last_delta) == set(last_split)
    for m, view in replayed:  # nothing in a delta that the receiver's whole view then lacks
        if m["type"] == "delta":
            parts = [m["shared"], m["players"], m["own"]]
            assert _card_ids(parts) <= _card_ids(view), m["v"]
    for v, s in last_split.items():
        m, view = last_delta[v]
        assert view == {**s["shared"], **s["own"]}, v
        assert all(m[k] == s[k] for k in EXTRA if k != "events"), v
    for m in delta.messages:
        assert wire_problems(m, delta=True) == [], (m["type"], wire_problems(m, delta=True))
    return sum(1 for m, _ in replayed if m["type"] == "delta")


async def _play(server: ServerThread, http: httpx.AsyncClient, preset: str, seats: int, teams: str) -> None:
    people = [await new_person(http, f"P{i}") for i in range(seats)]
    watcher = await new_person(http, "Watcher")
    options = {"payoff_size": 5} | ({"teams": teams} if teams != "none" else {})
    room = await new_room(http, people[0], preset=preset, seats=seats, options=options, seed=f"delta-{preset}")
    code = room["code"]
    full = [await Sock.open(server.base, code, p) for p in people]
    split = [await _open(server.base, code, p, "split") for p in [*people, watcher]]
    delta = [await _open(server.base, code, p, "delta") for p in [*people, watcher]]
    await seat_everyone(full[0], full)
    await full[0].send({"type": "start"})
    last = await play_to_end(full, random.Random(11), watchers=split)
    match_id, end = last["match_id"], last["v"]
    for s in delta:
        await s.wait(lambda m: _table(m) and m["match_id"] == match_id and m["v"] >= end)
    for d, s in zip(delta, split, strict=True):
        assert _compare(d, s, match_id) > end // 2  # mostly deltas: the whole only the first time


@pytest.mark.parametrize("preset", ["standard", "hoyle", "wikipedia"])
async def test_deltas_replay_the_split_views_for_two_seats_and_a_spectator(
        server: ServerThread, http: httpx.AsyncClient, preset: str) -> None:
    await _play(server, http, preset, 2, "none")


async def test_deltas_replay_the_split_views_in_partnerships(server: ServerThread, http: httpx.AsyncClient) -> None:
    await _play(server, http, "standard", 4, "pairs")


async def _turn(sock: Sock) -> Msg:
    """The full socket's latest state once its seat may move (or the hand is over)."""
    for _ in range(600):
        last = sock.last_state()
        if last is not None and (last["view"]["legal_moves"] or last["view"]["status"] != "playing"):
            return last
        await asyncio.sleep(0.05)
    raise AssertionError("never my turn")


async def test_sync_sends_the_whole_table_and_deltas_follow_it(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    code, match_id, host = await match_with_bot(server.base, http, ann)
    sock = await _open(server.base, code, ann, "delta")
    assert (await sock.wait(_table))["type"] == "state"  # joining: the whole table
    rng = random.Random(3)
    followed = 0
    synced: Msg | None = None
    for _ in range(8):
        last = await _turn(host)
        if last["view"]["status"] != "playing":
            break
        at = len(sock.messages)
        await host.send({"type": "move", "id": host.next_id(), "move": rng.choice(last["view"]["legal_moves"])})
        await sock.wait(lambda m, v=last["v"]: _table(m) and m["v"] > v, start=at, timeout=30)
        if synced is not None:  # a synced socket holds the room's last table: the next change is a delta
            nxt = await sock.wait(_table, start=sock.messages.index(synced) + 1)
            assert nxt["type"] == "delta" and nxt["base"] == synced["v"], nxt
            followed += 1
        synced = await sock.request({"type": "sync"}, lambda m: m["type"] == "state")
        assert synced["events"] == [] and "view" not in synced
    assert followed >= 4
    full = {m["v"]: m["view"] for m in host.states() if m["match_id"] == match_id}
    replayed = _replayed(sock, match_id)
    checked = 0
    for m, view in replayed:
        if m["v"] in full and m is [x for x, _ in replayed if x["v"] == m["v"]][-1]:
            await host.wait(lambda x, v=m["v"]: x["type"] == "state" and x["v"] >= v)
            assert view == [x["view"] for x in host.states() if x["v"] == m["v"]][-1], m["v"]
            checked += 1
    assert checked > 8


async def test_a_full_socket_asking_sync_gets_its_own_format(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    code, _, host = await match_with_bot(server.base, http, ann)
    got = await host.request({"type": "sync"}, lambda m: m["type"] in ("state", "error"))
    assert got["type"] == "state" and "view" in got
    assert not [m for m in host.messages if m["type"] == "delta"]


@pytest.mark.parametrize("lesson_id", [LESSONS[0].id, LESSONS[-1].id])
async def test_a_lessons_delta_socket_replays_its_split_views(server: ServerThread, http: httpx.AsyncClient,
                                                              lesson_id: str) -> None:
    ann = await new_person(http, "Ann")
    code = await start(http, ann, lesson_id)
    split = await _open(server.base, code, ann, "split")
    delta = await _open(server.base, code, ann, "delta")
    await walk(split)
    end = split.states()[-1]["v"]
    await delta.wait(lambda m: _table(m) and m["v"] >= end)
    synced = await delta.request({"type": "sync"}, lambda m: m["type"] == "state")
    assert synced["v"] == end
    replayed = _replayed(delta)
    by_v = {m["v"]: {**m["shared"], **m["own"]} for m in split.states()}
    assert sum(1 for m, _ in replayed if m["type"] == "delta") >= len(by_v) - 1 > 0
    for m, view in replayed:
        assert view == by_v[m["v"]], m["v"]
