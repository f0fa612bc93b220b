"""Review speed and noise: how long a whole 2-player standard hand takes to review at a setting,
and how often two reviews with different sampling seeds give a decision the same mark.

    nice -n 19 python bench/review.py [--ms 150] [--hands 2] [--people 1]
    nice -n 19 python bench/review.py --ms -1 --samples 48   # a fixed number of samples: the cost
    python bench/review.py --hands 0 --lag     # the probe at normal priority, the review niced

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
import contextlib
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from app.bots import choose_move  # noqa: E402
from app.engine import Match, Move, make_options, view  # noqa: E402
from app.platform.jobs.review import JobConfig  # noqa: E402
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


def review(match: MatchInput, ms: float, seed: int, samples: int = 400, turns: int = 4) -> tuple[dict, float, float]:
    """One review of `match` (`ms` < 0: no time budget, `samples` per decision exactly)."""
    settings = JobConfig(database_url="", review_ms=None if ms < 0 else ms, review_samples=samples,
                         seed=seed, turns=turns).review_settings()
    cpu, wall = time.process_time(), time.perf_counter()
    r = Review(match, settings)
    for _ in r.steps():
        pass
    return r.result(), time.process_time() - cpu, time.perf_counter() - wall


def _nice_child() -> None:
    os.nice(19)  # as the local queue's children are: the web process keeps the CPU


async def probe(seconds: float) -> list[float]:
    """How late 10 ms sleeps of this loop wake, for `seconds`."""
    lags: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - t - 0.01)
    return sorted(lags)


async def lag_quiet_and_busy(seconds: float) -> tuple[list[float], list[float]]:
    """Loop lag of this process for `seconds` with nothing else of ours running, then for
    `seconds` while a review runs in a spawned child process (as the local queue runs it)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    quiet = await probe(seconds)
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_nice_child) as pool:
        fut = loop.run_in_executor(pool, _one_review_for_lag)
        await asyncio.sleep(3.0)  # the child has imported and started
        busy = await probe(seconds)
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.kill()
        with contextlib.suppress(Exception):
            await fut
    return quiet, busy


def _one_review_for_lag() -> None:
    review(normal_hand("bench-review-lag", 1), 150.0, 0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ms", type=float, default=150.0, help="SPITE_REVIEW_MS: estimating per decision")
    ap.add_argument("--samples", type=int, default=400, help="SPITE_REVIEW_SAMPLES (with --ms -1: exactly these)")
    ap.add_argument("--turns", type=int, default=4, help="turn ends a rollout plays before the leaf")
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--people", type=int, default=1, choices=(1, 2))
    ap.add_argument("--lag", action="store_true", help="measure this process's loop lag (run it at normal priority)")
    ap.add_argument("--lag-seconds", type=float, default=20.0)
    args = ap.parse_args()
    per_hand: list[float] = []
    agree_n = agree_total = 0
    for h in range(args.hands):  # --hands 0: only the lag
        match = normal_hand(f"bench-review-{h}", args.people)
        (a, cpu_a, wall_a), (b, cpu_b, wall_b) = (review(match, args.ms, seed, args.samples, args.turns)
                                                    for seed in (0, 1))
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
        quiet, busy = asyncio.run(lag_quiet_and_busy(args.lag_seconds))
        for name, lags in (("no review", quiet), ("a review in a child", busy)):
            print(f"loop lag, {name}: p50 {1000 * statistics.median(lags):.2f} ms, "
                  f"p99 {1000 * lags[int(0.99 * (len(lags) - 1))]:.2f} ms, max {1000 * lags[-1]:.2f} ms, "
                  f"{len(lags)} probes")
        lag99 = 1000 * busy[int(0.99 * (len(busy) - 1))]
    print(f"review: {statistics.mean(per_hand or [0.0]):.1f} s per hand (cpu), marks agree {agree:.0f} %, "
          f"lag p99 {lag99:.1f} ms")


if __name__ == "__main__":
    main()
