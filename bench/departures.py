"""Where Hard departs from Normal: on positions of Normal's play, how often Hard (at a fixed
iteration budget) chooses another move than Normal, and of what kind, for each leaf model.

    python bench/departures.py --positions 150 --iterations 450 --models full,steady

Positions: every 7th decision of Normal-against-Normal hands (standard preset, two players,
`bench/rollout.py`'s sampler, seed `--seed`). A departure is counted by the kinds of the two
moves and where each card came from (`play hand -> discard`: Normal played from its hand, Hard
discarded). Repeatable: both bots are seeded by the position's index.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.bots import choose_move, value  # noqa: E402
from app.engine import Move  # noqa: E402
from bench.rollout import positions  # noqa: E402


def kind(m: Move) -> str:
    where = m.src.split(":")[0] if m.src else ""
    return f"{m.kind} {where}".strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--iterations", type=int, default=450)
    ap.add_argument("--models", default="full,steady", help="value.LEAF_MODEL values, comma-separated")
    ap.add_argument("--seed", default="dep")
    args = ap.parse_args()
    views = positions(args.positions, args.seed)
    for model in args.models.split(","):
        value.LEAF_MODEL = model
        counts: collections.Counter[str] = collections.Counter()
        for k, v in enumerate(views):
            n = Move.from_wire(choose_move(v, "normal", seed=k))
            h = Move.from_wire(choose_move(v, "hard", seed=k, iterations=args.iterations))
            if n != h:
                counts[f"{kind(n)} -> {kind(h)}"] += 1
        total = sum(counts.values())
        print(f"{model}: Hard departs from Normal in {total} of {len(views)} positions")
        for what, c in counts.most_common():
            print(f"  {c:4d}  {what}")


if __name__ == "__main__":
    main()
