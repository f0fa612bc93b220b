"""Search inside the turn (app/bots/turn_search.py): where a line stops at a card the seat could
not know, the rest of the turn is the planner's on what the seat sees in that sampled world;
a plan depends on the seat's information set alone and is made once per information set."""

from __future__ import annotations

import random

from app.bots import hard, normal
from app.bots.belief import Belief
from app.bots.knowledge import Knowledge
from app.bots.planner import plan_turn
from app.bots.turn_search import TurnPlans, finish_turn, info_key
from app.engine import Game, Match, make_options, view
from tests.bots.test_hard import _views


def _paid_pay_off_card() -> Game:
    """Seat 0 plays its pay-off 5 on the stack that wants a 5: the next pay-off card is shown."""
    opts = make_options("standard", {"players": 2})
    return Game.layout(opts, payoff=[["KH", "7C", "5H"], ["9D", "3C", "6C"]],
                       hands=[["6D", "9D", "QH", "8S", "7D"], ["KS", "5D", "QD", "JD", "2H"]],
                       centre=[["AS", "2S", "3S", "4S"]])


def _worlds(g: Game, seat: int, count: int, seed: int) -> tuple[Knowledge, list[Game]]:
    v = view(Match.of_position(g), seat)
    know = Knowledge.from_view(v)
    belief = Belief.from_view(v, know.template, seat)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        w = know.template.copy()
        know.determinize(w, rng, belief)
        out.append(w)
    return know, out


def test_the_rest_of_the_turn_is_the_planner_s_line_on_what_the_seat_sees() -> None:
    know, worlds = _worlds(_paid_pay_off_card(), 0, 12, 1)
    pay = next(m for m in know.template.legal_moves() if m[2] == "payoff:0")
    plans = TurnPlans()
    for w in worlds:
        w.apply(pay)  # the pay-off card below is shown: a sampled one
        assert w.turn == 0
        expected = w.copy()
        line = plan_turn(expected, normal.SCORER, 400).best().moves
        used = finish_turn(w, 0, 400, plans)
        assert used >= len(line) or w.outcome is not None
        for m in line:
            expected.apply(m)
        if expected.turn != 0:  # the plan closed the turn: the same position
            assert w.hands == expected.hands and w.centre == expected.centre and w.side == expected.side
    assert plans.made >= 2  # different pay-off cards showed: different plans


def test_a_plan_depends_only_on_the_seat_s_information_set() -> None:
    know, worlds = _worlds(_paid_pay_off_card(), 0, 20, 2)
    pay = next(m for m in know.template.legal_moves() if m[2] == "payoff:0")
    keys = set()
    for w in worlds:
        w.apply(pay)
        keys.add(info_key(w, 0))
    # the worlds differ in the opponent's hand and the stock, which the key never reads; only
    # the rank of the pay-off card shown tells them apart
    assert len(keys) == len({w.deck.rank[w.payoff[0][-1]] if not w.deck.wild[w.payoff[0][-1]] else "W"
                              for w in worlds})
    plans = TurnPlans()
    lines = {}
    for w in worlds:
        line = plans.line(w, 0)
        assert lines.setdefault(info_key(w, 0), line) == line
    assert plans.made == len(keys)  # one plan per information set, whatever the hidden cards
    assert plans.reused == len(worlds) - len(keys)


def test_hard_with_the_turn_search_is_repeatable_and_legal() -> None:
    old = hard.TURN_SEARCH
    try:
        hard.TURN_SEARCH = True
        views = list(_views("standard", {}, "hard-turn-search", every=7))
        picks = [choose(v) for v in views]
        assert picks == [choose(v) for v in views]
    finally:
        hard.TURN_SEARCH = old
    assert all(p in v["legal_moves"] for p, v in zip(picks, views, strict=True))


def choose(v: dict) -> dict:
    from app.bots import choose_move

    return choose_move(v, "hard", seed=5, iterations=150)
