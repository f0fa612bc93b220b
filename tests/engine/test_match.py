"""Match play: versions, hands to a target, totals, replay and who may move."""

from __future__ import annotations

import random

import pytest

from app.engine import BadMove, HandOver, Match, MatchStatus, Move, NotYourTurn, make_options
from app.engine import match as match_module
from app.engine.moves import CENTRE, HAND, PAYOFF, SIDE, Pile, parse_pile


def play_hand(m: Match, rng: random.Random) -> None:
    while m.status == MatchStatus.PLAYING:
        g = m.game
        m.apply(rng.choice(g.legal_moves()), seat=g.turn)


def test_version_counts_moves_and_deals() -> None:
    m = Match(make_options("short", {"match_target": 10_000}))
    assert m.v == -1
    m.deal("h1")
    assert m.v == 0 and m.status == MatchStatus.PLAYING
    rng = random.Random(3)
    play_hand(m, rng)
    moves = len(m.hands[0].moves)
    assert m.v == moves and m.status == MatchStatus.HAND_OVER
    m.deal("h2")
    assert m.v == moves + 1


def test_single_game_is_a_match_of_one_hand() -> None:
    m = Match(make_options("short"))
    m.deal("one")
    play_hand(m, random.Random(1))
    assert m.status == MatchStatus.MATCH_OVER
    with pytest.raises(HandOver):
        m.deal("two")


def test_match_goes_on_until_a_target_and_totals_add_up() -> None:
    o = make_options("short", {"match_target": 25, "stock_out": "fewest_wins"})
    m = Match(o, ["Ann", "Bob"])
    rng = random.Random(11)
    hand = 0
    while m.status != MatchStatus.MATCH_OVER:
        m.deal(f"hand-{hand}")
        hand += 1
        play_hand(m, rng)
        assert len(m.hand_scores) == hand
    assert max(m.totals) >= 25
    assert [sum(col) for col in zip(*m.hand_scores, strict=True)] == m.totals
    assert m.winners == [m.totals.index(max(m.totals))]
    assert hand > 1


def test_every_match_ends_after_max_hands_on_the_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    """A target that cannot be reached does not make a match endless (hardening 3, #1): after
    `MAX_HANDS` hands it is over and the highest total wins; a replay ends it the same way."""
    monkeypatch.setattr(match_module, "MAX_HANDS", 3)
    m = Match(make_options("short", {"match_target": 10_000}), ["Ann", "Bob"])
    rng = random.Random(5)
    for hand in range(3):
        assert m.status != MatchStatus.MATCH_OVER
        m.deal(f"cap-{hand}")
        play_hand(m, rng)
    assert m.status == MatchStatus.MATCH_OVER and max(m.totals) < 10_000
    best = max(m.totals)
    assert m.winners == [s for s, t in enumerate(m.totals) if t == best]
    with pytest.raises(HandOver):
        m.deal("cap-3")
    again = Match.replay(m.options, m.names, m.hands)
    assert again.status == MatchStatus.MATCH_OVER and again.totals == m.totals


def test_not_your_turn_and_hand_over_change_nothing() -> None:
    m = Match(make_options())
    m.deal("turns")
    g = m.game
    other = 1 - g.turn
    move = g.legal_moves()[0]
    with pytest.raises(NotYourTurn):
        m.apply(move, seat=other)
    assert m.v == 0 and m.hands[0].moves == []
    m.apply(move, seat=g.turn)
    assert m.v == 1


def test_malformed_wire_moves_are_bad_moves() -> None:
    for bad in [None, [], {"kind": "fly"}, {"kind": "play", "card": "x", "from": "hand", "to": "centre:0"},
                {"kind": "play", "card": True, "from": "hand", "to": "centre:0"},
                {"kind": "discard", "card": 3}, {"kind": "play", "card": 3, "to": "centre:0"}]:
        with pytest.raises(BadMove):
            Move.from_wire(bad)


def test_wire_round_trip() -> None:
    m = Match(make_options("cat_and_mouse"))
    m.deal("wire")
    for move in m.game.legal_moves():
        assert Move.from_wire(move.to_wire()) == move
    assert Move.from_wire({"kind": "end_turn", "card": 5, "extra": 1}) == Move("end_turn")


def test_pile_names_parse_and_format_as_one_pair() -> None:
    assert parse_pile("hand") == Pile(HAND) and parse_pile("payoff:3") == Pile(PAYOFF, 3)
    assert parse_pile("side:1:2") == Pile(SIDE, 1, 2) and parse_pile("centre:4") == Pile(CENTRE, -1, 4)
    m = Match(make_options("massachusetts", {"players": 4, "load_opponent": True}))
    m.deal("piles")
    g = m.game
    names = {"hand", *g.payoff_names, *(n for seat in g.side_names for n in seat), "centre:0", "centre:12"}
    names |= {pile for mv in g.legal_moves() for pile in (mv.src, mv.dst) if pile is not None}
    for name in names:
        assert parse_pile(name).name == name
    for bad in ["", "hands", "payoff", "payoff:x", "side:1", "side:1:2:3", "centre:1:2", "stock:0"]:
        with pytest.raises(BadMove):
            parse_pile(bad)


@pytest.mark.parametrize("preset", ["standard", "cat_and_mouse", "massachusetts"])
def test_replay_reproduces_every_step(preset: str) -> None:
    o = make_options(preset, {"match_target": 30})
    m = Match(o)
    rng = random.Random(5)
    snapshots = {}
    hand = 0
    while m.status != MatchStatus.MATCH_OVER and hand < 3:
        m.deal(f"r{hand}")
        hand += 1
        while m.status == MatchStatus.PLAYING:
            snapshots[m.v] = (repr(m.game.payoff), repr(m.game.hands), repr(m.game.stock), m.game.turn)
            m.apply(rng.choice(m.game.legal_moves()))
    for v in sorted(snapshots)[:: max(1, len(snapshots) // 25)]:
        r = Match.replay(o, None, m.hands, upto=v)
        assert r.v == v
        assert (repr(r.game.payoff), repr(r.game.hands), repr(r.game.stock), r.game.turn) == snapshots[v]
    full = Match.replay(o, None, m.hands)
    assert full.v == m.v and full.totals == m.totals and full.status == m.status


def test_replay_builds_no_events_but_the_rebuilt_match_records_them() -> None:
    o = make_options("short")
    m = Match(o)
    m.deal("events")
    rng = random.Random(2)
    for _ in range(10):
        m.apply(rng.choice(m.game.legal_moves()))
    r = Match.replay(o, None, m.hands)
    assert r.game.events == []
    events = r.apply(rng.choice(r.game.legal_moves()))
    assert events and events[0]["type"] in ("play", "discard", "end_turn")
    quiet = Match(o, record_events=False)
    assert quiet.deal("q") == [] and quiet.apply(quiet.game.legal_moves()[0]) == []
