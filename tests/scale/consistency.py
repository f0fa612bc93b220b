"""The store's history of a match as the truth: every state a client ever received must be the
engine's view of a prefix of it, and the stored versions must be contiguous and unique."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from app.engine import Match, Move, options_from_json, view
from tests.web.truth import check_view

from .cluster import query

Msg = dict[str, Any]


def _plain(v: Msg) -> Msg:
    """A view without who is connected (that changes without a new version)."""
    out = dict(v)
    out["players"] = [{k: x for k, x in p.items() if k != "connected"} for p in v["players"]]
    return out


def check_prefix(replay: Msg, received: dict[int | None, list[Msg]], match_id: str) -> int:
    """Replay the stored match step by step; every received state of this match must equal the
    engine's view for its receiver at its version (so it is a prefix of the stored history).
    Returns how many states were checked."""
    m = Match(options_from_json(replay["options"]), replay["names"])
    steps: dict[int, Any] = {h["start_v"]: h for h in replay["hands"]}
    for mv in replay["moves"]:
        assert mv["seq"] not in steps, f"version {mv['seq']} stored twice"
        steps[mv["seq"]] = mv
    assert sorted(steps) == list(range(replay["total"] + 1)), "stored versions are not contiguous"
    by_v: dict[int, list[tuple[int | None, Msg]]] = defaultdict(list)
    for seat, states in received.items():
        for st in states:
            if st["match_id"] == match_id:
                by_v[st["v"]].append((seat, st["view"]))
    assert max(by_v, default=-1) <= replay["total"], "a client saw a version the store does not have"
    checked = 0
    for k in range(replay["total"] + 1):
        step = steps[k]
        if "seed" in step:
            m.deal(step["seed"], step.get("deal_order"))
        else:
            m.apply(Move.from_wire(step["move"]), step["seat"])
        for seat, seen in by_v.get(k, []):
            check_view(m, seat, seen)
            assert _plain(seen) == _plain(view(m, seat)), f"seat {seat} saw something else at v={k}"
            checked += 1
    return checked


async def client_ids(db_url: str, match_id: str) -> list[tuple[int, str, int]]:
    """(seat, client move id, times stored) of every move a client sent with an id."""
    rows = await query(db_url, "SELECT seat, client_id, count(*) FROM moves WHERE match_id = :m "
                               "AND client_id IS NOT NULL GROUP BY seat, client_id", m=match_id)
    return [(int(s), str(c), int(n)) for s, c, n in rows]


async def actors_after(db_url: str, match_id: str, after: int) -> dict[str, int]:
    """How many moves each kind of actor made after version `after`."""
    rows = await query(db_url, "SELECT actor, count(*) FROM moves WHERE match_id = :m AND seq > :v GROUP BY actor",
                       m=match_id, v=after)
    return {str(a): int(n) for a, n in rows}
