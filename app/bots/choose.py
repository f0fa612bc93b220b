"""From a view to a chosen move: the common path of every planning level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine import Move

from . import easy, normal
from .knowledge import Knowledge
from .planner import Plan, plan_turn
from .reasons import Why, english, reason


@dataclass
class Choice:
    """A chosen move: as the view gave it (`wire`), as an engine move, and why."""

    wire: dict[str, Any]
    move: Move
    reason: str = ""
    why: Why | None = None  # the reason as a key of reasons.HINTS and its parameters


def as_given(view: dict[str, Any], move: Move) -> dict[str, Any]:
    """The very legal-move dict of the view that equals `move` (ValueError if none does)."""
    for wire in view["legal_moves"]:
        if Move.from_wire(wire) == move:
            return wire
    raise ValueError(f"the bot chose {move.to_wire()}, which the view does not list")


def planned(view: dict[str, Any], know: Knowledge, scorer: Any, max_nodes: int) -> tuple[Move, Plan]:
    """The first move of the best line of `plan_turn` on the seat's template."""
    plan = plan_turn(know.template, scorer, max_nodes)
    if plan.lines:
        return plan.best().moves[0], plan
    return Move.from_wire(view["legal_moves"][0]), plan


def decide(view: dict[str, Any], level: str, *, seed: int | None = None,
           budget_ms: int | None = None, iterations: int | None = None, explain: bool = False) -> Choice:
    """Run a planning level on a view whose seat is to move."""
    know = Knowledge.from_view(view)
    if level == "easy":
        move, plan = planned(view, know, easy.SCORER, easy.MAX_NODES)
    elif level == "normal":
        move, plan = planned(view, know, normal.SCORER, normal.MAX_NODES)
    elif level == "hard":
        from . import hard
        move, plan = hard.search(view, know, seed=seed, budget_ms=budget_ms, max_iterations=iterations)
    else:
        raise ValueError(f"unknown bot level {level!r}")
    why: Why | None = None
    if explain:
        line = next((ln.moves for ln in sorted(plan.lines, key=lambda ln: -ln.value) if ln.moves[0] == move),
                    [move])
        why = reason(know.template, know.seat, line)
    return Choice(as_given(view, move), move, english(why) if why else "", why)
