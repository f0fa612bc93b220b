"""Playing: starting a match, moves, the next hand. The durable path every move takes, whoever
makes it (a person, a bot, the turn clock, or the stand-in for an absent player):

    engine check and apply on the live match -> commit the move row -> push views -> publish

A move that loses a race (its version is taken) or fails to commit is undone by rebuilding
the room from the store; nobody was told of it.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from app.engine import BadMove, EngineError, Match, MatchStatus, Move, NotYourTurn, commitment, view
from app.store import matches as match_store
from app.store.errors import Conflict
from app.store.matches import HandEnd
from app.store.models import Hand, Seat, utcnow
from app.store.models import Match as MatchRow
from app.store.players import new_id
from app.store.writer import MoveWrite

from . import errors as E
from .config import RoomConfig
from .errors import RoomError
from .live import LiveMatch, LiveRoom, Peer, SeatInfo
from .lobby import check_host
from .logctx import about
from .metrics import MOVES, MOVES_BY

if TYPE_CHECKING:
    from .service import RoomService

log = logging.getLogger(__name__)
PERSON, BOT = "player", "bot"


def hand_seed(room_seed: str | None, match_number: int, hand_number: int) -> str:
    """A fresh secret seed (128 bits), or in a seeded room one derived from the room's seed."""
    if room_seed is None:
        return secrets.token_hex(16)
    return room_seed if (match_number, hand_number) == (1, 1) else f"{room_seed}/{match_number}/{hand_number}"


def _deadline(turn_seconds: int | None) -> Any:
    return utcnow() + timedelta(seconds=turn_seconds) if turn_seconds else None


def move_record(seat: int, actor: str, client_id: str | None, payload: dict[str, Any],
                deadline: datetime | None) -> dict[str, Any]:
    """The public record of a committed move, as the bus carries it (no hidden card: a move
    names only the card it shows)."""
    return {"seat": seat, "actor": actor, "client_id": client_id, "payload": payload,
            "deadline": deadline.isoformat() if deadline is not None else None}


async def start(svc: RoomService, room: LiveRoom, peer: Peer, *, rematch: bool) -> None:
    """Start the room's first match (host) or a rematch (any seated player) with the seats as they are."""
    st = room.state
    if rematch:
        if st.status != "over":
            raise RoomError(E.NOT_ALLOWED_NOW, "a rematch can start only once the match is over")
        if room.lobby_seat(peer.player_id) is None:
            raise RoomError(E.NOT_ALLOWED_NOW, "only a seated player can ask for a rematch")
    else:
        check_host(room, peer, svc.settings.absent_grace, "start the game")
        if st.status not in ("waiting", "over"):
            raise RoomError(E.NOT_ALLOWED_NOW, "the game has already started")
    if any(s is None for s in st.seating):
        raise RoomError(E.NOT_ALLOWED_NOW, "every seat must be filled (by a player or a bot) to start")
    seats: list[SeatInfo] = [s for s in st.seating if s is not None]
    options = RoomConfig(st.preset, st.overrides, st.seats, st.turn_seconds).options()
    number = st.match_count + 1
    seed = hand_seed(st.seed, number, 1)
    game = Match(options, [s.name for s in seats])
    events = game.deal(seed)
    match_id = new_id()
    deadline = _deadline(st.turn_seconds)
    row = MatchRow(id=match_id, room_code=st.code, number=number, preset=st.preset, options=options.to_json(),
                   names=[s.name for s in seats], turn_seconds=st.turn_seconds, status=MatchStatus.PLAYING, v=game.v,
                   totals=list(game.totals), winners=None, turn_deadline=deadline)
    seat_rows = [Seat(match_id=match_id, seat=i, player_id=s.player_id, name=s.name, bot_level=s.bot,
                      team=options.team_of(i)) for i, s in enumerate(seats)]
    hand = Hand(match_id=match_id, number=1, seed=seed, commitment=commitment(seed), start_v=game.v)
    try:
        async with svc.sessions() as s:
            rev = await match_store.start_match(
                s, room_code=st.code, room_rev=st.rev, match=row, seats=seat_rows, hand=hand,
                room_values={"status": "playing", "match_id": match_id, "match_count": number})
    except Conflict as e:
        await svc.reload(room)
        raise RoomError(E.CONFLICT, "the room changed just now; try again") from e
    st.status, st.match_id, st.match_count, st.rev = "playing", match_id, number, rev
    room.match = LiveMatch(match_id, number, game, seats, st.turn_seconds, deadline)
    room.match.remember(game.v, events)
    about(room.code, match_id)
    log.info("match %s started (%d seats, %d bots)", number, len(seats), sum(1 for s in seats if s.bot))
    for p in room.peers:
        p.sent_v = -1  # a new match: its first state carries the deal's events
    await svc.after_change(room, room_changed=True)


async def next_hand(svc: RoomService, room: LiveRoom, peer: Peer) -> None:
    """Deal the next hand of the match (any seated player, once a hand is over)."""
    m = room.match
    if m is None:
        raise RoomError(E.GAME_NOT_STARTED, "the game has not started")
    if m.game.status != MatchStatus.HAND_OVER:
        raise RoomError(E.NOT_ALLOWED_NOW, "the next hand can be dealt only when a hand is over"
                        if m.game.status != MatchStatus.MATCH_OVER else "the match is over: ask for a rematch")
    if m.seat_of(peer.player_id) is None:
        raise RoomError(E.NOT_ALLOWED_NOW, "only a player of this match can deal the next hand")
    expect_v = m.game.v
    number = len(m.game.hands) + 1
    seed = hand_seed(room.state.seed, m.number, number)
    events = m.game.deal(seed)
    deadline = _deadline(m.turn_seconds)
    hand = Hand(match_id=m.id, number=number, seed=seed, commitment=commitment(seed), start_v=m.game.v)
    try:
        async with svc.sessions() as s:
            await match_store.record_deal(s, match_id=m.id, expect_v=expect_v, hand=hand,
                                          match_values={"status": MatchStatus.PLAYING, "turn_deadline": deadline})
    except Exception as e:
        await svc.reload(room)
        if isinstance(e, Conflict):
            raise RoomError(E.CONFLICT, "the next hand was already dealt") from e
        log.exception("could not store the deal of hand %s of match %s", number, m.id)
        raise RoomError(E.UNAVAILABLE, "the server could not save that; try again") from e
    m.deadline = deadline
    m.remember(m.game.v, events)
    await svc.after_change(room)


async def move(svc: RoomService, room: LiveRoom, peer: Peer, move_id: str | None, data: Any) -> None:
    """A person's move: checked, committed, then shown to everyone."""
    m = room.match
    if m is None:
        raise RoomError(E.GAME_NOT_STARTED, "the game has not started", move_id=move_id)
    seat = m.seat_of(peer.player_id)
    if seat is None:
        raise RoomError(E.NOT_YOUR_TURN, "you are watching this game, not playing in it", move_id=move_id)
    if move_id is not None and (seat, move_id) in m.client_ids:
        svc.send_state(room, peer)  # already applied: the answer is the table as it is now
        return
    if m.game.status != MatchStatus.PLAYING:
        raise RoomError(E.NOT_ALLOWED_NOW, "the hand is over", move_id=move_id)
    if m.game.game.turn != seat:
        raise RoomError(E.NOT_YOUR_TURN, "it is not your turn", move_id=move_id)
    try:
        parsed = Move.from_wire(data)
    except BadMove as e:
        raise RoomError(E.BAD_MESSAGE, str(e), move_id=move_id) from e
    await commit_move(svc, room, seat, parsed, PERSON, move_id, peer)


async def commit_move(svc: RoomService, room: LiveRoom, seat: int, mv: Move, actor: str,
                      move_id: str | None = None, peer: Peer | None = None) -> None:
    """Apply `mv` for `seat` on the live match, commit it, then tell everyone."""
    m = room.match
    assert m is not None
    game = m.game
    expect_v, turn_before, hand_number = game.v, game.game.turn, len(game.hands)
    try:
        events = game.apply(mv, seat)
    except NotYourTurn as e:
        raise RoomError(E.NOT_YOUR_TURN, str(e), move_id=move_id) from e
    except EngineError as e:  # the engine changed nothing
        raise RoomError(E.ILLEGAL_MOVE, str(e), move_id=move_id) from e
    values: dict[str, Any] = {"status": game.status, "totals": list(game.totals)}
    deadline = m.deadline
    if game.status != MatchStatus.PLAYING:
        deadline = None
    elif game.game.turn != turn_before:
        deadline = _deadline(m.turn_seconds)
    values["turn_deadline"] = deadline
    hand_end = None
    if game.status in (MatchStatus.HAND_OVER, MatchStatus.MATCH_OVER):
        public = view(game, None)
        hand_end = HandEnd(hand_number, public["result"], public["result"]["scores"], list(game.totals),
                           [p["payoff_count"] for p in public["players"]])
        if game.status == MatchStatus.MATCH_OVER:
            values.update(winners=list(game.winners), ended_at=utcnow())
    write = MoveWrite(match_id=m.id, expect_v=expect_v, seq=game.v, hand_number=hand_number, seat=seat, actor=actor,
                      client_id=move_id, payload=mv.to_wire(), match_values=values, hand_end=hand_end,
                      room_code=room.code if game.status == MatchStatus.MATCH_OVER else None)
    try:
        await svc.writer.record(write)
    except Exception as e:
        await svc.reload(room)
        if move_id is not None and room.match is not None and (seat, move_id) in room.match.client_ids:
            if peer is not None:
                svc.send_state(room, peer)  # our twin on another socket got there first
            return
        if isinstance(e, Conflict):
            if peer is not None:
                svc.send_state(room, peer)
            raise RoomError(E.CONFLICT, "another move was made first; here is the table now",
                            move_id=move_id) from e
        log.exception("could not store move %s of match %s", expect_v + 1, m.id)
        raise RoomError(E.UNAVAILABLE, "the server could not save that move; try again", move_id=move_id) from e
    (MOVES_BY.get(actor) or MOVES.labels(actor)).inc()
    if move_id is not None:
        m.client_ids[(seat, move_id)] = game.v
    m.deadline = deadline
    notice = [] if actor in (PERSON, BOT) else [{"type": "autoplay", "seat": seat, "by": actor}]
    m.remember(game.v, notice + events)
    over = game.status == MatchStatus.MATCH_OVER
    if over:
        room.state.status = "over"
        room.state.rev += 1
        log.info("match %s over at version %d; winners %s", m.number, game.v, list(game.winners))
    record = None if hand_end is not None else move_record(seat, actor, move_id, write.payload, deadline)
    await svc.after_change(room, room_changed=over, move=record)
