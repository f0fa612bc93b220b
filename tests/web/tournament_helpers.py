"""Helpers of the tournament tests: make and read one, and play its tables through real sockets
as their players would."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from .helpers import Person, Sock, play_to_end

FAST = {"tournament_interval": 0.1}
QUICK = {"preset": "short", "options": {"payoff_size": 5}}


async def make(http: httpx.AsyncClient, organiser: Person, **body: Any) -> dict[str, Any]:
    r = await http.post("/api/tournaments", json={"name": "Club night", **QUICK, **body}, headers=organiser.auth)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


async def read(http: httpx.AsyncClient, tid: str, who: Person | None = None) -> dict[str, Any]:
    r = await http.get(f"/api/tournaments/{tid}", headers=who.auth if who else None)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


class Tables:
    """Plays every table the tournament makes, as its players would: both seats' sockets."""

    def __init__(self, base: str, people: dict[str, Person], rng: random.Random, *,
                 skip: set[str] | None = None) -> None:
        """`skip`: rooms nobody of the test plays (a table its players left)."""
        self.base, self.people, self.rng = base, people, rng
        self.started: set[str] = set(skip or ())
        self.tasks: list[asyncio.Task[None]] = []

    def play(self, room: str, seats: list[str]) -> None:
        if room in self.started:
            return
        self.started.add(room)
        self.tasks.append(asyncio.get_running_loop().create_task(self._play(room, seats)))

    async def _play(self, room: str, seats: list[str]) -> None:
        socks = [await Sock.open(self.base, room, self.people[pid]) for pid in seats]
        try:
            await play_to_end(socks, self.rng)
        finally:
            for s in socks:
                await s.close()

    async def check(self) -> None:
        for t in [t for t in self.tasks if t.done()]:
            t.result()  # a table that failed fails the test


async def run_to_the_end(http: httpx.AsyncClient, tid: str, tables: Tables, timeout: float = 240, *,
                         play: bool = True) -> dict[str, Any]:
    """Play every table the tournament makes (unless `play` is False) until it is over; the
    tournament as it ended."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        t = await read(http, tid)
        if t["status"] == "over":
            await asyncio.gather(*tables.tasks)
            return t
        for rnd in t["rounds"]:
            for table in rnd["tables"]:
                if play and table["room"] and table["result"] is None:
                    tables.play(table["room"], [s["player_id"] for s in table["seats"]])
        await tables.check()
        await asyncio.sleep(0.1)
    raise AssertionError(f"the tournament did not end: {t['status']}, round {t['round']}")
