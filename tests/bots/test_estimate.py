"""The estimator: chances from a seat's view, a pluggable leaf that sees only a view, and a
sample conditioned on another seat's observed move."""

from __future__ import annotations

import random
from typing import Any

from app.bots.estimate import Budget, chance, chances, place_card, view_leaf
from app.bots.knowledge import Knowledge
from app.engine import Game, Match, Move, make_options, view
from app.engine.moves import DISCARD


def _position() -> Game:
    opts = make_options("standard", {"players": 2})
    return Game.layout(opts, payoff=[["5H"], ["9D", "3C", "6C"]],
                       hands=[["9C", "9D", "QH", "8S", "7D"], ["KS", "5D", "QD", "JD", "2H"]],
                       centre=[["AS", "2S", "3S", "4S"]])


def test_a_won_hand_is_certain_and_the_estimate_repeats_for_a_seed() -> None:
    v = view(Match.of_position(_position()), 0)
    win = next(Move.from_wire(m) for m in v["legal_moves"] if m.get("from") == "payoff:0")
    got = chances(v, [win, None], budget=Budget(samples=16, seed=3))
    assert got[0] == 1.0
    assert 0.0 < got[1] <= 1.0
    assert chances(v, [win, None], budget=Budget(samples=16, seed=3)) == got


def test_the_leaf_is_pluggable_and_sees_only_a_seat_s_view() -> None:
    seen: list[dict[str, Any]] = []

    def value(v: dict[str, Any], seat: int) -> float:
        seen.append(v)
        assert v["you"] == seat == 1
        assert "stock" not in v and "hand" in v
        return 0.25

    v = view(Match.of_position(_position()), 1)
    assert chance(v, budget=Budget(samples=5, turns=0), leaf=view_leaf(value)) == 0.25
    assert len(seen) == 5
    assert all(len(w["hand"]) == 5 and w["players"][0]["hand_count"] == 5 for w in seen)


def test_a_sample_is_conditioned_on_a_card_another_seat_played() -> None:
    g = _position()
    know = Knowledge.from_view(view(Match.of_position(g), 1))  # seat 1 cannot see seat 0's hand
    card = g.hands[0][0]
    move = Move(DISCARD, card, None, "side:0:0")
    rng = random.Random(1)
    placed = 0
    for _ in range(20):
        sample = know.template.copy()
        know.determinize(sample, rng)
        before = sorted(sample.all_cards())
        place_card(sample, 0, move, rng)
        assert card in sample.hands[0]
        assert sorted(sample.all_cards()) == before
        assert sample.is_legal(move) or sample.turn != 0
        placed += 1
    assert placed == 20
