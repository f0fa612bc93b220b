"""The analysis board's pure core: the position at a version as one seat saw it, what-if moves
checked by the engine, and lines estimated from the view alone (no hindsight)."""

from __future__ import annotations

import random

import pytest

from app.analysis.core import BoardSettings, Illegal, Question, Record, answer, position, sampling_seed
from app.bots.estimate import Budget
from app.engine import Match, Move, make_options, view
from app.engine.options import options_json

QUICK = BoardSettings(budget=Budget(samples=24, ms=None))
OPTS = make_options("short", {"payoff_size": 5})


def _record(m: Match) -> Record:
    hands = tuple((h.seed, tuple(h.order) if h.order else None, tuple(h.moves)) for h in m.hands)
    return Record(options_json(m.options), tuple(m.names), hands, m.v)


def _played(seed: str = "board", moves: int = 40, order: list[int] | None = None) -> Match:
    m = Match(OPTS, ["Ann", "Bob"])
    m.deal(seed, order)
    rng = random.Random(7)
    while m.status == "playing" and m.v < moves:
        m.apply(rng.choice([x for x in m.legal_moves() if x.kind not in ("take_back", "forfeit")]))
    return m


def test_the_position_is_the_seats_view_at_that_version() -> None:
    m = _played()
    rec = _record(m)
    for v in (0, 5, 17):
        again = Match.replay(OPTS, ["Ann", "Bob"], m.hands, upto=v)
        for seat in (0, 1):
            got = answer(rec, Question(v, seat), QUICK)
            assert got["position"] == view(again, seat)
            assert "stock" not in got["position"] and got["position"]["you"] == seat
            if got["reason"] is None:
                assert got["legal_moves"] and 1 <= len(got["lines"]) <= 4
                assert all(line["move"] in got["legal_moves"] and 0 <= line["chance"] <= 1 for line in got["lines"])
                chances = [line["chance"] for line in got["lines"]]
                assert chances == sorted(chances, reverse=True)
            else:
                assert got["reason"] == "not_your_turn" and got["legal_moves"] == [] and got["lines"] == []


def _to_move(m: Match) -> tuple[Record, int, int]:
    rec = _record(m)
    v = 3
    again = Match.replay(OPTS, ["Ann", "Bob"], m.hands, upto=v)
    return rec, v, again.game.turn


def test_a_what_if_move_plays_on_the_real_deal_and_branches() -> None:
    rec, v, seat = _to_move(_played())
    first = answer(rec, Question(v, seat), QUICK)
    tried = Move.from_wire(first["legal_moves"][-1])
    after = answer(rec, Question(v, seat, (tried,)), QUICK)
    m = Match.replay(OPTS, ["Ann", "Bob"], [h for h in _played().hands], upto=v)
    m.apply(tried, seat)
    assert after["position"] == view(m, seat) and after["moves"] == [tried.to_wire()]
    other = Move.from_wire(first["legal_moves"][0])
    branch = answer(rec, Question(v, seat, (other,)), QUICK)
    assert branch["position"] != after["position"] or other == tried


def test_an_illegal_what_if_move_is_refused_with_the_engines_reason() -> None:
    rec, v, seat = _to_move(_played())
    seen = position(rec, Question(v, seat)).view
    held = {c["id"] for c in seen["hand"]}
    stranger = next(c for c in range(104) if c not in held)
    with pytest.raises(Illegal) as e:
        position(rec, Question(v, seat, (Move("discard", stranger, None, f"side:{seat}:0"),)))
    assert e.value.reason == "illegal_move" and e.value.move_reason == "discard_from_hand" and e.value.index == 0
    with pytest.raises(Illegal) as e:  # the other seat's move: not S's to try
        position(rec, Question(v, 1 - seat, (Move.from_wire(seen["legal_moves"][0]),)))
    assert e.value.move_reason == "not_your_turn"
    with pytest.raises(Illegal) as e:
        position(rec, Question(v, seat, (Move("take_back"),)))
    assert e.value.move_reason == "bad_move"


@pytest.mark.parametrize(("v", "seat", "reason"), [(-1, 0, "analysis_v_range"), (10_000, 0, "analysis_v_range"),
                                                   (2, 2, "analysis_seat_range"), (2, -1, "analysis_seat_range")])
def test_versions_and_seats_out_of_range_are_refused(v: int, seat: int, reason: str) -> None:
    with pytest.raises(Illegal) as e:
        position(_record(_played()), Question(v, seat))
    assert e.value.reason == reason


def test_a_move_that_ends_the_turn_leaves_no_lines() -> None:
    rec, v, seat = _to_move(_played())
    moves: list[Move] = []
    for _ in range(30):
        pos = position(rec, Question(v, seat, tuple(moves)))
        if pos.why_no_lines:
            break
        legal = [Move.from_wire(w) for w in pos.view["legal_moves"] if w["kind"] == "discard"]
        moves.append(legal[0] if legal else Move.from_wire(pos.view["legal_moves"][0]))
    got = answer(rec, Question(v, seat, tuple(moves)), QUICK)
    assert got["reason"] in ("not_your_turn", "hand_over") and got["lines"] == [] and got["legal_moves"] == []


def test_the_same_question_gets_the_same_answer() -> None:
    rec, v, seat = _to_move(_played())
    assert answer(rec, Question(v, seat), QUICK) == answer(rec, Question(v, seat), QUICK)


def _two_deals() -> tuple[list[int], list[int], int]:
    """Two deal orders that differ only in cards hidden from the seat that moves first: a card of
    the other seat's hand swapped with the bottom card of the stock."""
    order = _deck_order()
    probe = Match(OPTS, ["Ann", "Bob"])
    probe.deal("leak", order)
    g = probe.game
    seat = g.turn
    a, b = g.hands[1 - seat][0], g.stock[0]  # stock[0]: the bottom, drawn last
    swapped = [b if c == a else a if c == b else c for c in order]
    return order, swapped, seat


def _deck_order() -> list[int]:
    probe = Match(OPTS, ["Ann", "Bob"])
    probe.deal("size")
    order = list(range(probe.game.deck.size))
    random.Random(5).shuffle(order)
    return order


def test_answers_do_not_depend_on_cards_the_seat_cannot_see() -> None:
    """Leak test: the same lines, exactly, on two deals equal in all the seat sees."""
    order, swapped, seat = _two_deals()
    one, two = Match(OPTS, ["Ann", "Bob"]), Match(OPTS, ["Ann", "Bob"])
    one.deal("leak", order)
    two.deal("leak", swapped)
    assert one.game.hands[1 - seat] != two.game.hands[1 - seat] or one.game.stock != two.game.stock
    assert view(one, seat) == view(two, seat)
    settings = BoardSettings(budget=Budget(samples=64, ms=None))
    a = answer(_record(one), Question(0, seat), settings)
    b = answer(_record(two), Question(0, seat), settings)
    assert a["lines"] and a == b
    tried = Move.from_wire(next(w for w in a["legal_moves"] if w["kind"] != "discard") if any(
        w["kind"] != "discard" for w in a["legal_moves"]) else a["legal_moves"][0])
    if tried.kind != "discard":  # a play keeps the turn: the next answer is also blind to the swap
        assert answer(_record(one), Question(0, seat, (tried,)), settings) == \
            answer(_record(two), Question(0, seat, (tried,)), settings)


def test_the_seed_comes_from_what_the_seat_sees() -> None:
    rec, v, seat = _to_move(_played())
    seen = position(rec, Question(v, seat)).view
    assert sampling_seed(seen, ()) == sampling_seed({**seen, "deal_commitment": "other"}, ())
    assert sampling_seed(seen, ()) != sampling_seed(seen, (Move("end_turn"),))
