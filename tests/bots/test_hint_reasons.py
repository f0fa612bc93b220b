"""A hint's reason is true of the position, on constructed positions: seat 0 to
move, the centre's first stack at A-2 (it needs a 3), the other slots empty."""

from __future__ import annotations

from app.bots.reasons import english, reason
from tests.engine.util import discard, lay, play

CENTRE = [["AH", "2H"], [], [], []]


def test_a_discard_with_nothing_to_play_does_not_say_playing_more_would_help() -> None:
    # nothing of seat 0's reaches the centre; seat 1's pay-off 3 is one play from the stack
    g = lay(payoff=[["9C"], ["3D"]], hands=[["6S", "7D", "8S", "9D", "10S"], []], centre=CENTRE)
    assert not [m for m in g.legal_moves() if m.kind == "play"]
    key, params = reason(g, 0, [discard(g, "6S", "side:0:0")])
    assert key == "discard_empty" and not params.get("helps_next")
    assert "Playing more" not in english((key, params))


def test_a_discard_says_playing_more_would_help_only_when_a_play_would() -> None:
    # seat 0's 3 would take the stack to 4, seat 1's pay-off card
    g = lay(payoff=[["9C"], ["4D"]], hands=[["3S", "6D", "7S", "8D", "9S"], []], centre=CENTRE)
    key, params = reason(g, 0, [discard(g, "6D", "side:0:0")])
    assert params.get("helps_next") is True
    # with seat 1's pay-off a 9, playing the 3 helps nobody: no warning
    g = lay(payoff=[["9C"], ["9D"]], hands=[["3S", "6D", "7S", "8D", "10S"], []], centre=CENTRE)
    assert not reason(g, 0, [discard(g, "6D", "side:0:0")])[1].get("helps_next")


def test_clears_a_card_without_helping_only_when_it_helps_no_one() -> None:
    g = lay(payoff=[["9C"], ["4D"]], hands=[["3S", "6D", "7S", "8D", "9S"], []], centre=CENTRE)
    assert reason(g, 0, [play(g, "3S", "hand", "centre:0")])[0] == "play"  # it brings seat 1 to its 4
    g = lay(payoff=[["9C"], ["QD"]], hands=[["3S", "6D", "7S", "8D", "10S"], []], centre=CENTRE)
    assert reason(g, 0, [play(g, "3S", "hand", "centre:0")])[0] == "clears_card"


def test_a_wild_opens_the_way_only_when_a_card_may_follow() -> None:
    g = lay(payoff=[["9C"], ["QD"]], hands=[["KS", "6D", "7S", "8D", "10S"], []], centre=CENTRE)
    assert reason(g, 0, [play(g, "KS", "hand", "centre:0")])[0] == "play"  # nothing takes the 4
    g = lay(payoff=[["9C"], ["QD"]], hands=[["KS", "4D", "7S", "8D", "10S"], []], centre=CENTRE)
    assert reason(g, 0, [play(g, "KS", "hand", "centre:0")])[0] == "wild_opens"
