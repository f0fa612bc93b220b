"""The example hand of seed 000 (two players), move by move."""

from __future__ import annotations

from app.engine import Match
from tests.engine.util import centre_codes, codes, discard, lay, play


def test_example_hand_of_seed_000() -> None:
    # Player A (seat 0): K♦ 5♦ 3♣ 2♠ Q♦, pay-off 2♦ (an A♦ below it). Player B (seat 1): J♦ 6♠ 5♣ 3♥ A♥,
    # pay-off 4♦. B's 4 is higher than A's 2, so B plays first.
    g = lay(payoff=[["9C", "AD", "2D"], ["9H", "4D"]],
            hands=[["KD", "5D", "3C", "2S", "QD"], ["JD", "6S", "5C", "3H", "AH"]],
            stock=["8C", "7C", "6C", "5H"], turn=1)
    from app.engine.deal import choose_first
    assert choose_first(g.copy()) == 1
    m = Match.of_position(g, ["A", "B"])
    m.apply(play(g, "AH", "hand", "centre:0"), seat=1)  # B begins a new set with the A♥
    m.apply(discard(g, "JD", "side:1:0"), seat=1)       # no more plays: B discards the J♦
    assert g.turn == 0 and len(g.hands[0]) == 5          # A's hand is full: nothing to draw
    m.apply(play(g, "2D", "payoff:0", "centre:0"), seat=0)  # A plays the 2♦ from the goal pile
    assert codes(g, g.payoff[0][-1:]) == ["AD"]          # ... which turns up the A♦
    m.apply(play(g, "AD", "payoff:0", "centre:1"), seat=0)  # a new set
    m.apply(play(g, "3C", "hand", "centre:0"), seat=0)
    m.apply(play(g, "2S", "hand", "centre:1"), seat=0)
    assert centre_codes(g)[:2] == [["AH", "2D", "3C"], ["AD", "2S"]]
    m.apply(discard(g, "QD", "side:0:0"), seat=0)        # A discards to end the turn
    assert g.turn == 1 and len(g.hands[1]) == 5          # B draws back up to five
    assert codes(g, g.hands[1]) == ["6S", "5C", "3H", "5H", "6C"]
