"""One or more scenarios per row of the options table (docs/rules.md, "Options")."""

from __future__ import annotations

import pytest

from app.engine import END, Game, IllegalMove, Move, make_options
from tests.engine.util import centre_codes, codes, discard, find, lay, load, play

Q_STACK = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]


def kinds(g: Game) -> set[str]:
    return {m.kind for m in g.legal_moves()}


def targets(g: Game, card_code: str, kind: str = "play") -> set[str]:
    return {m.dst for m in g.legal_moves() if m.kind == kind and m.card is not None
            and g.deck.code(m.card) == card_code}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_players_payoff_size_hand_size_and_decks(players: int) -> None:
    o = make_options("standard", {"players": players, "payoff_size": 13})
    g = Game.deal(o, f"p{players}")
    assert len(g.all_cards()) == 52 * max(2, players) == g.deck.size
    assert [len(p) for p in g.payoff] == [13] * players
    assert [len(h) for h in g.hands] == [5] * players
    assert len(g.stock) == g.deck.size - players * 18
    assert all(len(sides) == 4 for sides in g.side)


def test_jokers_per_deck_adds_wild_jokers() -> None:
    g = Game.deal(make_options("standard", {"jokers_per_deck": 2, "decks": 3, "players": 3}), "j")
    jokers = [c for c in range(g.deck.size) if g.deck.rank[c] == 14]
    assert len(jokers) == 6 and all(g.deck.wild[c] for c in jokers)
    assert all(g.deck.json(c)["suit"] is None and g.deck.json(c)["rank"] == "JOKER" for c in jokers)


def test_kings_not_wild_stacks_climb_to_king() -> None:
    overrides = {"kings_wild": False, "jokers_per_deck": 2}
    g = lay("standard", overrides, hands=[["KH", "QH", "JK", "3C", "4C"], []], centre=[Q_STACK])
    assert not g.deck.wild[find(g, "KH", "hand")]
    assert targets(g, "KH") == set()
    g.apply(play(g, "QH", "hand", "centre:0"))
    assert len(g.centre[0]) == 12  # a Queen no longer completes the stack
    g.apply(play(g, "KH", "hand", "centre:0"))
    assert g.centre[0] == []


def test_joker_on_the_centre_shows_the_rank_it_stands_for() -> None:
    from app.engine import Match, view
    g = lay("standard", {"jokers_per_deck": 2}, hands=[["JK", "QC"], []], centre=[[], ["AS", "2S"]])
    m = Match.of_position(g)
    joker = find(g, "JK", "hand")
    events = m.apply(Move("play", joker, "hand", "centre:1"), seat=0)
    shown = view(m, None)["centre"][1][-1]
    assert shown == {"id": joker, "rank": "JOKER", "suit": None, "wild": True, "as": "3"}
    assert events[0]["card"] == shown and events[0]["type"] == "play"


@pytest.mark.parametrize(("banned", "may_start", "may_be_7"), [([], True, True), (["A"], False, True),
                                                                (["A", "7"], False, False)])
def test_wild_cannot_be(banned: list[str], may_start: bool, may_be_7: bool) -> None:
    six = ["AS", "2S", "3S", "4S", "5S", "6S"]
    g = lay("standard", {"wild_cannot_be": banned}, hands=[["KH", "QC", "QD", "JC", "JD"], []],
            centre=[six, ["AH"]])
    t = targets(g, "KH")
    assert ("centre:2" in t) is may_start
    assert ("centre:0" in t) is may_be_7
    assert "centre:1" in t  # a 2 is always fine


def test_centre_stacks_limit_and_unlimited_slots() -> None:
    g = lay("pagat", hands=[["AS", "AH", "AD", "AC", "QC"], []])
    assert len(g.centre) == 3
    for i, card in enumerate(["AS", "AH", "AD"]):
        g.apply(play(g, card, "hand", f"centre:{i}"))
    assert targets(g, "AC") == set()  # every slot is taken
    g = lay("standard", {"centre_stacks": "unlimited"}, hands=[["AS", "AH", "2D", "QC", "QS"], []])
    assert len(g.centre) == 1
    g.apply(play(g, "AS", "hand", "centre:0"))
    assert len(g.centre) == 2 and g.centre[1] == []
    g.apply(play(g, "AH", "hand", "centre:1"))
    assert len(g.centre) == 3
    assert targets(g, "2D") == {"centre:0", "centre:1"}


def test_unlimited_completed_stack_leaves_its_slot_empty() -> None:
    g = lay("standard", {"centre_stacks": "unlimited"}, hands=[["QH", "AH", "5C", "6C", "7C"], []],
            centre=[Q_STACK, ["AD"]])
    g.apply(play(g, "QH", "hand", "centre:0"))
    assert [len(st) for st in g.centre] == [0, 1, 0]
    assert targets(g, "AH") == {"centre:0", "centre:2"}


def test_completed_stacks_set_aside_until_the_stock_is_empty() -> None:
    g = lay("standard", {"completed_stacks": "set_aside_until_stock_empty"},
            hands=[["QH", "3C", "4C", "5C", "6C"], ["2D"]], centre=[Q_STACK])
    stock_before = len(g.stock)
    g.apply(play(g, "QH", "hand", "centre:0"))
    assert len(g.aside) == 12 and len(g.stock) == stock_before
    g.stock[:] = g.stock[-2:]  # the stock nearly gone: the next draw needs the set-aside cards
    g.apply(discard(g, "3C", "side:0:0"))
    assert g.outcome is None and g.aside == [] and len(g.hands[1]) == 5
    assert len(g.stock) == 12 + 2 - 4


def test_stock_out_fewest_wins() -> None:
    g = lay("standard", {"stock_out": "fewest_wins"}, payoff=[["2C", "3C"], ["2D", "3D", "4D", "5D"]],
            hands=[["3H", "QS", "QD", "QH", "JC"], ["4C"]])
    g.stock[:] = g.stock[-1:]
    g.apply(discard(g, "QS", "side:0:0"))
    assert g.outcome is not None and g.outcome.reason == "stock_out"
    assert g.outcome.winners == (0,) and g.outcome.scores == (2, 0)


def test_stock_out_play_on_goes_on_without_drawing_while_anyone_can_play() -> None:
    """Hoyle (seed 002): with the stock gone the hand ends only when "no players can play cards";
    a round without a centre play while someone could play does not end it."""
    g = lay("hoyle", payoff=[["2C", "3C"], ["2D", "3D", "4D", "5D"]],
            hands=[["AH", "QS", "QD", "QH", "JC"], ["10C"]], stock=["9S"])
    g.stock[:] = g.stock[-1:]
    g.apply(discard(g, "QS", "side:0:0"))
    assert g.outcome is None and codes(g, g.hands[1]) == ["10C", "9S"] and g.stock == []
    g.apply(discard(g, "10C", "side:1:0"))
    assert g.turn == 0 and len(g.hands[0]) == 4     # nothing to draw
    g.apply(discard(g, "QD", "side:0:1"))           # seat 0 keeps its Ace back
    g.apply(discard(g, "9S", "side:1:1"))           # a whole round without a centre play ...
    assert g.outcome is None and g.dry == 3         # ... but seat 0 can still play its Ace
    g.apply(play(g, "AH", "hand", "centre:0"))
    g.apply(discard(g, "QH", "side:0:2"))           # now nobody can play: fewest wins
    assert g.outcome is not None and g.outcome.reason == "stock_out"
    assert g.outcome.winners == (0,) and g.outcome.scores == (2, 0)


def test_five_card_bonus_none_leaves_the_hand_empty_and_allows_ending_the_turn() -> None:
    g = lay("standard", {"five_card_bonus": "none"}, hands=[["AS", "2S", "3S", "4S", "5S"], []])
    for card in ["AS", "2S", "3S", "4S", "5S"]:
        g.apply(play(g, card, "hand", "centre:0"))
    assert g.hands[0] == [] and g.legal_moves()[-1] == END
    g.apply(END)
    assert g.turn == 1


def test_discard_rule_same_or_one_lower_with_wilds() -> None:
    g = lay("book", hands=[["6C", "7C", "8C", "5H", "10C"], []],
            side=[[["9S", "JK", "JK"], ["9D"], [], ["QH", "KH"]], [[], [], [], []]])
    # a nine followed by two jokers takes a 6, 7, 8 or 9
    assert targets(g, "6C", "discard") >= {"side:0:0"}
    assert targets(g, "8C", "discard") == {"side:0:0", "side:0:1", "side:0:2"}
    assert "side:0:0" not in targets(g, "5H", "discard")
    assert targets(g, "10C", "discard") == {"side:0:2", "side:0:3"}  # a wild K on a Q may be a J..K
    with pytest.raises(IllegalMove, match="same rank or one lower"):
        g.apply(discard(g, "10C", "side:0:1"))


def test_must_discard_false_allows_ending_the_turn_and_a_pass() -> None:
    g = lay("standard", {"must_discard": False}, hands=[["3C", "QS", "QD", "QH", "JC"], ["4C"]])
    assert END in g.legal_moves()
    g.apply(END)
    assert g.turn == 1 and g.passes == 1


def test_side_to_side_moves_once_per_card_per_turn() -> None:
    g = lay("cat_and_mouse", hands=[["QC", "QD", "QH", "JC", "10C"], []],
            side=[[["9S", "8S"], ["8D"], [], []], [[], [], [], []]])
    moves = [m for m in g.legal_moves() if m.kind == "move_side"]
    assert ("side:0:0", "side:0:1") in {(m.src, m.dst) for m in moves}  # 8 on 8
    assert ("side:0:1", "side:0:0") in {(m.src, m.dst) for m in moves}  # 8 on 8
    assert ("side:0:1", "side:0:2") not in {(m.src, m.dst) for m in moves}  # pointless
    g.apply(Move("move_side", None, "side:0:0", "side:0:2"))
    assert codes(g, g.side[0][2]) == ["8S"]
    assert not [m for m in g.legal_moves() if m.kind == "move_side" and m.src == "side:0:2"]


@pytest.mark.parametrize(("option", "card"), [("aces_on_side_stacks", "AS"), ("wilds_on_side_stacks", "KS")])
def test_aces_or_wilds_may_not_be_discarded(option: str, card: str) -> None:
    g = lay("standard", {option: False}, hands=[[card, card], []], centre=[["AH"], ["AD"], ["AC"], ["AH"]])
    assert not [m for m in g.legal_moves() if m.kind == "discard"]
    assert END in g.legal_moves()  # nothing may be discarded: the turn ends without one
    g.apply(END)
    assert g.turn == 1


def test_compulsory_aces_must_be_played_first() -> None:
    g = lay("cat_and_mouse", payoff=[["5C", "AD"], ["5D", "9H"]], hands=[["AS", "7H", "8H", "9D", "10D"], []])
    moves = g.legal_moves()
    assert {g.deck.code(m.card) for m in moves if m.card is not None} == {"AS", "AD"}
    assert all(m.kind == "play" for m in moves)
    with pytest.raises(IllegalMove, match="must first play your Ace"):
        g.apply(discard(g, "7H", "side:0:0"))
    g.apply(play(g, "AS", "hand", "centre:0"))
    g.apply(play(g, "AD", "payoff:0", "centre:1"))
    assert "discard" in kinds(g)


def test_compulsory_aces_twos_from_payoff_and_side_but_not_hand_or_wilds() -> None:
    g = lay("book", payoff=[["5C", "2D"], ["5D", "9H"]], hands=[["AS", "7H", "8H", "9D", "2H"], []],
            side=[[["KS"], [], [], []], [[], [], [], []]], centre=[["AC"]])
    moves = g.legal_moves()
    assert {(g.deck.code(m.card), m.src) for m in moves if m.card is not None} == {("2D", "payoff:0")}
    g.apply(play(g, "2D", "payoff:0", "centre:0"))
    assert "discard" in kinds(g)  # the hand's Ace and 2 and the wild King are not forced


def test_load_opponent_same_suit_one_rank_apart() -> None:
    g = lay("standard", {"load_opponent": True}, payoff=[["5C", "8H"], ["2D", "9H"]],
            hands=[["10H", "8S", "JC", "QD", "QS"], []], side=[[["8D"], [], [], []], [[], [], [], []]])
    loads = {(g.deck.code(m.card), m.src, m.dst) for m in g.legal_moves() if m.kind == "load"}
    assert loads == {("10H", "hand", "payoff:1"), ("8H", "payoff:0", "payoff:1")}
    g.apply(load(g, "8H", "payoff:0", "payoff:1"))
    assert codes(g, g.payoff[1]) == ["2D", "9H", "8H"] and codes(g, g.payoff[0]) == ["5C"]


def test_massachusetts_side_stacks_start_filled_and_must_be_refilled() -> None:
    g = Game.deal(make_options("massachusetts"), "mass")
    assert all(len(st) == 1 for sides in g.side for st in sides)
    assert len(g.payoff[0]) == 14
    g = lay("massachusetts", hands=[["3C", "QS", "QD", "QH", "JC"], []],
            side=[[["AH"], [], ["9C"], []], [["8D"], ["8D"], ["8H"], ["8H"]]])
    assert targets(g, "3C", "discard") == {"side:0:1", "side:0:3"}  # fill the empty ones first
    with pytest.raises(IllegalMove, match="fill your empty side stacks first"):
        g.apply(discard(g, "3C", "side:0:2"))
    g.apply(discard(g, "3C", "side:0:1"))
    assert g.turn == 0  # a fill does not end the turn
    g.apply(discard(g, "QS", "side:0:3"))
    assert g.turn == 0
    g.apply(discard(g, "QD", "side:0:0"))  # now the final discard
    assert g.turn == 1


def test_massachusetts_hand_emptied_by_fills_draws_five() -> None:
    g = lay("massachusetts", hands=[["3C", "QS"], []], side=[[[], [], ["9C"], ["9D"]], [[], [], [], []]])
    g.apply(discard(g, "3C", "side:0:0"))
    g.apply(discard(g, "QS", "side:0:1"))
    assert g.turn == 0 and len(g.hands[0]) == 5


def test_stalemate_end_fewest_payoff_cards_scores_the_difference() -> None:
    g = lay("standard", {"must_discard": False}, payoff=[["2C", "3C"], ["2D", "3D", "4D", "5D"]],
            hands=[["9C"] * 1, ["9D"]])
    g.apply(END)
    g.apply(END)
    assert g.outcome is not None and g.outcome.reason == "stalemate"
    assert g.outcome.winners == (0,) and g.outcome.scores == (2, 0)


def test_stalemate_redeal_shuffles_all_but_payoff_piles_then_a_second_stalemate_ends() -> None:
    g = lay("standard", {"must_discard": False, "stalemate": "redeal"},
            payoff=[["2C", "3C"], ["2D", "3D", "4D", "5D"]], hands=[["9C"], ["9D"]],
            side=[[["8C"], [], [], []], [[], [], [], []]], centre=[["AH"]])
    total = sorted(g.all_cards())
    g.apply(END)
    g.apply(END)
    assert g.outcome is None
    assert [len(h) for h in g.hands] == [5, 5] and g.centre == [[], [], [], []]
    assert all(st == [] for sides in g.side for st in sides)
    assert sorted(g.all_cards()) == total and len(g.payoff[1]) == 4
    g.apply(END)
    g.apply(END)
    assert g.outcome is not None and g.outcome.reason == "stalemate"


def test_winner_bonus() -> None:
    g = lay("standard", {"winner_bonus": 10}, payoff=[["2C"], ["5C", "9H"]], hands=[["AS"], []])
    g.apply(play(g, "AS", "hand", "centre:0"))
    g.apply(play(g, "2C", "payoff:0", "centre:0"))
    assert g.outcome is not None and g.outcome.scores == (12, 0)


def test_separate_packs_deal_payoff_piles_from_pack_a() -> None:
    o = make_options("book")
    g = Game.deal(o, "book-deal")
    pack_a = set(range(52))
    assert set(g.payoff[0] + g.payoff[1]) == pack_a
    assert all(g.deck.rank[c] != 14 for p in g.payoff for c in p)
    rest = g.hands[0] + g.hands[1] + g.stock
    assert len(rest) == 52 + 4 and sum(g.deck.rank[c] == 14 for c in rest) == 4


def test_first_player_lowest_deals_next_seat_starts() -> None:
    o = make_options("standard", {"first_player": "lowest_deals", "players": 3})
    g = Game.layout(o, payoff=[["9C"], ["3C"], ["QH"]], hands=[[], [], []])
    from app.engine.deal import choose_first
    assert choose_first(g) == 2  # seat 1 has the lowest card and deals; seat 2 starts
    o = make_options("standard", {"players": 3})
    g = Game.layout(o, payoff=[["9C"], ["3C"], ["QH"]], hands=[[], [], []])
    assert choose_first(g) == 2  # the highest card starts
    g = Game.layout(o, payoff=[["9C"], ["KS"], ["QH"]], hands=[[], [], []])
    assert choose_first(g) == 1  # a King counts highest


def test_first_player_tie_reshuffles_only_the_tied_piles() -> None:
    o = make_options("standard", {"players": 3})
    g = Game.layout(o, payoff=[["2C", "5H", "QC"], ["3C", "4C", "2D"], ["9D", "6S", "QH"]], hands=[[], [], []])
    from app.engine.deal import choose_first
    before = [p[:] for p in g.payoff]
    first = choose_first(g)
    assert first in (0, 2) and g.payoff[1] == before[1]  # seat 1 was not tied: untouched
    assert sorted(g.payoff[0]) == sorted(before[0]) and sorted(g.payoff[2]) == sorted(before[2])
    assert g.payoff[0] != before[0] or g.payoff[2] != before[2]  # the tied piles were reshuffled


def test_teams_pairs_partner_piles_are_playable_and_both_must_go_out() -> None:
    o_over = {"players": 4, "teams": "pairs"}
    g = lay("standard", o_over, payoff=[["2C"], ["9H", "JH"], ["3C", "AC"], ["9S", "JS"]],
            hands=[["AS", "QD", "QH", "JC", "10C"], [], [], []],
            side=[[[], [], [], []], [[], [], [], []], [["KD"], [], [], []], [[], [], [], []]])
    assert g.team_seats[0] == (0, 2)
    srcs = {m.src for m in g.legal_moves() if m.kind == "play"}
    assert {"payoff:2", "hand"} <= srcs and "payoff:1" not in srcs
    assert not [m for m in g.legal_moves() if m.kind == "discard" and not m.dst.startswith("side:0:")]
    g.apply(play(g, "AC", "payoff:2", "centre:0"))
    g.apply(play(g, "2C", "payoff:0", "centre:0"))
    assert g.outcome is None  # the partner still has a card
    assert "side:2:0" in {m.src for m in g.legal_moves()}  # the partner's side stack top too
    g.apply(play(g, "3C", "payoff:2", "centre:0"))
    assert g.outcome is not None and g.outcome.winners == (0, 2)
    assert g.outcome.scores == (9, 0, 9, 0)  # 5 + 2 + 2 for both partners
    assert centre_codes(g)[0] == ["AC", "2C", "3C"]


def test_a_load_neither_hides_nor_fakes_a_payoff_play_since_a_redeal() -> None:
    """The repro of the audit: after a redeal, a pay-off play plus a load must let the next
    stalemate redeal again; a load alone must end the hand at the next stalemate."""
    from app.engine import Game, Match, Move

    o = make_options("standard", {"must_discard": False, "stalemate": "redeal", "load_opponent": True})

    def after_a_redeal() -> Match:
        g = Game.layout(o, payoff=[["9D", "QD", "AD"], ["9H", "JH", "5H"]],
                        hands=[["5C", "6C", "7C", "8C", "9S"], ["2H", "3H", "4H", "10S", "6D"]], turn=0, seed="r0")
        m = Match.of_position(g)
        m.apply(Move("end_turn"))
        m.apply(Move("end_turn"))  # both pass: the first stalemate redeals
        assert g.outcome is None and g.turn == 0 and g.deck.code(g.payoff[0][-1]) == "AD"
        return m

    def card(m: Match, code: str) -> int:
        return next(c for c in [*m.game.hands[0], *m.game.payoff[0]] if m.game.deck.code(c) == code)

    def three_passes(m: Match) -> None:
        for _ in range(3):
            if m.game.outcome is None:
                m.apply(Move("end_turn"))

    played = after_a_redeal()
    played.apply(Move("play", card(played, "AD"), "payoff:0", "centre:0"))
    played.apply(Move("load", card(played, "4H"), "hand", "payoff:1"))
    three_passes(played)
    assert played.game.outcome is None, "a pay-off card was played since the redeal: the stalemate redeals"
    loaded = after_a_redeal()
    loaded.apply(Move("load", card(loaded, "4H"), "hand", "payoff:1"))
    three_passes(loaded)
    assert loaded.game.outcome is not None and loaded.game.outcome.reason == "stalemate", "a load is no pay-off play"
