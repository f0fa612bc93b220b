"""Sign-in flood: does a server being sent sign-ins with the *right* password stay responsive?

    python bench/signin_flood.py [--loops 16] [--seconds 12] [--crowd] [--postgres URL]

Starts `python -m app.serve` (a fresh SQLite file, or a fresh database on `--postgres`) with the
shipped limits, claims one account, then runs `--loops` parallel loops of `POST /api/sessions`
with that account's right password for `--seconds`, while a probe asks `GET /api/players/me`
(a database read) every 100 ms and opens a room socket (time to `welcome`) every second.
`--crowd` raises the sign-in limits (as a site behind one NAT would see them), so every try is
hashed: it measures the hash gate and the connection rule alone. Figures: the probe's REST
latency before and during the flood (p50, p95, max, and its non-200 answers), the socket's
time to welcome, and the flood's answers by status.
Last line: `signin_flood: rest p50 <a> ms p95 <b> ms max <c> ms; welcome max <d> ms; flood {status: n}`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]
CROWD = {"SPITE_LIMIT_SIGNINS": "100000/minute", "SPITE_LIMIT_USER_SIGNINS": "100000/minute",
         "SPITE_LIMIT_SIGNIN_USER_FAILURES": "100000/minute", "SPITE_LIMIT_SIGNIN_FAILURES": "100000/minute"}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _probe(http: httpx.AsyncClient, auth: dict[str, str], until: float) -> tuple[list[float], Counter[int]]:
    took, codes = [], Counter[int]()
    while time.monotonic() < until:
        start = time.perf_counter()
        try:
            r = await http.get("/api/players/me", headers=auth, timeout=30)
            codes[r.status_code] += 1
        except httpx.HTTPError:
            codes[0] += 1
        took.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(0.1)
    return took, codes


async def _welcomes(base: str, code: str, token: str, until: float) -> list[float]:
    took = []
    while time.monotonic() < until:
        start = time.perf_counter()
        try:
            async with websockets.connect(base.replace("http", "ws", 1) + f"/ws/rooms/{code}", open_timeout=15) as ws:
                await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                while orjson.loads(await asyncio.wait_for(ws.recv(), 15))["type"] != "welcome":
                    pass
            took.append((time.perf_counter() - start) * 1000)
        except (OSError, TimeoutError, websockets.WebSocketException):
            took.append(15000.0)
        await asyncio.sleep(1.0)
    return took


async def _flood(http: httpx.AsyncClient, username: str, until: float, codes: Counter[int]) -> None:
    while time.monotonic() < until:
        try:
            r = await http.post("/api/sessions", json={"username": username, "password": "correct horse"}, timeout=30)
            codes[r.status_code] += 1
        except httpx.HTTPError:
            codes[0] += 1


def _figures(took: list[float]) -> str:
    q = statistics.quantiles(took, n=20, method="inclusive") if len(took) > 1 else took * 19
    return f"p50 {statistics.median(took):.0f} ms p95 {q[18]:.0f} ms max {max(took):.0f} ms"


async def run(base: str, loops: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        guest = (await http.post("/api/players", json={"name": "Ann"})).json()
        auth = {"Authorization": f"Bearer {guest['token']}"}
        r = await http.post("/api/account", json={"username": "ann", "password": "correct horse"}, headers=auth)
        assert r.status_code == 201, r.text
        room = (await http.post("/api/rooms", json={}, headers=auth)).json()
        quiet, quiet_codes = await _probe(http, auth, time.monotonic() + 3)
        print(f"before the flood: rest {_figures(quiet)} {dict(quiet_codes)}")
        until = time.monotonic() + seconds
        flood: Counter[int] = Counter()
        async with httpx.AsyncClient(base_url=base, limits=httpx.Limits(max_connections=loops + 4)) as attacker:
            probe = asyncio.create_task(_probe(http, auth, until))
            welcome = asyncio.create_task(_welcomes(base, room["code"], guest["token"], until))
            await asyncio.gather(*(_flood(attacker, "ann", until, flood) for _ in range(loops)))
            took, codes = await probe
            welcomes = await welcome
        print(f"during the flood: rest {_figures(took)} {dict(codes)}; welcome {_figures(welcomes)}; "
              f"flood {dict(flood)}")
        print(f"signin_flood: rest {_figures(took)}; welcome max {max(welcomes):.0f} ms; flood {dict(flood)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loops", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--crowd", action="store_true", help="raise the sign-in limits: every try is hashed")
    parser.add_argument("--postgres", help="a PostgreSQL server URL to make a fresh database on")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/flood.db"
        if args.postgres:
            import asyncpg

            name = f"spite_bench_{uuid.uuid4().hex[:8]}"

            async def make() -> None:
                conn = await asyncpg.connect(args.postgres)
                await conn.execute(f'CREATE DATABASE "{name}"')
                await conn.close()

            asyncio.run(make())
            url = args.postgres.rsplit("/", 1)[0] + f"/{name}"
        port = _free_port()
        env = {**os.environ, "SPITE_DATABASE_URL": url, **(CROWD if args.crowd else {})}
        proc = subprocess.Popen([sys.executable, "-m", "app.serve", "--port", str(port)], cwd=ROOT, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 180
            while True:
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
            asyncio.run(run(base, args.loops, args.seconds))
        finally:
            proc.terminate()
            proc.wait(20)


if __name__ == "__main__":
    main()
