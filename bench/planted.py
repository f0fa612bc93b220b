"""Planted mistakes: how often the review marks a player who discards instead of playing the
pay-off card it could play, with the estimator of before and of after (one sitting, same
positions, same samples).

    python bench/planted.py --positions 60 --samples 48

Positions come from Normal-against-Normal hands (standard preset, two players): every decision
where the seat to move may play its own pay-off top and may discard (at most `--per-hand` a
hand). At each, the planted mistake is the discard Normal's rule likes best (`discard_value`);
the right move is the pay-off play. Both are judged by `app.review.analysis.judge` with a
sample budget (repeatable on any machine) under each `--variants` entry: the leaf's weights
(`full`: the review of 2026-12-02; `steady`: without `value.UNSTEADY`), and with `+plan` the
rest of the mover's turn played as the planner would on what the seat sees in each sampled
world (`turn_search.finish_turn`) instead of the rollout policy.

Printed per variant: the share of planted mistakes marked (5 points or more) and marked a
mistake or worse (10 or more), the mean points lost, the share of the right moves marked
(false marks), and the CPU time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.bots import choose_move, estimate, normal  # noqa: E402
from app.bots.estimate import Budget  # noqa: E402
from app.bots.value import game_value  # noqa: E402
from app.engine import Match, Move, make_options, view  # noqa: E402
from app.engine.moves import DISCARD, PAYOFF, parse_pile  # noqa: E402
from app.review import ReviewSettings  # noqa: E402
from app.review.analysis import judge  # noqa: E402


def planted(count: int, seed: str, per_hand: int) -> list[tuple[dict, Move, Move]]:
    """(view, the pay-off play, the planted discard) at decisions of Normal-against-Normal hands."""
    opts = make_options("standard", {"players": 2})
    out: list[tuple[dict, Move, Move]] = []
    deal = 0
    while len(out) < count:
        m = Match(opts, record_events=False)
        m.deal(f"{seed}-{deal}")
        deal += 1
        k = taken = 0
        while m.status == "playing" and len(out) < count and taken < per_hand:
            seat = m.game.turn
            v = view(m, seat)
            legal = [Move.from_wire(w) for w in v["legal_moves"]]
            pay = [mv for mv in legal if mv.src is not None and mv.kind != DISCARD
                   and parse_pile(mv.src).zone == PAYOFF and parse_pile(mv.src).seat == seat]
            discards = [mv for mv in legal if mv.kind == DISCARD]
            if pay and discards and k % 3 == 0:
                worst = max(discards, key=lambda mv: normal.discard_value(m.game, seat, mv))
                out.append((v, pay[0], worst))
                taken += 1
            m.apply(Move.from_wire(choose_move(v, "normal", seed=k)), seat)
            k += 1
    return out


def measure(cases: list[tuple[dict, Move, Move]], settings: ReviewSettings, plan_rest: bool) -> dict[str, float]:
    estimate.PLAN_REST = plan_rest
    marked = serious = false = 0
    lost = 0.0
    start = time.process_time()
    for v, pay, discard in cases:
        bad = judge(v, discard, settings)
        good = judge(v, pay, settings)
        if bad is not None:
            marked += bad["mark"] is not None
            serious += bad["mark"] in ("mistake", "blunder")
            lost += bad["loss"]
        if good is not None:
            false += good["mark"] is not None
    n = len(cases)
    return {"marked": marked / n, "serious": serious / n, "loss": lost / n, "false": false / n,
            "cpu": time.process_time() - start}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--per-hand", type=int, default=3)
    ap.add_argument("--samples", type=int, default=48)
    ap.add_argument("--seed", default="planted")
    ap.add_argument("--variants", default="full,steady,steady+plan",
                    help="leaf model (value_weights.json), +plan for the rest of the turn planned")
    args = ap.parse_args()
    cases = planted(args.positions, args.seed, args.per_hand)
    print(f"planted: {len(cases)} positions (discard instead of the pay-off card), {args.samples} samples a decision")
    for name in args.variants.split(","):
        model, _, rest = name.partition("+")
        settings = ReviewSettings(decision=Budget(samples=args.samples), leaf=partial(game_value, model=model))
        r = measure(cases, settings, rest == "plan")
        print(f"  {name}: planted mistakes marked {100 * r['marked']:.0f}% (mistake or worse "
              f"{100 * r['serious']:.0f}%), mean loss {r['loss']:.1f} points; right moves marked "
              f"{100 * r['false']:.0f}%; {r['cpu']:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
