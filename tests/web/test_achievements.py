"""Achievements over real sockets: earned when the hand or match that earns them commits,
announced in that state's `awards`, listed (all of them, `earned_at` null where not earned)
by GET /api/players/{id}/achievements, each earned once, never by a bot."""

from __future__ import annotations

import random

import httpx

from .helpers import ServerThread, Sock, new_person, new_room, seat_everyone
from .test_ratings import SHORT, play_to_result


async def test_a_win_earns_its_achievements_once_and_says_so(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    listed = (await http.get(f"/api/players/{ann.id}/achievements")).json()["items"]
    assert len(listed) >= 12 and all(a["earned_at"] is None for a in listed)
    assert {"first_win", "no_side_stack", "long_haul", "partnership_win", "giant_slayer", "comeback"} <= {
        a["key"] for a in listed}
    room = await new_room(http, ann, seed="achieve-3", **SHORT)
    socks = [await Sock.open(server.base, room["code"], p) for p in (ann, bob)]
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    playing = await socks[0].state_at(0)
    assert playing["awards"] is None
    last = await play_to_result(socks, random.Random(3), loser=1)
    assert last["view"]["result"]["match_winners"] == [0]
    mine = {a["key"]: a for a in last["awards"]["achievements"] if a["player_id"] == ann.id}
    assert {"first_hand", "first_win"} <= set(mine)
    assert mine["first_win"]["name"] and mine["first_win"]["seat"] == 0 and mine["first_win"]["description"]
    assert last["awards"]["ratings"] == []  # not a rated room
    got = {a["key"]: a for a in (await http.get(f"/api/players/{ann.id}/achievements")).json()["items"]}
    assert got["first_win"]["earned_at"] is not None and got["first_win"]["match_id"] == last["match_id"]
    assert got["partnership_win"]["earned_at"] is None
    bobs = {a["key"]: a["earned_at"] for a in (await http.get(f"/api/players/{bob.id}/achievements")).json()["items"]}
    assert bobs["first_win"] is None
    # The rematch, won again: nothing new to announce for what Ann already holds.
    await socks[0].send({"type": "rematch"})  # an offer, which the other accepts
    await socks[1].wait(lambda m: m["type"] == "room" and m["room"].get("rematch") is not None)
    await socks[1].send({"type": "rematch"})
    await socks[0].wait(lambda m: m["type"] == "state" and m["match_id"] != last["match_id"])
    again = await play_to_result(socks, random.Random(4), loser=1)
    assert again["view"]["result"]["match_winners"] == [0]
    assert not {"first_hand", "first_win"} & {a["key"] for a in again["awards"]["achievements"]
                                              if a["player_id"] == ann.id}
    after = {a["key"]: a for a in (await http.get(f"/api/players/{ann.id}/achievements")).json()["items"]}
    assert after["first_win"] == got["first_win"]
    assert (await http.get("/api/players/nobody/achievements")).status_code == 404


async def test_a_bot_earns_nothing(server: ServerThread, http: httpx.AsyncClient) -> None:
    """(Beating a Hard bot is `giant_slayer`: tests/rooms/test_achievements.py checks it over many games.)"""
    ann = await new_person(http, "Ann")
    room = await new_room(http, ann, seed="bots-earn-nothing", **SHORT)
    sock = await Sock.open(server.base, room["code"], ann)
    await sock.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    await sock.room({"type": "add_bot", "seat": 1, "level": "easy"}, lambda r: r["seats"][1]["bot"] == "easy")
    await sock.send({"type": "start"})
    await sock.state_at(0)
    last = await play_to_result([sock], random.Random(5))
    got = last["awards"]["achievements"]
    assert all(a["player_id"] == ann.id and a["seat"] == 0 for a in got)
    assert ("first_win" in {a["key"] for a in got}) == (last["view"]["result"]["match_winners"] == [0])
    if last["view"]["result"]["match_winners"] == [1]:
        assert got == [] or all(a["key"] in ("on_a_roll", "kings_ransom") for a in got)
