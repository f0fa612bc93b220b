"""Views: each receiver sees only what docs/rules.md lets it know."""

from __future__ import annotations

import random
from typing import Any

from app.engine import Match, make_options, omniscient_view, view
from app.engine.state import GameState


def card_ids(obj: Any) -> set[int]:
    """Every card id anywhere in a JSON value (cards are the dicts with an 'id' and a 'rank')."""
    found: set[int] = set()
    if isinstance(obj, dict):
        if "id" in obj and "rank" in obj:
            found.add(obj["id"])
        for value in obj.values():
            found |= card_ids(value)
    elif isinstance(obj, list):
        for value in obj:
            found |= card_ids(value)
    return found


def knowable(g: GameState, seat: int | None) -> set[int]:
    """The cards `seat` may know: its hand, every pay-off top, side stacks and centre."""
    out = set(g.hands[seat]) if seat is not None else set()
    for s in range(g.n):
        if g.payoff[s]:
            out.add(g.payoff[s][-1])
        for st in g.side[s]:
            out |= set(st)
    for st in g.centre:
        out |= set(st)
    return out


def check_views(m: Match) -> None:
    g = m.game
    for seat in [None, *range(g.n)]:
        v = view(m, seat)
        assert card_ids(v) <= knowable(g, seat), f"view for {seat} shows a card it may not know"
        assert v["you"] == seat
        assert [p["hand_count"] for p in v["players"]] == [len(h) for h in g.hands]
        assert [p["payoff_count"] for p in v["players"]] == [len(p) for p in g.payoff]
        assert v["stock_count"] == len(g.stock)
        if g.outcome is None:
            assert v["result"] is None and "seed" not in str(v) and g.seed not in str(v)
        if seat is None or seat != g.turn or g.outcome is not None:
            assert v["legal_moves"] == []
        else:
            assert v["legal_moves"] == [mv.to_wire() for mv in g.legal_moves()]


def test_views_hide_hands_payoff_and_stock() -> None:
    m = Match(make_options("standard", {"players": 3}), ["Ann", "Bob", "Cy"])
    m.deal("views")
    g = m.game
    v1 = view(m, 1)
    assert [c["id"] for c in v1["hand"]] == g.hands[1]
    assert v1["players"][0]["payoff_top"]["id"] == g.payoff[0][-1]
    assert "stock" not in v1 and all("hand" not in p and "payoff" not in p for p in v1["players"])
    assert view(m, None)["hand"] == []
    check_views(m)


def test_spectator_and_players_over_a_whole_game() -> None:
    m = Match(make_options("short", {"players": 4, "teams": "pairs"}))
    m.deal("views-game")
    rng = random.Random(9)
    while m.status == "playing":
        check_views(m)
        m.apply(rng.choice(m.game.legal_moves()))
    check_views(m)
    result = view(m, 0)["result"]
    assert result["seed"] == "views-game" and result["reason"] in ("payoff_out", "stock_out", "stalemate")


def test_omniscient_view_shows_every_card() -> None:
    m = Match(make_options())
    m.deal("all")
    g = m.game
    v = omniscient_view(m)
    assert card_ids(v) == set(range(g.deck.size))
    assert [c["id"] for c in v["stock"]] == g.stock
    assert [c["id"] for c in v["players"][0]["payoff"]] == g.payoff[0]


def test_view_shape_matches_the_protocol() -> None:
    m = Match(make_options("standard", {"match_target": 50}), ["Ann", "Bob"])
    m.deal("shape")
    v = view(m, 0, connected=[True, False])
    for key in ["you", "turn", "status", "stock_count", "centre", "players", "hand", "legal_moves",
                "result", "options", "deal_commitment"]:
        assert key in v
    p = v["players"][1]
    assert set(p) >= {"name", "team", "hand_count", "payoff_count", "payoff_top", "side", "connected", "score"}
    assert p["connected"] is False and p["name"] == "Bob" and len(p["side"]) == 4
    assert len(v["centre"]) == 4 and v["options"]["match_target"] == 50
    assert v["deal_commitment"] == m.deal_commitment and len(v["deal_commitment"]) == 64
