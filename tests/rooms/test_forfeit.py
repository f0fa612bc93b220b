"""Forfeit: in a rated room a seat whose turns keep running out
loses the match. The core's ruling (pure) and the shell over in-memory ports and a fake clock: a
live rated match is forfeited at the turn clock's `timeouts_to_forfeit`-th turn in a row, a
turn-based rated one at the `missed_turns`-th missed deadline (where an unrated room hands the
seat to a bot); the forfeit is a move in the log, rated as a loss for that seat."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
import pytest

from app.engine import MatchStatus
from app.engine.moves import FORFEIT, RESIGN
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.core.forfeit import decide_forfeit, forfeit_due, limit_of
from app.rooms.core.match_rules import decide_move, decide_seat_move, decide_start
from app.rooms.core.pace import CLOCK, DEADLINE, STANDIN
from app.rooms.core.steps import PLAYER, apply_steps
from app.rooms.shell.live import LiveRoom

from .fakes import START, MemoryStorage, RecordingPeer, settings
from .test_core import FRESH, RULES, lobby, sit
from .test_rated import ANN, BOB
from .test_shell import play_first_legal
from .test_shell import world as world  # noqa: F401  (the fixture)


def _rated_room(pace: str = "live") -> Any:
    room = lobby(rated=True, host_id=ANN.player_id, turn_seconds=60, pace=pace)
    sit(room, ANN)
    sit(room, BOB)
    begin = decide_start(room, ANN, rematch=False, now=START, fresh=FRESH, settings=RULES)
    room.state = begin.room.applied(room.state, room.state.rev + 1)
    room.match = m = begin.match
    apply_steps(m, [begin.deal], begin.deadline)
    while len(m.played) < 2:  # both play a turn of their own
        commit = decide_seat_move(room, m.turn, m.engine.game.legal_moves()[-1], PLAYER, None, START)
        apply_steps(m, [commit.step], commit.deadline, previewed=commit.previewed)
    return room


def test_the_ruling_counts_runs_of_timeouts_in_rated_rooms_only() -> None:
    room = _rated_room()
    m = room.match
    seat = m.turn
    rules = settings(timeouts_to_forfeit=3, missed_turns=5)
    assert limit_of(room, rules) == 3
    assert limit_of(replace_room(room, pace="turn_based"), rules) == 5
    assert limit_of(replace_room(room, rated=False), rules) is None
    m.missed[seat] = 1
    assert not forfeit_due(room, seat, CLOCK, rules)  # the 2nd timeout in a row: the clock plays it
    m.missed[seat] = 2
    assert forfeit_due(room, seat, CLOCK, rules)  # the 3rd: forfeit
    assert not forfeit_due(room, seat, "absent", rules) and not forfeit_due(room, seat, "bot", rules)
    assert not forfeit_due(room, 1 - seat, CLOCK, rules), "only the seat to move"
    assert decide_forfeit(replace_room(room, rated=False), seat, CLOCK, START, rules) is None


def replace_room(room: Any, **state: Any) -> Any:
    copy = lobby()
    copy.state, copy.match = replace(room.state, **state), room.match
    return copy


def test_a_forfeit_is_rated_as_a_loss_whatever_the_totals() -> None:
    room = _rated_room()
    m = room.match
    seat = m.turn
    m.engine.totals[seat] = 400  # far ahead, and still the loser
    commit = decide_forfeit(room, seat, CLOCK, START, settings(timeouts_to_forfeit=1, rated_forfeit_min_moves=1))
    assert commit is not None and commit.step.move == RESIGN and commit.step.actor == CLOCK
    assert commit.write.match.status == MatchStatus.MATCH_OVER
    assert commit.write.match.winners == [1 - seat]
    # the match's end, in the record the store takes as it is: its time, and the room's lobby opened
    assert commit.write.match.ended_at == START and commit.write.match.turn_seat is None
    assert commit.write.room_code == room.code and commit.write.room_values == {"status": "over"}
    assert commit.room is not None and commit.room.values() == commit.write.room_values
    assert commit.write.hand_end is not None and not commit.write.plain and commit.ends_match
    assert commit.write.rated is not None
    ranks = {s.player_id: s.total for s in commit.write.rated}
    mine, theirs = (ANN, BOB) if seat == 0 else (BOB, ANN)
    assert ranks[mine.player_id] < ranks[theirs.player_id]


def test_a_person_cannot_send_a_forfeit() -> None:
    room = _rated_room()
    who = ANN if room.match.turn == 0 else BOB
    with pytest.raises(RoomError) as e:
        decide_move(room, who, RESIGN, None, START)
    assert e.value.code == E.ILLEGAL_MOVE and e.value.reason == "forfeit_ruled"


# The shell, with a fake clock.
async def _rated_started(svc: Any, storage: MemoryStorage,
                        **room: Any) -> tuple[LiveRoom, RecordingPeer, RecordingPeer]:
    storage.add_room("ROOM", "h", rated=True, hints=False, **room)
    host, guest = RecordingPeer("h", "Hana", account=True), RecordingPeer("g", "Gus", account=True)
    live = await svc.join("ROOM", host, None)
    await svc.join("ROOM", guest, None)
    await svc.handle(live, host, C.Sit())
    await svc.handle(live, guest, C.Sit())
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    while len(m.played) < 2:
        await play_first_legal(svc, live, host if m.turn == 0 else guest)
    return live, host, guest


async def _wait_turn_passes(clock: Any, m: Any, seat: int, step: float = 1.0, most: int = 4000) -> None:
    for _ in range(most):
        if m.turn != seat or m.engine.status != MatchStatus.PLAYING:
            return
        await clock.advance(step)
    raise AssertionError("the turn never passed")


async def test_a_live_rated_seat_that_lets_the_clock_run_out_loses_the_match(world: Any) -> None:
    storage, clock, make = world
    svc = await make(timeouts_to_forfeit=2, bot_delay=0.5, absent_grace=10_000, rated_forfeit_min_moves=1)
    live, host, guest = await _rated_started(svc, storage, turn_seconds=30)
    m = live.room.match
    assert m is not None
    idle = m.turn  # this seat stays at the table and never moves again
    active = host if idle == 1 else guest
    await _wait_turn_passes(clock, m, idle)  # timeout 1: the clock plays the turn
    assert m.missed[idle] == 1 and storage.steps(m.id)[-1].actor == CLOCK
    while m.turn != idle:
        await play_first_legal(svc, live, active)
    v = m.v
    await clock.advance(31)  # timeout 2: not played, forfeited
    steps = storage.steps(m.id)
    assert m.v == v + 1 and steps[-1].move.kind == FORFEIT and steps[-1].actor == CLOCK and steps[-1].seat == idle
    assert m.engine.status == MatchStatus.MATCH_OVER and m.engine.winners == [1 - idle]
    standing = {s.player_id: s.total for s in storage.rated[-1]}
    loser = "h" if idle == 0 else "g"
    assert standing[loser] == min(standing.values()) and len(set(standing.values())) == 2
    shown = [e for kind, msg in host.got if kind == "state" for e in orjson.loads(orjson.dumps(msg["events"] or []))]
    assert {"type": "autoplay", "seat": idle, "by": CLOCK} in shown and {"type": "forfeit", "seat": idle} in shown


async def test_a_turn_based_rated_seat_forfeits_at_the_missed_turns_instead_of_a_stand_in(world: Any) -> None:
    storage, clock, make = world
    svc = await make(turn_based_min_seconds=60, deadline_horizon=700, missed_turns=2, bot_delay=0.5,
                     rated_forfeit_min_moves=1)
    live, host, guest = await _rated_started(svc, storage, pace="turn_based", turn_seconds=600)
    m = live.room.match
    assert m is not None
    away_seat = m.turn
    away, here = (host, guest) if away_seat == 0 else (guest, host)
    await svc.leave(live, away)
    await _wait_turn_passes(clock, m, away_seat, step=50)  # deadline 1: the server plays it
    assert m.missed[away_seat] == 1 and storage.steps(m.id)[-1].actor == DEADLINE
    while m.turn != away_seat:
        await play_first_legal(svc, live, here)
    await _wait_turn_passes(clock, m, away_seat, step=50)  # deadline 2: forfeit, no stand-in
    steps = storage.steps(m.id)
    assert steps[-1].move.kind == FORFEIT and steps[-1].actor == DEADLINE
    assert all(s.actor != STANDIN for s in steps if hasattr(s, "actor"))
    assert m.engine.status == MatchStatus.MATCH_OVER and m.engine.forfeited == away_seat
    assert storage.rated and live.room.state.status == "over"



def test_a_forfeit_after_almost_no_moves_of_its_own_is_not_rated() -> None:
    """Rating farming: a puppet that discards once then lets the clock run out ends the match
    (the forfeit, its winners) but rates nobody, under SPITE_RATED_FORFEIT_MIN_MOVES moves of
    its own; the moves the clock makes for it do not count."""
    room = _rated_room()
    m = room.match
    before = dict(m.own_moves)
    assert all(before.get(s, 0) >= 1 for s in (0, 1))  # each played a turn of its own
    clocked = decide_seat_move(room, m.turn, m.engine.game.legal_moves()[-1], CLOCK, None, START)
    apply_steps(m, [clocked.step], clocked.deadline, previewed=clocked.previewed)
    assert m.own_moves == before
    seat = m.turn
    own = m.own_moves[seat]
    short = decide_forfeit(room, seat, CLOCK, START, settings(timeouts_to_forfeit=1, rated_forfeit_min_moves=own + 1))
    assert short is not None and short.write.rated is None, "too few moves of its own: not rated"
    assert short.write.match.status == MatchStatus.MATCH_OVER and short.write.match.winners == [1 - seat]
    enough = decide_forfeit(room, seat, CLOCK, START, settings(timeouts_to_forfeit=1, rated_forfeit_min_moves=own))
    assert enough is not None and enough.write.rated is not None
