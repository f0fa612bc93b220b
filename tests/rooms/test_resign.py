"""Resign (docs/rules.md, "Resign"): a seated player gives the match up for their side, on any
turn of a hand being played. The core's ruling (pure: who may, when, how it is rated) and the
shell over in-memory ports: the resign is the engine's forfeit naming the seat, committed by the
actor `player` like any move, and the match is over with that side last."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from app.engine import MatchStatus
from app.engine.moves import FORFEIT, resign
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.effects import CommitMove
from app.rooms.core.errors import RoomError
from app.rooms.core.forfeit import decide_resign
from app.rooms.core.lobby import Actor
from app.rooms.core.match_rules import decide_move
from app.rooms.core.model import Moment
from app.rooms.core.room_core import handle
from app.rooms.core.steps import PLAYER, apply_steps

from .fakes import START, settings
from .test_core import FRESH, RULES, lobby
from .test_forfeit import _rated_room, _rated_started
from .test_rated import ANN, BOB
from .test_shell import world as world  # noqa: F401  (the fixture)

CAL = Actor("c", "Cal", account=True)  # in the room, not at the table
AT = Moment(START, 0.0)


def _player(room: Any, seat: int) -> Actor:
    return ANN if room.match.seats[seat].player_id == ANN.player_id else BOB


def test_a_player_resigns_off_their_turn_through_the_core() -> None:
    room = _rated_room()
    m = room.match
    quitter = 1 - m.turn  # not the seat to move
    decided = handle(room, _player(room, quitter), C.Resign(), AT, settings(rated_forfeit_min_moves=1),
                     lambda: FRESH)
    assert isinstance(decided, CommitMove)
    step = decided.step
    assert (step.seat, step.move, step.actor, step.client_id) == (quitter, resign(quitter), PLAYER, None)
    assert step.move.kind == FORFEIT and decided.write.payload == {"kind": "forfeit", "from": f"payoff:{quitter}"}
    assert decided.write.match.status == MatchStatus.MATCH_OVER and decided.write.match.winners == [1 - quitter]
    assert decided.write.hand_end is not None and decided.write.hand_end.result["reason"] == "resign"
    assert decided.room is not None and decided.write.room_values == {"status": "over"}
    assert m.engine.status == MatchStatus.PLAYING, "deciding changes nothing"
    # a rated resign is a loss, whatever the totals
    assert decided.write.rated is not None
    ranks = {s.player_id: s.total for s in decided.write.rated}
    assert ranks[_player(room, quitter).player_id] < ranks[_player(room, 1 - quitter).player_id]


def test_a_resign_after_too_few_moves_is_not_rated() -> None:
    room = _rated_room()
    quitter = room.match.turn
    commit = decide_resign(room, _player(room, quitter), START, settings(rated_forfeit_min_moves=50))
    assert commit.write.match.status == MatchStatus.MATCH_OVER and commit.write.rated is None


def test_the_resign_itself_is_not_a_move_of_ones_own() -> None:
    """A seat that never played does not make the match rated by resigning."""
    room = _rated_room()
    m = room.match
    quitter = 1 - m.turn
    m.played.discard(quitter)
    commit = decide_resign(room, _player(room, quitter), START, settings(rated_forfeit_min_moves=0))
    assert commit.write.rated is None


def test_who_may_resign_and_when() -> None:
    def refused(room: Any, who: Actor) -> RoomError:
        with pytest.raises(RoomError) as e:
            decide_resign(room, who, START, RULES)
        return e.value

    e = refused(lobby(), ANN)
    assert (e.code, e.reason) == (E.GAME_NOT_STARTED, "not_started")
    room = _rated_room()
    e = refused(room, CAL)  # a spectator (or anyone not seated in the match)
    assert (e.code, e.reason) == (E.NOT_ALLOWED_NOW, "resign_players")
    m = room.match
    quitter = m.turn
    commit = decide_resign(room, _player(room, quitter), START, RULES)
    apply_steps(m, [commit.step], commit.deadline, previewed=commit.previewed)
    assert m.engine.status == MatchStatus.MATCH_OVER and m.engine.forfeited == quitter
    for who in (ANN, BOB):
        e = refused(room, who)
        assert (e.code, e.reason) == (E.NOT_ALLOWED_NOW, "resign_over")


def test_no_resign_between_hands() -> None:
    room = _rated_room()
    m = room.match
    m.engine.status = MatchStatus.HAND_OVER  # the results shown, the next deal not made
    with pytest.raises(RoomError) as e:
        decide_resign(room, ANN, START, RULES)
    assert (e.value.code, e.value.reason) == (E.NOT_ALLOWED_NOW, "resign_between_hands")


def test_a_move_cannot_carry_a_resign_for_any_seat() -> None:
    """Only `resign` resigns, and only for the sender's own seat: a `move` naming a forfeit is
    refused like the server's forfeit."""
    room = _rated_room()
    turn = room.match.turn
    for seat in (0, 1):
        with pytest.raises(RoomError) as e:
            decide_move(room, _player(room, turn), resign(seat), None, START)
        assert (e.value.code, e.value.reason) == (E.ILLEGAL_MOVE, "forfeit_ruled")


# The shell, with a fake clock: the same pump as a move.
async def test_a_resign_is_committed_and_shown_like_a_move(world: Any) -> None:
    storage, clock, make = world
    svc = await make(absent_grace=10_000, rated_forfeit_min_moves=1)
    live, host, guest = await _rated_started(svc, storage, turn_seconds=30)
    m = live.room.match
    assert m is not None
    quitter = 1 - m.turn
    peer = host if quitter == 0 else guest
    v = m.v
    await svc.handle(live, peer, C.Resign())
    steps = storage.steps(m.id)
    assert m.v == v + 1 and steps[-1].move == resign(quitter) and steps[-1].actor == PLAYER
    assert steps[-1].seat == quitter
    assert m.engine.status == MatchStatus.MATCH_OVER and m.engine.winners == [1 - quitter]
    standing = {s.player_id: s.total for s in storage.rated[-1]}
    assert standing[peer.player_id] < standing[(guest if peer is host else host).player_id]
    shown = [f for kind, f in guest.got if kind == "state"][-1]
    assert {"type": "resign", "seat": quitter} in orjson.loads(orjson.dumps(shown["events"]))
    assert shown["view"]["result"]["reason"] == "resign"
    with pytest.raises(RoomError) as e:
        await svc.handle(live, peer, C.Resign())
    assert e.value.reason == "resign_over" and m.v == v + 1 and len(storage.steps(m.id)) == len(steps)

