"""The rules of the options the seeds add (docs/rules.md, "Options"): one test per rule, each
on an exact position, plus the ruling that every hand ends."""

from __future__ import annotations

import random

import pytest

from app.bots.knowledge import Knowledge
from app.engine import END, Game, IllegalMove, Match, OptionsError, make_options, omniscient_view, view
from app.engine import play as play_module
from app.engine.shuffle import ShuffleStream
from tests.engine.util import centre_codes, codes, discard, lay, play


def kinds(g: Game) -> set[str]:
    return {m.kind for m in g.legal_moves()}


# --- side_plays -------------------------------------------------------------------------------
def test_side_plays_many_discards_do_not_end_the_turn() -> None:
    g = lay(overrides={"side_plays": "many", "must_discard": False},
            hands=[["5C", "6C", "7C", "8C", "9S"], ["2H", "3H", "4H", "10S", "6D"]])
    g.apply(discard(g, "5C", "side:0:0"))
    g.apply(discard(g, "9S", "side:0:1"))
    assert g.turn == 0 and codes(g, g.side[0][0]) == ["5C"] and codes(g, g.side[0][1]) == ["9S"]
    assert "end_turn" in kinds(g)
    g.apply(END)
    assert g.turn == 1


def test_side_plays_many_with_must_discard_ends_only_after_a_discard() -> None:
    g = lay(overrides={"side_plays": "many", "must_discard": True},
            hands=[["5C", "6C", "7C", "8C", "9S"], ["2H", "3H", "4H", "10S", "6D"]])
    assert "end_turn" not in kinds(g)
    with pytest.raises(IllegalMove, match="discard at least one card"):
        g.apply(END)
    g.apply(discard(g, "5C", "side:0:0"))
    assert g.turn == 0 and "end_turn" in kinds(g)


def test_side_plays_one_a_discard_ends_the_turn() -> None:
    g = lay(hands=[["5C", "6C", "7C", "8C", "9S"], ["2H", "3H", "4H", "10S", "6D"]])
    g.apply(discard(g, "5C", "side:0:0"))
    assert g.turn == 1


def test_cat_and_mouse_plays_many_side_plays_to_25() -> None:
    o = make_options("cat_and_mouse")
    assert o.side_plays == "many" and o.match_target == 25 and o.first_player == "lowest_deals"


# --- first_player=dealer ------------------------------------------------------------------------
def test_first_player_dealer_is_drawn_from_the_hand_seed_and_goes_first() -> None:
    o = make_options("standard", {"players": 4, "first_player": "dealer"})
    firsts = set()
    for i in range(40):
        seed = f"dealer-{i}"
        g = Game.deal(o, seed)
        stream = ShuffleStream(seed)
        stream.shuffle(list(range(g.deck.size)))
        dealer = stream.uniform(4)
        assert g.first == g.turn == dealer  # seed 000: "the dealer goes first"
        firsts.add(g.first)
    assert firsts == {0, 1, 2, 3}


# --- stalemate_aces_twos --------------------------------------------------------------------------
BLOCK = {"must_discard": False, "stalemate_aces_twos": True}
HANDS = [["5C", "6C", "7C", "8C", "9S"], ["AH", "3H", "4H", "10S", "6D"]]


def test_in_a_block_an_ace_in_the_hand_must_break_it() -> None:
    g = lay(overrides=BLOCK, hands=HANDS)
    g.apply(END)
    g.apply(END)  # everyone passed, but seat 1 holds an Ace that fits: not blocked yet
    assert g.outcome is None and g.block
    assert g.turn == 0 and "end_turn" in kinds(g)  # seat 0 holds none: it may pass again
    g.apply(END)
    assert g.turn == 1 and {(m.kind, m.src) for m in g.legal_moves()} == {("play", "hand")}
    assert {codes(g, [m.card])[0] for m in g.legal_moves() if m.card is not None} == {"AH"}
    with pytest.raises(IllegalMove, match="Ace"):
        g.apply(END)
    g.apply(play(g, "AH", "hand", "centre:0"))
    assert not g.block and g.turn == 1
    g.apply(END)
    assert not g.block and g.outcome is None


def test_without_the_rule_the_same_block_ends_the_hand() -> None:
    g = lay(overrides={"must_discard": False}, hands=HANDS)
    g.apply(END)
    g.apply(END)
    assert g.outcome is not None and g.outcome.reason == "stalemate"


def test_a_block_with_no_ace_or_two_that_fits_is_a_stalemate() -> None:
    g = lay(overrides=BLOCK, hands=[HANDS[0], ["2H", "3H", "4H", "10S", "6D"]])  # a 2 with no Ace out
    g.apply(END)
    g.apply(END)
    assert g.outcome is not None and g.outcome.reason == "stalemate"


# --- side_colours=alternate ------------------------------------------------------------------------
def test_alternate_colours_on_side_stacks() -> None:
    o = {"side_colours": "alternate", "jokers_per_deck": 2, "side_to_side": True}
    g = lay(overrides=o, hands=[["6D", "6S", "JK", "KC", "3H"], ["2H", "3H", "4H", "10S", "6D"]],
            side=[[["7H"], ["JK"], ["5C"], []], [[], [], [], []]])
    to_7h = {codes(g, [m.card])[0] for m in g.legal_moves() if m.kind == "discard" and m.dst == "side:0:0"}
    assert to_7h == {"6S", "JK", "KC"}  # black on red, and wilds (JK, a wild King) go on anything
    on_joker = {codes(g, [m.card])[0] for m in g.legal_moves() if m.kind == "discard" and m.dst == "side:0:1"}
    assert on_joker == {"6D", "6S", "JK", "KC", "3H"}
    with pytest.raises(IllegalMove, match="colours must alternate"):
        g.apply(discard(g, "6D", "side:0:0"))
    moves = {(m.src, m.dst) for m in g.legal_moves() if m.kind == "move_side"}
    assert ("side:0:2", "side:0:0") in moves  # 5C (black) onto 7H (red)


def test_alternate_colours_refuses_same_colour_moves_between_side_stacks() -> None:
    g = lay(overrides={"side_colours": "alternate", "side_to_side": True},
            hands=[["2H", "3H", "4H", "10S", "6D"], ["2H", "3H", "4H", "10S", "6D"]],
            side=[[["9C", "7H"], ["5D"], [], []], [[], [], [], []]])
    moves = {(m.src, m.dst) for m in g.legal_moves() if m.kind == "move_side"}
    assert ("side:0:1", "side:0:0") not in moves and ("side:0:0", "side:0:1") not in moves
    assert ("side:0:0", "side:0:2") in moves  # an empty stack takes any colour


# --- centre_stacks=players_plus_one ----------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_centre_stacks_players_plus_one(players: int) -> None:
    o = make_options("standard", {"players": players, "centre_stacks": "players_plus_one"})
    assert o.centre_stacks == players + 1
    assert len(Game.deal(o, "pp1").centre) == players + 1
    with pytest.raises(OptionsError, match="centre_stacks"):
        make_options("standard", {"centre_stacks": "players_plus_one", "compulsory_aces": True})


# --- side_stacks_shown=squared -------------------------------------------------------------------
def squared_match() -> Match:
    o = make_options("standard", {"side_stacks_shown": "squared", "must_discard": False})
    m = Match.of_position(Game.layout(
        o, payoff=[["9D", "JD"], ["9H", "JH"]], hands=[["5C", "6C", "7C", "8C", "9S"], ["2H", "3H", "4H", "10S", "6D"]],
        side=[[["KS", "QS", "10C"], ["4D"], [], []], [["8H", "7S"], [], [], []]]))
    return m


def test_squared_side_stacks_show_only_their_tops_to_everyone() -> None:
    m = squared_match()
    for seat in (None, 0, 1):
        v = view(m, seat)
        p0, p1 = v["players"]
        assert [[c["rank"] + c["suit"] for c in st] for st in p0["side"]] == [["10C"], ["4D"], [], []]
        assert p0["side_counts"] == [3, 1, 0, 0] and p1["side_counts"] == [2, 0, 0, 0]
        assert [c["rank"] for c in p1["side"][0]] == ["7"]
        assert "KS" not in str(v) and not any(c.get("rank") == "Q" for st in p0["side"] for c in st)
    full = omniscient_view(m)
    assert [[c["rank"] + c["suit"] for c in st] for st in full["players"][0]["side_cards"]][0] == ["KS", "QS", "10C"]
    assert full["players"][0]["side"] == view(m, None)["players"][0]["side"]


def test_squared_side_stacks_a_bot_samples_the_buried_cards_and_keeps_the_counts() -> None:
    m = squared_match()
    know = Knowledge.from_view(view(m, 0))
    assert [len(st) for st in know.template.side[0]] == [3, 1, 0, 0]
    assert know.template.side[0][0][-1] == m.game.side[0][0][-1]
    rng = random.Random(1)
    sample = know.template.copy()
    know.determinize(sample, rng)
    assert [len(st) for st in sample.side[0]] == [3, 1, 0, 0]
    assert sorted(sample.all_cards()) == list(range(sample.deck.size))


def test_spread_side_stacks_show_every_card() -> None:
    m = Match.of_position(lay(side=[[["KS", "QS"], [], [], []], [[], [], [], []]]))
    assert [c["rank"] for c in view(m, 1)["players"][0]["side"][0]] == ["K", "Q"]


# --- the book version keeps kings wild (ruling) -----------------------------------------------------
def test_book_keeps_kings_wild_and_adds_four_jokers() -> None:
    o = make_options("book")
    assert o.kings_wild and o.jokers_per_deck == 2 and o.wild_cannot_be == frozenset({"A"})
    assert not o.stalemate_aces_twos  # "some say": an option, not the preset


# --- every hand ends ------------------------------------------------------------------------------
def test_a_hand_without_progress_ends_after_the_refill_limit() -> None:
    g = lay(hands=[["QC", "5C", "6C", "7C", "8C"], ["2H", "3H", "4H", "10S", "6D"]],
            centre=[["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]])
    g.stale_refills = play_module.STALE_REFILLS - 1
    g.apply(play(g, "QC", "hand", "centre:0"))
    assert g.outcome is not None and g.outcome.reason == "stalemate"
    assert centre_codes(g)[0] == []


def test_a_payoff_card_at_a_new_low_resets_the_refill_count() -> None:
    g = lay(payoff=[["9D", "QD"], ["9H", "JH", "KH"]], hands=[["5C", "6C", "7C", "8C", "9S"], ["2H"]],
            centre=[["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]])
    g.stale_refills = play_module.STALE_REFILLS - 1
    g.apply(play(g, "QD", "payoff:0", "centre:0"))  # 4 pay-off cards: fewer than ever, then a refill
    assert g.outcome is None and g.stale_refills == 1 and g.payoff_low == 4
