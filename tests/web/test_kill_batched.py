"""Durability of the batched plain-move commit on SQLite: moves that found the write lock taken
wait in `app.store.moves.batch.PlainBatches` (nobody is told of them meanwhile), are committed
together once it frees, and every move a player was told of survives a SIGKILL of the server
right after (the inline commit's own kill test: tests/web/test_durability.py)."""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
from typing import Any

import httpx
from sqlalchemy.engine import make_url

from tests.conftest import SQLITE_ONLY

from .helpers import CROWD_ENV, Person, ServerProcess, Sock, new_person, new_room, pick, seat_everyone

pytestmark = SQLITE_ONLY
ROOMS = 4
PATH = re.compile(r'^spite_commit_path_total\{path="(\w+)"\} ([0-9.e+]+)$', re.M)


async def _pair(base: str, http: httpx.AsyncClient, seed: str) -> list[Sock]:
    people: list[Person] = [await new_person(http, "Ann"), await new_person(http, "Bob")]
    code = (await new_room(http, people[0], preset="short", seats=2, seed=seed))["code"]
    socks = [await Sock.open(base, code, p) for p in people]
    await seat_everyone(socks[0], socks)
    await socks[0].send({"type": "start"})
    for s in socks:
        await s.state_at(0)
    return socks


async def _move(socks: list[Sock], rng: random.Random) -> tuple[str, int, str]:
    """Send one move from the seat to move: (its match, the version it takes, its move id)."""
    latest = [s.last_state() for s in socks]
    mover = next(i for i, st in enumerate(latest) if st is not None and st["view"]["legal_moves"])
    st = latest[mover]
    assert st is not None
    move_id = socks[mover].next_id()
    await socks[mover].send({"type": "move", "id": move_id, "move": pick(st["view"]["legal_moves"], rng)})
    return st["match_id"], st["v"] + 1, move_id


async def test_moves_acknowledged_from_a_batch_survive_a_kill(db_url: str, tmp_path: Any) -> None:
    path = make_url(db_url).database
    assert path is not None
    env = {"SPITE_DATABASE_URL": db_url, "SPITE_SEEDED_ROOMS": "true", "SPITE_BOT_WORKERS": "1",
           "SPITE_STATIC_DIR": str(tmp_path), "SPITE_RATE_PER_SECOND": "1000", "SPITE_RATE_BURST": "1000",
           **CROWD_ENV}
    rng = random.Random(11)
    told: list[tuple[str, int, str]] = []  # every move both players were sent the state of
    server = ServerProcess(env).start()
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            rooms = [await _pair(server.base, http, f"batched-{i}") for i in range(ROOMS)]
            for _ in range(3):
                lock = sqlite3.connect(path, isolation_level=None)
                lock.execute("BEGIN IMMEDIATE")  # as a pool transaction of the server would
                try:
                    sent = [await _move(socks, rng) for socks in rooms]
                    await asyncio.sleep(0.3)
                    for socks, (_, v, _) in zip(rooms, sent, strict=True):
                        assert all(s.last_state()["v"] < v for s in socks), "told of a move not yet committed"  # type: ignore[index]
                finally:
                    lock.execute("ROLLBACK")
                    lock.close()
                for socks, (match_id, v, move_id) in zip(rooms, sent, strict=True):
                    for s in socks:
                        await s.state_at(v)
                    told.append((match_id, v, move_id))
            paths = {path: float(n) for path, n in PATH.findall((await http.get("/metrics")).text)}
            # The moves that waited took a batch (one that ends a hand takes the queue's path, and
            # on a slow machine a frame read after the lock was released commits inline).
            assert paths["batch"] >= ROOMS and sum(paths.values()) >= 3 * ROOMS, paths
            # The last batch and then a kill as soon as its moves are told.
            lock = sqlite3.connect(path, isolation_level=None)
            lock.execute("BEGIN IMMEDIATE")
            sent = [await _move(socks, rng) for socks in rooms]
            await asyncio.sleep(0.1)
            lock.execute("ROLLBACK")
            lock.close()
            for socks, (match_id, v, move_id) in zip(rooms, sent, strict=True):
                await socks[0].state_at(v)
                told.append((match_id, v, move_id))
            server.kill()  # SIGKILL: no shutdown, no checkpoint
    finally:
        server.kill()
    db = sqlite3.connect(path)
    try:
        for match_id, v, move_id in told:
            row = db.execute("SELECT client_id FROM moves WHERE match_id = ? AND seq = ?", (match_id, v)).fetchone()
            assert row == (move_id,), f"move {v} of match {match_id} was told but is not stored"
            assert db.execute("SELECT v FROM matches WHERE id = ?", (match_id,)).fetchone()[0] >= v
    finally:
        db.close()
