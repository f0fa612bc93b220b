"""The observer: each receiver sees only what docs/rules.md lets it know, in views, events,
seeds, replays and hand summaries."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    PRESETS,
    Game,
    Match,
    MatchStatus,
    Move,
    UnknownEvent,
    events_for,
    events_same_for_all,
    hand_summary,
    make_options,
    omniscient_view,
    replay_open,
    seed_if_over,
    seed_revealed,
    view,
)
from app.engine.moves import PAYOFF, parse_pile
from app.engine.observer import EVENT_RULES
from app.engine.state import GameState


def card_ids(obj: Any) -> set[int]:
    """Every card id anywhere in a JSON value (cards are the dicts with an 'id' and a 'rank')."""
    found: set[int] = set()
    todo = [obj]  # a walk without recursion: property tests call this on every view of every step
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            if "id" in value and "rank" in value:
                found.add(value["id"])
            todo.extend(v for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            todo.extend(v for v in value if isinstance(v, (dict, list)))
    return found


def knowable(g: GameState, seat: int | None) -> set[int]:
    """The cards `seat` may know: its hand, every pay-off top, side stacks (their tops only
    under `side_stacks_shown=squared`, and `peek` but for the seat's own) and centre."""
    out = set(g.hands[seat]) if seat is not None else set()
    shown = g.opts.side_stacks_shown
    for s in range(g.n):
        if g.payoff[s]:
            out.add(g.payoff[s][-1])
        for stack in g.side[s]:
            whole = shown == "spread" or (shown == "peek" and s == seat)
            out |= set(stack if whole else stack[-1:])
    for stack in g.centre:
        out |= set(stack)
    return out


def check_views(m: Match) -> None:
    g = m.game
    for seat in [None, *range(g.n)]:
        v = view(m, seat)
        assert card_ids(v) <= knowable(g, seat), f"view for {seat} shows a card it may not know"
        assert v["you"] == seat
        assert [p["hand_count"] for p in v["players"]] == [len(h) for h in g.hands]
        assert [p["payoff_count"] for p in v["players"]] == [len(p) for p in g.payoff]
        assert v["stock_count"] == len(g.stock)
        if g.outcome is None:
            assert not seed_revealed(m.status)
            text = str(v)
            assert v["result"] is None and "seed" not in text and g.seed not in text
        else:
            assert seed_revealed(m.status) and v["result"]["seed"] == g.seed
        if seat is None or seat != g.turn or g.outcome is not None:
            assert v["legal_moves"] == []
        else:
            assert v["legal_moves"] == [mv.to_wire() for mv in g.legal_moves()]


def check_events(m: Match, events: list[dict[str, Any]], card: int | None) -> None:
    """The events of one change, right after it: every receiver gets the same list, and it
    holds no card that receiver may not know now (`card`: the card the move put face up,
    which a completed stack may already have shuffled into the stock)."""
    g = m.game
    assert events_same_for_all(events)
    public = knowable(g, None) | ({card} if card is not None else set())
    for seat in [None, *range(g.n)]:
        mine = events_for(events, seat)
        assert mine == events, f"events for {seat} differ from the public list"
        leaked = card_ids(mine) - public - (set(g.hands[seat]) if seat is not None else set())
        assert not leaked, f"events for {seat} show cards {sorted(leaked)} it may not know"


def check_hand_end(m: Match) -> None:
    """`hand_summary` of a hand that just ended equals what the public view says."""
    public = view(m, None)
    summary = hand_summary(m)
    assert summary.number == public["hand_number"] == len(m.hands)
    assert summary.result == public["result"]
    assert summary.points == public["result"]["scores"] == m.hand_scores[-1]
    assert summary.totals == public["totals"] == m.totals
    assert summary.payoff_left == [p["payoff_count"] for p in public["players"]]


def greedy_move(g: Game, rng: random.Random) -> Move:
    """A pay-off play if there is one, else mostly a centre play: hands that are won and
    scored, where uniformly random moves mostly run the stock out."""
    moves = g.legal_moves()
    pay = [mv for mv in moves if mv.kind == "play" and mv.src is not None and parse_pile(mv.src).zone == PAYOFF]
    plays = [mv for mv in moves if mv.kind == "play"]
    if pay:
        return rng.choice(pay)
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    return rng.choice(moves)


def play_match(m: Match, seed: str, rng: random.Random, max_hands: int = 3, greedy: bool = False) -> set[str]:
    """Deal and play legal moves (random, or `greedy_move`) to the end of the match (or
    `max_hands` hands), checking views, events and hand summaries at every step; returns the
    event types seen."""
    seen: set[str] = set()
    while m.status != MatchStatus.MATCH_OVER and len(m.hands) < max_hands:
        events = m.deal(f"{seed}-{len(m.hands)}")
        check_events(m, events, None)
        with pytest.raises(ValueError):
            hand_summary(m)
        while m.status == MatchStatus.PLAYING:
            check_views(m)
            move = greedy_move(m.game, rng) if greedy else rng.choice(m.game.legal_moves())
            events = m.apply(move, seat=m.game.turn)
            seen |= {e["type"] for e in events}
            check_events(m, events, move.card)
        check_views(m)
        check_hand_end(m)
    return seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), pairs=st.booleans(), greedy=st.booleans())
def test_every_step_of_random_matches_keeps_hidden_cards_hidden(preset: str, seed: int, players: int,
                                                                 pairs: bool, greedy: bool) -> None:
    o = make_options(preset, {"players": players, "teams": "pairs" if pairs and players == 4 else "none",
                              "match_target": 12})
    play_match(Match(o), f"obs-{seed}", random.Random(seed), greedy=greedy)


def test_every_event_type_the_engine_emits_is_classified() -> None:
    """A new event type must get its rule in EVENT_RULES before it ships (else it is refused)."""
    engine = Path(__file__).resolve().parents[2] / "app" / "engine"
    emitted = set()
    for path in engine.glob("*.py"):
        emitted |= set(re.findall(r'\{"type": "(\w+)"', path.read_text()))
    assert emitted >= {"deal", "play", "reveal", "discard", "turn", "draw", "hand_over"}
    assert emitted <= set(EVENT_RULES), f"unclassified: {sorted(emitted - set(EVENT_RULES))}"


def test_unknown_events_are_refused_not_passed_on() -> None:
    secret = [{"type": "turn", "seat": 0}, {"type": "peek", "seat": 1, "cards": [1, 2]}]
    for seat in (None, 0, 1):
        with pytest.raises(UnknownEvent):
            events_for(secret, seat)
    with pytest.raises(UnknownEvent):
        events_same_for_all(secret)
    with pytest.raises(UnknownEvent):
        events_for([{"seat": 1}], None)
    assert events_for([], 0) == [] and events_same_for_all([])


def test_seeds_show_only_once_their_hand_is_over() -> None:
    for status in MatchStatus:
        assert seed_revealed(status) == (status in (MatchStatus.HAND_OVER, MatchStatus.MATCH_OVER))
        assert seed_revealed(status.value) == seed_revealed(status)  # the store keeps plain strings
    assert seed_if_over("s33d", True) == "s33d" and seed_if_over("s33d", False) is None
    m = Match(make_options("standard", {"match_target": 100}))
    m.deal("seed-hand-1")
    rng = random.Random(4)
    while m.status == MatchStatus.PLAYING:
        assert "seed-hand-1" not in repr([view(m, s) for s in (None, 0, 1)])
        m.apply(rng.choice(m.game.legal_moves()))
    assert m.status == MatchStatus.HAND_OVER
    assert all(view(m, s)["result"]["seed"] == "seed-hand-1" for s in (None, 0, 1))
    m.deal("seed-hand-2")
    assert "seed-hand-2" not in repr([view(m, s) for s in (None, 0, 1)])


def test_replays_open_only_when_the_match_is_over() -> None:
    for status in MatchStatus:
        assert replay_open(status) == (status == MatchStatus.MATCH_OVER)
        assert replay_open(status.value) == replay_open(status)


def test_hand_summary_of_each_hand_of_a_match() -> None:
    m = Match(make_options("standard", {"match_target": 200, "payoff_size": 8}), ["Ann", "Bob"])
    play_match(m, "summary", random.Random(1), max_hands=3, greedy=True)
    assert len(m.hands) == 3 and m.status == MatchStatus.HAND_OVER
    assert all(sum(points) > 0 for points in m.hand_scores)  # won hands, not drawn ones
    summary = hand_summary(m)
    assert summary.number == 3 and summary.totals == [sum(h[s] for h in m.hand_scores) for s in (0, 1)]
    assert summary.points == m.hand_scores[-1] != summary.totals
    assert summary.result["match_over"] is False and summary.result["match_winners"] == []
    assert summary.payoff_left == [len(p) for p in m.game.payoff] and 0 in summary.payoff_left


def test_views_hide_hands_payoff_and_stock() -> None:
    m = Match(make_options("standard", {"players": 3}), ["Ann", "Bob", "Cy"])
    m.deal("views")
    g = m.game
    v1 = view(m, 1)
    assert [c["id"] for c in v1["hand"]] == g.hands[1]
    assert v1["players"][0]["payoff_top"]["id"] == g.payoff[0][-1]
    assert "stock" not in v1 and all("hand" not in p and "payoff" not in p for p in v1["players"])
    assert view(m, None)["hand"] == []
    check_views(m)


def test_spectator_and_players_over_a_whole_game() -> None:
    m = Match(make_options("short", {"players": 4, "teams": "pairs"}))
    m.deal("views-game")
    rng = random.Random(9)
    while m.status == "playing":
        check_views(m)
        m.apply(rng.choice(m.game.legal_moves()))
    check_views(m)
    result = view(m, 0)["result"]
    assert result["seed"] == "views-game" and result["reason"] in ("payoff_out", "stock_out", "stalemate")


def test_omniscient_view_shows_every_card() -> None:
    m = Match(make_options())
    m.deal("all")
    g = m.game
    v = omniscient_view(m)
    assert card_ids(v) == set(range(g.deck.size))
    assert [c["id"] for c in v["stock"]] == g.stock
    assert [c["id"] for c in v["players"][0]["payoff"]] == g.payoff[0]


def test_view_shape_matches_the_protocol() -> None:
    m = Match(make_options("standard", {"match_target": 50}), ["Ann", "Bob"])
    m.deal("shape")
    v = view(m, 0, connected=[True, False])
    for key in ["you", "turn", "status", "stock_count", "centre", "players", "hand", "legal_moves",
                "result", "options", "deal_commitment"]:
        assert key in v
    p = v["players"][1]
    assert set(p) >= {"name", "team", "hand_count", "payoff_count", "payoff_top", "side", "connected", "score"}
    assert p["connected"] is False and p["name"] == "Bob" and len(p["side"]) == 4
    assert len(v["centre"]) == 4 and v["options"]["match_target"] == 50
    assert v["deal_commitment"] == m.deal_commitment and len(v["deal_commitment"]) == 64
