"""The standard game, rule by rule (docs/rules.md, "The standard game")."""

from __future__ import annotations

import pytest

from app.engine import END, IllegalMove, Move
from tests.engine.util import centre_codes, codes, discard, find, lay, play


def test_ace_starts_a_stack_on_each_empty_slot_and_cards_climb_one_rank() -> None:
    g = lay(hands=[["AS", "2H", "3D", "5C", "QS"], []])
    plays = [m for m in g.legal_moves() if m.kind == "play"]
    assert {m.dst for m in plays} == {"centre:0", "centre:1", "centre:2", "centre:3"}
    assert all(codes(g, [m.card])[0] == "AS" for m in plays if m.card is not None)
    g.apply(play(g, "AS", "hand", "centre:2"))
    g.apply(play(g, "2H", "hand", "centre:2"))
    g.apply(play(g, "3D", "hand", "centre:2"))
    assert centre_codes(g) == [[], [], ["AS", "2H", "3D"], []]
    with pytest.raises(IllegalMove, match="a 5 cannot go on a stack that needs a 4"):
        g.apply(play(g, "5C", "hand", "centre:2"))
    with pytest.raises(IllegalMove, match="only an Ace can start a centre stack"):
        g.apply(play(g, "5C", "hand", "centre:0"))


def test_a_refused_move_changes_nothing() -> None:
    g = lay(hands=[["AS", "5C", "9D", "QS", "JH"], []])
    before = (g.copy().hands, g.centre[:], g.stock[:], g.turn)
    with pytest.raises(IllegalMove):
        g.apply(play(g, "5C", "hand", "centre:0"))
    assert (g.hands, g.centre, g.stock, g.turn) == before


def test_wild_king_takes_the_rank_the_stack_needs_but_not_an_ace() -> None:
    g = lay(hands=[["KS", "AS", "3D", "4D", "QS"], []])
    # a King may not stand for an Ace under the default wild_cannot_be = {A}
    assert not [m for m in g.legal_moves() if m.kind == "play" and codes(g, [m.card]) == ["KS"]]
    with pytest.raises(IllegalMove, match="wild card cannot stand for an Ace"):
        g.apply(play(g, "KS", "hand", "centre:0"))
    g.apply(play(g, "AS", "hand", "centre:0"))
    g.apply(play(g, "KS", "hand", "centre:0"))
    g.apply(play(g, "3D", "hand", "centre:0"))
    assert centre_codes(g)[0] == ["AS", "KS", "3D"]


def test_payoff_top_plays_and_the_next_card_turns_up() -> None:
    g = lay(payoff=[["9C", "2D", "AD"], ["5C", "9H"]], hands=[["3C", "QS", "QD", "QH", "JC"], []])
    g.apply(play(g, "AD", "payoff:0", "centre:0"))
    assert codes(g, g.payoff[0]) == ["9C", "2D"]
    g.apply(play(g, "2D", "payoff:0", "centre:0"))
    g.apply(play(g, "3C", "hand", "centre:0"))
    assert codes(g, g.payoff[0]) == ["9C"]


def test_payoff_card_never_goes_to_a_side_stack_and_side_to_side_is_not_allowed() -> None:
    g = lay(payoff=[["5C", "9C"], ["5C", "9H"]], hands=[["3C", "QS", "QD", "QH", "JC"], []],
            side=[[["7S", "8S"], [], [], []], [[], [], [], []]])
    with pytest.raises(IllegalMove, match="pay-off card can only go to a centre stack"):
        g.apply(Move("play", find(g, "9C", "payoff:0"), "payoff:0", "side:0:1"))
    with pytest.raises(IllegalMove, match="may not move from one side stack to another"):
        g.apply(Move("move_side", None, "side:0:0", "side:0:1"))
    with pytest.raises(IllegalMove, match="only the top card of a side stack"):
        g.apply(Move("play", g.side[0][0][0], "side:0:0", "centre:0"))
    assert not [m for m in g.legal_moves() if m.kind in ("move_side", "load")]


def test_discard_ends_the_turn_and_the_next_player_draws_to_five() -> None:
    g = lay(hands=[["3C", "QS", "QD", "QH", "JC"], ["4C", "5H"]], stock=["2S", "3S", "4S"])
    g.apply(discard(g, "QS", "side:0:3"))
    assert g.turn == 1
    assert codes(g, g.hands[1]) == ["4C", "5H", "4S", "3S", "2S"]  # top of the stock first
    assert codes(g, g.side[0][3]) == ["QS"]


def test_must_discard_to_end_the_turn() -> None:
    g = lay(hands=[["3C", "QS", "QD", "QH", "JC"], []])
    assert END not in g.legal_moves()
    with pytest.raises(IllegalMove, match="must discard"):
        g.apply(END)


def test_discards_go_on_any_own_side_stack_in_any_order() -> None:
    g = lay(hands=[["3C", "QS", "QD", "QH", "JC"], []], side=[[["2C"], ["KD"], [], []], [[], [], [], []]])
    discards = {(codes(g, [m.card])[0], m.dst) for m in g.legal_moves() if m.kind == "discard"}
    assert len(discards) == 20 and ("3C", "side:0:0") in discards
    with pytest.raises(IllegalMove, match="only discard to your own side stacks"):
        g.apply(Move("discard", find(g, "3C", "hand"), None, "side:1:0"))


def test_emptying_the_hand_to_the_centre_draws_five_more() -> None:
    g = lay(hands=[["AS", "2S", "3S", "4S", "5S"], []], stock=["QH", "QD", "QC", "JH", "JD", "JC"])
    for card in ["AS", "2S", "3S", "4S", "5S"]:
        g.apply(play(g, card, "hand", "centre:0"))
    assert codes(g, g.hands[0]) == ["JC", "JD", "JH", "QC", "QD"]
    assert g.turn == 0


def test_completed_stack_is_shuffled_into_the_stock_and_frees_the_slot() -> None:
    stack = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]
    g = lay(hands=[["QH", "2H", "3H", "4H", "5H"], []], centre=[stack])
    stock_before = len(g.stock)
    g.apply(play(g, "QH", "hand", "centre:0"))
    assert g.centre[0] == [] and len(g.stock) == stock_before + 12


def test_win_by_playing_the_last_payoff_card_scores_bonus_plus_opponent_cards() -> None:
    g = lay(payoff=[["2C"], ["5C", "9H", "3D"]], hands=[["AS", "7H", "8H", "9D", "10D"], []])
    g.apply(play(g, "AS", "hand", "centre:1"))
    g.apply(play(g, "2C", "payoff:0", "centre:1"))
    assert g.outcome is not None
    assert g.outcome.reason == "payoff_out" and g.outcome.winners == (0,)
    assert g.outcome.scores == (5 + 3, 0)
    assert g.legal_moves() == []


def test_stock_out_is_a_draw_by_default() -> None:
    g = lay(hands=[["3C", "QS", "QD", "QH", "JC"], ["4C"]], stock=["2S", "3S"])
    g.stock[:] = g.stock[-2:]  # only two cards left, the rest of the deck elsewhere does not matter
    g.apply(discard(g, "QS", "side:0:0"))
    assert g.outcome is not None and g.outcome.reason == "stock_out"
    assert g.outcome.winners == () and g.outcome.scores == (0, 0)


def test_explain_messages_for_sources() -> None:
    g = lay(payoff=[["5C", "9C"], ["5C", "9H"]], hands=[["3C", "QS", "QD", "QH", "JC"], ["AH"]])
    with pytest.raises(IllegalMove, match="not in your hand"):
        g.apply(Move("play", g.hands[1][0], "hand", "centre:0"))
    with pytest.raises(IllegalMove, match="only play from your own piles"):
        g.apply(Move("play", g.payoff[1][-1], "payoff:1", "centre:0"))
    with pytest.raises(IllegalMove, match="no such card"):
        g.apply(Move("play", 9999, "hand", "centre:0"))


def test_a_play_to_any_centre_stack_asks_why_a_card_can_move_nowhere() -> None:
    """`to: "centre"` is never legal: the refusal names the rule that keeps the card where it is
    (the compulsory Ace first, else what the centre stacks need)."""
    g = lay(payoff=[["9C"], ["5C"]], hands=[["AS", "3D", "QS", "QH", "JC"], []], centre=[["AH", "2H"]])
    with pytest.raises(IllegalMove, match=r"a 9 fits no centre stack now \(they need: Ace or 3\)") as err:
        g.apply(Move("play", g.payoff[0][-1], "payoff:0", "centre"))
    assert err.value.key == "fits_no_centre" and err.value.params == {"rank": 9, "needs": [1, 3]}
    with pytest.raises(IllegalMove, match="only play from your own piles"):
        g.apply(Move("play", g.payoff[1][-1], "payoff:1", "centre"))
    g = lay(payoff=[["9C"], ["5C"]], hands=[["AS", "3D", "QS", "QH", "JC"], []],
            overrides={"compulsory_aces": True})
    with pytest.raises(IllegalMove, match="you must first play your Ace to the centre") as err:
        g.apply(Move("play", find(g, "QS", "hand"), "hand", "centre"))
    assert err.value.key == "must_play_first"
