"""The server while a tournament's tables play: 2 × N players join a Swiss tournament, it starts,
the round runner pairs round 1 and makes its N rooms, and every table is played at a pace.

    python bench/tournament.py --tables 200 --seconds 30 [--pace 1.0]
    python bench/tournament.py --tables 200 --seconds 30 --plain   # the same tables as plain rooms

The server (uvicorn, a fresh SQLite file) is pinned to CPU 0 and this client to CPU 1, as in
bench/load.py, whose players and rooms this reuses. Printed: the time from the organiser's start
to the last table's room made (the runner's pairing and room making), then, while the tables
play, the server's CPU share and its CPU time per move, the moves a second and their latency.
`--plain` makes the same number of two-player rooms through the REST API instead (no tournament,
no runner), for the comparison: the difference is what a running tournament costs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load  # noqa: E402  (bench/load.py: the server, its players and rooms)


async def _player(client: httpx.AsyncClient, url: str, name: str) -> tuple[str, str]:
    r = await client.post(f"{url}/api/players", json={"name": name})
    r.raise_for_status()
    return r.json()["id"], r.json()["token"]


async def tournament_rooms(url: str, tables: int, stats: load.Stats, pace: float) -> tuple[list[load.Room], float]:
    """Make the tournament, join its players, start it; its round 1 rooms and the seconds from
    the start to the last one made."""
    async with httpx.AsyncClient(timeout=120) as client:
        org_id, org = await _player(client, url, "organiser")
        r = await client.post(f"{url}/api/tournaments", headers={"Authorization": f"Bearer {org}"},
                              json={"name": "Bench cup", "format": "swiss", "rounds": 1, "public": True,
                                    "max_players": 2 * tables, "preset": "standard"})
        r.raise_for_status()
        tid = r.json()["id"]
        tokens: dict[str, str] = {}
        for start in range(0, 2 * tables, 50):
            made = await asyncio.gather(*(_player(client, url, f"p{i}") for i in range(start, min(2 * tables,
                                                                                              start + 50))))
            for pid, token in made:
                tokens[pid] = token
            await asyncio.gather(*(client.post(f"{url}/api/tournaments/{tid}/players",
                                               headers={"Authorization": f"Bearer {token}"})
                                   for _, token in made))
        t0 = time.perf_counter()
        r = await client.post(f"{url}/api/tournaments/{tid}/start", headers={"Authorization": f"Bearer {org}"})
        r.raise_for_status()
        while True:
            t = (await client.get(f"{url}/api/tournaments/{tid}")).json()
            made_tables = [tb for rnd in t["rounds"] for tb in rnd["tables"] if tb["room"]]
            if len(made_tables) == tables:
                break
            await asyncio.sleep(0.05)
        elapsed = time.perf_counter() - t0
    rooms = []
    for i, tb in enumerate(made_tables):
        room = load.Room(tb["room"], stats, pace, load.random.Random(i))
        for seat, s in enumerate(tb["seats"]):
            room.players.append(load.Player(room, seat, tokens[s["player_id"]], url))
        rooms.append(room)
    return rooms, elapsed


async def plain_rooms(url: str, tables: int, stats: load.Stats, pace: float) -> list[load.Room]:
    async with httpx.AsyncClient(timeout=120) as client:
        rooms: list[load.Room] = []
        for start in range(0, tables, 50):
            rooms += await asyncio.gather(*(load.setup_room([url], i, stats, pace, client)
                                            for i in range(start, min(tables, start + 50))))
    return rooms


async def run(args: argparse.Namespace, url: str, pid: int) -> None:
    stats = load.Stats()
    if args.plain:
        rooms = await plain_rooms(url, args.tables, stats, args.pace)
    else:
        rooms, made = await tournament_rooms(url, args.tables, stats, args.pace)
        print(f"round 1 of {2 * args.tables} players: {args.tables} tables paired and made in {made:.2f} s")
    readers = []
    for room in rooms:
        for p in room.players:
            await p.connect()
            readers.append(asyncio.create_task(p.reader()))
    if args.plain:
        for room in rooms:
            for p in room.players:
                await p.ws.send(load.dumps({"type": "sit", "seat": p.seat}))
        await asyncio.sleep(2.0)
        for room in rooms:
            await room.players[0].ws.send(load.dumps({"type": "start"}))
    deadline = time.perf_counter() + 60
    while any(r.players[0].view is None for r in rooms) and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)
    gc.collect()
    gc.freeze()
    gc.disable()
    stop = time.perf_counter() + 3 + args.seconds
    drivers = [asyncio.create_task(room.drive(stop)) for room in rooms]
    await asyncio.sleep(3)
    stats.measuring = True
    cpu0, t0 = load.cpu_seconds([pid]), time.perf_counter()
    await asyncio.gather(*drivers)
    elapsed = time.perf_counter() - t0
    cpu = load.cpu_seconds([pid]) - cpu0
    stats.measuring = False
    for t in readers:
        t.cancel()
    kind = "plain rooms" if args.plain else "tournament tables"
    print(f"{args.tables} {kind} at one move per ~{args.pace:g} s: server CPU {cpu / elapsed * 100:.1f}% of a core, "
          f"{cpu / max(stats.moves, 1) * 1e6:.0f} µs per move")
    load.report(stats, elapsed, None, "moves", args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--plain", action="store_true")
    args = parser.parse_args()
    args.echo_peer, args.rooms = False, args.tables
    load.pin(1)
    port = load.free_port()
    server = load.start_server(port, echo=False, env_extra={
        "SPITE_DATABASE_URL": f"sqlite:///{load.tempfile.mkdtemp(prefix='spite-tourn-')}/t.db",
        "SPITE_MAX_TOURNAMENTS_JOINED": "1000"})
    try:
        asyncio.run(run(args, f"http://127.0.0.1:{port}", server.pid))
    finally:
        load.stop_all([server])


if __name__ == "__main__":
    main()
