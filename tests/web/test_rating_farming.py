"""Rating farming with puppets, over a real server and database: a rated live room's turn clock
has a floor (SPITE_RATED_MIN_TURN_SECONDS), and the leaderboard lists only players who have
existed a day and met opponents who had existed a day at the match
(SPITE_LEADERBOARD_MIN_AGE_HOURS)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import update

from app.store.db import make_engine, make_sessions
from app.store.tables import Player, RatingChange, utcnow

from .helpers import Sock, new_account, new_room
from .test_ratings import SHORT, play_to_result, rated_pair


async def test_a_rated_live_room_refuses_a_turn_clock_under_the_minimum(start_server: Any) -> None:
    server = start_server()
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann = await new_account(http, "Ann")
        r = await http.post("/api/rooms", json={"rated": True, "turn_seconds": 3, **SHORT}, headers=ann.auth)
        assert r.status_code == 422 and r.json()["reason"] == "turn_range", r.text
        assert r.json()["params"] == {"min": 15, "max": 3600}
        room = await new_room(http, ann, rated=True, turn_seconds=15, **SHORT)
        assert (await new_room(http, ann, turn_seconds=3, **SHORT))["turn_seconds"] == 3  # unrated: as before
        sock = await Sock.open(server.base, room["code"], ann)
        refused = await sock.error({"type": "configure", "turn_seconds": 3})
        assert (refused["code"], refused["option"], refused["reason"]) == ("bad_options", "turn_seconds", "turn_range")
        await sock.close()


async def _age(db_url: str, player_ids: list[str], *, created: timedelta, rated: timedelta | None = None) -> None:
    """Make these players `created` old, and (if given) their rated matches `rated` ago."""
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s, s.begin():
            now = utcnow()
            await s.execute(update(Player).where(Player.id.in_(player_ids)).values(created_at=now - created))
            if rated is not None:
                await s.execute(update(RatingChange).where(RatingChange.player_id.in_(player_ids))
                                .values(at=now - rated))
    finally:
        await engine.dispose()


async def test_the_leaderboard_counts_only_players_and_opponents_a_day_old(start_server: Any, db_url: str) -> None:
    server = start_server(leaderboard_min_games=1, leaderboard_min_opponents=1)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        farmer, puppet = await new_account(http, "Farmer"), await new_account(http, "Puppet")
        _, socks = await rated_pair(server, http, farmer, puppet, "farm")
        await play_to_result(socks, random.Random(3), loser=1)
        for s in socks:
            await s.close()

        async def board() -> list[str]:
            return [row["player_id"] for row in (await http.get("/api/leaderboard")).json()["items"]]

        async def stands() -> tuple[int, int, bool, float]:
            """The farmer's standing: matches, opponents, listed, hours until old enough."""
            you = (await http.get("/api/leaderboard", headers=farmer.auth)).json()["you"]
            wait = (datetime.fromisoformat(you["old_enough_at"]) - datetime.now(UTC)).total_seconds() / 3600
            return you["games"], you["opponents"], you["listed"], round(wait)

        assert await board() == []  # both made today: nobody is listed
        assert await stands() == (1, 0, False, 24)  # the puppet was new at the match; the farmer is too
        # Both a day and more old now, but the puppet was 10 hours old when the match was rated.
        await _age(db_url, [farmer.id, puppet.id], created=timedelta(hours=30), rated=timedelta(hours=20))
        assert await board() == []
        assert await stands() == (1, 0, False, -6)
        await _age(db_url, [farmer.id, puppet.id], created=timedelta(hours=50))  # 30 hours old at the match
        assert await board() == [farmer.id, puppet.id]
        assert await stands() == (1, 1, True, -26)
        assert (await http.get(f"/api/players/{farmer.id}")).json()["rating"]["games"] == 1  # rated all along
