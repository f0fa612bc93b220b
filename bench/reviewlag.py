"""Review lag: does a server making match reviews stay responsive for the rooms?

    nice -n 19 python bench/reviewlag.py [--matches 2] [--seconds 30] [--pace 0.2]

Starts a server (uvicorn, fresh SQLite file, the local review queue with its shipped settings;
its main process pinned to `--cpu` with taskset, the review's child process and this benchmark
on the other CPU, as bench/botlag.py does),
finishes `--matches` short matches (two people, random moves), then measures two windows of
`--seconds` in one sitting while two people play a standard room, one move every `--pace` s:
first with no review running (baseline), then with the reviews of those matches asked for (they
run in the server's child process). Figures per window: the server's event-loop lag from its
`/metrics` histogram (p50, p99) and the people's move latency; and the reviews' progress.
Last line: `reviewlag: loop lag p99 <a> ms without reviews, <b> ms with; move p99 <c> / <d> ms`.
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
import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from botlag import children, human_room, mover_of, pin_process, quantile, random_move, scrape, server, two_people  # noqa: E402
from load import pin  # noqa: E402


async def finished_match(client: httpx.AsyncClient, base: str, index: int) -> tuple[str, str]:
    """Two people play a short hand (random moves) to its end: (a player's token, match id)."""
    tokens, people, readers = await two_people(client, base, (f"A{index}", f"B{index}"),
                                               {"preset": "short", "seats": 2, "options": {"payoff_size": 5}})
    rng = random.Random(index)
    while True:
        view = people[0].view
        if view is not None and view["status"] in ("match_over", "hand_over"):
            break
        mover = mover_of(people)
        if mover is None:
            await asyncio.sleep(0.005)
            continue
        await random_move(mover, rng)
    me = (await client.get(f"{base}/api/players/me", headers={"Authorization": f"Bearer {tokens[0]}"})).json()["id"]
    match_id = (await client.get(f"{base}/api/players/{me}/matches")).json()["items"][0]["id"]
    for t in readers:
        t.cancel()
    for p in people:
        await p.ws.close()
    return tokens[0], match_id


async def window(client: httpx.AsyncClient, base: str, seconds: float, pace: float) -> tuple[float, float, float]:
    latencies: list[float] = []
    stop = time.perf_counter() + seconds
    before = scrape(base)
    await human_room(client, base, pace, stop, latencies, [True])
    after = scrape(base)
    lat = sorted(latencies) or [0.0]
    lag = "spite_event_loop_lag_seconds"
    return (quantile(before, after, lag, 0.5) * 1000, quantile(before, after, lag, 0.99) * 1000,
            lat[min(len(lat) - 1, int(0.99 * len(lat)))])


async def run(args: argparse.Namespace, base: str, server_pid: int) -> None:
    async with httpx.AsyncClient(timeout=60) as client:
        done = [await finished_match(client, base, i) for i in range(args.matches)]
        quiet = await window(client, base, args.seconds, args.pace)
        for token, match_id in done:
            r = await client.post(f"{base}/api/matches/{match_id}/review", headers={"Authorization": f"Bearer {token}"})
            r.raise_for_status()
        await asyncio.sleep(1.0)  # the local queue has spawned its child
        kids = children(server_pid)
        for kid in kids:  # the review's child process works on the other core
            with contextlib.suppress(OSError):
                pin_process(kid, 1 - args.cpu)
        busy = await window(client, base, args.seconds, args.pace)
        states = [orjson.loads((await client.get(f"{base}/api/matches/{m}/review")).content) for _, m in done]
    print(f"server on CPU 0, {len(kids)} child process(es) (the review) and this benchmark on CPU 1; "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"without reviews: loop lag p50 {quiet[0]:.1f} ms, p99 {quiet[1]:.1f} ms; move p99 {quiet[2]:.1f} ms")
    print(f"with reviews:    loop lag p50 {busy[0]:.1f} ms, p99 {busy[1]:.1f} ms; move p99 {busy[2]:.1f} ms")
    print("reviews after the window: " + ", ".join(f"{s['status']} {s['progress']:.0%}" for s in states))
    print(f"reviewlag: loop lag p99 {quiet[1]:.1f} ms without reviews, {busy[1]:.1f} ms with; "
          f"move p99 {quiet[2]:.1f} / {busy[2]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--cpu", type=int, default=0, help="the server's main process runs on this CPU alone")
    args = parser.parse_args()
    with server("reviewlag", {}, args.cpu) as (base, pid):
        pin(1 - args.cpu)
        asyncio.run(run(args, base, pid))


if __name__ == "__main__":
    main()
