"""Arena: two bot levels play duplicate deals against each other.

    python bench/arena.py --a normal --b easy --games 400 --seed 1
    python bench/arena.py --a hard --b normal --games 200 --seed 1 --think-ms 200
    python bench/arena.py --a hard:1000 --b hard:200 --games 100 --seed 3
    python bench/arena.py --a hard:i4000 --b normal --games 400 --sprt 0.65,0.70
    python bench/arena.py --compare new.jsonl old.jsonl

Every deal is played twice with the seats swapped (so `--games` is rounded up to an even
number). Each bot is given only `view(match, its_seat)` and answers with `choose_move`.
With more than two players, A takes the even seats (or, with `--teams pairs`, the even
teams) and B the others, then they swap. A level may carry its own budget as `hard:<ms>`
(time a move) or `hard:i<N>` (N simulations a move, whatever the machine's speed: repeatable,
and the same strength on a loaded machine), and after a `/` constants for its side alone
(`hard:i400/hard.VALUE_LEAF=0` is the Hard of 2026-12-01 with that budget); `--think-ms` is
the budget of a plain `hard`. Games run in `--workers` processes (default 2).

`--sprt P0,P1` stops as soon as Wald's sequential test decides between "A wins P0 of decided
games" and "A wins P1" (error rates `--alpha`, `--beta`, looked at after whole deals).
`--results FILE` keeps every game; `--compare X Y` compares two such files game by game
(bench/arena_stats.py). The last line is

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
from bench.arena_stats import Sprt, compare, paired  # noqa: E402


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


def side_settings(spec: str) -> list[tuple[Any, str, Any]]:
    """The constants a level spec sets for its side alone: `hard:i400/hard.VALUE_LEAF=0,hard.X=1`."""
    _, _, sets = spec.partition("/")
    out = []
    for item in filter(None, sets.split(",")):
        target, _, raw = item.partition("=")
        module, _, name = target.rpartition(".")
        mod = importlib.import_module(f"app.bots.{module}")
        if not hasattr(mod, name):
            raise SystemExit(f"app.bots.{module} has no {name}")
        out.append((mod, name, type(getattr(mod, name))(json.loads(raw))))
    return out


def parse_level(spec: str, think_ms: int | None) -> tuple[str, int | None, int | None]:
    """level, time budget (ms) and iteration budget of a spec: hard, hard:<ms>, hard:i<N>
    (anything after a `/` is `side_settings`)."""
    spec = spec.partition("/")[0]
    level, _, budget = spec.partition(":")
    if budget.startswith("i"):
        return level, None, int(budget[1:])
    return level, int(budget) if budget else (think_ms if level == "hard" else None), None


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
    settings = {"a": side_settings(cfg["a"]), "b": side_settings(cfg["b"])}
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
        level, budget, iterations = bots[side]
        v = view(m, seat)
        saved = [(mod, name, getattr(mod, name)) for mod, name, _value in settings[side]]
        for mod, name, value in settings[side]:
            setattr(mod, name, value)
        t = time.perf_counter()
        try:
            wire = choose_move(v, level, seed=int(seed[:8], 16) + moves, budget_ms=budget, iterations=iterations)
        finally:
            took = time.perf_counter() - t
            for mod, name, value in saved:
                setattr(mod, name, value)
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
    parser.add_argument("--compare", nargs=2, metavar=("X", "Y"),
                        help="compare two --results files of runs on the same deals, and stop")
    parser.add_argument("--summary", metavar="FILE", help="the figures of a --results file (a run cut short too)")
    parser.add_argument("--sprt", default=None, metavar="P0,P1",
                        help="stop when Wald's test decides A wins P0 or P1 of decided games, e.g. 0.5,0.55")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--a", required=False, help="level of bot A (random, easy, normal, hard, hard:<ms>)")
    parser.add_argument("--b", required=False, help="level of bot B")
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
    if args.compare:
        show_comparison(*args.compare)
        return
    if args.summary:
        show_summary(args.summary)
        return
    if not args.a or not args.b:
        parser.error("--a and --b are required")
    sprt = None
    if args.sprt:
        p0, p1 = (float(x) for x in args.sprt.split(","))
        sprt = Sprt(p0, p1, args.alpha, args.beta)
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
    decided_by = None
    keep = open(args.results, "w") if args.results else None  # noqa: SIM115 (written game by game)
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        # in deal order (imap): the sequential test is looked at after whole deals only
        for r in pool.imap(play_game, jobs):
            results.append(r)
            if keep is not None:  # as each game ends, so a run cut short keeps its games
                keep.write(json.dumps({"deal": r.deal, "swap": r.swap, "outcome": r.outcome, "reason": r.reason,
                                       "moves": r.moves, "a": args.a, "b": args.b, "seed": args.seed}) + "\n")
                keep.flush()
            w = sum(x.outcome == "a" for x in results)
            lo = sum(x.outcome == "b" for x in results)
            if not args.quiet and len(results) % max(1, len(jobs) // 20) == 0:
                took = time.perf_counter() - start
                print(f"  {len(results)}/{len(jobs)} games: {w}-{lo}-{len(results) - w - lo} "
                      f"({took:.0f} s, {60 * len(results) / took:.1f} games/minute)", flush=True)
            if sprt is not None and len(results) % 2 == 0:
                decided_by = sprt.decision(w, lo)
                if decided_by is not None:
                    pool.terminate()
                    break
    if keep is not None:
        keep.close()
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
    wall = time.perf_counter() - start
    print(f"  moves a game: {sum(r.moves for r in results) / len(results):.0f}; endings {reasons}; "
          f"wall time {wall:.0f} s, {60 * len(results) / wall:.1f} games/minute")
    mean, half, deals_done = paired([{"deal": r.deal, "outcome": r.outcome} for r in results])
    print(f"  paired: A scores {100 * mean:.1f}% a game (draw = half) ± {100 * half:.1f} over {deals_done} deals")
    if sprt is not None:
        lo_b, hi_b = sprt.bounds
        print(f"  sprt p0={sprt.p0} p1={sprt.p1} alpha={sprt.alpha} beta={sprt.beta}: "
              f"llr {sprt.llr(wins, losses):+.2f} in [{lo_b:.2f}, {hi_b:.2f}] -> "
              f"{decided_by or 'undecided'} after {len(results)} games")
    print(f"arena: {args.a} beats {args.b} {pct:.1f}% of decided games ({wins}-{losses}-{draws}), "
          f"95% CI ±{ci:.1f}%")


def show_summary(path: str) -> None:
    with open(path) as f:
        games = [json.loads(line) for line in f if line.strip()]
    wins = sum(g["outcome"] == "a" for g in games)
    losses = sum(g["outcome"] == "b" for g in games)
    decided = wins + losses
    pct = 100.0 * wins / decided if decided else 0.0
    ci = 196.0 * math.sqrt((pct / 100) * (1 - pct / 100) / decided) if decided else 100.0
    mean, half, deals = paired(games)
    name = f"{games[0]['a']} vs {games[0]['b']}, seed {games[0]['seed']}" if games else path
    print(f"summary: {name}: {len(games)} games, A {pct:.1f}% of decided games ({wins}-{losses}-"
          f"{len(games) - decided}), 95% CI ±{ci:.1f}%; paired score {100 * mean:.1f}% ± {100 * half:.1f} "
          f"over {deals} deals")


def show_comparison(x_file: str, y_file: str) -> None:
    with open(x_file) as f:
        xs = [json.loads(line) for line in f if line.strip()]
    with open(y_file) as f:
        ys = [json.loads(line) for line in f if line.strip()]
    c = compare(xs, ys)
    print(f"compare: {x_file} - {y_file}: {c['games']} games on {c['deals']} shared deals; A's score "
          f"{100 * c['diff']:+.1f} points a game ± {100 * c['ci']:.1f} (95%, over deals); "
          f"{c['better']} games better, {c['worse']} worse, sign test p = {c['p']:.3f}")


if __name__ == "__main__":
    main()
