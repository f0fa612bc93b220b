"""Pairing: the time the Swiss core takes to pair one round of a big tournament.

    python bench/pairing.py [--players 1000] [--rounds 3] [--seed 1]

Plays `--rounds` Swiss rounds with random results (a win, a draw or a loss, equally likely,
from `--seed`), pairing each through `swiss.swiss_round` (FIDE Dutch: caissify-pairings, and
pairing-core's kernel first for a large field), then pairs one more round and prints each
round's time. The last line is

    pairing: <players> players, round <r> paired in <s> s (rounds 1..<r-1>: <s1>, <s2>, ... s)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.tournaments.core.model import Bye, Entrant, TableResult  # noqa: E402
from app.tournaments.core.swiss import swiss_round  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    entrants = [Entrant(f"p{i}", f"P{i}", i, rating=None if i % 4 == 0 else float(rng.randint(800, 2200)))
                for i in range(args.players)]
    results: list[TableResult] = []
    byes: list[Bye] = []
    times: list[float] = []
    total = args.rounds + 1
    for r in range(1, total + 1):
        start = time.perf_counter()
        pairing = swiss_round(entrants, results, byes, r, total_rounds=total)
        times.append(time.perf_counter() - start)
        print(f"round {r}: {len(pairing.tables)} tables, {len(pairing.byes)} bye(s), {times[-1]:.2f} s", flush=True)
        for i, seats in enumerate(pairing.tables):
            x = rng.choice((1.0, 0.5, 0.0))
            results.append(TableResult(r, i, seats, (x, 1.0 - x), (0, 0), True))
        byes.extend(Bye(r, p) for p in pairing.byes)
    before = ", ".join(f"{t:.2f}" for t in times[:-1])
    print(f"pairing: {args.players} players, round {total} paired in {times[-1]:.2f} s "
          f"(rounds 1..{total - 1}: {before} s)")


if __name__ == "__main__":
    main()
