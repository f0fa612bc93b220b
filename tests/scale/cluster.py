"""Several app instances as uvicorn processes sharing one PostgreSQL database and one Redis
prefix, and what the tests read from them: /metrics, /healthz, and the store itself."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from app.store.db import make_engine
from tests.web.helpers import CROWD_ENV, ServerProcess, Sock, pick

Msg = dict[str, Any]
FAST = {
    "SPITE_SEEDED_ROOMS": "true", "SPITE_BOT_WORKERS": "1", "SPITE_BOT_DELAY": "0.02",
    "SPITE_RATE_PER_SECOND": "1000", "SPITE_RATE_BURST": "1000", "SPITE_LEASE_SECONDS": "1.5",
    "SPITE_HEARTBEAT_SECONDS": "0.5", "SPITE_PRESENCE_TTL": "2", "SPITE_LOG_FORMAT": "json",
    "SPITE_LOG_LEVEL": "info", **CROWD_ENV,
}


class Cluster:
    def __init__(self, db_url: str, redis_url: str, prefix: str, tmp: Path) -> None:
        self.db_url, self.redis_url, self.prefix, self.tmp = db_url, redis_url, prefix, tmp
        self.servers: list[ServerProcess] = []
        self.logs: list[Path] = []

    def env(self, **extra: str) -> dict[str, str]:
        return {**FAST, "SPITE_DATABASE_URL": self.db_url, "SPITE_REDIS_URL": self.redis_url,
                "SPITE_REDIS_PREFIX": self.prefix, "SPITE_STATIC_DIR": str(self.tmp), **extra}

    def start(self, count: int = 1, **extra: str) -> list[ServerProcess]:
        started = []
        for _ in range(count):
            log = self.tmp / f"instance-{len(self.servers)}.log"
            server = ServerProcess(self.env(**extra), stderr=log)
            self.servers.append(server)
            self.logs.append(log)
            started.append(server.start())
        return started

    def stop_all(self) -> None:
        for server in self.servers:
            server.kill()


def instance_id(server: ServerProcess) -> str:
    return str(httpx.get(f"{server.base}/healthz", timeout=5).json()["instance"])


async def metrics(server: ServerProcess) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the instance's /metrics: (name, sorted labels) -> value."""
    async with httpx.AsyncClient(timeout=10) as http:
        body = (await http.get(f"{server.base}/metrics")).text
    out = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def total(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    """Sum of the samples of `name` whose labels include `labels`."""
    return sum(v for (n, ls), v in samples.items() if n == name and set(labels.items()) <= set(ls))


async def query(db_url: str, sql: str, **params: Any) -> list[Any]:
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            return list((await conn.execute(text(sql), params)).all())
    finally:
        await engine.dispose()


async def reopen(old: Sock, base: str, rng: random.Random | None = None) -> Sock:
    """Reconnect `old`'s player (to `base`), resuming from the last version it saw."""
    last = old.last_state()
    assert old.person is not None
    return await Sock.open(base, _code(old), old.person, last_v=last["v"] if last else None)


def _code(sock: Sock) -> str:
    welcome = next(m for m in sock.messages if m["type"] == "welcome")
    return str(welcome["room"]["code"])


async def drive(socks: list[Sock], rng: random.Random, until: Any, timeout: float = 60.0,
                hold: set[int] | None = None) -> Msg:
    """Play the humans' turns (seats given by `socks`' order in the room) from their legal
    moves, deal next hands, and let bots and clocks play theirs, until `until(state)` holds.
    Seats in `hold` never move (to let the clock play for them). Returns that state."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = [s.last_state() for s in socks]
        latest = max((st for st in states if st is not None), key=lambda st: st["v"], default=None)
        if latest is not None and until(latest):
            return latest
        if latest is not None and all(st is not None and st["v"] == latest["v"] for st in states):
            view = latest["view"]
            if view["status"] == "hand_over":
                for s in socks:  # dealt once every seated person is ready
                    await s.send({"type": "next_hand"})
            elif view["status"] == "playing":
                for i, st in enumerate(states):
                    if st is not None and st["view"]["legal_moves"] and i not in (hold or set()):
                        await socks[i].send({"type": "move", "id": socks[i].next_id(),
                                             "move": pick(st["view"]["legal_moves"], rng)})
            await moved_on(socks, latest["v"], 2.0)
        else:
            await asyncio.sleep(0.01)
    raise AssertionError(f"timed out driving the game; last: {[s.summary(2) for s in socks]}")


async def moved_on(socks: list[Sock], v: int, timeout: float) -> None:
    """Wait (at most `timeout`) until some socket has a state past version `v`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any((st := s.last_state()) is not None and st["v"] > v for s in socks):
            return
        await asyncio.sleep(0.005)
