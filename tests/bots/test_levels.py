"""Normal and Hard play the rule books' strategy: pay-off first, never set up an opponent,
no wild discards; Hard keeps to its budget and repeats itself for a given seed."""

from __future__ import annotations

import time
from typing import Any

import pytest

from app.bots import LEVELS, choose_move, hint
from app.bots.stats import STATS
from app.engine import Game, Match, Move, make_options, view


def _view(**piles: Any) -> dict[str, Any]:
    opts = make_options("standard", {"players": 2})
    g = Game.layout(opts, **piles)
    return view(Match.of_position(g), g.turn)


def payoff_ready() -> dict[str, Any]:
    """Seat 0 can play its pay-off 5 on the centre stack that needs a 5."""
    return _view(payoff=[["2D", "5H"], ["3C", "JC"]], hands=[["9C", "9D", "QH", "8S", "7D"], ["2C"] * 0],
                 centre=[["AS", "2S", "3S", "4S"]])


def setup_trap() -> dict[str, Any]:
    """Seat 0's only play, the 5, would let seat 1 play its pay-off 6 at once."""
    return _view(payoff=[["2D", "QH"], ["3C", "6C"]], hands=[["5D", "QC", "QD", "9S", "10D"], []],
                 centre=[["AS", "2S", "3S", "4S"]])


def _is_payoff_play(move: dict[str, Any]) -> bool:
    return move["kind"] == "play" and move["from"] == "payoff:0"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_payoff_card_comes_first(level: str) -> None:
    move = choose_move(payoff_ready(), level, seed=1, iterations=64)
    assert _is_payoff_play(move), move


def test_easy_sets_up_the_opponent_but_normal_and_hard_hold_back() -> None:
    v = setup_trap()
    five = [m for m in v["legal_moves"] if m["kind"] == "play" and m.get("from") == "hand"]
    assert len(five) == 1  # the 5 is the only card that can go to the centre
    assert choose_move(v, "easy") == five[0]
    for level in ("normal", "hard"):
        move = choose_move(v, level, seed=2, iterations=200)
        assert move != five[0], level
        assert move["kind"] == "discard"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_wild_is_never_discarded_when_another_card_can_be(level: str) -> None:
    v = _view(payoff=[["2D", "QH"], ["3C", "9C"]], hands=[["KD", "4C", "JD", "9S", "10D"], []],
              centre=[["AS", "2S", "3S", "4S", "5S", "6S"]])
    move = choose_move(v, level, seed=3, iterations=100)
    ranks = {c["id"]: c["rank"] for c in v["hand"]}
    assert move["kind"] == "discard" and ranks[move["card"]] != "K", move


def test_hints_say_why() -> None:
    move, reason = hint(payoff_ready(), "normal")
    assert _is_payoff_play(move) and "pay-off" in reason
    v = setup_trap()
    move, reason = hint(v, "hard", iterations=100)
    assert move in v["legal_moves"] and move["kind"] == "discard" and reason.startswith("Discard")
    with pytest.raises(ValueError, match="normal or the hard"):
        hint(v, "easy")


def test_hard_is_repeatable_for_a_seed_and_iteration_budget() -> None:
    m = Match(make_options("standard"))
    m.deal("repeat")
    for _ in range(12):  # walk into the hand a little so there is something to weigh
        seat = m.game.turn
        m.apply(Move.from_wire(choose_move(view(m, seat), "normal")), seat)
    v = view(m, m.game.turn)
    picks = [choose_move(v, "hard", seed=9, iterations=300) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]


def test_hard_keeps_to_its_time_budget() -> None:
    m = Match(make_options("standard"))
    m.deal("budget")
    v = view(m, m.game.turn)
    STATS.reset()
    start = time.perf_counter()
    choose_move(v, "hard", seed=1, budget_ms=150)
    spent = time.perf_counter() - start
    assert STATS.searches == 1 and STATS.iterations > 0
    assert spent < 0.15 + 0.5  # the budget plus one round of simulations and the planning
    start = time.perf_counter()
    choose_move(v, "hard", seed=1, budget_ms=5000)  # asked for more than the cap of 1 s
    assert time.perf_counter() - start < 1.0 + 0.5


def test_every_level_is_listed() -> None:
    assert LEVELS == ("random", "easy", "normal", "hard")
