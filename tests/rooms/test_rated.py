"""Rated rooms in the room core: accounts only, no bots, and a match's end carries the standing
to rate (teams and totals) and the achievements earned; an unrated room carries no standing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.domain.records import Standing
from app.engine import MatchStatus
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.effects import CommitMove
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import Actor, decide_lobby
from app.rooms.core.match_rules import decide_seat_move, decide_start
from app.rooms.core.steps import PLAYER, apply_steps

from .fakes import START
from .test_core import FRESH, RULES, lobby, sit

ANN, BOB, GUS = Actor("a", "Ann", account=True), Actor("b", "Bob", account=True), Actor("g", "Gus")


def test_a_rated_room_seats_accounts_only_and_takes_no_bots() -> None:
    room = lobby(rated=True, host_id=ANN.player_id)
    with pytest.raises(RoomError) as e:
        decide_lobby(room, GUS, C.Sit(0), START, RULES)
    assert e.value.code == E.RATED_ROOM and "account" in e.value.message
    sit(room, ANN)
    with pytest.raises(RoomError) as e:
        decide_lobby(room, ANN, C.AddBot(1, "easy"), START, RULES)
    assert e.value.code == E.RATED_ROOM and "bot" in e.value.message
    sit(room, BOB)
    decide_start(room, ANN, rematch=False, now=START, fresh=FRESH, settings=RULES)


def test_an_unrated_room_still_takes_guests_and_bots() -> None:
    room = lobby()
    sit(room, GUS)
    assert decide_lobby(room, Actor("h", "Hana"), C.AddBot(1, "easy"), START, RULES) is not None


def _play_out(rated: bool) -> CommitMove:
    room = lobby(rated=rated, host_id=ANN.player_id, overrides={"payoff_size": 5})
    sit(room, ANN)
    sit(room, BOB)
    begin = decide_start(room, ANN, rematch=False, now=START, fresh=FRESH, settings=RULES)
    room.state = begin.room.applied(room.state, room.state.rev + 1)
    room.match = m = begin.match
    apply_steps(m, [begin.deal], begin.deadline)
    rng = random.Random(2)
    while True:
        moves = m.engine.game.legal_moves()
        payoff = [mv for mv in moves if mv.kind == "play" and mv.src and mv.src.startswith("payoff")]
        commit = decide_seat_move(room, m.turn, rng.choice(payoff or moves), PLAYER, None, START)
        if commit.hand_end is not None:
            return commit
        assert commit.write.rated is None and commit.write.earned == []
        apply_steps(m, [commit.step], commit.deadline, previewed=commit.previewed)


def test_the_move_that_ends_a_rated_match_carries_the_standing_and_the_awards() -> None:
    commit = _play_out(rated=True)
    assert commit.write.match.status == MatchStatus.MATCH_OVER
    totals = commit.write.match.totals
    assert commit.write.rated == [Standing("a", None, totals[0]), Standing("b", None, totals[1])]
    winners = commit.write.match.winners
    keys = {(e.player_id, e.key) for e in commit.write.earned}
    for seat, pid in enumerate(("a", "b")):
        assert ((pid, "first_win") in keys) == (seat in winners)
        assert ((pid, "rated_win") in keys) == (seat in winners)


def test_an_unrated_match_rates_nobody() -> None:
    commit = _play_out(rated=False)
    assert commit.write.rated is None
    assert "rated_win" not in {e.key for e in commit.write.earned}


def test_a_rated_live_room_has_a_turn_clock_of_at_least_the_rated_minimum() -> None:
    """Rating farming: a 3-second clock let puppets forfeit six times a minute."""
    from app.rooms.core.config import resolve
    from app.rooms.core.errors import ConfigError

    def bounded(turn: int, **kw: Any) -> int | None:
        return resolve("standard", {}, 2, turn, min_turn=1, max_turn=3600, rated_min_turn=15, **kw).turn_seconds

    with pytest.raises(ConfigError) as short:
        bounded(3, rated=True)
    assert (short.value.option, short.value.reason, short.value.params) == (
        "turn_seconds", "turn_range", {"min": 15, "max": 3600})
    assert bounded(15, rated=True) == 15
    assert bounded(3) == 3  # unrated rooms as before
    assert bounded(7200, rated=True, pace="turn_based", turn_based_min=3600) == 7200
    room = lobby(rated=True, host_id=ANN.player_id, turn_seconds=60)
    sit(room, ANN)
    with pytest.raises(RoomError) as configured:
        decide_lobby(room, ANN, C.Configure(turn_seconds=3), START, RULES)
    assert (configured.value.code, configured.value.option) == (E.BAD_OPTIONS, "turn_seconds")
    old = lobby(rated=True, host_id=ANN.player_id, turn_seconds=3)  # made before the minimum
    sit(old, ANN)
    sit(old, BOB)
    begin = decide_start(old, ANN, rematch=False, now=START, fresh=FRESH, settings=RULES)
    assert begin.match.turn_seconds == RULES.rated_min_turn_seconds == 15
