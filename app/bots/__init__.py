"""Bots: move choosers that see only a seat's view (never the hidden cards).

`choose_move(view, level)` returns one of `view["legal_moves"]` (a wire move object).
It is a plain top-level function of picklable arguments, so the room service can run it
in a process pool. Levels: random, easy, normal, hard.
"""

from __future__ import annotations

import random
from typing import Any

LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")


def choose_random(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal move."""
    return dict(rng.choice(view["legal_moves"]))


def choose_move(view: dict[str, Any], level: str = "easy", *, seed: int | None = None,
                budget_ms: int | None = None) -> dict[str, Any]:
    """Pick a legal move for the seat the view belongs to (it must be that seat's turn)."""
    if not view.get("legal_moves"):
        raise ValueError("this view has no legal moves: it is not this seat's turn")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    rng = random.Random(seed)
    return choose_random(view, rng)
