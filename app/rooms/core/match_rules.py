"""The rules of play in a room: starting a match, moves, the next hand, hints.

Pure: each `decide_*` looks at the room, the request and the time and returns an effect
(`effects.BeginMatch`, `CommitMove`, `DealHand`, `MarkReady`) or raises `RoomError`; nothing in
memory changes. The shell carries the effect out (`effects.apply` applies it once committed,
through `steps.apply_steps` for the match's step). A move is
checked by previewing it on a copy of the match (`Match.preview`), so its row can carry what
it changed (status, totals, the next turn's deadline, a hand's result) in the same commit: the
move's write record (`app.domain.writes.MoveWrite`) is built here, once, and the store takes it
as it is.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from hashlib import sha256
from typing import Any

from app.domain.records import Earned, HandEnd, RoomStatus, Standing
from app.domain.writes import DealChange, MatchChange, MoveWrite
from app.engine import EngineError, Match, MatchStatus, Move, NotYourTurn, commitment, hand_summary, view
from app.engine.moves import FORFEIT
from app.engine.observer import DUPLICATE_PREFIX
from app.rooms.core import errors as E
from app.rooms.core import hand_tally
from app.rooms.core.achievements import earned
from app.rooms.core.config import RoomConfig, RoomRules
from app.rooms.core.daily_room import NO_HINTS as NO_HINTS_DAILY
from app.rooms.core.daily_room import is_daily
from app.rooms.core.effects import BeginMatch, CommitMove, DealHand, MarkReady
from app.rooms.core.errors import RoomError
from app.rooms.core.hand_tally import HandFacts
from app.rooms.core.lobby import Actor, check_host
from app.rooms.core.model import LiveMatch, Room, RoomPatch, SeatInfo
from app.rooms.core.pace import TURN_BASED, act_at, count_missed, handed, nobody_plays, on_vacation
from app.rooms.core.steps import PLAYER, DealStep, MoveStep, Previewed, new_match


@dataclass(frozen=True, slots=True)
class Fresh:
    """Randomness and secrets the shell supplies for a decision (the core draws none): an id
    for a new match, a secret seed (128 bits) for a new hand, and the server's key for
    seeded rooms' later hands."""

    id: str
    seed: str
    seed_key: bytes = b""


def hand_seed(room_seed: str | None, fresh: Fresh, match_number: int, hand_number: int) -> str:
    """A fresh secret seed; in a seeded room the room's seed for the first hand of the first
    match, and for every later hand an HMAC of it under the server's key, so hand 1's
    revealed seed tells nobody what the next hands hold."""
    if room_seed is None:
        return fresh.seed
    if (match_number, hand_number) == (1, 1):
        return room_seed
    later = hmac.new(fresh.seed_key, f"{room_seed}/{match_number}/{hand_number}".encode(), sha256).hexdigest()
    # A duplicate tournament's later hands are as sealed as its first (engine.seed_sealed).
    return DUPLICATE_PREFIX + later if room_seed.startswith(DUPLICATE_PREFIX) else later


def deadline_after(now: datetime, turn_seconds: int | None) -> datetime | None:
    return now + timedelta(seconds=turn_seconds) if turn_seconds else None


def turn_deadline(room: Room, seats: list[SeatInfo], missed: list[int], seat: int, now: datetime,
                  turn_seconds: int | None, missed_turns: int) -> datetime | None:
    """The deadline stored when `seat`'s turn begins: in a live room the turn clock (if any); in
    a turn-based room when the server must act for the seat (`pace.act_at`)."""
    if room.state.pace != TURN_BASED:
        return deadline_after(now, turn_seconds)
    info = seats[seat]
    person = info.bot is None and info.player_id is not None
    at = act_at(now, turn_seconds, person=person, handed_over=handed(missed, seat, missed_turns))
    if person and at > now and info.player_id in room.vacations:
        at = on_vacation(at, room.vacations[info.player_id], turn_seconds)
    return at


def _first_turn(engine: Match, seed: str) -> int:
    """Who moves first in the hand `seed` deals (dealt on a scratch match: the deal decides)."""
    scratch = Match(engine.options, engine.names, record_events=False)
    scratch.deal(seed)
    return scratch.game.turn


def wake_at(room: Room, deadline: datetime | None, seats: Sequence[SeatInfo] = (),
            missed: Sequence[int] = (), missed_turns: int = 3) -> datetime | None:
    """What the match row says of when the server must next act (its `wake_at`): turn-based
    rooms only (the store's due list), and only while a person still plays (`missed`: the
    turns each of `seats` missed in a row, after this change): a match only bots play waits
    for someone to come (`pace.nobody_plays`)."""
    if room.state.pace != TURN_BASED or (seats and nobody_plays(people(seats), missed, missed_turns)):
        return None
    return deadline


def people(seats: Sequence[SeatInfo]) -> list[bool]:
    """For each seat: does a person sit there (not a bot)?"""
    return [info.bot is None and info.player_id is not None for info in seats]


@dataclass(frozen=True)
class AlreadyMade:
    """The move's client id was already committed: the answer is the table as it is now."""


def decide_start(room: Room, who: Actor, *, rematch: bool, now: datetime, fresh: Fresh,
                 settings: RoomRules) -> BeginMatch:
    """Start the room's first match (host) or a rematch (any seated player) with the seats
    as they are."""
    st = room.state
    if rematch:
        if st.status != RoomStatus.OVER:
            raise RoomError(E.NOT_ALLOWED_NOW, "a rematch can start only once the match is over",
                            reason="rematch_after_match")
        if room.lobby_seat(who.player_id) is None:
            raise RoomError(E.NOT_ALLOWED_NOW, "only a seated player can ask for a rematch", reason="rematch_seated")
    else:
        check_host(room, who, now, settings.absent_grace, "start_game")
        if not st.lobby_open:
            raise RoomError(E.NOT_ALLOWED_NOW, "the game has already started", reason="already_started")
    if any(s is None for s in st.seating):
        raise RoomError(E.NOT_ALLOWED_NOW, "every seat must be filled (by a player or a bot) to start",
                        reason="fill_seats")
    seats: list[SeatInfo] = [s for s in st.seating if s is not None]
    if not any(people(seats)):
        raise RoomError(E.NOT_ALLOWED_NOW, "at least one person must sit at the table to start",
                        reason="need_person")
    if st.rated and any(s.bot is not None or s.player_id is None for s in seats):
        raise RoomError(E.RATED_ROOM, "bots cannot play in a rated room", reason="rated_no_bots")
    options = RoomConfig(st.preset, st.overrides, st.seats, st.turn_seconds).options()
    number = st.match_count + 1
    seed = hand_seed(st.seed, fresh, number, 1)
    match_id = fresh.id
    engine = Match(options, [s.name for s in seats])
    turn = st.turn_seconds
    if st.rated and st.pace != TURN_BASED and turn is not None:  # a room made before the minimum: raised to it
        turn = max(turn, settings.rated_min_turn_seconds)
    match = new_match(match_id, number, engine, seats, turn)
    first = _first_turn(engine, seed)
    deadline = turn_deadline(room, seats, match.missed, first, now, turn, settings.missed_turns)
    return BeginMatch(
        match=match, deal=DealStep(0, 1, seed), wake_at=wake_at(room, deadline), turn_seat=first,
        commitment=commitment(seed), deadline=deadline, preset=st.preset,
        options=options.to_json(), teams=[options.team_of(i) for i in range(len(seats))],
        room=RoomPatch(status=RoomStatus.PLAYING, match_id=match_id, match_count=number, rematch={}),
        room_rev=st.rev)


def ready_seats(room: Room, extra: set[int] | frozenset[int] = frozenset()) -> list[int]:
    """Seats that need not be waited for before the next hand: bots, players not connected
    (nobody to wait for) and those who said they are ready (plus `extra`)."""
    m = room.match
    if m is None:
        return []
    return [s for s, info in enumerate(m.seats)
            if info.bot is not None or s in m.ready or s in extra
            or (info.player_id is not None and not room.is_connected(info.player_id))]


def arm_next_hand(m: LiveMatch, now: datetime, seconds: float) -> None:
    """Between hands, start the countdown to the next (once per hand over); while a hand is
    played, clear it. Applied by the shell after every change it shows."""
    if m.engine.status == MatchStatus.HAND_OVER:
        if m.next_deadline is None:
            m.ready = set()
            m.next_deadline = now + timedelta(seconds=seconds)
    elif m.next_deadline is not None or m.ready:
        m.next_deadline = None
        m.ready = set()


def _deal_next(room: Room, now: datetime, fresh: Fresh, missed_turns: int = 3) -> DealHand:
    m = room.match
    assert m is not None
    number = len(m.engine.hands) + 1
    seed = hand_seed(room.state.seed, fresh, m.number, number)
    first = _first_turn(m.engine, seed)
    deadline = turn_deadline(room, m.seats, m.missed, first, now, m.turn_seconds, missed_turns)
    return DealHand(m.id, m.v, DealStep(m.v + 1, number, seed), commitment(seed),
                    DealChange(deadline, wake_at(room, deadline, m.seats, m.missed, missed_turns), first))


def decide_next_hand(room: Room, who: Actor, now: datetime, fresh: Fresh,
                     missed_turns: int = 3) -> MarkReady | DealHand:
    """A seated player of the match is ready for the next hand (once a hand is over): the deal,
    if that makes every seat ready (`ready_seats`), else the mark; the countdown's end deals it
    anyway (`decide_due_deal`)."""
    m = room.match
    if m is None:
        raise RoomError(E.GAME_NOT_STARTED, "the game has not started", reason="not_started")
    status = m.engine.status
    if status != MatchStatus.HAND_OVER:
        over = status == MatchStatus.MATCH_OVER
        raise RoomError(E.NOT_ALLOWED_NOW, "the match is over: ask for a rematch" if over
                        else "the next hand can be dealt only when a hand is over",
                        reason="match_over_rematch" if over else "next_hand_later")
    seat = m.seat_of(who.player_id)
    if seat is None:
        raise RoomError(E.NOT_ALLOWED_NOW, "only a player of this match can deal the next hand",
                        reason="next_hand_players")
    if len(ready_seats(room, {seat})) == len(m.seats):
        return _deal_next(room, now, fresh, missed_turns)
    return MarkReady(m.id, m.v, seat)


def decide_due_deal(room: Room, armed_v: int, now: datetime, fresh: Fresh,
                    missed_turns: int = 3) -> DealHand | None:
    """The next-hand timer armed at version `armed_v` fired: the deal, if the match is still
    between those hands and everyone is ready or the countdown is over."""
    m = room.match
    if m is None or m.v != armed_v or m.engine.status != MatchStatus.HAND_OVER or m.next_deadline is None:
        return None
    if len(ready_seats(room)) < len(m.seats) and now < m.next_deadline:
        return None
    return _deal_next(room, now, fresh, missed_turns)


def decide_move(room: Room, who: Actor, move: Move, move_id: str | None,
                now: datetime, missed_turns: int = 3) -> CommitMove | AlreadyMade:
    """A person's move (its shape checked at the socket, `commands.MakeMove`): checked against
    the rules and who may move."""
    m = room.match
    if m is None:
        raise RoomError(E.GAME_NOT_STARTED, "the game has not started", move_id=move_id, reason="not_started")
    seat = m.seat_of(who.player_id)
    if seat is None:
        raise RoomError(E.NOT_YOUR_TURN, "you are watching this game, not playing in it", move_id=move_id,
                        reason="watching")
    if move_id is not None and (seat, move_id) in m.client_ids:
        return AlreadyMade()
    if not m.playing:
        raise RoomError(E.NOT_ALLOWED_NOW, "the hand is over", move_id=move_id, reason="hand_over")
    if m.turn != seat:
        raise RoomError(E.NOT_YOUR_TURN, "it is not your turn", move_id=move_id, reason="not_your_turn")
    if move.kind == FORFEIT:
        raise RoomError(E.ILLEGAL_MOVE, "a forfeit is ruled by the server (missed turns), not played",
                        move_id=move_id, reason="forfeit_ruled")
    return decide_seat_move(room, seat, move, PLAYER, move_id, now, missed_turns)


def decide_seat_move(room: Room, seat: int, mv: Move, actor: str, move_id: str | None,
                     now: datetime, missed_turns: int = 3) -> CommitMove:
    """`mv` for `seat` (by a person, a bot, the clock or a stand-in), previewed on a copy.
    In a turn-based room a hand's end wakes the room at once (the next deal) and the next
    seat's deadline follows `turn_deadline`, counting this move's missed turn."""
    m = room.match
    assert m is not None
    try:
        after, events = m.engine.preview(mv, seat)
    except NotYourTurn as e:
        raise RoomError(E.NOT_YOUR_TURN, str(e), move_id=move_id, reason=e.key, params=e.params) from e
    except EngineError as e:
        raise RoomError(E.ILLEGAL_MOVE, str(e), move_id=move_id, reason=e.key, params=e.params) from e
    status = after.status
    missed = list(m.missed)
    count_missed(missed, seat, actor, status != MatchStatus.PLAYING or after.game.turn != m.turn)
    if status != MatchStatus.PLAYING:
        deadline = now if status == MatchStatus.HAND_OVER and room.state.pace == TURN_BASED else None
    elif after.game.turn != m.turn:
        deadline = turn_deadline(room, m.seats, missed, after.game.turn, now, m.turn_seconds, missed_turns)
    else:
        deadline = m.deadline
    hand_end = None
    awards: list[Earned] = []
    rated = None
    over = None
    winners = ended = None
    if status in (MatchStatus.HAND_OVER, MatchStatus.MATCH_OVER):
        hand_end = _hand_end(after)
        awards = earned(after, m.seats, rated=room.state.rated, facts=_hand_facts(m, mv, after))
        if status == MatchStatus.MATCH_OVER:
            winners, ended = list(after.winners), now
            rated = rated_standing(room, after, seat if actor == PLAYER and mv.kind != FORFEIT else None)
            over = RoomPatch(status=RoomStatus.OVER)  # the lobby opens again, for a rematch
    wake = wake_at(room, deadline, m.seats, missed, missed_turns)
    change = MatchChange(status, list(after.totals), deadline, wake, now,
                         after.game.turn if status == MatchStatus.PLAYING else None, winners, ended)
    step = MoveStep(m.v + 1, seat, mv, actor, move_id)
    write = MoveWrite(m.id, m.v, step.v, len(m.engine.hands), seat, actor, move_id, mv.to_wire(), change, room.code,
                      hand_end, awards, rated, over.values() if over is not None else None)
    return CommitMove(write, step, over, Previewed(m.engine, after, events))


def rated_standing(room: Room, after: Match, mover: int | None = None) -> list[Standing] | None:
    """Who to rate at the end of a match of a rated room: every seat, its team and its final
    total (None if the room is not rated, a seat has no player: never rate a bot, or a seat's
    player never made a move themselves, counting `mover`'s last: a puppet that only lets
    the clock play is no win to rate)."""
    m = room.match
    if not room.state.rated or m is None or any(s.player_id is None or s.bot for s in m.seats):
        return None
    if len(m.played | ({mover} if mover is not None else set())) < len(m.seats):
        return None
    totals = list(after.totals)
    if after.forfeited is not None:  # the forfeiting team lost: ranked below everyone, whatever its total
        low = min(totals) - 1
        for s in after.game.team_seats[after.forfeited]:
            totals[s] = low
    return [Standing(s.player_id or "", after.options.team_of(i), totals[i]) for i, s in enumerate(m.seats)]


def _hand_facts(m: LiveMatch, mv: Move, after: Match) -> HandFacts | None:
    """The facts of the hand `mv` ends, from what the live match kept of it (`m.tally`,
    unchanged) and this last move; None if it kept nothing at this version (then `earned`
    replays the hand)."""
    tally = m.tally
    if tally is None or tally.v != m.v:
        return None
    try:
        before = hand_tally.before(m.engine.game, mv)
    except (ValueError, IndexError):
        return None
    tally = tally.copy()
    hand_tally.count(tally, before, after.game, after.v)
    return hand_tally.finished(tally, after.game)


def _hand_end(after: Match) -> HandEnd:
    summary = hand_summary(after)
    return HandEnd(summary.number, summary.result, summary.points, summary.totals, summary.payoff_left)


@dataclass(frozen=True)
class AskHint:
    """Ask the bots what `seat` should play in this view (at version `v`)."""

    view: dict[str, Any]
    v: int


def decide_hint(room: Room, who: Actor) -> AskHint:
    """A hint is for the player whose turn it is, if the room allows hints (a rated room and a
    daily deal's room never do, whatever their row says: rooms made before that rule may still
    say `hints`)."""
    m = room.match
    if room.state.rated:
        raise RoomError(E.HINTS_OFF, "a rated match gives no hints: the result changes everyone's rating",
                        reason="rated_no_hints")
    if is_daily(room.state):
        raise RoomError(E.HINTS_OFF, NO_HINTS_DAILY, reason="daily_no_hints")
    if not room.state.hints:
        raise RoomError(E.HINTS_OFF, "hints are turned off in this room", reason="hints_off")
    if m is None:
        raise RoomError(E.GAME_NOT_STARTED, "the game has not started", reason="not_started")
    seat = m.seat_of(who.player_id)
    if seat is None or not m.playing or m.turn != seat:
        raise RoomError(E.NOT_YOUR_TURN, "a hint is for the player whose turn it is", reason="hint_your_turn")
    return AskHint(view(m.engine, seat, room.connected_flags(m.seats)), m.v)
