"""Tournaments played to the end through real sockets: 16 test players, each with a lobby socket,
are told of their tables (`tournament`), sit down at them over the room socket and play each
match from `view.legal_moves`, round after round, on SQLite and PostgreSQL; the runner pairs,
makes the rooms, collects the results and ends the tournament."""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread, new_person
from .social_helpers import lobby
from .tournament_helpers import FAST, Tables, make, read, run_to_the_end


async def test_a_16_player_swiss_is_played_to_the_end_live(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**FAST)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        organiser = await new_person(http, "Org")
        made = await make(http, organiser, format="swiss")
        people = [await new_person(http, f"P{i:02d}") for i in range(16)]
        lobbies = {p.id: await lobby(server.base, p) for p in people}
        for p in people:  # from the invite link
            r = await http.post(f"/api/tournaments/{made['code']}/players", headers=p.auth)
            assert r.status_code == 201, r.text
        r = await http.post(f"/api/tournaments/{made['id']}/start", headers=organiser.auth)
        assert r.status_code == 200, r.text
        done = await run_to_the_end(http, made["code"], Tables(server.base, {p.id: p for p in people},
                                                             random.Random(16)))
        assert done["round"] == 4 == done["rounds_total"]  # ceil(log2 16)
        assert len(done["rounds"]) == 4 and all(r["status"] == "over" for r in done["rounds"])
        met: set[frozenset[str]] = set()
        for rnd in done["rounds"]:
            assert len(rnd["tables"]) == 8 and rnd["byes"] == []
            for table in rnd["tables"]:
                pair = frozenset(s["player_id"] for s in table["seats"])
                assert pair not in met, "no two players meet twice"
                met.add(pair)
                assert sorted(table["result"]["scores"]) in ([0.0, 1.0], [0.5, 0.5])
        points = sorted((p["points"] for p in done["players"]), reverse=True)
        assert sum(points) == 32  # one point a table, 8 tables a round, 4 rounds
        assert done["players"][0]["rank"] == 1 and points[0] >= points[-1]
        for p in people:  # each player was told of each of their four tables on the lobby socket
            told = [m for m in lobbies[p.id].messages if m["type"] == "tournament"]
            rooms = {t["room"] for rnd in done["rounds"] for t in rnd["tables"]
                     if p.id in {s["player_id"] for s in t["seats"]}}
            assert {m["room"] for m in told} == rooms and len(rooms) == 4
            assert any(m["type"] == "standings" and m["id"] == made["id"] for m in lobbies[p.id].messages)
        for s in lobbies.values():
            await s.close()
        for row in done["players"]:  # the achievements of a first tournament and of a tournament won
            got = (await http.get(f"/api/players/{row['player_id']}/achievements")).json()["items"]
            earned = {a["key"] for a in got if a["earned_at"] is not None}
            assert "first_tournament" in earned
            assert ("tournament_won" in earned) == (row["rank"] == 1)


@SQLITE_ONLY  # the store's part is the same as the 16-player Swiss's, run on both
async def test_a_table_nobody_plays_is_ended_and_the_tournament_ends(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(tournament_idle_seconds=1, **FAST)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        org = await new_person(http, "Org")
        made = await make(http, org, format="swiss", rounds=1, public=True)
        for name in ("Ann", "Bob"):
            p = await new_person(http, name)
            assert (await http.post(f"/api/tournaments/{made['id']}/players", headers=p.auth)).status_code == 201
        assert (await http.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)).status_code == 200
        done = await run_to_the_end(http, made["id"], Tables(server.base, {}, random.Random(1)), timeout=60,
                                    play=False)
        table = done["rounds"][0]["tables"][0]
        assert table["result"]["scores"] == [0.0, 0.0] and [p["points"] for p in done["players"]] == [0.0, 0.0]


@SQLITE_ONLY  # the store's part is the same as the 16-player Swiss's, run on both
async def test_a_player_who_withdraws_mid_round_loses_the_table_and_is_not_paired_again(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**FAST)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        org = await new_person(http, "Org")
        made = await make(http, org, format="swiss", rounds=2, public=True)
        people = {p.id: p for p in [await new_person(http, n) for n in ("Ann", "Bob", "Cat", "Dan")]}
        for p in people.values():
            assert (await http.post(f"/api/tournaments/{made['id']}/players", headers=p.auth)).status_code == 201
        assert (await http.post(f"/api/tournaments/{made['id']}/start", headers=org.auth)).status_code == 200
        first = None
        while first is None:
            t = await read(http, made["id"])
            tables = [tb for tb in t["rounds"][0]["tables"] if tb["room"]] if t["rounds"] else []
            first = tables[0] if len(tables) == 2 else None
            await asyncio.sleep(0.05)
        quitter = first["seats"][0]["player_id"]
        r = await http.delete(f"/api/tournaments/{made['id']}/players/me", headers=people[quitter].auth)
        assert r.status_code == 200, r.text
        stay = {pid: p for pid, p in people.items() if pid != quitter}
        done = await run_to_the_end(http, made["id"], Tables(server.base, stay, random.Random(2),
                                                             skip={first["room"]}))
        lost = next(tb for tb in done["rounds"][0]["tables"] if tb["room"] == first["room"])
        assert lost["result"]["scores"] == [0.0, 1.0]
        assert all(quitter not in {s["player_id"] for s in tb["seats"]} for tb in done["rounds"][1]["tables"])
        assert quitter in done["rounds"][1]["byes"] or len(done["rounds"][1]["tables"]) == 1
        assert next(p for p in done["players"] if p["player_id"] == quitter)["withdrawn"] is True
