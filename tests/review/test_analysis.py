"""The review of decisions (pure): an obvious blunder is marked, Hard's own choice loses about
nothing, the review of a decision never depends on the cards hidden from that seat, and a
whole short match yields a decision per person move with an alternative, a chance after every
move for every seat, and luck only where cards showed."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from app.bots import choose_move
from app.bots.estimate import Budget
from app.engine import Game, Match, Move, make_options, view
from app.engine.moves import resign
from app.review import HandInput, MatchInput, MoveInput, Review, ReviewSettings, accuracy, mark, run
from app.review.analysis import judge, known_cards
from tests.bots.bot_helpers import hidden_part, reshuffle_hidden

SMALL = ReviewSettings(decision=Budget(samples=24), graph=Budget(samples=6), luck=Budget(samples=8))
TINY = ReviewSettings(decision=Budget(samples=6, turns=2), graph=Budget(samples=2, turns=2),
                      luck=Budget(samples=3, turns=2))


def winning_position() -> dict[str, Any]:
    """Seat 0's last pay-off card, the 5, fits the centre stack that needs a 5: playing it wins
    the hand; seat 1 is two cards from winning."""
    opts = make_options("standard", {"players": 2})
    g = Game.layout(opts, payoff=[["5H"], ["9D", "3C", "6C"]],
                    hands=[["9C", "9D", "QH", "8S", "7D"], ["KS", "5D", "QD", "JD", "2H"]],
                    centre=[["AS", "2S", "3S", "4S"]])
    return view(Match.of_position(g), 0)


def test_not_playing_the_winning_payoff_card_is_a_blunder() -> None:
    v = winning_position()
    discard = next(Move.from_wire(m) for m in v["legal_moves"] if m["kind"] == "discard")
    judged = judge(v, discard, SMALL)
    assert judged is not None
    assert judged["mark"] == "blunder", judged
    assert judged["best"]["from"] == "payoff:0"
    assert judged["chance_best"] == 1.0
    assert judged["loss"] >= 15


def _positions(count: int, seed: str) -> list[Match]:
    """Positions from a Normal-against-Normal hand, every few moves, at a decision of seat 0."""
    opts = make_options("standard", {"players": 2})
    m = Match(opts)
    m.deal(seed)
    out: list[Match] = []
    n = 0

    while m.status == "playing" and len(out) < count:
        seat = m.game.turn
        v = view(m, seat)
        if seat == 0 and n % 5 == 0 and len(v["legal_moves"]) > 2:
            out.append(copy.deepcopy(m))
        m.apply(Move.from_wire(choose_move(v, "normal", seed=n)), seat)
        n += 1
    return out


def test_hard_s_own_choice_loses_about_nothing() -> None:
    losses = []
    for m in _positions(6, "review-hard"):
        v = view(m, 0)
        move = Move.from_wire(choose_move(v, "hard", seed=3, iterations=120))
        judged = judge(v, move, SMALL)
        if judged is not None:
            losses.append(judged["loss"])
    assert len(losses) >= 4
    assert sum(losses) / len(losses) < 5.0, losses
    assert max(losses) < 15.0, losses


def test_the_review_of_a_decision_ignores_the_cards_hidden_from_that_seat() -> None:
    rng = random.Random(7)
    checked = 0
    for m in _positions(4, "review-honest"):
        v = view(m, 0)
        other = reshuffle_hidden(m, 0, rng)
        assert hidden_part(other, 0) != hidden_part(m, 0)
        w = view(other, 0)
        assert w == v
        played = Move.from_wire(v["legal_moves"][-1])
        assert judge(w, played, SMALL, 5) == judge(v, played, SMALL, 5)
        checked += 1
    assert checked >= 3


def test_different_hidden_cards_give_different_real_outcomes_but_the_same_judgement() -> None:
    """The judged chance is the seat's estimate, not the truth: it must not move when only the
    hidden cards do, even where the real continuation differs."""
    m = _positions(1, "review-truth")[0]
    v = view(m, 0)
    played = Move.from_wire(v["legal_moves"][0])
    base = judge(v, played, SMALL, 1)
    for k in range(3):
        other = reshuffle_hidden(m, 0, random.Random(k))
        assert judge(view(other, 0), played, SMALL, 1) == base


@pytest.mark.parametrize("loss,expected", [(0.0, None), (4.9, None), (5.0, "inaccuracy"), (9.9, "inaccuracy"),
                                           (10.0, "mistake"), (14.9, "mistake"), (15.0, "blunder"), (80, "blunder")])
def test_marks_start_at_5_10_and_15_points(loss: float, expected: str | None) -> None:
    assert mark(loss) == expected


def test_accuracy_is_100_for_no_loss_and_falls_with_loss() -> None:
    assert accuracy([]) is None
    assert accuracy([0.0, 0.0]) == 100.0
    assert 40 < (accuracy([15.0]) or 0) < 55
    assert (accuracy([30.0]) or 100) < (accuracy([10.0]) or 0)


def _short_match(people: frozenset[int]) -> MatchInput:
    opts = make_options("standard", {"players": 2, "payoff_size": 5})
    m = Match(opts)
    m.deal("review-short")
    moves: list[MoveInput] = []
    while m.status == "playing":
        seat = m.game.turn
        move = Move.from_wire(choose_move(view(m, seat), "normal", seed=m.v))
        m.apply(move, seat)
        moves.append(MoveInput(m.v, seat, move, "player" if seat in people else "bot"))
    return MatchInput(opts, ("Ann", "Bot"), (HandInput(1, "review-short", None, tuple(moves)),), people)


def test_a_whole_hand_review() -> None:
    match = _short_match(frozenset({0}))
    review = Review(match, TINY)
    shares = list(review.steps())
    assert shares[-1] == 1.0 and shares == sorted(shares)
    out = review.result()
    moves = match.hands[0].moves
    # every decision is seat 0's (the person), at a move it made
    assert out["decisions"] and {d["seat"] for d in out["decisions"]} == {0}
    assert {d["v"] for d in out["decisions"]} <= {mv.v for mv in moves if mv.seat == 0}
    # a chance for each seat at the deal and after every move; the last one is the result
    assert len(out["chances"]) == 2 * (len(moves) + 1)
    last = [c for c in out["chances"] if c["v"] == moves[-1].v]
    assert sorted(c["chance"] for c in last) == [0.0, 1.0]
    assert [x["seat"] for x in out["luck"]] == [0, 1]
    assert out["summary"][0]["seat"] == 0 and out["summary"][0]["decisions"] == len(out["decisions"])
    for d in out["decisions"]:
        assert 0 <= d["chance_played"] <= d["chance_best"] <= 1
        assert d["loss"] == pytest.approx(100 * (d["chance_best"] - d["chance_played"]), abs=0.11)


def test_bots_moves_are_not_judged_and_the_same_seed_repeats_the_review() -> None:
    match = _short_match(frozenset())
    out = run(match, TINY)
    assert out["decisions"] == [] and out["summary"] == []
    assert run(match, TINY) == out


def test_known_cards_are_what_the_view_shows() -> None:
    v = winning_position()
    shown = known_cards(v)
    assert {int(c["id"]) for c in v["hand"]} <= shown
    assert int(v["players"][1]["payoff_top"]["id"]) in shown
    assert len(shown) == 5 + 2 + 4


def test_a_match_of_two_hands_is_reviewed_hand_by_hand() -> None:
    opts = make_options("standard", {"players": 2, "payoff_size": 5, "match_target": 100})
    m = Match(opts)
    hands = []
    for number, seed in ((1, "two-hands-1"), (2, "two-hands-2")):
        m.deal(seed)
        start = m.v
        moves: list[MoveInput] = []
        while m.status == "playing":
            seat = m.game.turn
            move = Move.from_wire(choose_move(view(m, seat), "easy", seed=m.v))
            m.apply(move, seat)
            moves.append(MoveInput(m.v, seat, move, "player"))
        hands.append((start, HandInput(number, seed, None, tuple(moves))))
    match = MatchInput(opts, ("Ann", "Bob"), tuple(h for _s, h in hands), frozenset({0, 1}))
    out = run(match, TINY)
    assert {x["hand"] for x in out["luck"]} == {1, 2}
    for start, hand in hands:  # each hand starts at its deal's version, and ends at its result
        points = [c for c in out["chances"] if c["hand"] == hand.number]
        assert min(c["v"] for c in points) == start
        assert sorted(c["chance"] for c in points if c["v"] == hand.moves[-1].v) == [0.0, 1.0]
    assert {d["seat"] for d in out["decisions"]} == {0, 1}


def test_a_resign_is_reviewed_as_the_match_s_end_not_judged_as_a_play() -> None:
    """A person's resign (docs/rules.md, "Resign"), here on their turn (where they had plays to
    choose from), ends the review's match at its result; it is no decision of play to judge."""
    opts = make_options("standard", {"players": 2, "payoff_size": 5})
    m = Match(opts)
    m.deal("review-resign")
    moves: list[MoveInput] = []
    while len(moves) < 6:
        seat = m.game.turn
        move = Move.from_wire(choose_move(view(m, seat), "easy", seed=m.v))
        m.apply(move, seat)
        moves.append(MoveInput(m.v, seat, move, "player"))
    quitter = m.game.turn
    assert len(m.legal_moves()) > 1
    m.apply(resign(quitter), quitter)
    moves.append(MoveInput(m.v, quitter, resign(quitter), "player"))
    match = MatchInput(opts, ("Ann", "Bob"), (HandInput(1, "review-resign", None, tuple(moves)),), frozenset({0, 1}))
    out = run(match, TINY)
    assert m.v not in {d["v"] for d in out["decisions"]}
    last = {c["seat"]: c["chance"] for c in out["chances"] if c["v"] == m.v}
    assert last == {quitter: 0.0, 1 - quitter: 1.0}
