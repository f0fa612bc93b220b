"""Bot lag: does a server whose bots are thinking stay responsive for everyone else?

    python bench/botlag.py [--rooms 6] [--seats 4] [--level easy] [--seconds 20] [--pace 0.2]

Starts a server (uvicorn, fresh SQLite file) with its main process on CPU 0 and its bot worker
processes on CPU 1 (the benchmark moves them there once they exist; this process runs on CPU 1
too). It fills `--rooms` rooms with bots of `--level` playing without pause (SPITE_BOT_DELAY=0)
beside their host in seat 0 (a match needs a person; the host plays its first legal move at
once), and meanwhile two people (this benchmark) play a room of their own, one
move every `--pace` seconds. Figures, over the measured window:

- the server's event-loop lag, from its `/metrics` histogram `spite_event_loop_lag_seconds`
  (a probe that sleeps 10 ms and records how late it wakes), p50 and p99 interpolated within
  the buckets, as Prometheus' histogram_quantile does;
- the people's move latency (sending a move -> their own state), p50 and p99;
- bot moves per second and the bots' think time p50.

A level the bots of this build do not have (see `app.bots.LEVELS`) falls back to `easy`, and the
benchmark says so. `--rooms 0` measures the same without bots, for comparison.
Last line: `botlag: loop lag p50 <a> ms, p99 <b> ms; human move p50 <c> ms, p99 <d> ms`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import websockets
from prometheus_client.parser import text_string_to_metric_families

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from load import free_port, pin, wait_http  # noqa: E402

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode()


def known_level(level: str) -> str:
    from app.bots import LEVELS

    if level in LEVELS:
        return level
    print(f"bot level {level!r} is not in this build (it has {', '.join(LEVELS)}); using 'easy' instead")
    return "easy"


def children(pid: int) -> list[int]:
    """Every descendant process of `pid`."""
    out: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        for kid in kids:
            out += [kid, *children(kid)]
    return out


def pin_process(pid: int, cpu: int) -> None:
    """Every thread of `pid` onto `cpu` (an affinity is per thread: pinning the pid alone leaves
    the threads it already started where they were)."""
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(task), {cpu})


def scrape(base: str) -> Samples:
    body = httpx.get(f"{base}/metrics", timeout=10).text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(body) for s in family.samples}


def quantile(before: Samples, after: Samples, name: str, q: float) -> float:
    """Prometheus' histogram_quantile over the difference of two scrapes (seconds)."""
    buckets = []
    for (n, labels), value in after.items():
        if n != f"{name}_bucket":
            continue
        le = dict(labels)["le"]
        bound = float("inf") if le == "+Inf" else float(le)
        buckets.append((bound, value - before.get((n, labels), 0.0)))
    buckets.sort()
    total = buckets[-1][1] if buckets else 0.0
    if total <= 0:
        return 0.0
    rank, lower, below = q * total, 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if bound == float("inf"):
                return lower
            return lower + (bound - lower) * ((rank - below) / max(count - below, 1e-9))
        lower, below = bound, count
    return lower


def delta(before: Samples, after: Samples, name: str) -> float:
    return sum(v - before.get(k, 0.0) for k, v in after.items() if k[0] == name)


async def person(client: httpx.AsyncClient, base: str, name: str) -> str:
    r = await client.post(f"{base}/api/players", json={"name": name})
    r.raise_for_status()
    return str(r.json()["token"])


async def open_socket(base: str, code: str, token: str) -> Any:
    ws = await websockets.connect(base.replace("http", "ws", 1) + f"/ws/rooms/{code}", max_size=2**22,
                                  compression=None)
    await ws.send(dumps({"type": "hello", "token": token, "last_v": None}))
    return ws


async def bot_room(client: httpx.AsyncClient, base: str, index: int, seats: int, level: str) -> Any:
    token = await person(client, base, f"host{index}")
    r = await client.post(f"{base}/api/rooms", headers={"Authorization": f"Bearer {token}"},
                          json={"preset": "standard", "seats": seats})
    r.raise_for_status()
    code = r.json()["code"]
    ws = await open_socket(base, code, token)
    await ws.send(dumps({"type": "sit", "seat": 0}))  # a match needs a person at the table
    for seat in range(1, seats):
        await ws.send(dumps({"type": "add_bot", "seat": seat, "level": level}))
    await asyncio.sleep(0.2)
    await ws.send(dumps({"type": "start"}))
    return ws  # the host stays, playing its seat at once


async def keep_bots_going(sockets: list[Any], stop: float) -> None:
    """Read what the bot rooms send; the host plays its own seat's first legal move at once,
    and starts the next match when one ends."""

    async def watch(ws: Any) -> None:
        while time.perf_counter() < stop:
            try:
                msg = orjson.loads(await asyncio.wait_for(ws.recv(), 1))
            except TimeoutError:
                continue
            if msg.get("type") == "state" and msg["view"]["legal_moves"]:
                await ws.send(dumps({"type": "move", "id": f"h{msg['v']}", "move": msg["view"]["legal_moves"][0]}))
            elif msg.get("type") == "state" and msg["view"]["status"] == "match_over":
                await ws.send(dumps({"type": "start"}))  # the host (watching) starts the next match
            elif msg.get("type") == "state" and msg["view"]["status"] == "hand_over":
                await ws.send(dumps({"type": "next_hand"}))

    await asyncio.gather(*(watch(ws) for ws in sockets), return_exceptions=True)


class Human:
    def __init__(self, ws: Any) -> None:
        self.ws, self.v, self.view = ws, -1, None
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for raw in self.ws:
            msg = orjson.loads(raw)
            if msg["type"] == "state":
                self.v, self.view = msg["v"], msg["view"]
                self.changed.set()


async def two_people(client: httpx.AsyncClient, base: str, names: tuple[str, str], room: dict[str, Any]
                     ) -> tuple[list[str], list[Human], list[asyncio.Task[None]]]:
    """Two new people sit at a new room (`room`: the create body) and start: their tokens, their
    sockets' readers and the reading tasks."""
    tokens = [await person(client, base, names[0]), await person(client, base, names[1])]
    r = await client.post(f"{base}/api/rooms", headers={"Authorization": f"Bearer {tokens[0]}"}, json=room)
    r.raise_for_status()
    code = r.json()["code"]
    people = [Human(await open_socket(base, code, t)) for t in tokens]
    readers = [asyncio.create_task(p.read()) for p in people]
    for seat, p in enumerate(people):
        await p.ws.send(dumps({"type": "sit", "seat": seat}))
    await asyncio.sleep(0.3)
    await people[0].ws.send(dumps({"type": "start"}))
    return tokens, people, readers


def mover_of(people: list[Human]) -> Human | None:
    """The person to move when every socket has caught up with the same state, else None."""
    view = people[0].view
    mover = people[view["turn"]] if view is not None else None
    if mover is None or mover.view is None or mover.v != people[0].v or not mover.view["legal_moves"]:
        return None
    return mover


async def random_move(mover: Human, rng: random.Random) -> None:
    """Send one random legal move and wait until the mover's own state shows it."""
    assert mover.view is not None
    target = mover.v + 1
    mover.changed.clear()
    await mover.ws.send(dumps({"type": "move", "id": f"m{target}", "move": rng.choice(mover.view["legal_moves"])}))
    while mover.v < target:
        await asyncio.wait_for(mover.changed.wait(), 10)
        mover.changed.clear()


async def human_room(client: httpx.AsyncClient, base: str, pace: float, stop: float,
                     latencies: list[float], measuring: list[bool]) -> None:
    _tokens, people, readers = await two_people(client, base, ("Ann", "Bob"), {"preset": "standard", "seats": 2})
    rng = random.Random(1)
    while time.perf_counter() < stop:
        view = people[0].view
        if view is None:
            await asyncio.sleep(0.05)
            continue
        if view["status"] != "playing":
            await people[0].ws.send(dumps({"type": "rematch" if view["status"] == "match_over" else "next_hand"}))
            await asyncio.sleep(0.3)
            continue
        mover = mover_of(people)
        if mover is None:
            await asyncio.sleep(0.005)
            continue
        sent = time.perf_counter()
        await random_move(mover, rng)
        if measuring[0]:
            latencies.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(pace)
    for t in readers:
        t.cancel()


async def run(args: argparse.Namespace, base: str, server_pid: int) -> None:
    level = known_level(args.level)
    latencies: list[float] = []
    measuring = [False]
    async with httpx.AsyncClient(timeout=60) as client:
        bots = [await bot_room(client, base, i, args.seats, level) for i in range(args.rooms)]
        warmup = 3.0
        stop = time.perf_counter() + warmup + args.seconds
        tasks = [asyncio.create_task(keep_bots_going(bots, stop)),
                 asyncio.create_task(human_room(client, base, args.pace, stop, latencies, measuring))]
        await asyncio.sleep(warmup)
        workers = children(server_pid)
        for kid in workers:  # the bot workers think on the other core
            with contextlib.suppress(OSError):
                pin_process(kid, 1)
        before = scrape(base)
        measuring[0] = True
        t0 = time.perf_counter()
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - t0
        after = scrape(base)
    lat = sorted(latencies) or [0.0]

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p / 100 * len(lat)))]

    lag = "spite_event_loop_lag_seconds"
    bot_moves = delta(before, after, "spite_moves_committed_total") - len(latencies)
    print(f"level {level}, {args.rooms} bot rooms of {args.seats} seats, {len(workers)} child processes "
          f"(bot workers) on CPU 1, measured {elapsed:.1f}s")
    print(f"bots: {max(0.0, bot_moves) / elapsed:.1f} moves/s, think p50 "
          f"{quantile(before, after, 'spite_bot_think_seconds', 0.5) * 1000:.1f} ms, "
          f"p99 {quantile(before, after, 'spite_bot_think_seconds', 0.99) * 1000:.1f} ms")
    print(f"loop lag samples {delta(before, after, lag + '_count'):.0f}, "
          f"mean {delta(before, after, lag + '_sum') / max(1.0, delta(before, after, lag + '_count')) * 1000:.2f} ms")
    print(f"human: {len(latencies)} moves")
    print(f"botlag: loop lag p50 {quantile(before, after, lag, 0.5) * 1000:.1f} ms, "
          f"p99 {quantile(before, after, lag, 0.99) * 1000:.1f} ms; "
          f"human move p50 {pct(50):.1f} ms, p99 {pct(99):.1f} ms")


OPEN_LIMITS = {"SPITE_LOG_LEVEL": "warning", "SPITE_RATE_PER_SECOND": "1000", "SPITE_RATE_BURST": "1000",
               "SPITE_MAX_ROOMS_PER_PLAYER": "1000",
               **{f"SPITE_LIMIT_{k}": "10000000/hour"
                  for k in ("NEW_PLAYERS", "NEW_ROOMS", "PLAYER_ROOMS", "CONNECTS")}}


@contextlib.contextmanager
def server(name: str, env: dict[str, str], cpu: int | None = 0) -> Iterator[tuple[str, int]]:
    """A uvicorn server on a fresh SQLite file with the benchmarks' open limits plus `env`, its
    main process pinned to `cpu` (taskset, None: anywhere): yields (base URL, its pid); stopped after."""
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(prefix=f"spite-{name}-"), f"{name}.db")
    full = {**os.environ, "SPITE_DATABASE_URL": f"sqlite:///{db}", **OPEN_LIMITS, **env}
    full.pop("SPITE_REDIS_URL", None)
    taskset = ["taskset", "-c", str(cpu)] if cpu is not None and shutil.which("taskset") else []
    proc = subprocess.Popen([*taskset, sys.executable, "-m", "uvicorn", "app.web.app:app", "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning", "--no-access-log"], cwd=ROOT, env=full)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(f"{base}/healthz")
        yield base, proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=6, help="rooms of bots playing each other")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--level", default="easy")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pace", type=float, default=0.2, help="seconds between the people's moves")
    parser.add_argument("--workers", type=int, default=2, help="bot worker processes (SPITE_BOT_WORKERS)")
    args = parser.parse_args()
    with server("botlag", {"SPITE_BOT_DELAY": "0", "SPITE_BOT_WORKERS": str(args.workers)}) as (base, pid):
        pin(1)
        asyncio.run(run(args, base, pid))


if __name__ == "__main__":
    main()
