"""Idle turn-based rooms: what 10,000 of them cost a server that waits for their deadlines.

    python bench/turn_based.py [--rooms 10000] [--seconds 60]

Builds two SQLite databases (migrated as the server does): one empty, one with `--rooms`
turn-based matches being played, two people each, their deadlines spread over the next day
(none within the deadline horizon). For each, a real server (`uvicorn app.web.app:app`) runs idle
for `--seconds`, and this prints its resident memory and the CPU it used (from /proc), then the
time of the deadline scheduler's query (`leases.due`: the earliest rooms due within the horizon,
by an index) against each database. The difference between the two servers is what the rooms
cost: they wait in the store, not in memory, and the scheduler reads an index range, not every
room. Last line:

    turn_based: <n> rooms: rss +<kb> KB (<b> B/room), cpu <a>% vs <b>% idle, due query <ms> ms (<ms0> ms empty)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.store import migrate  # noqa: E402
from app.store.db import make_engine, make_sessions  # noqa: E402
from app.store.repositories import leases  # noqa: E402
from app.store.tables import Match, Player, Room, Seat, utcnow  # noqa: E402


async def build(path: Path, rooms: int) -> None:
    engine = make_engine(f"sqlite:///{path}")
    await migrate.upgrade(engine)
    now = utcnow()
    rng = random.Random(7)
    async with engine.begin() as conn:
        players = [{"id": f"p{i:07d}", "name": f"P{i}", "created_at": now} for i in range(2 * rooms)]
        for start in range(0, len(players), 5000):
            await conn.execute(Player.__table__.insert(), players[start:start + 5000])  # type: ignore[attr-defined]
        room_rows, match_rows, seat_rows = [], [], []
        for i in range(rooms):
            code, mid = f"R{i:07d}", f"m{i:07d}"
            a, b = players[2 * i]["id"], players[2 * i + 1]["id"]
            wake = now + timedelta(seconds=rng.uniform(3600, 86_400))
            room_rows.append({"code": code, "host_id": a, "preset": "standard", "overrides": {}, "seats": 2,
                              "public": False, "turn_seconds": 86_400, "hints": True, "rated": False, "seed": None,
                              "status": "playing", "seating": [{"player_id": a, "name": "A", "bot": None},
                                                               {"player_id": b, "name": "B", "bot": None}],
                              "rev": 1, "match_id": mid, "match_count": 1, "created_at": now, "updated_at": now,
                              "pace": "turn_based"})
            match_rows.append({"id": mid, "room_code": code, "number": 1, "preset": "standard", "options": {},
                               "names": ["A", "B"], "turn_seconds": 86_400, "status": "playing", "v": 5,
                               "totals": [0, 0], "winners": None, "turn_deadline": wake, "started_at": now,
                               "ended_at": None, "wake_at": wake, "last_move_at": now, "turn_seat": i % 2})
            seat_rows += [{"match_id": mid, "seat": 0, "player_id": a, "name": "A", "bot_level": None, "team": None},
                          {"match_id": mid, "seat": 1, "player_id": b, "name": "B", "bot_level": None, "team": None}]
        for table, rows in ((Room, room_rows), (Match, match_rows), (Seat, seat_rows)):
            for start in range(0, len(rows), 5000):
                await conn.execute(table.__table__.insert(), rows[start:start + 5000])  # type: ignore[attr-defined]
    await engine.dispose()


async def due_ms(path: Path, calls: int = 200) -> float:
    engine = make_engine(f"sqlite:///{path}")
    sessions = make_sessions(engine)
    times = []
    async with sessions() as s:
        for _ in range(calls):
            started = time.perf_counter()
            found = await leases.due(s, 120.0)
            times.append(time.perf_counter() - started)
            assert found == [], "no room is due in this bench"
    await engine.dispose()
    times.sort()
    return times[len(times) // 2] * 1000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_figures(pid: int) -> tuple[int, float]:
    """(resident KB, CPU seconds so far) of a process."""
    rss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, (int(fields[11]) + int(fields[12])) / ticks


def idle_server(path: Path, seconds: float) -> tuple[int, float]:
    """Run a server on the database for `seconds` once it is up: (RSS KB at the end, CPU %)."""
    port = free_port()
    env = {**os.environ, "SPITE_DATABASE_URL": f"sqlite:///{path}", "SPITE_STATIC_DIR": str(path.parent),
           "SPITE_LOG_LEVEL": "warning"}
    env.pop("SPITE_REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.web.app:app", "--port", str(port),
                             "--log-level", "warning"], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        time.sleep(5)  # startup work (adoption, the first polls) is not idling
        _, cpu0 = proc_figures(proc.pid)
        t0 = time.monotonic()
        time.sleep(seconds)
        rss, cpu1 = proc_figures(proc.pid)
        return rss, 100 * (cpu1 - cpu0) / (time.monotonic() - t0)
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        empty, full = Path(tmp) / "empty.db", Path(tmp) / "full.db"
        started = time.monotonic()
        asyncio.run(build(empty, 0))
        asyncio.run(build(full, args.rooms))
        grown = (full.stat().st_size - empty.stat().st_size) // max(1, args.rooms)
        print(f"built {args.rooms} turn-based rooms in {time.monotonic() - started:.1f} s; "
              f"database {full.stat().st_size / 1e6:.1f} MB ({grown} B/room)")
        ms0, ms = asyncio.run(due_ms(empty)), asyncio.run(due_ms(full))
        print(f"due query (median of 200): {ms0:.3f} ms empty, {ms:.3f} ms with {args.rooms} rooms")
        rss0, cpu0 = idle_server(empty, args.seconds)
        rss1, cpu1 = idle_server(full, args.seconds)
        print(f"idle server: empty {rss0} KB, {cpu0:.2f}% CPU; with rooms {rss1} KB, {cpu1:.2f}% CPU")
        per_room = (rss1 - rss0) * 1024 / max(1, args.rooms)
        print(f"turn_based: {args.rooms} rooms: rss {rss1 - rss0:+d} KB ({per_room:.0f} B/room), cpu {cpu1:.2f}% vs "
              f"{cpu0:.2f}% idle, due query {ms:.3f} ms ({ms0:.3f} ms empty)")


if __name__ == "__main__":
    main()
