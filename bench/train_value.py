"""Regenerate app/bots/value_weights.json: Normal's self-play, labelled with who won, fitted by
logistic regression (numpy, CPU), and the calibration table for docs/bots.md.

    nice -n 19 python bench/train_value.py --games 600 --seed v1 --workers 2

Each game is one hand of Normal against Normal (every seat), over a mix of tables (`--mix`);
at the start of every turn the features of *every* seat are recorded (`value.features`, which
reads only that seat's view of the position), labelled 1 if its team won the hand, 0 if it lost,
0.5 for a draw. A fifth of the deals (by deal number) is held out: the calibration table and the
log-loss are measured on them. Three weight vectors are fitted: `full` (with the seat's hand),
`public` (the hand features left at zero, for judging another seat) and `steady` (without
`value.UNSTEADY`: what a search could hold on to without progress). Bounded by `--games`.

Every game's rows are appended to `--data` (JSON lines) as it ends, so a run cut short keeps
what it played: `--fit-only` fits from that file alone (several runs may add to one file).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.bots import choose_move  # noqa: E402
from app.bots.value import FEATURES, UNSTEADY, WEIGHTS_FILE, features  # noqa: E402
from app.engine import Match, Move, make_options, view  # noqa: E402

# (preset, overrides, share of the games)
MIX: dict[str, list[tuple[str, dict[str, Any], int]]] = {
    "default": [("standard", {"players": 2}, 6), ("standard", {"players": 3}, 1),
                ("standard", {"players": 4, "teams": "pairs"}, 1), ("book", {"players": 2}, 1),
                ("pagat", {"players": 2}, 1)],
    "two": [("standard", {"players": 2}, 1)],
}


Rows = tuple[int, list[list[float]], list[list[float]], list[float]]


def play(job: tuple[str, int, str, dict[str, Any], str]) -> Rows:
    seed, deal, preset, overrides, level = job
    opts = make_options(preset, overrides)
    m = Match(opts, record_events=False)
    m.deal(hashlib.sha256(f"value:{seed}:{deal}".encode()).hexdigest()[:32])
    rows: list[tuple[int, list[float], list[float]]] = []
    last_turn = -1
    moves = 0
    while m.status == "playing":
        g = m.game
        if g.turn != last_turn:
            last_turn = g.turn
            for s in range(g.n):
                rows.append((s, features(g, s, True), features(g, s, False)))
        v = view(m, g.turn)
        wire = choose_move(v, level, seed=deal * 1000 + moves)
        m.apply(Move.from_wire(wire), g.turn)
        moves += 1
        if moves > 20000:
            raise RuntimeError(f"deal {deal}: no end")
    outcome = m.game.outcome
    assert outcome is not None
    winners = set(outcome.winners)
    labels = [1.0 if s in winners else (0.0 if winners else 0.5) for s, _f, _p in rows]
    return deal, [f for _s, f, _p in rows], [p for _s, _f, p in rows], labels


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method (IRLS) with an L2 penalty (not on the bias)."""
    w = np.zeros(x.shape[1])
    pen = np.full(x.shape[1], l2)
    pen[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + pen * w
        h = (x * (p * (1 - p))[:, None]).T @ x + np.diag(pen) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(h, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def calibration(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> list[tuple[int, float, float, int]]:
    """By decile of the predicted chance: (decile, mean predicted, actual win rate, positions)."""
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    order = np.argsort(p)
    out = []
    for k, idx in enumerate(np.array_split(order, 10)):
        out.append((k + 1, float(p[idx].mean()), float(y[idx].mean()), len(idx)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", default="v1")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--mix", default="default", choices=sorted(MIX))
    ap.add_argument("--level", default="normal", help="the self-play level (normal; hard is far slower)")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--out", default=WEIGHTS_FILE)
    ap.add_argument("--data", default="bench/value_data.jsonl", help="where the self-play rows are kept")
    ap.add_argument("--fit-only", action="store_true", help="fit from --data without playing")
    ap.add_argument("--first-deal", type=int, default=0, help="deal numbers start here (to add to --data)")
    args = ap.parse_args()
    tables = [t for t in MIX[args.mix] for _ in range(t[2])]
    jobs = [(args.seed, d, tables[d % len(tables)][0], tables[d % len(tables)][1], args.level)
            for d in range(args.first_deal, args.first_deal + args.games)]
    start = time.perf_counter()
    played = 0
    if not args.fit_only:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool, open(args.data, "a") as keep:
            for r in pool.imap_unordered(play, jobs):
                keep.write(json.dumps({"seed": args.seed, "deal": r[0], "full": r[1], "public": r[2],
                                       "labels": r[3]}) + "\n")
                keep.flush()
                played += 1
                if played % max(1, args.games // 10) == 0:
                    print(f"  {played}/{args.games} games ({time.perf_counter() - start:.0f} s)", flush=True)
    play_s = time.perf_counter() - start
    data: list[Rows] = []
    with open(args.data) as f:
        for line in f:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a game still being written by another run
            data.append((int(row["deal"]), row["full"], row["public"], row["labels"]))
    print(f"{len(data)} games in {args.data}")
    train = [d for d in data if d[0] % 5 != 4]
    test = [d for d in data if d[0] % 5 == 4]

    def stack(rows: list[Any], k: int) -> np.ndarray:
        return np.array([f for d in rows for f in d[k]], dtype=float)

    out: dict[str, Any] = {"features": list(FEATURES)}
    report = []
    unsteady = [i for i, f in enumerate(FEATURES) if f in UNSTEADY]
    for name, k in (("full", 1), ("public", 2), ("steady", 1)):
        xtr, ytr = stack(train, k), np.array([y for d in train for y in d[3]])
        xte, yte = stack(test, k), np.array([y for d in test for y in d[3]])
        if name == "steady":  # those features at zero: the penalty keeps their weights at zero
            xtr[:, unsteady] = 0.0
            xte[:, unsteady] = 0.0
        w = fit(xtr, ytr, args.l2)
        out[name] = [round(float(v), 6) for v in w]
        base = float(np.mean(ytr))
        base_loss = float(-np.mean(yte * np.log(base) + (1 - yte) * np.log(1 - base)))
        report.append((name, len(ytr), len(yte), log_loss(xte, yte, w), base_loss, calibration(xte, yte, w)))
    out["trained"] = {"games": len(data), "seed": args.seed, "mix": args.mix, "level": args.level,
                      "l2": args.l2, "positions": report[0][1] + report[0][2],
                      "command": f"python bench/train_value.py --games {args.games} --seed {args.seed} "
                                 f"--mix {args.mix} --level {args.level} --l2 {args.l2}"}
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"self-play: {played} games in {play_s:.0f} s ({60 * played / max(play_s, 1e-9):.1f} games/minute); "
          f"fitted on {len(data)} games; wrote {args.out}")
    for name, ntr, nte, loss, base_loss, cal in report:
        print(f"\nmodel {name}: {ntr} training positions, {nte} held out; held-out log-loss {loss:.4f} "
              f"(a constant guess: {base_loss:.4f})")
        print("| decile | predicted | actual | positions |\n| --- | --- | --- | --- |")
        for k, pred, act, cnt in cal:
            print(f"| {k} | {100 * pred:.1f} % | {100 * act:.1f} % | {cnt} |")
    print("\nweights (full, steady):")
    for fname, wv, ws in zip(FEATURES, out["full"], out["steady"], strict=True):
        print(f"  {fname:18s} {wv:+.3f} {ws:+.3f}")


if __name__ == "__main__":
    main()
