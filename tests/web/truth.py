"""The omniscient truth of a finished match, rebuilt with the engine from its replay, and the
check that no view a socket received showed a card its receiver may not know."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from app.engine import Match, Move, options_from_json

Msg = dict[str, Any]


def card_ids(obj: Any) -> set[int]:
    """Every card id anywhere in a JSON value (a card is an object with an id and a rank)."""
    out: set[int] = set()
    if isinstance(obj, dict):
        if "id" in obj and "rank" in obj:
            out.add(obj["id"])
        for value in obj.values():
            out |= card_ids(value)
    elif isinstance(obj, list):
        for value in obj:
            out |= card_ids(value)
    return out


def check_view(m: Match, seat: int | None, view: Msg) -> None:
    """Assert `view` (received by `seat`) shows exactly what that receiver may know."""
    g = m.game
    assert view["you"] == seat
    hidden: set[int] = set(g.stock) | set(g.aside)
    for p in range(g.n):
        hidden |= set(g.payoff[p][:-1])
        if p != seat:
            hidden |= set(g.hands[p])
    leaked = card_ids(view) & hidden
    assert not leaked, f"seat {seat} saw hidden cards {sorted(leaked)} at v={m.v}"
    own = sorted(g.hands[seat]) if seat is not None else []
    assert sorted(c["id"] for c in view["hand"]) == own
    assert "stock" not in view and "set_aside" not in view
    for p, player in enumerate(view["players"]):
        assert "hand" not in player and "payoff" not in player
        top = g.payoff[p][-1] if g.payoff[p] else None
        assert (player["payoff_top"] or {}).get("id") == top
        assert player["hand_count"] == len(g.hands[p])
    if view["result"] is None:
        assert f'"{g.seed}"' not in json.dumps(view), "the seed leaked before the hand ended"
    to_move = seat is not None and seat == g.turn and g.outcome is None
    assert bool(view["legal_moves"]) == to_move


def rebuild_and_check(replay: Msg, received: dict[int | None, list[Msg]], match_id: str) -> int:
    """Step through the match; check every received state against the truth at its version.
    Returns how many views were checked."""
    m = Match(options_from_json(replay["options"]), replay["names"])
    steps: dict[int, Any] = {h["start_v"]: h for h in replay["hands"]}
    steps.update({mv["seq"]: mv for mv in replay["moves"]})
    by_v: dict[int, list[tuple[int | None, Msg]]] = defaultdict(list)
    for seat, states in received.items():
        for st in states:
            if st["match_id"] == match_id:
                by_v[st["v"]].append((seat, st["view"]))
    checked = 0
    for k in range(replay["total"] + 1):
        step = steps[k]
        if "seed" in step:
            m.deal(step["seed"], step.get("deal_order"))
        else:
            m.apply(Move.from_wire(step["move"]), step["seat"])
        assert m.v == k
        for seat, view in by_v.get(k, []):
            check_view(m, seat, view)
            checked += 1
    return checked
