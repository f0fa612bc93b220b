"""The cost of one of Hard's simulations (one candidate line played on one sampled world, the
opponents' replies rolled out), old and new ways, measured in one sitting so the ratio holds on a
loaded machine.

    nice -n 19 python bench/rollout.py --positions 30 --rounds 20

Positions come from Normal's play (standard preset, two players, every 7th decision). For each
one the same sampled worlds and rollout seeds are played by every variant:

- `classic`:   every move built by `legal_moves` and checked again by `apply`; the seat's next
               turn is rolled out too and pay-off cards are counted (the Hard of 2026-12-01);
- `fast`:      the same simulation, centre plays read without building every legal move
               (`legal.centre_plays`) and applied unchecked;
- `value`:     fast, ending when the seat is to move again, scored by the learned value
               (the shipped Hard).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.bots import choose_move, hard, normal  # noqa: E402
from app.bots.belief import Belief  # noqa: E402
from app.bots.knowledge import Knowledge  # noqa: E402
from app.bots.planner import plan_turn  # noqa: E402
from app.engine import Match, Move, make_options, view  # noqa: E402


def positions(count: int, seed: str) -> list[dict]:
    opts = make_options("standard", {"players": 2})
    out: list[dict] = []
    deal = 0
    while len(out) < count:
        m = Match(opts, record_events=False)
        m.deal(f"{seed}-{deal}")
        deal += 1
        k = 0
        while m.status == "playing" and len(out) < count:
            v = view(m, m.game.turn)
            if k % 7 == 3:
                out.append(v)
            m.apply(Move.from_wire(choose_move(v, "normal", seed=k)), m.game.turn)
            k += 1
    return out


def run(variant: str, work: list[tuple], rounds: int) -> tuple[float, int]:
    fast_turn = hard.rollout_turn

    def slow_turn(g, rng, budget, dump=True, model=False):  # type: ignore[no-untyped-def]
        seat = g.turn
        used = 0
        while g.outcome is None and g.turn == seat and used < budget:
            g.apply(hard.rollout_move(g, rng, dump, model))
            used += 1
        return used

    hard.rollout_turn = slow_turn if variant == "classic" else fast_turn
    hard.VALUE_LEAF = variant == "value"
    sims = 0
    start = time.process_time()
    try:
        for know, belief, pool in work:
            rng = random.Random(7)
            for _ in range(rounds):
                sample = know.template.copy()
                know.determinize(sample, rng, belief)
                seed = rng.getrandbits(32)
                for line in pool:
                    hard.simulate(sample, line, know.seat, random.Random(seed))
                    sims += 1
    finally:
        hard.rollout_turn = fast_turn
    return time.process_time() - start, sims


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--seed", default="rollout")
    args = ap.parse_args()
    work = []
    for v in positions(args.positions, args.seed):
        know = Knowledge.from_view(v)
        plan = plan_turn(know.template, normal.SCORER, normal.MAX_NODES)
        if len(plan.lines) < 2:
            continue
        work.append((know, Belief.from_view(v, know.template, know.seat), hard.candidates(plan)))
    print(f"rollout: {len(work)} positions x {args.rounds} worlds x their candidates (CPU time of this process)")
    base = None
    for variant in ("classic", "fast", "value"):
        secs, sims = run(variant, work, args.rounds)
        per = 1e6 * secs / sims
        base = base or per
        print(f"  {variant:8s} {sims} simulations, {per:.0f} us each ({base / per:.2f}x classic)")


if __name__ == "__main__":
    main()
