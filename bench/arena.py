"""Arena: two bot levels play duplicate deals against each other.

    python bench/arena.py --a normal --b easy --games 400 --seed 1
    python bench/arena.py --a hard --b normal --games 200 --seed 1 --think-ms 200
    python bench/arena.py --a hard:1000 --b hard:200 --games 100 --seed 3

Every deal is played twice with the seats swapped (so `--games` is rounded up to an even
number). Each bot is given only `view(match, its_seat)` and answers with `choose_move`.
With more than two players, A takes the even seats (or, with `--teams pairs`, the even
teams) and B the others, then they swap. A level may carry its own budget as
`hard:<ms>`; `--think-ms` is the budget of a plain `hard`. Games run in `--workers`
processes (default 2). The last line is

    arena: <A> beats <B> <pct>% of decided games (<w>-<l>-<d>), 95% CI ±<ci>%
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.bots import choose_move  # noqa: E402
from app.bots.stats import STATS  # noqa: E402
from app.engine import Match, Move, make_options, view  # noqa: E402
from app.engine.options import Options  # noqa: E402


@dataclass
class Result:
    deal: int
    swap: bool
    outcome: str  # "a", "b" or "draw"
    reason: str
    moves: int
    seconds: dict[str, float]
    slowest: dict[str, float]
    decisions: dict[str, int]
    iterations: int
    search_seconds: float
    searches: int
    departures: int


def parse_level(spec: str, think_ms: int | None) -> tuple[str, int | None]:
    level, _, ms = spec.partition(":")
    return level, int(ms) if ms else (think_ms if level == "hard" else None)


def seat_groups(opts: Options, swap: bool) -> list[str]:
    """'a' or 'b' for each seat."""
    out = []
    for s in range(opts.players):
        key = opts.team_of(s) if opts.teams == "pairs" else s
        assert key is not None
        out.append("a" if (key % 2 == 0) != swap else "b")
    return out


def deal_seed(seed: str, deal: int) -> str:
    return hashlib.sha256(f"arena:{seed}:{deal}".encode()).hexdigest()[:32]


def play_game(job: tuple[dict[str, Any], int, bool]) -> Result:
    cfg, deal, swap = job
    opts = make_options(cfg["preset"], cfg["overrides"])
    bots = {"a": parse_level(cfg["a"], cfg["think_ms"]), "b": parse_level(cfg["b"], cfg["think_ms"])}
    groups = seat_groups(opts, swap)
    m = Match(opts)
    seed = deal_seed(cfg["seed"], deal)
    m.deal(seed)
    seconds = {"a": 0.0, "b": 0.0}
    slowest = {"a": 0.0, "b": 0.0}
    decisions = {"a": 0, "b": 0}
    STATS.reset()
    moves = 0
    while m.status == "playing":
        seat = m.game.turn
        side = groups[seat]
        level, budget = bots[side]
        v = view(m, seat)
        t = time.perf_counter()
        wire = choose_move(v, level, seed=int(seed[:8], 16) + moves, budget_ms=budget)
        took = time.perf_counter() - t
        seconds[side] += took
        slowest[side] = max(slowest[side], took)
        decisions[side] += 1
        m.apply(Move.from_wire(wire), seat)
        moves += 1
        if moves > cfg["max_moves"]:
            raise RuntimeError(f"deal {deal}: no end after {moves} moves")
    outcome = m.game.outcome
    assert outcome is not None
    won = {groups[s] for s in outcome.winners}
    result = "draw" if not won else ("a" if "a" in won else "b")
    return Result(deal, swap, result, outcome.reason, moves, seconds, slowest, decisions,
                  STATS.iterations, STATS.seconds, STATS.searches, STATS.departures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="level of bot A (random, easy, normal, hard, hard:<ms>)")
    parser.add_argument("--b", required=True, help="level of bot B")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--think-ms", type=int, default=200, help="budget of a plain 'hard' (ms a move)")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", default=None, choices=["none", "pairs"])
    parser.add_argument("--option", action="append", default=[],
                        help="extra rule option name=json-value, e.g. discard_rule='\"same_or_one_lower\"'")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-moves", type=int, default=20000)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--results", default=None, metavar="FILE",
                        help="write one JSON line per game (deal, swap, outcome, moves) for paired comparisons")
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                        help="for experiments: set a constant of app.bots.MODULE in every worker, "
                             "e.g. --set hard.INFER=0 (applies to every bot of that level)")
    args = parser.parse_args()
    overrides: dict[str, Any] = {"players": args.players}
    if args.teams:
        overrides["teams"] = args.teams
    for item in args.option:
        name, _, raw = item.partition("=")
        try:
            overrides[name] = json.loads(raw)
        except json.JSONDecodeError:
            overrides[name] = raw
    make_options(args.preset, overrides)  # refuse bad options before starting workers
    for item in args.set:  # the workers are forked: they inherit these
        target, _, raw = item.partition("=")
        module, _, name = target.rpartition(".")
        mod = importlib.import_module(f"app.bots.{module}")
        if not hasattr(mod, name):
            parser.error(f"app.bots.{module} has no {name}")
        setattr(mod, name, type(getattr(mod, name))(json.loads(raw)))
    cfg = {"a": args.a, "b": args.b, "think_ms": args.think_ms, "preset": args.preset,
           "overrides": overrides, "seed": args.seed, "max_moves": args.max_moves}
    deals = (args.games + 1) // 2
    jobs = [(cfg, d, swap) for d in range(deals) for swap in (False, True)]
    print(f"arena: {args.a} vs {args.b}, {len(jobs)} games ({deals} deals x 2 seatings), "
          f"preset {args.preset}, options {overrides}, seed {args.seed}, think {args.think_ms} ms, "
          f"{args.workers} workers{', set ' + ' '.join(args.set) if args.set else ''}", flush=True)
    start = time.perf_counter()
    results: list[Result] = []
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for r in pool.imap_unordered(play_game, jobs):
            results.append(r)
            if not args.quiet and len(results) % max(1, len(jobs) // 20) == 0:
                w = sum(x.outcome == "a" for x in results)
                lo = sum(x.outcome == "b" for x in results)
                print(f"  {len(results)}/{len(jobs)} games: {w}-{lo}-{len(results) - w - lo} "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)
    if args.results:
        with open(args.results, "w") as out:
            for r in sorted(results, key=lambda x: (x.deal, x.swap)):
                out.write(json.dumps({"deal": r.deal, "swap": r.swap, "outcome": r.outcome, "reason": r.reason,
                                      "moves": r.moves}) + "\n")
    wins = sum(r.outcome == "a" for r in results)
    losses = sum(r.outcome == "b" for r in results)
    draws = len(results) - wins - losses
    decided = wins + losses
    pct = 100.0 * wins / decided if decided else 0.0
    ci = 196.0 * math.sqrt((pct / 100) * (1 - pct / 100) / decided) if decided else 100.0
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    for side, spec in (("a", args.a), ("b", args.b)):
        secs = sum(r.seconds[side] for r in results)
        dec = sum(r.decisions[side] for r in results)
        worst = max(r.slowest[side] for r in results)
        print(f"  {side.upper()} = {spec}: {dec} decisions, {1000 * secs / max(1, dec):.1f} ms a decision, "
              f"slowest {1000 * worst:.0f} ms")
    iters = sum(r.iterations for r in results)
    search = sum(r.search_seconds for r in results)
    if iters:
        print(f"  hard search: {iters} iterations in {search:.1f} s of search = "
              f"{iters / max(search, 1e-9):,.0f} iterations/s per core; "
              f"{sum(r.departures for r in results)} of {sum(r.searches for r in results)} searches "
              "chose another move than Normal's")
    print(f"  moves a game: {sum(r.moves for r in results) / len(results):.0f}; endings {reasons}; "
          f"wall time {time.perf_counter() - start:.0f} s")
    print(f"arena: {args.a} beats {args.b} {pct:.1f}% of decided games ({wins}-{losses}-{draws}), "
          f"95% CI ±{ci:.1f}%")


if __name__ == "__main__":
    main()
