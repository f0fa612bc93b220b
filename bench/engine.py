"""Engine speed: random legal games with the engine alone (standard preset, 2 players).

    python bench/engine.py --seconds 10

Prints the cost of copying a mid-game state, then as its last line
`engine: <moves> moves/s, <games> games/s`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.engine import Game, make_options  # noqa: E402


def copy_cost(opts: object, rounds: int = 20000) -> float:
    """Microseconds to copy a game state 30 moves into a hand."""
    g = Game.deal(opts, "copy-bench")  # type: ignore[arg-type]
    rng = random.Random(7)
    for _ in range(30):
        if g.outcome is not None:
            break
        g.apply(rng.choice(g.legal_moves()))
    t = time.perf_counter()
    for _ in range(rounds):
        g.copy()
    return (time.perf_counter() - t) / rounds * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    opts = make_options(args.preset, {"players": args.players})
    rng = random.Random(2026)
    moves = games = 0
    choice = rng.choice
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        g = Game.deal(opts, f"bench-{games}")
        legal = g.legal_moves
        apply = g.apply
        while g.outcome is None:
            apply(choice(legal()))
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    print(f"copy: {copy_cost(opts):.1f} us per game state copy")
    print(f"engine: {moves / elapsed:,.0f} moves/s, {games / elapsed:,.1f} games/s")


if __name__ == "__main__":
    main()
