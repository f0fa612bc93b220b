"""Review speed and noise: how long a whole 2-player standard hand takes to review at a setting,
and how often two reviews with different sampling seeds give a decision the same mark.

    nice -n 19 python bench/review.py [--ms 150] [--hands 2] [--people 1] [--lag]

Each hand is Normal against Normal (`--people 1`: seat 0 is the person reviewed; 2: both).
Figures per hand: moves, decisions, CPU seconds of this process (one core) and wall seconds for
each seed, and the agreement of the marks between the two seeds (a decision agrees when both
runs give it the same mark, no mark included). With `--lag`, the same review also runs in the
app's local queue while a probe in this process's event loop records how late 10 ms sleeps
wake (the web process's view: the review runs in a child process, so the loop stays free).
Last line: `review: <s> s per hand (cpu), marks agree <p> %, lag p99 <l> ms`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from app.bots import choose_move  # noqa: E402
from app.engine import Match, Move, make_options, view  # noqa: E402
from app.jobs.review import JobConfig  # noqa: E402
from app.review import HandInput, MatchInput, MoveInput, Review  # noqa: E402


def normal_hand(seed: str, people: int) -> MatchInput:
    opts = make_options("standard", {"players": 2})
    m = Match(opts)
    m.deal(seed)
    moves: list[MoveInput] = []
    while m.status == "playing":
        seat = m.game.turn
        move = Move.from_wire(choose_move(view(m, seat), "normal", seed=m.v))
        m.apply(move, seat)
        moves.append(MoveInput(m.v, seat, move, "player" if seat < people else "bot"))
    return MatchInput(opts, ("Ann", "Bob"), (HandInput(1, seed, None, tuple(moves)),), frozenset(range(people)))


def review(match: MatchInput, ms: float, seed: int) -> tuple[dict, float, float]:
    settings = JobConfig(database_url="", review_ms=ms, seed=seed).review_settings()
    cpu, wall = time.process_time(), time.perf_counter()
    r = Review(match, settings)
    for _ in r.steps():
        pass
    return r.result(), time.process_time() - cpu, time.perf_counter() - wall


async def lag_while(fn: object, seconds: float) -> list[float]:
    """Run `fn` in a child process (as the local queue does) and probe this loop meanwhile."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    lags: list[float] = []
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        fut = loop.run_in_executor(pool, fn)
        while not fut.done():
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - t - 0.01)
        await fut
    return lags


def _one_review_for_lag() -> None:
    review(normal_hand("bench-review-lag", 1), 150.0, 0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ms", type=float, default=150.0, help="SPITE_REVIEW_MS: estimating per decision")
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--people", type=int, default=1, choices=(1, 2))
    ap.add_argument("--lag", action="store_true")
    args = ap.parse_args()
    per_hand: list[float] = []
    agree_n = agree_total = 0
    for h in range(args.hands):
        match = normal_hand(f"bench-review-{h}", args.people)
        (a, cpu_a, wall_a), (b, cpu_b, wall_b) = review(match, args.ms, 0), review(match, args.ms, 1)
        marks_b = {d["v"]: d["mark"] for d in b["decisions"]}
        same = sum(1 for d in a["decisions"] if marks_b.get(d["v"], "none") == d["mark"])
        agree_n += same
        agree_total += len(a["decisions"])
        per_hand += [cpu_a, cpu_b]
        marks = [d["mark"] for d in a["decisions"] if d["mark"]]
        print(f"hand {h}: {len(match.hands[0].moves)} moves, {len(a['decisions'])} decisions, "
              f"cpu {cpu_a:.1f} / {cpu_b:.1f} s, wall {wall_a:.1f} / {wall_b:.1f} s, "
              f"marks {len(marks)} (seed 0), agree {same}/{len(a['decisions'])}, "
              f"luck {[x['points'] for x in a['luck']]} / {[x['points'] for x in b['luck']]}", flush=True)
    agree = 100.0 * agree_n / max(1, agree_total)
    lag99 = float("nan")
    if args.lag:
        lags = sorted(asyncio.run(lag_while(_one_review_for_lag, 0)))
        lag99 = 1000 * lags[int(0.99 * (len(lags) - 1))]
        print(f"loop lag while a review runs in a child process: p50 {1000 * statistics.median(lags):.2f} ms, "
              f"p99 {lag99:.2f} ms, max {1000 * lags[-1]:.2f} ms over {len(lags)} probes")
    print(f"review: {statistics.mean(per_hand):.1f} s per hand (cpu), marks agree {agree:.0f} %, "
          f"lag p99 {lag99:.1f} ms")


if __name__ == "__main__":
    main()
