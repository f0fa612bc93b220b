"""Exactly-once rating: a server killed with SIGKILL right around the commit of a rated
match's last move, and restarted, has rated that match once: one history row per player,
whether the move was committed before the kill (and never answered) or is resent after."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
from sqlalchemy import select

from app.store.db import make_engine, make_sessions
from app.store.tables import Rating, RatingChange

from .helpers import CROWD_ENV, Person, ServerProcess, Sock, new_account, new_room, pick, seat_everyone


async def _to_the_last_move(socks: list[Sock], rng: random.Random) -> tuple[int, dict[str, Any], str, int]:
    """Play until a seat is about to play its last pay-off card; returns the version before
    it, the move, its id and the seat."""
    v = max(st["v"] for s in socks for st in s.states())
    for _ in range(3000):
        latest = [await s.state_at(v) for s in socks]
        view = latest[0]["view"]
        assert view["status"] == "playing", f"the match ended before its last pay-off card: {view['result']}"
        mover = next(i for i, st in enumerate(latest) if st["view"]["legal_moves"])
        moves = latest[mover]["view"]["legal_moves"]
        last = [m for m in moves if m["kind"] == "play" and m["from"] == f"payoff:{mover}"]
        if last and view["players"][mover]["payoff_count"] == 1:
            return v, last[0], socks[mover].next_id(), mover
        move = pick(moves, rng)
        await socks[mover].send({"type": "move", "id": socks[mover].next_id(), "move": move})
        v += 1
    raise AssertionError("no last move")


async def _history(db_url: str, match_id: str) -> tuple[list[str], dict[str, int]]:
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            rows = list((await s.execute(select(RatingChange.player_id).where(RatingChange.match_id == match_id)))
                        .scalars())
            games = dict((await s.execute(select(Rating.player_id, Rating.games))).all())
    finally:
        await engine.dispose()
    return sorted(rows), games


async def test_sigkill_around_the_last_commit_rates_the_match_exactly_once(db_url: str, tmp_path: Any) -> None:
    env = {"SPITE_DATABASE_URL": db_url, "SPITE_SEEDED_ROOMS": "true", "SPITE_BOT_WORKERS": "1",
           "SPITE_STATIC_DIR": str(tmp_path), "SPITE_RATE_PER_SECOND": "1000", "SPITE_RATE_BURST": "1000",
           **CROWD_ENV}
    people: list[Person] = []
    outcomes = []
    for round_, wait_for_answer in enumerate((False, True)):
        first = ServerProcess(env).start()
        try:
            async with httpx.AsyncClient(base_url=first.base, timeout=30) as http:
                if not people:
                    people = [await new_account(http, "Ann"), await new_account(http, "Bob")]
                code = (await new_room(http, people[0], rated=True, preset="short", options={"payoff_size": 5},
                                       seed=f"crash-{round_}"))["code"]
                socks = [await Sock.open(first.base, code, p) for p in people]
                await seat_everyone(socks[0], socks)
                await socks[0].send({"type": "start"})
                await socks[0].state_at(0)
                v, move, move_id, seat = await _to_the_last_move(socks, random.Random(round_))
                match_id = socks[0].last_state()["match_id"]  # type: ignore[index]
                await socks[seat].send({"type": "move", "id": move_id, "move": move})
                if wait_for_answer:  # committed for sure: killed before anything after it
                    await socks[seat].state_at(v + 1)
                first.kill()  # SIGKILL
        finally:
            first.kill()
        second = ServerProcess(env).start()
        try:
            again = [await Sock.open(second.base, code, p, last_v=v) for p in people]
            now = (await again[0].state_at(v))["v"]
            committed = now == v + 1
            if not committed:  # the client resends its move after the restart
                await again[seat].send({"type": "move", "id": move_id, "move": move})
            last = await again[0].wait(lambda m: m["type"] == "state" and m["view"]["status"] == "match_over")
            assert last["match_id"] == match_id and last["view"]["result"]["match_winners"] == [seat]
            assert {r["player_id"] for r in last["awards"]["ratings"]} == {p.id for p in people}
            # Resending once more changes nothing.
            await again[seat].send({"type": "move", "id": move_id, "move": move})
            await again[seat].request({"type": "ping"}, lambda m: m["type"] == "pong")
            await asyncio.sleep(0.1)
            for s in again:
                await s.close()
        finally:
            second.stop()
        rows, games = await _history(db_url, match_id)
        assert rows == sorted(p.id for p in people), "one rating row per player for the match"
        assert games == {p.id: round_ + 1 for p in people}
        outcomes.append(committed)
    print("committed before the kill:", outcomes)
    assert outcomes[1] is True  # the second kill came after the commit was answered
