"""Bots: move choosers that see only a seat's view (never the hidden cards).

`choose_move(view, level)` returns one of `view["legal_moves"]` (the very dict given), never
a `take_back`.
It is a plain top-level function of picklable arguments, so the room service can run it
in a process pool. Levels (docs/bots.md):

- random: a uniformly random legal move;
- easy: greedy, its own cards only (`easy.py`);
- normal: the strategy of the rule books: pay-off first, never set up an opponent, keep
  wilds, careful discards (`normal.py`);
- hard: information-set Monte Carlo search over the rest of the turn (`hard.py`).

`hint(view, level)` gives the Normal (or Hard) choice with a short reason for a person.
"""

from __future__ import annotations

import random
from typing import Any

from .choose import Choice, decide
from .reasons import Why, english

LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")


def _without_take_backs(view: dict[str, Any]) -> dict[str, Any]:
    """The view with `take_back` left out of its legal moves: bots never take a move back."""
    moves = view.get("legal_moves") or []
    if not any(m.get("kind") == "take_back" for m in moves):
        return view
    return {**view, "legal_moves": [m for m in moves if m.get("kind") != "take_back"]}


def _check(view: dict[str, Any], level: str) -> None:
    if not view.get("legal_moves"):
        raise ValueError("this view has no legal moves: it is not this seat's turn")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")


def choose_random(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal move."""
    return dict(rng.choice(view["legal_moves"]))


def choose_move(view: dict[str, Any], level: str = "easy", *, seed: int | None = None,
                budget_ms: int | None = None, iterations: int | None = None) -> dict[str, Any]:
    """Pick a legal move for the seat the view belongs to (it must be that seat's turn).

    `seed` makes random choices repeatable; `budget_ms` bounds Hard's thinking time
    (default and cap: 1000 ms); `iterations` instead bounds Hard's search by its number of
    simulations, which makes its choice repeatable for a given seed. Raises ValueError for a
    view without legal moves or an unknown level.
    """
    view = _without_take_backs(view)
    _check(view, level)
    if level == "random":
        return choose_random(view, random.Random(seed))
    return decide(view, level, seed=seed, budget_ms=budget_ms, iterations=iterations).wire


def suggest(view: dict[str, Any], level: str = "normal", *, seed: int | None = None,
            budget_ms: int | None = None, iterations: int | None = None) -> tuple[dict[str, Any], Why]:
    """A suggested move for the seat to move and why: a key of `reasons.HINTS` and its
    parameters (the catalogues say it in each language as `hint.<key>`)."""
    if level not in ("normal", "hard"):
        raise ValueError("a hint comes from the normal or the hard bot")
    view = _without_take_backs(view)
    _check(view, level)
    choice: Choice = decide(view, level, seed=seed, budget_ms=budget_ms, iterations=iterations, explain=True)
    assert choice.why is not None
    return choice.wire, choice.why


def hint(view: dict[str, Any], level: str = "normal", *, seed: int | None = None,
         budget_ms: int | None = None, iterations: int | None = None) -> tuple[dict[str, Any], str]:
    """A suggested move for the seat to move and a short reason a person can read (English)."""
    wire, why = suggest(view, level, seed=seed, budget_ms=budget_ms, iterations=iterations)
    return wire, english(why)


__all__ = ["LEVELS", "choose_move", "choose_random", "hint", "suggest"]
