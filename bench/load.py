"""Load: N rooms of random players over real sockets, against a real server.

    python bench/load.py --rooms 100 --seconds 30 [--pace 1.0] [--format split|full|delta] [--url URL[,URL2]]
    python bench/load.py --rooms 100 --seconds 30 --pace 0 --echo-peer
    python bench/load.py --rooms 100 --seconds 30 --instances 2 [--postgres URL] [--redis URL]
    python bench/load.py --rooms 20 --seconds 10 --pace 0 --stages [--profile /tmp/server.txt]

Without --url the benchmark starts its own server (uvicorn, fresh SQLite file) pinned to CPU 0
and pins itself to CPU 1. `--instances K` starts K instances instead, on a fresh PostgreSQL
database and a fresh Redis channel prefix (URLs from --postgres/--redis or the
SPITE_TEST_POSTGRES_URL/SPITE_TEST_REDIS_URL variables), all pinned to CPU 0; with two URLs
(given or started) the two players of each room sit on different instances, so the "peer"
figure includes the cross-instance fan-out (Redis, then the other instance applying the move).

Each room has two players; the player to move sends a random legal move every `--pace`
seconds (0: as soon as the previous one is acknowledged). A move's latency is from sending it
to its sender receiving the `state` with the new version; "peer" latency is until the other
player receives it. Memory per connection is the server's resident-memory growth from before
the players connect to when they are all connected, seated and idle, divided by the number of
sockets. When the benchmark started the server it also reports the server's CPU time per move.

`--stages` runs the server with `SPITE_TRACE_STAGES` and prints the mean time from a move's
frame arriving to the end of each stage of the move path (app/platform/move_trace.py); `--profile`
samples the server with py-spy for the measured window (`bench/layers.py` sums it by layer).
The load client's own CPU share is printed too: near 100 % means the client, not the server,
holds the figure.

`--tracemalloc DIR` runs the server under tracemalloc (bench/traced.py) and prints what its
Python heap grew by, per socket and by allocation site, from before the players connect to when
they are all seated and idle, as is and after a full collection.

`--echo-peer` drives a bare `websockets` echo server the same way (same client library, same
sockets, same pace, a message of a typical move's size) for comparison.

`--format delta` asks for delta frames (docs/protocol.md, "View formats"): the client applies
each `delta` to the view it holds (asking `sync` if one does not follow it). "sent to the
clients" is every message the server sent the load's sockets while measuring, per move.

Last line: `load: <m> moves/s, p50 <a> ms, p99 <b> ms, <k> KiB per connection`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ECHO_SERVER = """
import asyncio, sys, websockets
async def echo(ws):
    async for message in ws:
        await ws.send(message)
async def main():
    async with websockets.serve(echo, "127.0.0.1", int(sys.argv[1]), max_size=2**16, compression=None):
        await asyncio.Future()
asyncio.run(main())
"""
SERVER_ENV = {"SPITE_RATE_PER_SECOND": "1000", "SPITE_RATE_BURST": "1000", "SPITE_MAX_ROOMS_PER_PLAYER": "1000",
              **{f"SPITE_LIMIT_{k}": "10000000/hour" for k in ("NEW_PLAYERS", "NEW_ROOMS", "PLAYER_ROOMS", "CONNECTS")},
              "SPITE_LOG_LEVEL": "warning", "SPITE_SEND_QUEUE": "1024"}


def dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_children(pid: int) -> list[int]:
    """`pid` and every process below it (granian serves from a worker process of its own)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return found


def rss_kib(pid: int) -> int:
    total = 0
    for p in with_children(pid):
        with open(f"/proc/{p}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes, their threads and their child processes."""
    total = 0.0
    for pid in (p for top in pids for p in with_children(top)):
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def pin(cpu: int) -> None:
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > cpu:
        os.sched_setaffinity(0, {cpu})


def wait_http(url: str, timeout: float = 60.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if httpx.get(url, timeout=1.0).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"nothing answered at {url}")


DEFLATE = False  # --deflate: clients offer permessage-deflate and the server accepts it (browsers do)
FORMAT = "split"  # --format: the view as two parts, whole, or deltas after the first (the browser client's way)
TRACE_DIR: str | None = None  # --tracemalloc DIR: the server runs under bench/traced.py
DRIVER = "asyncpg"  # --driver psycopg: PostgreSQL through psycopg 3 (bench/psycopg_server.py)
SERVER = "uvicorn"  # --server: the ASGI server and websocket implementation (SERVERS)
SERVERS = {
    "uvicorn": ["-m", "uvicorn"],  # its default: the sans-I/O `websockets` protocol, uvloop, httptools
    "uvicorn-websockets": ["-m", "uvicorn", "--ws", "websockets"],  # the legacy `websockets` protocol
    "uvicorn-sansio": ["-m", "uvicorn", "--ws", "websockets-sansio"],
    "uvicorn-wsproto": ["-m", "uvicorn", "--ws", "wsproto"],
    "granian": ["-m", "granian", "--interface", "asgi", "--workers", "1", "--loop", "uvloop"],
}


def start_server(port: int, echo: bool, env_extra: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    cpu = ["taskset", "-c", "0"] if os.path.exists("/usr/bin/taskset") else []
    if echo:
        cmd = [*cpu, sys.executable, "-c", ECHO_SERVER, str(port)]
    else:
        env.update(SERVER_ENV)
        if env_extra:
            env.update(env_extra)
        else:
            db = os.path.join(tempfile.mkdtemp(prefix="spite-load-"), "load.db")
            env["SPITE_DATABASE_URL"] = f"sqlite:///{db}"
        run = [sys.executable, "bench/traced.py", TRACE_DIR, "--"] if TRACE_DIR else [sys.executable, *SERVERS[SERVER]]
        if DRIVER == "psycopg":
            run = [sys.executable, "bench/psycopg_server.py"]
        if SERVER == "granian":  # no access log by default; granian's websockets never deflate
            cmd = [*cpu, *run, "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
                   "app.web.app:app"]
        else:
            cmd = [*cpu, *run, "app.web.app:app", "--host", "127.0.0.1",
                   "--port", str(port), "--log-level", "warning", "--no-access-log",
                   "--ws-per-message-deflate", "true" if DEFLATE else "false"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    if echo:
        deadline = time.time() + 20
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return proc
            time.sleep(0.1)
        raise SystemExit("the echo server did not start")
    wait_http(f"http://127.0.0.1:{port}/healthz")
    return proc


class Cluster:
    """K app instances on a fresh PostgreSQL database and Redis prefix (dropped at the end)."""

    def __init__(self, count: int, postgres: str, redis_url: str) -> None:
        from sqlalchemy.engine import make_url

        self.count = count
        self.admin = make_url(postgres)
        self.db = f"spite_load_{uuid.uuid4().hex[:12]}"
        self.url = self.admin.set(database=self.db).render_as_string(hide_password=False)
        self.redis = redis_url
        self.procs: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []

    def _admin(self, sql: str) -> None:
        import asyncpg

        async def run() -> None:
            u = self.admin
            conn = await asyncpg.connect(user=u.username, password=u.password, host=u.host or "127.0.0.1",
                                         port=u.port or 5432, database=u.database or "postgres")
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        asyncio.run(run())

    def start(self) -> list[str]:
        self._admin(f'CREATE DATABASE "{self.db}"')
        env = {"SPITE_DATABASE_URL": self.url, "SPITE_REDIS_URL": self.redis,
               "SPITE_REDIS_PREFIX": f"load-{uuid.uuid4().hex[:8]}:"}
        for _ in range(self.count):
            port = free_port()
            self.procs.append(start_server(port, False, env))
            self.urls.append(f"http://127.0.0.1:{port}")
        return self.urls

    def stop(self) -> None:
        stop_all(self.procs)
        self._admin(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')


def stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    peer: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False
    client_lag: list[float] = field(default_factory=list)
    received: int = 0  # bytes of every message the sockets received while measuring (JSON text: ASCII here)
    syncs: int = 0  # deltas that did not follow the view held (a `sync` asked)


async def probe_lag(stats: Stats) -> None:
    """This client's own event-loop lag (a late client inflates every latency it measures)."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        if stats.measuring:
            stats.client_lag.append((time.perf_counter() - t - 0.01) * 1000)


class Player:
    """One seated player on one socket; moves when it is its turn."""

    def __init__(self, room: Room, seat: int, token: str, url: str) -> None:
        self.room, self.seat, self.token, self.url = room, seat, token, url
        self.ws: Any = None
        self.v = -1
        self.view: dict[str, Any] | None = None
        self.shared: dict[str, Any] = {}  # the view's parts (split and delta), as held
        self.own: dict[str, Any] = {}
        self.got_v = asyncio.Event()
        self.seated = 0  # seats filled in the last `room` message

    async def connect(self) -> None:
        ws_url = self.url.replace("http", "ws", 1) + f"/ws/rooms/{self.room.code}"
        self.ws = await websockets.connect(ws_url, max_size=2**20, compression="deflate" if DEFLATE else None,
                                           open_timeout=60)
        await self.ws.send(dumps({"type": "hello", "token": self.token, "last_v": None, "format": FORMAT}))

    async def reader(self) -> None:
        stats = self.room.stats
        async for raw in self.ws:
            if stats.measuring:
                stats.received += len(raw)
            msg = orjson.loads(raw)
            kind = msg["type"]
            if kind == "delta":
                if msg["base"] != self.v or self.view is None:  # not a change of the view held: ask for it whole
                    stats.syncs += 1
                    await self.ws.send(dumps({"type": "sync"}))
                    continue
                self.apply(msg)
            if kind == "state":
                if "view" in msg:
                    self.view = msg["view"]
                else:
                    self.shared, self.own = msg["shared"], msg["own"]
                    self.view = {**self.shared, **self.own}
            if kind in ("state", "delta"):
                self.v = msg["v"]
                self.room.delivered(self, msg["v"])
                self.got_v.set()
            elif kind == "room":
                self.seated = sum(1 for seat in msg["room"]["seats"] if seat.get("player_id"))
            elif kind == "error":
                code = msg.get("code", "?")
                self.room.stats.errors[code] = self.room.stats.errors.get(code, 0) + 1

    def apply(self, msg: dict[str, Any]) -> None:
        """A delta made whole: `gone`, then `shared`, `players` by seat, `own` (docs/protocol.md)."""
        shared = {k: x for k, x in self.shared.items() if k not in msg["gone"]}
        shared.update(msg["shared"])
        if msg["players"]:
            seats = list(shared["players"])
            for seat, keys in msg["players"].items():
                seats[int(seat)] = {**seats[int(seat)], **keys}
            shared["players"] = seats
        own = {k: x for k, x in self.own.items() if k not in msg["gone"]}
        own.update(msg["own"])
        self.shared, self.own = shared, own
        self.view = {**shared, **own}


class Room:
    def __init__(self, code: str, stats: Stats, pace: float, rng: random.Random) -> None:
        self.code, self.stats, self.pace, self.rng = code, stats, pace, rng
        self.players: list[Player] = []
        self.sent: dict[int, float] = {}  # version expected -> send time
        self.mover: dict[int, int] = {}
        self.seen: dict[int, set[int]] = {}  # version expected -> seats that have seen it

    def delivered(self, player: Player, v: int) -> None:
        """A `state` at version v answers every move sent for a version up to v: the server may
        take several versions at once (a move and what it sets off), and says so in one state."""
        for expected in [e for e in self.sent if e <= v and player.seat not in self.seen.get(e, ())]:
            self.seen.setdefault(expected, set()).add(player.seat)
            if len(self.seen[expected]) == len(self.players):
                del self.seen[expected]
                sent = self.sent.pop(expected)
            else:
                sent = self.sent[expected]
            if not self.stats.measuring:
                continue
            elapsed = (time.perf_counter() - sent) * 1000
            if self.mover.get(expected) == player.seat:
                self.stats.latencies.append(elapsed)
                self.stats.moves += 1
            else:
                self.stats.peer.append(elapsed)

    async def drive(self, stop: float) -> None:
        while time.perf_counter() < stop:
            view = self.players[0].view
            if view is None:
                await asyncio.sleep(0.05)
                continue
            if view["status"] == "match_over":  # a rematch starts once every seated player accepts
                for p in self.players:
                    await p.ws.send(dumps({"type": "rematch"}))
                await asyncio.sleep(0.2)
                continue
            if view["status"] != "playing":  # the next hand is dealt once every seated player is ready
                for p in self.players:
                    await p.ws.send(dumps({"type": "next_hand"}))
                await asyncio.sleep(0.2)
                continue
            mover = self.players[view["turn"]]
            mview = mover.view
            if mview is None or not mview.get("legal_moves") or mover.v != self.players[0].v:
                await asyncio.sleep(0.01)
                continue
            move = self.rng.choice(mview["legal_moves"])
            expected = mover.v + 1
            mover.got_v.clear()
            self.sent[expected] = time.perf_counter()
            self.mover[expected] = mover.seat
            await mover.ws.send(dumps({"type": "move", "id": f"m{expected}", "move": move}))
            try:
                while mover.v < expected:
                    await asyncio.wait_for(mover.got_v.wait(), timeout=10)
                    mover.got_v.clear()
            except TimeoutError:
                self.stats.errors["timeout"] = self.stats.errors.get("timeout", 0) + 1
            if self.pace:  # never past the end of the run (a long pace measures idle rooms)
                await asyncio.sleep(min(self.pace * (0.5 + self.rng.random()), max(0.0, stop - time.perf_counter())))


async def setup_room(urls: list[str], index: int, stats: Stats, pace: float,
                     client: httpx.AsyncClient) -> Room:
    tokens = []
    for i in range(2):
        r = await client.post(f"{urls[0]}/api/players", json={"name": f"load{index}-{i}"})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    r = await client.post(f"{urls[0]}/api/rooms", headers={"Authorization": f"Bearer {tokens[0]}"},
                          json={"preset": "standard", "seats": 2})
    r.raise_for_status()
    room = Room(r.json()["code"], stats, pace, random.Random(index))
    for seat, token in enumerate(tokens):
        room.players.append(Player(room, seat, token, urls[(index + seat) % len(urls)]))
    return room


async def run_game_load(args: argparse.Namespace, urls: list[str], pids: list[int]) -> None:
    stats = Stats()
    async with httpx.AsyncClient(timeout=60) as client:
        rooms: list[Room] = []
        for start in range(0, args.rooms, 50):
            rooms += await asyncio.gather(*(setup_room(urls, i, stats, args.pace, client)
                                            for i in range(start, min(args.rooms, start + 50))))
    before = sum(rss_kib(p) for p in pids)
    if TRACE_DIR and pids:
        await traced_snapshot(pids[0], 0)
    readers = []
    for room in rooms:
        for p in room.players:
            await p.connect()
            readers.append(asyncio.create_task(p.reader()))
    for room in rooms:
        for p in room.players:
            await p.ws.send(dumps({"type": "sit", "seat": p.seat}))
    await asyncio.sleep(1.0 + args.rooms / 500)
    deadline = time.perf_counter() + 60
    while any(r.players[0].seated < 2 for r in rooms) and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)  # every room seated before it starts
    after = sum(rss_kib(p) for p in pids)
    sockets = 2 * len(rooms)
    if TRACE_DIR and pids:
        await traced_snapshot(pids[0], 1)
        print_traced(TRACE_DIR, sockets)
    for room in rooms:
        await room.players[0].ws.send(dumps({"type": "start"}))
    await asyncio.sleep(1.0)
    deadline = time.perf_counter() + 60
    while any(r.players[0].view is None for r in rooms) and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)  # every match dealt before the warm-up: the start is not the steady state
    warmup = min(3.0, args.seconds / 5)
    # This client's garbage is nearly all freed by reference counting; its collector would only
    # pause it (for hundreds of ms with thousands of sockets) and inflate every figure.
    gc.collect()
    gc.freeze()
    gc.disable()
    start = time.perf_counter()
    stop = start + warmup + args.seconds
    drivers = [asyncio.create_task(room.drive(stop)) for room in rooms]
    prober = asyncio.create_task(probe_lag(stats))
    await asyncio.sleep(warmup)
    stages0 = await scrape(urls) if urls else {}
    profiler = start_profiler(args.profile, pids[0], args.seconds) if args.profile and pids else None
    stats.measuring = True
    cpu0 = cpu_seconds(pids) if pids else 0.0
    own0 = time.process_time()
    t0 = time.perf_counter()
    await asyncio.gather(*drivers)
    elapsed = time.perf_counter() - t0
    cpu = cpu_seconds(pids) - cpu0 if pids else None
    own = time.process_time() - own0
    stats.measuring = False
    gc.enable()
    prober.cancel()
    for t in readers:
        t.cancel()
    if cpu is not None and stats.moves:
        print(f"server CPU: {cpu / stats.moves * 1e6:.0f} µs per move ({cpu / elapsed * 100:.0f}% of a core"
              f"{' over ' + str(len(pids)) + ' instances' if len(pids) > 1 else ''})")
    elif cpu is not None:  # rooms started, nobody moving (a long --pace): the server's idle cost
        print(f"server CPU: no moves, {cpu / elapsed * 100:.2f}% of a core")
    print(f"load client CPU: {own / elapsed * 100:.0f}% of its core")
    stages1 = await scrape(urls) if urls else {}
    print_gc(stages0, stages1, elapsed)
    print_paths(stages0, stages1)
    if stats.moves:
        print(f"sent to the clients: {stats.received / stats.moves:,.0f} bytes per move ({FORMAT} views, "
              f"{len(readers)} sockets, every message){f'; {stats.syncs} syncs' if stats.syncs else ''}")
    if args.stages:
        print_stages(stages0, stages1)
    if profiler is not None:
        profiler.wait(timeout=60)
        print(f"profile: {args.profile} (py-spy raw stacks; `python bench/layers.py {args.profile}`)")
    report(stats, elapsed, (after - before) / sockets if pids else None, "moves", args)


async def traced_snapshot(pid: int, n: int) -> None:
    """Ask the traced server for snapshot `n` (and its after-collection twin) and wait for it."""
    assert TRACE_DIR is not None
    os.kill(pid, signal.SIGUSR1)
    done = os.path.join(TRACE_DIR, f"{n}.done")
    deadline = time.time() + 120
    while not os.path.exists(done) and time.time() < deadline:
        await asyncio.sleep(0.2)


def print_traced(out: str, sockets: int, top: int = 12) -> None:
    """What the Python heap grew by between snapshot 0 (no players connected) and 1 (all seated,
    idle), by allocation site, per socket: as is, and after a full collection in both."""
    import tracemalloc

    for suffix, what in (("", "as is"), ("gc", "after a full collection")):
        old = tracemalloc.Snapshot.load(os.path.join(out, f"0{suffix}.snap"))
        new = tracemalloc.Snapshot.load(os.path.join(out, f"1{suffix}.snap"))
        diff = new.compare_to(old, "lineno")
        total = sum(d.size_diff for d in diff)
        print(f"tracemalloc, {what}: {total / 1024 / sockets:.1f} KiB per socket on the Python heap; top sites:")
        for d in diff[:top]:
            frame = d.traceback[0]
            where = f"{os.path.relpath(frame.filename, ROOT) if frame.filename.startswith(ROOT) else frame.filename}"
            print(f"  {d.size_diff / 1024 / sockets:7.2f} KiB/socket {d.count_diff / sockets:6.1f} blocks  "
                  f"{where}:{frame.lineno}")


STAGE_LINE = re.compile(r'^(spite_move_stage_seconds|spite_move_latency_seconds|spite_commit_batch_moves'
                        r'|spite_gc_pause_seconds)_(sum|count)(?:\{(?:stage|generation)="(\w+)"\})? ([0-9.e+-]+)$')
PATH_LINE = re.compile(r'^spite_commit_path_total\{path="(\w+)"\} ([0-9.e+-]+)$')


async def scrape(urls: list[str]) -> dict[tuple[str, str, str], float]:
    """The stage, latency and batch sums and counts of every instance's /metrics, added up."""
    out: dict[tuple[str, str, str], float] = {}
    async with httpx.AsyncClient(timeout=10) as client:
        for url in urls:
            for line in (await client.get(url + "/metrics")).text.splitlines():
                m = STAGE_LINE.match(line)
                if m:
                    key = (m.group(1), m.group(3) or "", m.group(2))
                    out[key] = out.get(key, 0.0) + float(m.group(4))
                m = PATH_LINE.match(line)
                if m:
                    key = ("spite_commit_path", m.group(1), "total")
                    out[key] = out.get(key, 0.0) + float(m.group(2))
    return out


def print_gc(before: dict[tuple[str, str, str], float], after: dict[tuple[str, str, str], float],
             elapsed: float) -> None:
    """The server's garbage-collector pauses over the measured window, by generation."""
    def delta(gen: str, what: str) -> float:
        key = ("spite_gc_pause_seconds", gen, what)
        return after.get(key, 0.0) - before.get(key, 0.0)

    parts = [f"gen {g}: {delta(g, 'count'):.0f} pauses, {delta(g, 'sum') * 1000:.1f} ms" for g in ("0", "1", "2")]
    total = sum(delta(g, "sum") for g in ("0", "1", "2"))
    print(f"server gc: {'; '.join(parts)} ({total / elapsed * 100:.1f} % of the window)")


def print_paths(before: dict[tuple[str, str, str], float], after: dict[tuple[str, str, str], float]) -> None:
    """How the moves of the measured window were committed (`spite_commit_path_total`): inline,
    in a batch on the loop's thread, or through the pooled async connection."""
    paths = {k[1]: after[k] - before.get(k, 0.0) for k in after if k[0] == "spite_commit_path"}
    total = sum(paths.values())
    if total:
        print("commit paths: " + ", ".join(f"{p} {n:,.0f} ({n / total:.0%})" for p, n in sorted(paths.items())))


def print_stages(before: dict[tuple[str, str, str], float], after: dict[tuple[str, str, str], float]) -> None:
    """Mean time from a move's frame arriving to the end of each stage, over the measured
    window (the server ran with SPITE_TRACE_STAGES), and each stage's own share."""
    def mean(name: str, stage: str) -> float | None:
        n = after.get((name, stage, "count"), 0.0) - before.get((name, stage, "count"), 0.0)
        s = after.get((name, stage, "sum"), 0.0) - before.get((name, stage, "sum"), 0.0)
        return s / n if n else None

    print("stage (mean since the frame arrived, then the stage's own time):")
    last = 0.0
    rows = [("spite_move_stage_seconds", s) for s in
            ("parsed", "locked", "decided", "committed", "applied", "fanned_out", "published")]
    rows.append(("spite_move_latency_seconds", "sent"))
    for name, stage in rows:
        m = mean(name, stage)
        if m is None:
            continue
        print(f"  {stage:<11} {m * 1000:8.3f} ms   +{(m - last) * 1000:7.3f} ms")
        last = m
    batch = mean("spite_commit_batch_moves", "")
    if batch is not None:
        print(f"  moves per commit: {batch:.1f}")


def start_profiler(path: str, pid: int, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy sampling the server (without pausing it) for the measured window, on the load's core."""
    spy = os.path.join(os.path.dirname(sys.executable), "py-spy")
    cpu = ["taskset", "-c", "1"] if os.path.exists("/usr/bin/taskset") else []
    return subprocess.Popen([*cpu, spy, "record", "--nonblocking", "--format", "raw", "--rate", "250",
                             "--duration", str(int(seconds)), "--output", path, "--pid", str(pid)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def run_echo(args: argparse.Namespace, url: str, server_pid: int) -> None:
    stats = Stats()
    payload = dumps({"type": "move", "id": "m1", "move": {"kind": "play", "card": 17, "from": "hand",
                                                           "to": "centre:2"}, "pad": "x" * 40})
    before = rss_kib(server_pid)
    socks = [await websockets.connect(url, compression=None) for _ in range(2 * args.rooms)]
    await asyncio.sleep(1.0)
    after = rss_kib(server_pid)
    stop = time.perf_counter() + args.seconds

    async def drive(ws: Any, rng: random.Random) -> None:
        while time.perf_counter() < stop:
            t = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            stats.latencies.append((time.perf_counter() - t) * 1000)
            stats.moves += 1
            if args.pace:
                await asyncio.sleep(2 * args.pace * (0.5 + rng.random()))  # a player moves every other turn

    t0 = time.perf_counter()
    await asyncio.gather(*(drive(ws, random.Random(i)) for i, ws in enumerate(socks)))
    report(stats, time.perf_counter() - t0, (after - before) / len(socks), "messages", args)


def report(stats: Stats, elapsed: float, kib: float | None, unit: str, args: argparse.Namespace) -> None:
    lat = sorted(stats.latencies) or [0.0]

    def pct(values: list[float], p: float) -> float:
        return values[min(len(values) - 1, int(p / 100 * len(values)))]

    if stats.peer:
        peer = sorted(stats.peer)
        print(f"peer delivery: p50 {pct(peer, 50):.1f} ms, p95 {pct(peer, 95):.1f} ms, p99 {pct(peer, 99):.1f} ms")
    if stats.errors:
        print(f"errors: {stats.errors}")
    if stats.client_lag:
        lag = sorted(stats.client_lag)
        print(f"client loop lag: p50 {pct(lag, 50):.1f} ms, p99 {pct(lag, 99):.1f} ms (this client's own delay)")
    print(f"rooms {args.rooms}, pace {args.pace}s, measured {elapsed:.1f}s, {len(lat)} {unit}, "
          f"mean {statistics.fmean(lat):.1f} ms")
    mem = f"{kib:.1f} KiB per connection" if kib is not None else "n/a KiB per connection"
    if args.echo_peer:
        print("echo peer: each 'move' below is one message sent and echoed back")
    print(f"load: {stats.moves / elapsed:,.0f} moves/s, p50 {pct(lat, 50):.1f} ms, "
          f"p99 {pct(lat, 99):.1f} ms, {mem}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a player's moves (0: flat out)")
    parser.add_argument("--url", help="server base URL(s), comma-separated (default: start one here)")
    parser.add_argument("--echo-peer", action="store_true", help="drive a bare websockets echo server instead")
    parser.add_argument("--format", choices=("split", "full", "delta"), default="split",
                        help="how the view is sent: shared + own parts (default), whole, or deltas after the first")
    parser.add_argument("--deflate", action="store_true",
                        help="clients offer permessage-deflate, as browsers do, and the server accepts it")
    parser.add_argument("--instances", type=int, default=0,
                        help="start this many instances on PostgreSQL + Redis (default: one on SQLite)")
    parser.add_argument("--stages", action="store_true",
                        help="run the server with SPITE_TRACE_STAGES and print where a move's time goes, by stage")
    parser.add_argument("--profile", metavar="FILE",
                        help="sample the server with py-spy during the measured window (raw stacks to FILE)")
    parser.add_argument("--postgres", default=os.environ.get("SPITE_TEST_POSTGRES_URL"),
                        help="admin URL of a PostgreSQL server (for --instances)")
    parser.add_argument("--driver", choices=("asyncpg", "psycopg"), default="asyncpg",
                        help="the PostgreSQL driver of --instances (psycopg: bench/psycopg_server.py)")
    parser.add_argument("--tracemalloc", metavar="DIR", default=None,
                        help="run the server under tracemalloc (bench/traced.py): the heap's growth per socket by site")
    parser.add_argument("--redis", default=os.environ.get("SPITE_TEST_REDIS_URL"), help="Redis URL (for --instances)")
    parser.add_argument("--server", choices=sorted(SERVERS), default="uvicorn",
                        help="the ASGI server and websocket implementation the started server runs on")
    args = parser.parse_args()
    if args.stages:
        SERVER_ENV["SPITE_TRACE_STAGES"] = "true"
    global DEFLATE, FORMAT, TRACE_DIR, DRIVER, SERVER
    SERVER = args.server
    DEFLATE = args.deflate
    FORMAT = args.format
    TRACE_DIR = args.tracemalloc
    DRIVER = args.driver
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    procs: list[subprocess.Popen[bytes]] = []
    cluster = None
    try:
        if args.url and not args.echo_peer:
            urls = [u.rstrip("/") for u in args.url.split(",")]
            pin(1)
            asyncio.run(run_game_load(args, urls, []))
            return
        if args.instances:
            if not args.postgres or not args.redis:
                raise SystemExit("--instances needs --postgres and --redis (or SPITE_TEST_POSTGRES_URL/REDIS_URL)")
            cluster = Cluster(args.instances, args.postgres, args.redis)
            urls = cluster.start()
            pin(1)
            asyncio.run(run_game_load(args, urls, [p.pid for p in cluster.procs]))
            return
        port = free_port()
        procs.append(start_server(port, args.echo_peer))
        pin(1)
        if args.echo_peer:
            asyncio.run(run_echo(args, f"ws://127.0.0.1:{port}", procs[0].pid))
        else:
            asyncio.run(run_game_load(args, [f"http://127.0.0.1:{port}"], [procs[0].pid]))
    finally:
        if cluster is not None:
            cluster.stop()
        stop_all(procs)


if __name__ == "__main__":
    main()
