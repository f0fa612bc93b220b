"""Forfeit: a rated match cannot be stalled or sat out. Pure.

In a rated room a seat whose turns keep running out loses the match instead of being played on
for: in a live room the turn clock's `SPITE_TIMEOUTS_TO_FORFEIT`-th turn in a row, in a
turn-based room the deadline's `SPITE_MISSED_TURNS`-th (where an unrated room hands the seat to
a bot). When that timer fires the server does not play the turn: it commits the engine's
`forfeit` move for the seat (`engine.moves.FORFEIT`), recorded in the move log like any move, by
the timer's actor (`clock` or `deadline`), so replays, the log and the history show it as it
was. The match ends with that seat's team ranked last; if every seat made a move of its own the
ratings count it (`match_rules.rated_standing`), else, as for any match, it is not rated. Nor is
it rated if the forfeiting seat made fewer than `SPITE_RATED_FORFEIT_MIN_MOVES` moves of its own
over the match: a puppet that discards once and lets the clock run out is no win to rate.
Unrated rooms are as before: the clock, the deadline and the stand-in play on.

A seated player may also give the match up themselves (`decide_resign`, docs/rules.md "Resign"):
the same move naming their seat (`engine.moves.resign`), on any turn of a hand being played, by
the actor `player`; rated as the forfeit is (a loss for their side, under the same
`SPITE_RATED_FORFEIT_MIN_MOVES`). Bots never resign.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from app.engine import MatchStatus
from app.engine.moves import RESIGN, resign
from app.rooms.core import errors as E
from app.rooms.core.config import RoomRules
from app.rooms.core.effects import CommitMove
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import Actor
from app.rooms.core.match_rules import decide_seat_move
from app.rooms.core.model import Room
from app.rooms.core.pace import CLOCK, DEADLINE, TURN_BASED
from app.rooms.core.steps import PLAYER


def limit_of(room: Room, settings: RoomRules) -> int | None:
    """Turns in a row a seat may let run out before it forfeits; None: it never does (unrated)."""
    if not room.state.rated:
        return None
    return settings.missed_turns if room.state.pace == TURN_BASED else settings.timeouts_to_forfeit


def forfeit_due(room: Room, seat: int, kind: str, settings: RoomRules) -> bool:
    """Is the timer of `kind` that fired for `seat` the one that forfeits the match?"""
    m = room.match
    limit = limit_of(room, settings)
    if m is None or limit is None or kind not in (CLOCK, DEADLINE) or not m.playing or m.turn != seat:
        return False
    info = m.seats[seat]
    if info.player_id is None or info.bot is not None:
        return False
    return m.missed[seat] + 1 >= limit


def decide_forfeit(room: Room, seat: int, kind: str, now: datetime, settings: RoomRules) -> CommitMove | None:
    """The forfeit of `seat`, if the timer of `kind` firing now calls for it (else None)."""
    if not forfeit_due(room, seat, kind, settings):
        return None
    return _rated_as_forfeit(room, seat, decide_seat_move(room, seat, RESIGN, kind, None, now, settings.missed_turns),
                             settings)


def decide_resign(room: Room, who: Actor, now: datetime, settings: RoomRules) -> CommitMove:
    """`who` resigns the match for their side: its forfeit, on any turn of a hand being played
    (refused to anyone not seated in the match, between hands and once it is over)."""
    m = room.match
    if m is None:
        raise RoomError(E.GAME_NOT_STARTED, "the game has not started", reason="not_started")
    seat = m.seat_of(who.player_id)
    if seat is None:
        raise RoomError(E.NOT_ALLOWED_NOW, "only a player of this match can resign it", reason="resign_players")
    if not m.playing:
        over = m.engine.status == MatchStatus.MATCH_OVER
        raise RoomError(E.NOT_ALLOWED_NOW, "the match is over" if over
                        else "a match is resigned while a hand is played: wait for the next deal",
                        reason="resign_over" if over else "resign_between_hands")
    commit = decide_seat_move(room, seat, resign(seat), PLAYER, None, now, settings.missed_turns)
    return _rated_as_forfeit(room, seat, commit, settings)


def _rated_as_forfeit(room: Room, seat: int, commit: CommitMove, settings: RoomRules) -> CommitMove:
    if commit.write.rated is not None and not rated_forfeit(room, seat, settings):
        commit = replace(commit, write=replace(commit.write, rated=None))
    return commit


def rated_forfeit(room: Room, seat: int, settings: RoomRules) -> bool:
    """Does a forfeit of `seat` count for the ratings: did it make at least
    `rated_forfeit_min_moves` moves of its own over the match (the clock's and stand-ins' not
    counted)?"""
    m = room.match
    return m is not None and m.own_moves.get(seat, 0) >= settings.rated_forfeit_min_moves
