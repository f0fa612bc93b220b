"""The second rules audit (with squared side stacks and take-backs): each engine bug replayed
exactly as reported (options, seed, moves), and the rulings on the points the sources left open.
Exact positions for each rule live beside it here; docs/rules.md, "As built", says what changed."""

from __future__ import annotations

from typing import Any

import pytest

from app.bots.knowledge import Knowledge
from app.engine import END, Game, IllegalMove, Match, Move, make_options, view
from app.engine.moves import TAKE
from app.engine.play import STALE_REFILLS
from tests.engine.util import discard, lay, load, play


# --- 1. a hand that never ends: pay-off cards loaded to and fro ---------------------------------
def loop(card: int, opening: tuple[Move, ...] = ()) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    return opening, (Move("load", card, "payoff:0", "payoff:1"), END, Move("load", card, "payoff:1", "payoff:0"), END)


@pytest.mark.parametrize(("preset", "overrides", "seed", "moves"), [
    ("standard", {"load_opponent": True, "must_discard": False}, "loop254", loop(60, (END,))),
    ("standard", {"load_opponent": True, "must_discard": False, "stalemate": "redeal", "stalemate_aces_twos": True},
     "loop254", loop(60, (END,))),
    ("cat_and_mouse", {"load_opponent": True}, "cmloop2217", loop(20, (Move("play", 80, "hand", "centre:0"),))),
])
def test_a_payoff_card_loaded_to_and_fro_ends_the_hand(preset: str, overrides: dict[str, Any], seed: str,
                                                       moves: tuple[tuple[Move, ...], tuple[Move, ...]]) -> None:
    g = Game.deal(make_options(preset, overrides), seed)
    opening, cycle = moves
    for move in opening:
        g.apply(move)
    steps = 0
    while g.outcome is None:
        assert steps < 4 * STALE_REFILLS, f"no end after {steps} moves (stale steps: {g.stale_refills})"
        g.apply(cycle[steps % len(cycle)])
        steps += 1
    assert g.outcome.reason == "stalemate" and g.stale_refills == STALE_REFILLS


def test_a_load_from_payoff_to_payoff_is_a_stale_step() -> None:
    g = lay(overrides={"load_opponent": True}, payoff=[["5C", "9S"], ["2D", "10S"]],
            hands=[["QC", "QD", "QH", "JC", "JD"], []])
    g.stale_refills = STALE_REFILLS - 1
    g.apply(load(g, "9S", "payoff:0", "payoff:1"))
    assert g.outcome is not None and g.outcome.reason == "stalemate"
    g = lay(overrides={"load_opponent": True}, payoff=[["5C", "9S"], ["2D", "10S"]],
            hands=[["9S", "QD", "QH", "JC", "JD"], []])
    g.stale_refills = STALE_REFILLS - 1
    g.apply(load(g, "9S", "hand", "payoff:1"))  # from the hand: a card carried forward, not a stale step
    assert g.outcome is None and g.stale_refills == STALE_REFILLS - 1


def test_loading_the_last_payoff_card_wins_before_any_stale_step() -> None:
    g = lay(overrides={"load_opponent": True}, payoff=[["9S"], ["2D", "10S"]], hands=[["QC"], []])
    g.stale_refills = STALE_REFILLS - 1
    g.apply(load(g, "9S", "payoff:0", "payoff:1"))
    assert g.outcome is not None and g.outcome.reason == "payoff_out" and g.outcome.winners == (0,)


# --- 4. compulsory plays: every forced card is offered, the player chooses the order ----------
def plays(g: Game) -> set[tuple[str, str | None, str | None]]:
    return {(g.deck.code(m.card), m.src, m.dst) for m in g.legal_moves() if m.card is not None}


def test_compulsory_aces_and_twos_together_offer_both_the_ace_and_the_two() -> None:
    g = Game.deal(make_options("cat_and_mouse", {"compulsory_aces_twos": True}), "both523")
    g.apply(Move("play", 67, "hand", "centre:0"))  # the A♥
    g.apply(END)
    assert g.turn == 1
    assert plays(g) == {("AD", "hand", "centre:1"), ("2H", "payoff:1", "centre:0")}
    assert {m.kind for m in g.legal_moves()} == {"play"}


def test_a_pay_off_two_and_a_hand_ace_are_both_forced_in_either_order() -> None:
    g = lay("cat_and_mouse", {"compulsory_aces_twos": True}, payoff=[["5C", "2D"], ["5D", "9H"]],
            hands=[["AS", "7H", "8H", "9D", "10D"], []], centre=[["AC"]])
    assert plays(g) == {("AS", "hand", "centre:1"), ("2D", "payoff:0", "centre:0")}
    g.apply(Move("play", g.payoff[0][-1], "payoff:0", "centre:0"))  # the 2 first, then the Ace
    assert plays(g) == {("AS", "hand", "centre:1")}


def test_in_a_block_the_block_breakers_and_the_compulsory_plays_are_offered_together() -> None:
    g = lay("book", {"stalemate_aces_twos": True}, payoff=[["5C", "9D"], ["5D", "9H"]],
            hands=[["AH", "7H", "8H", "9D", "10D"], []], side=[[["2S"], [], [], []], [[], [], [], []]],
            centre=[["AC"]])
    g.block = True
    g._legal = None
    assert plays(g) == {("AH", "hand", "centre:1"), ("2S", "side:0:0", "centre:0")}


# --- 3. the five-card bonus follows one rule, whatever the order of the plays -----------------
def discards_all(g: Game, cards: tuple[int, ...]) -> None:
    for c in cards:
        g.apply(next(m for m in g.legal_moves() if m.kind == "discard" and m.card == c))


CM0 = (78, 53, 65, 83, 59)  # seat 0's whole hand, discarded


def cm11(g: Game) -> None:
    g.apply(Move("play", 80, "hand", "centre:0"))
    discards_all(g, (91, 84, 88))
    g.apply(Move("play", 81, "hand", "centre:0"))


@pytest.mark.parametrize(("bonus", "refilled"), [("refill", True), ("centre_only", False), ("none", False)])
def test_a_hand_emptied_by_discards_and_one_emptied_ending_with_a_centre_play_are_treated_alike(
        bonus: str, refilled: bool) -> None:
    o = make_options("cat_and_mouse", {"five_card_bonus": bonus})
    g = Game.deal(o, "cm0")
    discards_all(g, CM0)
    assert g.turn == 0 and len(g.hands[0]) == (5 if refilled else 0)
    g = Game.deal(o, "cm11")
    cm11(g)
    assert g.turn == 1 and len(g.hands[1]) == (5 if refilled else 0)


def test_centre_only_refills_a_hand_that_went_wholly_to_the_centre_and_forgets_discards_of_an_earlier_hand() -> None:
    over = {"five_card_bonus": "centre_only", "side_plays": "many", "must_discard": False}
    g = lay(overrides=over, hands=[["AS", "2S", "3S", "4S", "5S"], []])
    for code in ["AS", "2S", "3S", "4S", "5S"]:
        g.apply(play(g, code, "hand", "centre:0"))
    assert len(g.hands[0]) == 5 and not g.off_centre
    g = lay(overrides=over, hands=[["AS", "2S", "3S", "4S", "9D"], []])
    g.apply(discard(g, "9D", "side:0:0"))
    assert g.off_centre
    for code in ["AS", "2S", "3S", "4S"]:
        g.apply(play(g, code, "hand", "centre:0"))
    assert g.hands[0] == [] and g.turn == 0  # a discard from this hand: no bonus
    g.apply(END)
    assert not g.off_centre


def test_a_hand_emptied_by_a_load_is_refilled_like_any_other() -> None:
    g = lay(overrides={"load_opponent": True}, payoff=[["5C", "9C"], ["2D", "10S"]], hands=[["AS", "9S"], []])
    g.apply(play(g, "AS", "hand", "centre:0"))
    g.apply(load(g, "9S", "hand", "payoff:1"))  # the last hand card, onto the opponent's 10S
    assert g.turn == 0 and len(g.hands[0]) == 5


# --- 2. squared side stacks: a move that uncovers a card below a top cannot be taken back -------
def test_a_play_off_a_squared_side_stack_shows_the_card_below_and_cannot_be_taken_back() -> None:
    m = Match(make_options("standard", {"side_stacks_shown": "squared", "take_backs": True}))
    m.deal("peek6")
    for move in [Move("discard", 83, None, "side:0:0"), Move("discard", 75, None, "side:1:0"),
                 Move("discard", 0, None, "side:0:0"), Move("discard", 30, None, "side:1:1"),
                 Move("play", 0, "side:0:0", "centre:0")]:  # the A♠ off the 6♦
        m.apply(move)
    assert [c["id"] for c in view(m, 1)["players"][0]["side"][0]] == [83]  # the 6♦ shows now, to all
    assert TAKE not in m.game.legal_moves()
    with pytest.raises(IllegalMove, match="can be taken back"):
        m.apply(TAKE)


SQUARED = {"side_stacks_shown": "squared", "take_backs": True, "side_to_side": True, "must_discard": False}


def test_a_side_to_side_move_that_uncovers_a_squared_card_cannot_be_taken_back() -> None:
    g = lay(overrides=SQUARED, hands=[["QC", "QD", "QH", "JC", "JD"], []],
            side=[[["9C", "5D"], ["7S"], [], []], [[], [], [], []]])
    g.apply(Move("move_side", None, "side:0:1", "side:0:0"))  # 7S onto 5D: nothing below the 7S
    assert TAKE in g.legal_moves()
    g.apply(TAKE)
    g.apply(Move("move_side", None, "side:0:0", "side:0:1"))  # 5D off the 9C: the 9C turns up
    assert TAKE not in g.legal_moves()


def test_a_play_off_a_partners_squared_side_stack_cannot_be_taken_back() -> None:
    g = lay(overrides={"side_stacks_shown": "squared", "take_backs": True, "players": 4, "teams": "pairs"},
            hands=[["QC", "QD", "QH", "JC", "JD"], [], [], []],
            side=[[[], [], [], []], [[], [], [], []], [["8H", "AS"], ["AD"], [], []], [[], [], [], []]])
    g.apply(play(g, "AD", "side:2:1", "centre:0"))  # the partner's only card there: nothing uncovered
    assert TAKE in g.legal_moves()
    g.apply(play(g, "AS", "side:2:0", "centre:1"))  # uncovers the partner's 8H
    assert TAKE not in g.legal_moves()


def test_on_a_squared_stack_the_discard_rule_reads_only_the_card_showing() -> None:
    def onto_the_joker(shown: str, below: str) -> set[str]:
        g = lay("book", {"side_stacks_shown": shown}, hands=[["3C", "6C", "8C", "9H", "QD"], []],
                side=[[[below, "JK"], [], [], []], [[], [], [], []]])
        return {g.deck.code(m.card) for m in g.legal_moves()
                if m.kind == "discard" and m.dst == "side:0:0" and m.card is not None}
    assert onto_the_joker("spread", "9S") == {"8C", "9H"} and onto_the_joker("spread", "4S") == {"3C"}
    everything = {"3C", "6C", "8C", "9H", "QD"}
    assert onto_the_joker("squared", "9S") == onto_the_joker("squared", "4S") == everything


# --- unruled: Massachusetts fills come before any end of the turn ------------------------------
@pytest.mark.parametrize("overrides", [{"side_plays": "many"}, {"must_discard": False}])
def test_massachusetts_empty_side_stacks_are_filled_before_the_turn_ends(overrides: dict[str, Any]) -> None:
    g = lay("massachusetts", overrides, hands=[["3C", "QS", "QD", "QH", "JC"], []],
            side=[[["AH"], [], ["9C"], []], [["8D"], ["8D"], ["8H"], ["8H"]]])
    g.apply(discard(g, "3C", "side:0:1"))
    assert g.turn == 0 and END not in g.legal_moves()  # side:0:3 is empty, and the hand can fill it
    with pytest.raises(IllegalMove, match="fill your empty side stacks before you end your turn"):
        g.apply(END)
    g.apply(discard(g, "QS", "side:0:3"))
    assert END in g.legal_moves()


def test_massachusetts_a_hand_that_cannot_fill_may_still_end_the_turn() -> None:
    g = lay("massachusetts", {"side_plays": "many", "aces_on_side_stacks": False},
            hands=[["AS", "AD"], []], side=[[["9H"], [], ["9C"], ["9D"]], [["8D"], ["8D"], ["8H"], ["8H"]]],
            centre=[["AH"], ["AC"], ["AH"], ["AC"]])
    assert {m.kind for m in g.legal_moves()} == {"end_turn"}


# --- seed 000 squares the side stacks; Hoyle (002) lets the owner peek --------------------------
def peek_match() -> Match:
    o = make_options("standard", {"side_stacks_shown": "peek", "take_backs": True, "must_discard": False})
    return Match.of_position(Game.layout(
        o, payoff=[["9D", "JD"], ["9H", "JH"]], hands=[["5C", "6C", "7C", "8C", "9S"], ["2H", "3H", "4H", "10S", "6D"]],
        side=[[["KS", "QS", "AC"], ["4D"], [], []], [["8H", "7S"], [], [], []]]))


def faces(stacks: list[list[dict[str, Any]]]) -> list[list[str]]:
    return [[c["rank"] + c["suit"] for c in st] for st in stacks]


def test_peek_shows_the_owner_its_own_side_stacks_whole_and_everyone_else_only_the_tops() -> None:
    m = peek_match()
    mine, theirs, spectator = view(m, 0), view(m, 1), view(m, None)
    assert faces(mine["own_side"]) == [["KS", "QS", "AC"], ["4D"], [], []]
    assert faces(theirs["own_side"]) == [["8H", "7S"], [], [], []] and spectator["own_side"] is None
    for v in (mine, theirs, spectator):
        assert faces(v["players"][0]["side"]) == [["AC"], ["4D"], [], []]
        assert v["players"][0]["side_counts"] == [3, 1, 0, 0]
    assert "KS" not in str(theirs) and "KS" not in str(spectator)
    squared = Game.layout(make_options("standard", {"side_stacks_shown": "squared"}), payoff=[["9D"], ["9H"]],
                          hands=[[], []], side=[[["KS", "QS"], [], [], []], [[], [], [], []]])
    assert view(Match.of_position(squared), 0)["own_side"] is None  # squared: nobody peeks


def test_under_peek_a_bot_knows_its_own_buried_cards_and_samples_the_others() -> None:
    m = peek_match()
    know = Knowledge.from_view(view(m, 0))
    assert know.template.side[0] == m.game.side[0] and know.buried[0] == [0, 0, 0, 0]
    assert know.buried[1] == [1, 0, 0, 0]


def test_under_peek_uncovering_a_side_card_cannot_be_taken_back() -> None:
    m = peek_match()
    m.apply(Move("play", m.game.side[0][0][-1], "side:0:0", "centre:0"))  # the AC off the QS
    assert TAKE not in m.game.legal_moves()


def test_pagat_squares_the_side_stacks_and_hoyle_lets_the_owner_peek() -> None:
    assert make_options("pagat").side_stacks_shown == "squared"
    assert make_options("hoyle").side_stacks_shown == "peek"
    assert make_options("standard").side_stacks_shown == "spread"  # the project's default (rules.md)


# --- seed 003: alternate colours replace the sequence rule ---------------------------------------
def test_alternate_colours_replace_the_same_or_one_lower_rule_unless_both_are_asked_for() -> None:
    assert make_options("cat_and_mouse", {"side_colours": "alternate"}).discard_rule == "any"
    both = {"side_colours": "alternate", "discard_rule": "same_or_one_lower"}
    assert make_options("cat_and_mouse", both).discard_rule == "same_or_one_lower"
    assert make_options("cat_and_mouse").discard_rule == "same_or_one_lower"
    g = lay("cat_and_mouse", {"side_colours": "alternate"}, hands=[["9S", "4C", "6D", "QC", "JD"], []],
            side=[[["5H"], [], [], []], [[], [], [], []]])
    onto = {g.deck.code(m.card) for m in g.legal_moves()
            if m.kind == "discard" and m.dst == "side:0:0" and m.card is not None}
    assert onto == {"9S", "4C", "QC"}  # any black card on the red 5, higher or lower
