"""Inference about the other hands (app/bots/belief.py): read from the public record of each
seat's last turn end, never ruling out what a player holds, and closer to what Normal players
hold than a uniform guess."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.bots import choose_move
from app.bots.belief import W_CLIMB, W_DUMP, Belief, card_weight, would_reach
from app.bots.knowledge import Knowledge
from app.engine import Game, Match, Move, make_options, view

MIXES = [
    ("standard", {}),
    ("book", {}),  # separate packs: pay-off cards come from their own pack
    ("standard", {"players": 4, "teams": "pairs"}),
    ("standard", {"players": 3, "side_stacks_shown": "squared"}),
]


def test_the_view_records_the_table_as_each_seat_closed_its_turn() -> None:
    opts = make_options("standard", {"players": 2})
    g = Game.layout(opts, payoff=[["2D", "5H"], ["3C", "8C"]], hands=[["9C", "9D", "QH", "8S", "7D"], ["2C"]],
                    centre=[["AS", "2S", "3S"], ["AH"]], stock=["4D", "5C", "6D", "7C", "8D", "9H"])
    m = Match.of_position(g)
    assert all(p["last_turn_end"] is None for p in view(m, 1)["players"])
    m.apply(Move.from_wire({"kind": "discard", "card": view(m, 0)["hand"][0]["id"], "to": "side:0:0"}), 0)
    ends = [p["last_turn_end"] for p in view(m, 1)["players"]]
    assert ends[1] is None
    assert ends[0] == {"centre_counts": [3, 1, 0, 0], "payoff_ranks": ["5", "8"]}
    assert view(m, 0)["players"] == view(m, 1)["players"]  # public: the same for every receiver


def test_a_card_that_fit_and_was_not_played_weighs_less() -> None:
    opts = make_options("standard", {"players": 2})
    # seat 1 closed its turn while the centre wanted a 4 and an 8, its pay-off top a 6
    g = Game.layout(opts, payoff=[["2D", "QH"], ["3C", "6C"]], hands=[["9C"], ["2C", "3D"]],
                    centre=[["AS", "2S", "3S"], ["AH"] + ["2H", "3H", "4H", "5H", "6H", "7H"]],
                    stock=["10D", "10C", "JD", "JS", "QD", "QS"])
    g.turn = 1
    m = Match.of_position(g)
    m.apply(Move.from_wire({"kind": "discard", "card": view(m, 1)["hand"][0]["id"], "to": "side:1:0"}), 1)
    v = view(m, 0)
    know = Knowledge.from_view(v)
    belief = Belief.from_view(v, know.template, 0)
    assert belief is not None
    ev = belief.evidence[1]
    deck = know.template.deck
    by_rank = {deck.code(c)[:-1]: card_weight(know.template, ev, c) for c in range(52)}
    assert by_rank["4"] == W_CLIMB  # would have climbed toward the 6
    assert by_rank["8"] == W_DUMP  # fit, above the 6: only emptied the hand
    assert by_rank["5"] == by_rank["9"] == 1.0
    assert all(card_weight(know.template, ev, c) == 1.0 for c in range(deck.size) if deck.wild[c])
    five = deck.ids_for_code("5D")[0]
    four = deck.ids_for_code("4D")[0]
    ten = deck.ids_for_code("10S")[0]
    assert would_reach(know.template, ev, [four, five])  # 4, 5 then the pay-off 6
    assert not would_reach(know.template, ev, [five, ten])


def _games(preset: str, overrides: dict[str, Any], seed: str, decisions: int) -> Any:
    """Positions of Normal games (the match and the view of the seat to move), every few moves."""
    opts = make_options(preset, overrides)
    for game in range(40):
        m = Match(opts)
        m.deal(f"{seed}-{game}")
        moves = 0
        while m.status == "playing" and moves < 600:
            seat = m.game.turn
            v = view(m, seat)
            if moves % 3 == 0:
                yield m, v
                decisions -= 1
                if decisions <= 0:
                    return
            m.apply(Move.from_wire(choose_move(v, "normal", seed=moves)), seat)
            moves += 1


@pytest.mark.parametrize("preset,overrides", MIXES)
def test_the_belief_never_rules_out_a_hand_and_always_samples(preset: str, overrides: dict[str, Any]) -> None:
    rng = random.Random(3)
    with_evidence = 0
    for m, v in _games(preset, overrides, "belief-" + preset, 120):
        g = m.game
        seat = g.turn
        know = Knowledge.from_view(v)
        belief = Belief.from_view(v, know.template, seat)
        if belief is None:
            continue
        for s in belief.evidence:
            with_evidence += 1
            assert all(belief.weights[s][c] > 0 for c in g.hands[s])  # the true hand can be drawn
        for _ in range(5):
            sample = know.template.copy()
            know.determinize(sample, rng, belief)
            assert Counter(sample.all_cards()) == Counter(g.all_cards())  # every card once
            assert [len(h) for h in sample.hands] == [len(h) for h in g.hands]
            assert sample.hands[seat] == g.hands[seat]
            assert [len(p) for p in sample.payoff] == [len(p) for p in g.payoff]
            assert [p[-1:] for p in sample.payoff] == [p[-1:] for p in g.payoff]
            assert len(sample.stock) == len(g.stock)
            if know.payoff_pack is not None:
                assert all(c in know.payoff_pack for p in sample.payoff for c in p)
    assert with_evidence >= 50


def test_the_belief_is_closer_to_what_normal_players_hold_than_a_uniform_guess() -> None:
    """Fitting cards left unplayed and hands that could have reached the pay-off card: counted in
    the true hands, in uniform samples and in samples from the belief."""
    rng = random.Random(9)
    true_fit = uniform_fit = believed_fit = 0.0
    true_reach = uniform_reach = believed_reach = 0.0
    n = 0
    for m, v in _games("standard", {}, "inference", 300):
        know = Knowledge.from_view(v)
        belief = Belief.from_view(v, know.template, m.game.turn)
        if belief is None:
            continue
        for s, ev in belief.evidence.items():
            def fits(hand: list[int]) -> int:
                return sum(card_weight(know.template, ev, c) < 1.0 for c in hand)  # noqa: B023
            true_fit += fits(m.game.hands[s])
            true_reach += would_reach(know.template, ev, m.game.hands[s])
            for _ in range(10):
                u = know.template.copy()
                know.determinize(u, rng)
                b = know.template.copy()
                know.determinize(b, rng, belief)
                uniform_fit += fits(u.hands[s]) / 10
                believed_fit += fits(b.hands[s]) / 10
                uniform_reach += would_reach(u, ev, u.hands[s]) / 10
                believed_reach += would_reach(b, ev, b.hands[s]) / 10
            n += 1
    assert n >= 150
    # Normal plays what fits: uniform guesses hold far too many such cards, the belief about as many
    assert uniform_fit > 2 * true_fit
    assert abs(believed_fit - true_fit) < 0.5 * abs(uniform_fit - true_fit)
    assert believed_reach < 0.4 * uniform_reach
