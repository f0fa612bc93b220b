"""Your games names who you play with and against: a free seat of a waiting room is nobody (no
name, counted by the page), a bot says its level, partners their team; each room is listed once,
and a match being played says when it started, so two games against the same bot differ."""

from __future__ import annotations

from typing import Any

import httpx

from .helpers import Sock, match_with_bot, new_person, new_room, seat_everyone


async def test_your_games_names_seats_teams_and_starts_each_room_once(start_server: Any) -> None:
    server = start_server()
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob, cat, dan = [await new_person(http, n) for n in ("Ann", "Bob", "Cat", "Dan")]
        waiting = (await new_room(http, ann, seats=2, sit=True))["code"]
        bots = [await match_with_bot(server.base, http, ann) for _ in range(2)]
        pairs = (await new_room(http, ann, seats=4, options={"teams": "pairs"}))["code"]
        socks = [await Sock.open(server.base, pairs, p) for p in (ann, bob, cat, dan)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        await socks[0].state_at(0)
        body = (await http.get("/api/players/me/games", headers=ann.auth)).json()
        items = {i["code"]: i for i in body["items"]}
        assert len(items) == len(body["items"]) == 4  # each room once
        assert len({i["match_id"] for i in body["items"] if i["match_id"]}) == 3
        wait = items[waiting]
        assert wait["status"] == "waiting" and wait["started_at"] is None
        assert wait["seats"] == [{"seat": 0, "name": "Ann", "bot": None, "team": None},
                                 {"seat": 1, "name": None, "bot": None, "team": None}]  # a free seat
        for code, match_id, _sock in bots:
            item = items[code]
            assert item["match_id"] == match_id and item["started_at"] is not None
            assert item["seats"][1] == {"seat": 1, "name": "Easy bot 2", "bot": "easy", "team": None}
        assert items[bots[0][0]]["started_at"] <= items[bots[1][0]]["started_at"]
        teams = [(s["name"], s["team"]) for s in items[pairs]["seats"]]
        assert teams == [("Ann", 0), ("Bob", 1), ("Cat", 0), ("Dan", 1)]  # Cat is Ann's partner
        for s in (*socks, *(b[2] for b in bots)):
            await s.close()
