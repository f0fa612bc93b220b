"""Turn-based rooms over real sockets and a real database: the room says its pace, the turn's
bounds are checked, and a deadline that passed while the only server was killed with SIGKILL
is played (`by: "deadline"`) as soon as a server is up again, with nobody connected."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import httpx
from sqlalchemy import select

from app.store.db import make_engine, make_sessions
from app.store.tables import Match as MatchRow
from app.store.tables import Move as MoveRow

from .helpers import CROWD_ENV, ServerProcess, Sock, new_person, new_room, seat_everyone
from .jump_clock import JumpClock

T = TypeVar("T")


async def deadline_moves(db_url: str, match_id: str) -> list[tuple[int, int, str]]:
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            rows = (await s.execute(select(MoveRow.seq, MoveRow.seat, MoveRow.actor)
                                    .where(MoveRow.match_id == match_id).order_by(MoveRow.seq))).all()
            return [(seq, seat, actor) for seq, seat, actor in rows]
    finally:
        await engine.dispose()


async def match_row(db_url: str, match_id: str) -> MatchRow:
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            row = await s.get(MatchRow, match_id)
            assert row is not None
            return row
    finally:
        await engine.dispose()


async def move_deadline_back(db_url: str, match_id: str, seconds: float) -> None:
    """Bring the match's stored deadline `seconds` nearer, as if that much time had passed."""
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s, s.begin():
            row = await s.get(MatchRow, match_id)
            assert row is not None and row.wake_at is not None and row.turn_deadline is not None
            row.wake_at -= timedelta(seconds=seconds)
            row.turn_deadline -= timedelta(seconds=seconds)
    finally:
        await engine.dispose()


async def eventually(check: Callable[[], Awaitable[T]], tries: int = 200) -> T:
    """`check()` once it is true (tried every 0.1 s, `tries` times at most)."""
    for _ in range(tries):
        got = await check()
        if got:
            return got
        await asyncio.sleep(0.1)
    raise AssertionError("never came true")


async def test_turn_based_rooms_say_their_pace_and_check_their_turn(api: httpx.AsyncClient) -> None:
    ann = await new_person(api, "Ann")
    live = await new_room(api, ann, seats=2)
    assert live["pace"] == "live"
    room = await new_room(api, ann, seats=2, pace="turn_based")
    assert room["pace"] == "turn_based" and room["turn_seconds"] == 86_400
    for bad, option in (({"pace": "slow"}, None), ({"pace": "turn_based", "turn_seconds": 60}, "turn_seconds"),
                        ({"pace": "turn_based", "turn_seconds": 15 * 86_400}, "turn_seconds")):
        r = await api.post("/api/rooms", json={"seats": 2, **bad}, headers=ann.auth)
        assert r.status_code == 422, r.text
        if option:
            assert "turn_seconds" in r.text
    two_weeks = await new_room(api, ann, seats=2, pace="turn_based", turn_seconds=14 * 86_400)
    assert two_weeks["turn_seconds"] == 14 * 86_400
    got = (await api.get(f"/api/rooms/{room['code']}")).json()
    assert got["pace"] == "turn_based"


async def test_a_deadline_that_passed_while_the_server_was_killed_is_played_once_it_is_up(
        db_url: str, tmp_path: Any) -> None:
    env = {"SPITE_DATABASE_URL": db_url, "SPITE_SEEDED_ROOMS": "true", "SPITE_BOT_WORKERS": "1",
           "SPITE_STATIC_DIR": str(tmp_path), "SPITE_RATE_PER_SECOND": "1000", "SPITE_RATE_BURST": "1000",
           "SPITE_TURN_BASED_MIN_SECONDS": "2", "SPITE_LEASE_SECONDS": "1.5", "SPITE_DEADLINE_HORIZON": "30",
           "SPITE_BOT_DELAY": "0.05", **CROWD_ENV}
    first = ServerProcess(env).start()
    try:
        async with httpx.AsyncClient(base_url=first.base, timeout=30) as http:
            people = [await new_person(http, "Ann"), await new_person(http, "Bob")]
            room = await new_room(http, people[0], preset="short", seats=2, seed="tb-kill", pace="turn_based",
                                  turn_seconds=4)
            code = room["code"]
            socks = [await Sock.open(first.base, code, p) for p in people]
            await seat_everyone(socks[0], socks)
            await socks[0].send({"type": "start"})
            state = await socks[0].state_at(0)
            match_id = state["match_id"]
            seat = state["view"]["turn"]
            for s in socks:
                await s.close()
            first.kill()  # SIGKILL: no goodbye, its lease (if any) simply lapses
    finally:
        first.kill()
    assert await deadline_moves(db_url, match_id) == []
    row = await match_row(db_url, match_id)
    assert row.wake_at is not None and row.turn_deadline is not None  # the deadline is stored with the match
    await move_deadline_back(db_url, match_id, 5)  # the deadline passes while no server is up
    second = ServerProcess(env).start()
    try:
        moves = await eventually(lambda: deadline_moves(db_url, match_id))
        assert moves[0][1] == seat and moves[0][2] == "deadline"
        # Nobody is connected: the server goes on playing that seat's turn until it passes.
        row = await eventually(lambda: _turn_passed(db_url, match_id, seat))
        assert row.wake_at is not None and row.wake_at.timestamp() > time.time() + 1  # the next seat's whole turn
        moves = await deadline_moves(db_url, match_id)
        turn_moves = [m for m in moves if m[1] == seat]
        assert all(actor == "deadline" for _, _, actor in turn_moves)
        async with httpx.AsyncClient(base_url=second.base, timeout=30) as http:
            watcher = Sock.open(second.base, code, people[seat])
            sock = await watcher
            st = await sock.wait(lambda m: m["type"] == "state")
            assert st["v"] == len(moves)
            await sock.close()
            assert (await http.get(f"/api/rooms/{code}")).json()["pace"] == "turn_based"
    finally:
        second.stop()


async def _turn_passed(db_url: str, match_id: str, seat: int) -> MatchRow | None:
    row = await match_row(db_url, match_id)
    return row if row.turn_seat is not None and row.turn_seat != seat else None


async def test_your_games_lists_every_room_you_sit_in_your_turns_first_and_the_cap_holds(
        start_server: Any) -> None:
    server = start_server(max_turn_based=2, turn_based_min_seconds=2)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob, cat = [await new_person(http, n) for n in ("Ann", "Bob", "Cat")]
        empty = await http.get("/api/players/me/games", headers=ann.auth)
        assert empty.status_code == 200 and empty.json() == {"items": [], "your_turn": 0}
        assert (await http.get("/api/players/me/games")).status_code == 401
        played = (await new_room(http, ann, preset="short", seats=2, seed="games", pace="turn_based",
                                 turn_seconds=3600))["code"]
        socks = [await Sock.open(server.base, played, p) for p in (ann, bob)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        state = await socks[0].state_at(0)
        turn = state["view"]["turn"]
        waiting = (await new_room(http, ann, seats=2, pace="turn_based", turn_seconds=3600))["code"]
        w = await Sock.open(server.base, waiting, ann)
        await w.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == ann.id)
        # Ann sits in two turn-based rooms: the cap (2) refuses a third, by REST and by a seat.
        r = await http.post("/api/rooms", json={"seats": 2, "pace": "turn_based"}, headers=ann.auth)
        assert r.status_code == 429 and "at most 2" in r.text
        third = (await new_room(http, cat, seats=2, pace="turn_based", turn_seconds=3600))["code"]
        t = await Sock.open(server.base, third, ann)
        refused = await t.error({"type": "sit", "seat": 0})
        assert refused["code"] == "rate_limited" and "at most 2" in refused["message"]
        live = (await new_room(http, cat, seats=2))["code"]  # live rooms are not capped by it
        lv = await Sock.open(server.base, live, ann)
        await lv.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)

        body = (await http.get("/api/players/me/games", headers=ann.auth)).json()
        codes = [i["code"] for i in body["items"]]
        assert sorted(codes) == sorted([played, waiting, live])
        first = body["items"][0]
        mine = next(i for i in body["items"] if i["code"] == played)
        assert mine["pace"] == "turn_based" and mine["status"] == "playing" and mine["turn_seat"] == turn
        assert mine["your_turn"] == (turn == 0) and mine["you"] == 0 and mine["match_id"] == state["match_id"]
        assert [s["name"] for s in mine["seats"]] == ["Ann", "Bob"] and mine["deadline"] is not None
        assert mine["url"] == f"/r/{played}"
        assert body["your_turn"] == (1 if turn == 0 else 0)
        if turn == 0:
            assert first["code"] == played
        bob_body = (await http.get("/api/players/me/games", headers=bob.auth)).json()
        assert [i["code"] for i in bob_body["items"]] == [played]
        assert bob_body["your_turn"] == (1 if turn == 1 else 0)
        assert bob_body["items"][0]["your_turn"] == (turn == 1)
        # After the mover's turn passes, the other one's count goes up.
        mover = socks[turn]
        v = state["v"]
        while True:
            st = await mover.state_at(v)
            if st["view"]["turn"] != turn or not st["view"]["legal_moves"]:
                break
            await mover.send({"type": "move", "id": mover.next_id(), "move": st["view"]["legal_moves"][-1]})
            v += 1
        other = bob if turn == 0 else ann
        assert (await http.get("/api/players/me/games", headers=other.auth)).json()["your_turn"] == 1
        for s in (*socks, w, t, lv):
            await s.close()


async def test_vacation_stops_the_deadline_waiting_for_you_and_ending_it_lets_it_act(
        start_clocked: Any, clock: JumpClock, db_url: str) -> None:
    from .helpers import new_account

    server = await start_clocked(turn_based_min_seconds=2, vacation_days=5, lease_seconds=1.5, deadline_horizon=30)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_account(http, "Ann", "ann_tb"), await new_account(http, "Bob", "bob_tb")
        guest = await new_person(http, "Gus")
        assert (await http.put("/api/players/me/vacation", json={"days": 1}, headers=guest.auth)).status_code == 403
        for bad in ({"days": 0}, {"days": 6}, {"days": "2"}, {}):
            r = await http.put("/api/players/me/vacation", json=bad, headers=ann.auth)
            assert r.status_code == 422, (bad, r.text)
        code = (await new_room(http, ann, preset="short", seats=2, seed="vacation", pace="turn_based",
                               turn_seconds=3))["code"]
        socks = [await Sock.open(server.base, code, p) for p in (ann, bob)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        state = await socks[0].state_at(0)
        match_id, turn = state["match_id"], state["view"]["turn"]
        away = (ann, bob)[turn]
        r = await http.put("/api/players/me/vacation", json={"days": 2}, headers=away.auth)
        assert r.status_code == 200 and r.json()["days_left"] == 3 and r.json()["until"] is not None
        room = (await http.get(f"/api/rooms/{code}")).json()
        assert room["seats"][turn]["vacation"] is True and room["seats"][1 - turn]["vacation"] is False
        row = await match_row(db_url, match_id)
        assert row.wake_at is not None and row.wake_at.timestamp() > time.time() + 2 * 86_400 - 60
        for s in socks:
            await s.close()
        await clock.advance(5)  # the 3-second deadline would have acted by now
        assert [m for m in await deadline_moves(db_url, match_id) if m[2] == "deadline"] == []
        r = await http.put("/api/players/me/vacation", json={"days": 5}, headers=away.auth)
        # 2 taken, of which one whole day not yet used comes back if replaced: 1 + 5 > 5
        assert r.status_code == 409 and "4 vacation days left" in r.text
        # Ending it early gives the waiting turn at most a whole turn from now: it then acts.
        assert (await http.delete("/api/players/me/vacation", headers=away.auth)).status_code == 204
        got = (await http.get("/api/players/me/vacation", headers=away.auth)).json()
        assert got["until"] is None and got["days_left"] == 4  # the whole day not used came back
        await clock.advance(3)
        moves = await eventually(lambda: deadline_moves(db_url, match_id))
        assert moves[0][1] == turn and moves[0][2] == "deadline"


async def test_a_hosts_rooms_count_against_the_cap_seated_or_not_and_bots_alone_never_start(
        start_server: Any) -> None:
    """Hardening 3, #1: a guest hosted turn-based tables of bots without sitting, past the cap,
    and started them to play for nobody. Hosted rooms count whether or not the host sits; a
    table without a person does not start."""
    server = start_server(max_turn_based=2, turn_based_min_seconds=2)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        dan = await new_person(http, "Dan")
        codes = [(await new_room(http, dan, preset="short", seats=2, pace="turn_based",
                                 turn_seconds=3600, options={"payoff_size": 5, "match_target": 10_000}))["code"]
                 for _ in range(2)]
        r = await http.post("/api/rooms", json={"seats": 2, "pace": "turn_based"}, headers=dan.auth)
        assert r.status_code == 429 and "at most 2" in r.text
        host = await Sock.open(server.base, codes[0], dan)
        for seat in (0, 1):
            await host.room({"type": "add_bot", "seat": seat}, lambda r, s=seat: r["seats"][s]["bot"] is not None)
        refused = await host.error({"type": "start"})
        assert refused["code"] == "not_allowed_now" and refused["reason"] == "need_person"
        await host.room({"type": "remove_bot", "seat": 0}, lambda r: r["seats"][0] is None or not r["seats"][0]["bot"])
        # Sitting in a room one hosts adds nothing to the count: not refused at the cap.
        await host.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == dan.id)
        await host.send({"type": "start"})
        assert (await host.state_at(0))["view"]["you"] == 0
        await host.close()


async def test_a_vacation_ended_early_gives_back_the_time_left_not_a_fresh_turn(
        start_clocked: Any, db_url: str) -> None:
    """A 14-day turn with an hour left: a vacation taken (and one taken over it) then ended at
    once leaves the turn its hour, moved on by no more than the time the vacation lasted, never
    a fresh 14 days (a stall of up to 196 days a year)."""
    from datetime import UTC, datetime

    from .helpers import new_account

    server = await start_clocked(vacation_days=14, lease_seconds=1.5, deadline_horizon=30)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, bob = await new_account(http, "Ann", "ann_vt"), await new_account(http, "Bob", "bob_vt")
        code = (await new_room(http, ann, preset="short", seats=2, pace="turn_based",
                               turn_seconds=14 * 86_400))["code"]
        socks = [await Sock.open(server.base, code, p) for p in (ann, bob)]
        await seat_everyone(socks[0], socks)
        await socks[0].send({"type": "start"})
        state = await socks[0].state_at(0)
        match_id, away = state["match_id"], (ann, bob)[state["view"]["turn"]]
        await move_deadline_back(db_url, match_id, 14 * 86_400 - 3600)  # an hour of the turn left
        before = (await match_row(db_url, match_id)).turn_deadline
        assert before is not None
        started = datetime.now(UTC)
        assert (await http.put("/api/players/me/vacation", json={"days": 2}, headers=away.auth)).status_code == 200
        during = (await match_row(db_url, match_id)).turn_deadline
        assert during is not None and during > before + timedelta(days=2) - timedelta(minutes=1)
        assert (await http.put("/api/players/me/vacation", json={"days": 1}, headers=away.auth)).status_code == 200
        assert (await http.delete("/api/players/me/vacation", headers=away.auth)).status_code == 204
        ended = datetime.now(UTC)
        after = await match_row(db_url, match_id)
        assert after.turn_deadline is not None and after.wake_at == after.turn_deadline
        assert before <= after.turn_deadline <= before + (ended - started), (before, after.turn_deadline)
        for s in socks:
            await s.close()
