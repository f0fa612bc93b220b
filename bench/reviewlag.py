"""Review lag: does a server making match reviews stay responsive for the rooms?

    nice -n 19 python bench/reviewlag.py [--matches 2] [--seconds 30] [--pace 0.2]

Starts a server (uvicorn, fresh SQLite file, the local review queue with its shipped settings),
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
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import httpx
import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from botlag import Human, dumps, human_room, open_socket, person, quantile, scrape  # noqa: E402
from load import free_port, wait_http  # noqa: E402


async def finished_match(client: httpx.AsyncClient, base: str, index: int) -> tuple[str, str]:
    """Two people play a short hand (random moves) to its end: (a player's token, match id)."""
    tokens = [await person(client, base, f"A{index}"), await person(client, base, f"B{index}")]
    r = await client.post(f"{base}/api/rooms", headers={"Authorization": f"Bearer {tokens[0]}"},
                          json={"preset": "short", "seats": 2, "options": {"payoff_size": 5}})
    code = r.json()["code"]
    people = [Human(await open_socket(base, code, t)) for t in tokens]
    readers = [asyncio.create_task(p.read()) for p in people]
    for seat, p in enumerate(people):
        await p.ws.send(dumps({"type": "sit", "seat": seat}))
    await asyncio.sleep(0.3)
    await people[0].ws.send(dumps({"type": "start"}))
    rng = random.Random(index)
    while True:
        view = people[0].view
        if view is not None and view["status"] in ("match_over", "hand_over"):
            break
        mover = people[view["turn"]] if view is not None else None
        if mover is None or mover.view is None or mover.v != people[0].v or not mover.view["legal_moves"]:
            await asyncio.sleep(0.005)
            continue
        target = mover.v + 1
        await mover.ws.send(dumps({"type": "move", "id": f"m{target}", "move": rng.choice(mover.view["legal_moves"])}))
        while mover.v < target:
            await asyncio.sleep(0.002)
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


async def run(args: argparse.Namespace, base: str) -> None:
    async with httpx.AsyncClient(timeout=60) as client:
        done = [await finished_match(client, base, i) for i in range(args.matches)]
        quiet = await window(client, base, args.seconds, args.pace)
        for token, match_id in done:
            r = await client.post(f"{base}/api/matches/{match_id}/review", headers={"Authorization": f"Bearer {token}"})
            r.raise_for_status()
        busy = await window(client, base, args.seconds, args.pace)
        states = [orjson.loads((await client.get(f"{base}/api/matches/{m}/review")).content) for _, m in done]
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
    args = parser.parse_args()
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(prefix="spite-reviewlag-"), "reviewlag.db")
    env = {**os.environ, "SPITE_DATABASE_URL": f"sqlite:///{db}", "SPITE_LOG_LEVEL": "warning",
           "SPITE_RATE_PER_SECOND": "1000", "SPITE_RATE_BURST": "1000", "SPITE_MAX_ROOMS_PER_PLAYER": "1000",
           **{f"SPITE_LIMIT_{k}": "10000000/hour" for k in ("NEW_PLAYERS", "NEW_ROOMS", "PLAYER_ROOMS", "CONNECTS")}}
    env.pop("SPITE_REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning", "--no-access-log"], cwd=ROOT, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(f"{base}/healthz")
        asyncio.run(run(args, base))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
