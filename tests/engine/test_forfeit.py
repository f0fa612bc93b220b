"""A forfeit (docs/rules.md, "Forfeit"): a match-level move of the seat to move, never a legal
move of the hand, that ends the match as a loss for that seat's team; recorded in the move log
like any move, so a replay rebuilds the forfeited match exactly. A resign ("Resign") is the same
move naming its seat, which may give up on any turn."""

from __future__ import annotations

import random

import pytest

from app.engine import Match, MatchStatus, Move, NotYourTurn, make_options, view
from app.engine.moves import FORFEIT, RESIGN, resign
from app.engine.observer import events_for


def _started(preset: str, overrides: dict[str, object], seats: int, moves: int) -> Match:
    m = Match(make_options(preset, {**overrides, "players": seats}))
    m.deal("forfeit-seed")
    rng = random.Random(5)
    for _ in range(moves):
        if m.status != MatchStatus.PLAYING:
            break
        m.apply(rng.choice(m.game.legal_moves()), seat=m.game.turn)
    assert m.status == MatchStatus.PLAYING
    return m


def test_a_forfeit_ends_the_match_as_a_loss_for_the_seat_to_move() -> None:
    m = _started("short", {"match_target": 10_000}, 3, 12)
    seat, v, totals = m.game.turn, m.v, list(m.totals)
    assert RESIGN not in m.legal_moves()
    events = m.apply(RESIGN, seat=seat)
    assert m.v == v + 1 and m.status == MatchStatus.MATCH_OVER and m.forfeited == seat
    assert m.winners == [s for s in range(3) if s != seat]
    assert m.totals == totals, "nobody scores a forfeited hand"
    assert [e["type"] for e in events] == ["forfeit", "hand_over"]
    assert events[1]["reason"] == "forfeit" and events[1]["winners"] == m.winners
    assert view(m, seat)["result"]["match_winners"] == m.winners
    assert Move.from_wire({"kind": "forfeit"}) == RESIGN and RESIGN.to_wire() == {"kind": FORFEIT}


def test_partners_lose_together() -> None:
    m = _started("standard", {"teams": "pairs"}, 4, 6)
    seat = m.game.turn
    m.apply(RESIGN, seat=seat)
    partner = (seat + 2) % 4
    assert sorted(m.winners) == sorted(s for s in range(4) if s not in (seat, partner))


def test_a_forfeit_replays_exactly() -> None:
    m = _started("short", {"match_target": 10_000}, 2, 20)
    m.apply(RESIGN, seat=m.game.turn)
    again = Match.replay(m.options, m.names, m.hands)
    assert (again.v, again.status, again.forfeited, again.winners, again.totals) == \
        (m.v, m.status, m.forfeited, m.winners, m.totals)
    assert view(again, 0) == view(m, 0)
    before = Match.replay(m.options, m.names, m.hands, upto=m.v - 1)
    assert before.status == MatchStatus.PLAYING and before.forfeited is None


def test_only_the_seat_to_move_forfeits_and_only_while_playing() -> None:
    m = _started("short", {}, 2, 4)
    other = 1 - m.game.turn
    with pytest.raises(ValueError):
        m.apply(RESIGN, seat=other)
    assert m.status == MatchStatus.PLAYING and m.forfeited is None
    copy, _ = m.preview(RESIGN, m.game.turn)
    assert copy.status == MatchStatus.MATCH_OVER and m.status == MatchStatus.PLAYING, "a preview changes nothing"
    m.apply(RESIGN)
    with pytest.raises(ValueError):
        m.apply(RESIGN)
    g = _started("short", {}, 2, 4).game
    seat = g.turn
    g.apply(RESIGN)  # a hand replayed alone (achievements, logs) takes it too
    assert g.outcome is not None and g.outcome.reason == "forfeit" and g.outcome.winners == (1 - seat,)
    assert RESIGN not in g.legal_moves()


# --- a resign (docs/rules.md, "Resign"): the forfeit naming its seat, on any turn ---------------

def test_a_seat_resigns_off_its_turn_and_its_team_loses() -> None:
    m = _started("short", {"match_target": 10_000}, 3, 12)
    turn = m.game.turn
    quitter = (turn + 1) % 3
    v, totals = m.v, list(m.totals)
    move = resign(quitter)
    assert move not in m.legal_moves()
    events = m.apply(move, seat=quitter)
    assert m.v == v + 1 and m.status == MatchStatus.MATCH_OVER and m.forfeited == quitter
    assert m.winners == [s for s in range(3) if s != quitter]
    assert m.totals == totals, "nobody scores a resigned hand"
    assert [e["type"] for e in events] == ["resign", "hand_over"] and events[0]["seat"] == quitter
    assert events[1]["reason"] == "resign" and events[1]["winners"] == m.winners
    assert events_for(events, None) == events, "every receiver sees who resigned"
    assert view(m, quitter)["result"]["reason"] == "resign"
    assert m.hands[-1].moves[-1] == move


def test_a_resign_names_its_seat_on_the_wire_and_replays_exactly() -> None:
    assert resign(1).to_wire() == {"kind": FORFEIT, "from": "payoff:1"}
    assert Move.from_wire({"kind": "forfeit", "from": "payoff:1"}) == resign(1)
    m = _started("short", {"match_target": 10_000}, 2, 20)
    quitter = 1 - m.game.turn
    m.apply(resign(quitter), seat=quitter)
    again = Match.replay(m.options, m.names, m.hands)
    assert (again.v, again.status, again.forfeited, again.winners) == (m.v, m.status, quitter, [1 - quitter])
    assert view(again, 0) == view(m, 0)


def test_a_resign_is_only_its_own_seats() -> None:
    m = _started("short", {}, 2, 4)
    turn = m.game.turn
    with pytest.raises(NotYourTurn):
        m.apply(resign(turn), seat=1 - turn)  # nobody resigns for another seat
    for bad in ("side:0:0", "payoff:2", "payoff:-1", "centre:0", "hand", "nonsense"):
        with pytest.raises(ValueError):
            m.apply(Move(FORFEIT, src=bad))
    assert m.status == MatchStatus.PLAYING and m.forfeited is None, "a refused resign changes nothing"
    m.apply(resign(1 - turn))
    with pytest.raises(ValueError):
        m.apply(resign(turn))  # the match is over: nothing left to resign


def test_a_partner_resigns_for_the_team() -> None:
    m = _started("standard", {"teams": "pairs"}, 4, 6)
    quitter = (m.game.turn + 1) % 4  # not the seat to move
    m.apply(resign(quitter), seat=quitter)
    partner = (quitter + 2) % 4
    assert sorted(m.winners) == sorted(s for s in range(4) if s not in (quitter, partner))
