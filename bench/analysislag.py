"""Analysis lag: do people analysing finished matches on the analysis board slow the live rooms?

    python bench/analysislag.py [--analysts 5] [--seconds 30] [--pace 0.2]

Starts a server (uvicorn, fresh SQLite file, the board's shipped settings but a rate open enough
for the benchmark; its main process pinned to `--cpu` with taskset, the board's pool process and
this benchmark on the other CPU, as bench/reviewlag.py does), finishes `--analysts` short
matches (two people, random moves), then measures two windows of `--seconds` in one sitting
while two people play a standard room, one move every `--pace` s: first with nobody analysing
(baseline), then with `--analysts` people each asking the board about positions of their match
one after another (each answer a new position: no cache hits). Figures per window: the server's
event-loop lag from its `/metrics` histogram (p50, p99) and the people's move latency; for the
board: the time to the first answer (the pool starts with it), one answer alone, and the answers' latency (p50,
p99) and count. Last line: `analysislag: loop lag p99 <a> ms without analysts, <b> ms with;
first answer <c> ms; answer p50 <d> ms`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import time

import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from botlag import children, pin_process, server  # noqa: E402
from load import pin  # noqa: E402
from reviewlag import finished_match, window  # noqa: E402


async def analyst(client: httpx.AsyncClient, base: str, token: str, match_id: str, stop: float,
                  latencies: list[float], refused: list[int], seed: int) -> None:
    """Ask the board about positions of `match_id` (the seat to move at each) until `stop`."""
    replay = (await client.get(f"{base}/api/matches/{match_id}/replay")).json()
    asks = [(m["seq"] - 1, m["seat"]) for m in replay["moves"]]
    random.Random(seed).shuffle(asks)
    auth = {"Authorization": f"Bearer {token}"}
    for v, seat in asks:
        if time.perf_counter() >= stop:
            return
        t0 = time.perf_counter()
        r = await client.post(f"{base}/api/matches/{match_id}/analysis", json={"v": v, "seat": seat}, headers=auth)
        if r.status_code == 200:
            latencies.append((time.perf_counter() - t0) * 1000)
        else:
            refused.append(r.status_code)
            await asyncio.sleep(0.5)


def pct(values: list[float], q: float) -> float:
    s = sorted(values) or [0.0]
    return s[min(len(s) - 1, int(q * len(s)))]


async def run(args: argparse.Namespace, base: str, server_pid: int) -> None:
    async with httpx.AsyncClient(timeout=60) as client:
        done = [await finished_match(client, base, i) for i in range(args.analysts)]
        quiet = await window(client, base, args.seconds, args.pace)
        # the first answer: the board's pool starts with it
        token, match_id = done[0]
        t0 = time.perf_counter()
        r = await client.post(f"{base}/api/matches/{match_id}/analysis", json={"v": 0, "seat": 0},
                              headers={"Authorization": f"Bearer {token}"})
        first = (time.perf_counter() - t0) * 1000
        r.raise_for_status()
        step = (await client.get(f"{base}/api/matches/{match_id}/replay")).json()["moves"][3]
        t0 = time.perf_counter()  # one answer alone, the pool warm: what one analyst waits (a seat to move)
        r = await client.post(f"{base}/api/matches/{match_id}/analysis",
                              json={"v": step["seq"] - 1, "seat": step["seat"]},
                              headers={"Authorization": f"Bearer {token}"})
        alone = (time.perf_counter() - t0) * 1000
        r.raise_for_status()
        kids = children(server_pid)
        for kid in kids:  # the board's pool works on the other core
            with contextlib.suppress(OSError):
                pin_process(kid, 1 - args.cpu)
        latencies: list[float] = []
        refused: list[int] = []
        stop = time.perf_counter() + args.seconds + 2
        tasks = [asyncio.create_task(analyst(client, base, tok, m, stop, latencies, refused, i))
                 for i, (tok, m) in enumerate(done)]
        busy = await window(client, base, args.seconds, args.pace)
        await asyncio.gather(*tasks)
    print(f"server on CPU {args.cpu}, {len(kids)} child process(es) (the board's pool) and this benchmark on CPU "
          f"{1 - args.cpu}; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"without analysts: loop lag p50 {quiet[0]:.1f} ms, p99 {quiet[1]:.1f} ms; move p99 {quiet[2]:.1f} ms")
    print(f"with {args.analysts} analysts: loop lag p50 {busy[0]:.1f} ms, p99 {busy[1]:.1f} ms; "
          f"move p99 {busy[2]:.1f} ms")
    print(f"board: first answer {first:.0f} ms (the pool starts), then one alone {alone:.0f} ms; with "
          f"{args.analysts} analysts {len(latencies)} answers, p50 "
          f"{pct(latencies, 0.5):.0f} ms, p99 {pct(latencies, 0.99):.0f} ms; refused {len(refused)} "
          f"({', '.join(str(c) for c in sorted(set(refused))) or 'none'})")
    print(f"analysislag: loop lag p99 {quiet[1]:.1f} ms without analysts, {busy[1]:.1f} ms with; "
          f"first answer {first:.0f} ms; answer p50 {pct(latencies, 0.5):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--analysts", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--cpu", type=int, default=0, help="the server's main process runs on this CPU alone")
    args = parser.parse_args()
    with server("analysislag", {"SPITE_ANALYSIS_PER_MINUTE": "1000"}, args.cpu) as (base, pid):
        pin(1 - args.cpu)
        asyncio.run(run(args, base, pid))


if __name__ == "__main__":
    main()
