"""The room core's API (`room_core.handle` and `room_core.committed`): a decision never changes
the room; once committed, one call makes it true in memory and says what to deliver."""

from __future__ import annotations

from datetime import timedelta

from app.engine import MatchStatus, Move
from app.rooms.core import commands as C
from app.rooms.core.effects import CommitMove, Committed, Followed
from app.rooms.core.lobby import ChatLine
from app.rooms.core.match_rules import AskHint, Fresh, decide_seat_move
from app.rooms.core.model import Moment, Room
from app.rooms.core.room_core import ShowRoom, ShowTable, committed, handle

from .fakes import START
from .test_core import FRESH, GUEST, HOST, RULES, lobby, playing, to_move

AT = Moment(START, 100.0)


def _fresh() -> Fresh:
    return FRESH


def _a_move(room: Room) -> Move:
    m = room.match
    assert m is not None
    legal = m.engine.legal_moves()
    payoff = [mv for mv in legal if mv.kind == "play" and (mv.src or "").startswith("payoff")]
    plays = [mv for mv in legal if mv.kind == "play"]
    return (payoff or plays or legal)[0]


def _move(room: Room, move_id: str | None = None) -> CommitMove:
    m = room.match
    assert m is not None
    decided = handle(room, to_move(room), C.MakeMove(_a_move(room), move_id), AT, RULES, _fresh)
    assert isinstance(decided, CommitMove)
    return decided


def test_a_decision_changes_nothing_in_memory() -> None:
    room = playing(lobby())
    m = room.match
    assert m is not None
    v, turn, state = m.v, m.turn, room.state
    decided = _move(room, "a1")
    assert decided.step.v == v + 1
    assert (m.v, m.turn, room.state) == (v, turn, state)
    waiting = lobby()
    waiting.state = handle(waiting, HOST, C.Sit(None), AT, RULES, _fresh).patch.applied(waiting.state, 1)  # type: ignore[union-attr]
    assert isinstance(handle(waiting, HOST, C.Sit(None), AT, RULES, _fresh), ShowRoom)  # seated already
    assert isinstance(handle(room, HOST, C.Chat("hi"), AT, RULES, _fresh), ChatLine)


def test_committed_applies_the_move_and_says_what_to_deliver() -> None:
    room = playing(lobby())
    m = room.match
    assert m is not None
    decided = _move(room, "a1")
    out = committed(room, decided, Committed(), AT, RULES)
    assert m.v == decided.step.v
    assert out.table and not out.room and out.schedule and out.chat is None
    assert out.notice is not None and out.notice["kind"] == "v" and out.notice["v"] == m.v
    assert "origin" not in out.notice  # the pump adds which instance sends it
    assert out.seen is not None and len(out.seen.seating) == 2
    assert out.reminders == [] and out.back is None  # a live room reminds nobody


def test_a_resent_move_is_shown_the_table_not_made_twice() -> None:
    room = playing(lobby())
    first = _move(room, "same")
    committed(room, first, Committed(), AT, RULES)
    m = room.match
    assert m is not None
    seat = first.step.seat
    mover = HOST if seat == 0 else GUEST
    again = handle(room, mover, C.MakeMove(first.step.move, "same"), AT, RULES, _fresh)
    assert isinstance(again, ShowTable)


def test_a_hint_is_a_reply_for_the_player_to_move() -> None:
    room = playing(lobby())
    assert isinstance(handle(room, to_move(room), C.Hint(), AT, RULES, _fresh), AskHint)


def test_the_next_hands_countdown_starts_when_the_hand_ending_move_is_committed() -> None:
    room = playing(lobby(overrides={"payoff_size": 5, "match_target": 500}))
    m = room.match
    assert m is not None
    for _ in range(3000):
        if m.engine.status != MatchStatus.PLAYING:
            break
        decided = decide_seat_move(room, m.turn, _a_move(room), "player", None, START, RULES.missed_turns)
        out = committed(room, decided, Committed(), AT, RULES)
    assert m.engine.status == MatchStatus.HAND_OVER
    assert m.next_deadline == START + timedelta(seconds=RULES.next_hand_seconds)  # armed by committed itself
    assert out.table and out.notice is not None


def test_another_instances_change_is_applied_without_a_notice_or_reminders() -> None:
    room = playing(lobby())
    twin = playing(lobby())  # the same deal on "another instance"
    decided = _move(twin)
    committed(twin, decided, Committed(), AT, RULES)
    out = committed(room, Followed([decided.step], decided.deadline), Committed(), AT, RULES, publish=False)
    assert room.match is not None and twin.match is not None and room.match.v == twin.match.v
    assert out.notice is None and out.reminders == [] and out.table


def test_a_players_own_move_ends_their_vacation() -> None:
    room = playing(lobby())
    mover = to_move(room)
    room.vacations[mover.player_id] = START + timedelta(days=3)
    out = committed(room, _move(room), Committed(), AT, RULES)
    assert out.back == mover.player_id and mover.player_id not in room.vacations
