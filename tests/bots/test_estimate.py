"""The estimator: chances from a seat's view, a pluggable leaf that sees only a view, and a
sample conditioned on another seat's observed move."""

from __future__ import annotations

import random
from typing import Any

from app.bots import estimate
from app.bots.estimate import Budget, alternatives, chance, chances, payoff_leaf, place_card, view_leaf, weigh
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


def test_weigh_is_the_alternatives_on_the_same_samples() -> None:
    v = view(Match.of_position(_position()), 0)
    first = Move.from_wire(next(m for m in v["legal_moves"] if m["kind"] == "discard"))
    budget = Budget(samples=6, turns=2, seed=4)
    moves, got = weigh(v, first, candidates=6, budget=budget, leaf=payoff_leaf)
    assert moves == alternatives(v, first, 6) and moves[0] == first
    assert got == chances(v, moves, budget=budget, leaf=payoff_leaf, plan_rest=estimate.PLAN_REST)


def test_a_lone_move_is_weighed_only_when_asked() -> None:
    v = view(Match.of_position(_position()), 0)
    first = Move.from_wire(v["legal_moves"][0])
    budget = Budget(samples=2, turns=0)
    moves, got = weigh(v, first, candidates=0, budget=budget, leaf=payoff_leaf, lone=False)
    assert moves == [first] and got == []  # no alternative to weigh it against
    assert len(weigh(v, first, candidates=0, budget=budget, leaf=payoff_leaf)[1]) == 1


def test_the_rest_of_the_turn_is_planned_when_asked() -> None:
    turns: list[int] = []

    def value(w: dict[str, Any], seat: int) -> float:
        turns.append(int(w["turn"]))
        return 0.5

    g = Game.layout(make_options("standard", {"players": 2}), payoff=[["KH", "5H"], ["9D", "3C", "6C"]],
                    hands=[["9C", "9D", "QH", "8S", "7D"], ["KS", "5D", "QD", "JD", "2H"]],
                    centre=[["AS", "2S", "3S", "4S"]])  # the 5 is not the last pay-off card: play goes on
    v = view(Match.of_position(g), 0)
    pay = next(Move.from_wire(m) for m in v["legal_moves"] if m.get("from") == "payoff:0")
    budget = Budget(samples=3, turns=0)
    chances(v, [pay], budget=budget, leaf=view_leaf(value))
    assert turns == [0, 0, 0]  # the rollout policy has not played yet: still seat 0's turn
    turns.clear()
    chances(v, [pay], budget=budget, leaf=view_leaf(value), plan_rest=True)
    assert set(turns) == {1}  # seat 0 played its turn out as planned (or won it: no leaf then)
