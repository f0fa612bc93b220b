"""The room core's decisions, as pure functions of (room, command, now): no event loop, no
store, no sockets. Each test builds a room in memory and asks the core."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from app.domain.records import RoomStatus, Seen
from app.domain.writes import MatchChange
from app.engine import Match, MatchStatus, Move, make_options
from app.engine.moves import PLAY
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.effects import DealHand, MarkReady
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import Actor, decide_chat, decide_lobby
from app.rooms.core.match_rules import (
    AlreadyMade,
    CommitMove,
    Fresh,
    arm_next_hand,
    decide_due_deal,
    decide_hint,
    decide_move,
    decide_next_hand,
    decide_seat_move,
    decide_start,
)
from app.rooms.core.model import Room, RoomState, SeatInfo
from app.rooms.core.notices import Advanced, ChatSaid, Resync, RoomChanged, notice_from_json, notice_json
from app.rooms.core.steps import DealStep, MatchLog, MoveStep, StepRefused, apply_steps, new_match, rebuild
from app.rooms.core.timers import ABSENT, BOT, CLOCK, DEAL, Timer, absent_seats, decide_automatic, next_timer

from .fakes import START, settings

HOST, GUEST, OTHER = Actor("h", "Hana"), Actor("g", "Gus"), Actor("o", "Olga")
FRESH = Fresh("m1", "ab" * 16)
RULES = settings()


def lobby(seats: int = 2, **kw: object) -> Room:
    st = RoomState("ROOM", HOST.player_id, "standard", {}, seats, True, None, True, None, RoomStatus.WAITING,
                   [None] * seats, 0, None, 0)
    return Room(replace(st, **kw), None, loaded_at=START)  # type: ignore[arg-type]


def sit(room: Room, who: Actor, seat: int | None = None) -> None:
    patch = decide_lobby(room, who, C.Sit(seat), START, RULES)
    assert patch is not None
    room.state = patch.applied(room.state, room.state.rev + 1)


def playing(room: Room, *, bot: str | None = None, turn_seconds: int | None = None) -> Room:
    """Seat the host and the guest (or a bot) and start: the match dealt, seat 0 to move."""
    room.state = replace(room.state, turn_seconds=turn_seconds)
    sit(room, HOST)
    if bot is None:
        sit(room, GUEST)
    else:
        patch = decide_lobby(room, HOST, C.AddBot(None, bot), START, RULES)
        assert patch is not None
        room.state = patch.applied(room.state, room.state.rev + 1)
    begin = decide_start(room, HOST, rematch=False, now=START, fresh=FRESH, settings=RULES)
    room.state = begin.room.applied(room.state, room.state.rev + 1)
    room.match = begin.match
    apply_steps(begin.match, [begin.deal], begin.deadline)
    room.here.update({HOST.player_id: 1, GUEST.player_id: 1})
    return room


def to_move(room: Room) -> Actor:
    assert room.match is not None
    return HOST if room.match.turn == 0 else GUEST


# The lobby.
def test_sitting_takes_the_first_free_seat_and_refuses_taken_and_full_tables() -> None:
    room = lobby()
    sit(room, HOST)
    assert room.lobby_seat(HOST.player_id) == 0
    with pytest.raises(RoomError) as taken:
        decide_lobby(room, GUEST, C.Sit(0), START, RULES)
    assert taken.value.code == E.SEAT_TAKEN
    sit(room, GUEST)
    with pytest.raises(RoomError) as full:
        decide_lobby(room, OTHER, C.Sit(None), START, RULES)
    assert full.value.code == E.ROOM_FULL
    with pytest.raises(RoomError) as nowhere:
        decide_lobby(room, OTHER, C.Sit(7), START, RULES)
    assert nowhere.value.code == E.BAD_MESSAGE
    assert decide_lobby(room, HOST, C.Sit(None), START, RULES) is None  # already seated: nothing to write


def test_only_the_host_adds_bots_until_the_host_has_been_away_past_the_grace() -> None:
    room = lobby(3)
    sit(room, GUEST)
    room.presence = {HOST.player_id: Seen(False, START)}
    with pytest.raises(RoomError) as refused:
        decide_lobby(room, GUEST, C.AddBot(None, "easy"), START + timedelta(seconds=5), RULES)
    assert refused.value.code == E.NOT_HOST
    later = START + timedelta(seconds=RULES.absent_grace + 1)
    patch = decide_lobby(room, GUEST, C.AddBot(None, "easy"), later, RULES)
    assert patch is not None
    assert patch.values()["seating"][1] == {"player_id": None, "name": "Easy bot 2", "bot": "easy"}
    with pytest.raises(RoomError) as watcher:  # a watcher never hosts
        decide_lobby(room, OTHER, C.AddBot(None, "easy"), later, RULES)
    assert watcher.value.code == E.NOT_HOST


def test_configure_names_the_bad_option_and_keeps_what_was_not_sent() -> None:
    room = lobby(turn_seconds=30)
    with pytest.raises(RoomError) as bad:
        decide_lobby(room, HOST, C.Configure(options={"payoff_size": 99}), START, RULES)
    assert bad.value.code == E.BAD_OPTIONS and bad.value.option == "payoff_size"
    kept = decide_lobby(room, HOST, C.Configure(seats=3), START, RULES)
    assert kept is not None and kept.turn_seconds == 30 and kept.seats == 3 and len(kept.values()["seating"]) == 3
    cleared = decide_lobby(room, HOST, C.Configure(turn_seconds=None), START, RULES)
    assert cleared is not None and cleared.values()["turn_seconds"] is None


def test_the_lobby_is_closed_while_a_match_is_played() -> None:
    room = playing(lobby())
    for cmd in (C.Stand(), C.Sit(1), C.Configure(seats=3)):
        with pytest.raises(RoomError) as refused:
            decide_lobby(room, HOST, cmd, START, RULES)
        assert refused.value.code == E.NOT_ALLOWED_NOW


def test_chat_is_cleaned_and_bounded() -> None:
    room = lobby()
    line = decide_chat(room, GUEST, "  hi\tthere\x07 ", START, RULES)
    assert (line.text, line.sender["seat"], line.at) == ("hi there", None, START.isoformat())
    with pytest.raises(RoomError):
        decide_chat(room, GUEST, "\x00\x01 ", START, RULES)
    with pytest.raises(RoomError):
        decide_chat(room, GUEST, "x" * (RULES.max_chat_chars + 1), START, RULES)


# Starting and playing.
def test_a_match_starts_only_with_every_seat_filled_and_by_the_host() -> None:
    room = lobby()
    sit(room, HOST)
    with pytest.raises(RoomError) as empty_seat:
        decide_start(room, HOST, rematch=False, now=START, fresh=FRESH, settings=RULES)
    assert empty_seat.value.code == E.NOT_ALLOWED_NOW
    sit(room, GUEST)
    with pytest.raises(RoomError) as not_host:
        decide_start(room, GUEST, rematch=False, now=START, fresh=FRESH, settings=RULES)
    assert not_host.value.code == E.NOT_HOST
    with pytest.raises(RoomError) as too_soon:
        decide_start(room, GUEST, rematch=True, now=START, fresh=FRESH, settings=RULES)
    assert too_soon.value.code == E.NOT_ALLOWED_NOW
    begin = decide_start(room, HOST, rematch=False, now=START, fresh=FRESH, settings=RULES)
    assert begin.deal == DealStep(0, 1, FRESH.seed) and begin.match.id == "m1"
    assert room.match is None and room.state.status == RoomStatus.WAITING  # deciding changed nothing


def test_a_table_of_bots_only_is_not_started() -> None:
    """A match needs a person at the table: bots alone would play for nobody (hardening 3, #1)."""
    room = lobby()
    for _ in range(2):
        patch = decide_lobby(room, HOST, C.AddBot(None, "easy"), START, RULES)
        assert patch is not None
        room.state = patch.applied(room.state, room.state.rev + 1)
    with pytest.raises(RoomError) as bots_only:
        decide_start(room, HOST, rematch=False, now=START, fresh=FRESH, settings=RULES)
    assert bots_only.value.code == E.NOT_ALLOWED_NOW and bots_only.value.reason == "need_person"
    assert room.match is None


def test_deciding_a_move_checks_it_and_changes_nothing() -> None:
    room = playing(lobby())
    m = room.match
    assert m is not None
    mover, waiting = to_move(room), (GUEST if to_move(room) is HOST else HOST)
    legal = m.engine.game.legal_moves()[0]
    with pytest.raises(RoomError) as wrong_turn:
        decide_move(room, waiting, legal, "a", START)
    assert (wrong_turn.value.code, wrong_turn.value.move_id) == (E.NOT_YOUR_TURN, "a")
    with pytest.raises(RoomError) as watching:
        decide_move(room, OTHER, legal, None, START)
    assert watching.value.code == E.NOT_YOUR_TURN
    with pytest.raises(RoomError) as illegal:
        decide_move(room, mover, Move(PLAY, 0, "payoff:0", "centre:5"), None, START)
    assert illegal.value.code == E.ILLEGAL_MOVE
    before = (m.v, repr(m.engine.game.hands), m.engine.game.turn_plays)
    decided = decide_move(room, mover, legal, "a", START)
    assert isinstance(decided, CommitMove) and decided.step == MoveStep(1, m.turn, legal, "player", "a")
    assert (m.v, repr(m.engine.game.hands), m.engine.game.turn_plays) == before
    apply_steps(m, [decided.step], decided.deadline)
    assert isinstance(decide_move(room, mover, legal, "a", START), AlreadyMade)


def test_a_moves_record_is_its_row_and_what_it_changes_on_its_match() -> None:
    """The store takes the record as the core built it: the row (version, seat, actor, move id,
    the move as the wire says it) and the match's change, read off the preview."""
    room = playing(lobby(), turn_seconds=20)
    m = room.match
    assert m is not None
    later = START + timedelta(seconds=7)
    move = m.engine.game.legal_moves()[0]
    decided = decide_move(room, to_move(room), move, "a", later)
    assert isinstance(decided, CommitMove) and decided.previewed is not None
    w, after = decided.write, decided.previewed.match
    assert (w.match_id, w.room_code, w.expect_v, w.seq, w.hand_number) == (m.id, room.code, m.v, m.v + 1, 1)
    assert (w.seat, w.actor, w.client_id, w.payload) == (m.turn, "player", "a", move.to_wire())
    assert w.match == MatchChange(MatchStatus.PLAYING, list(after.totals), decided.deadline, None, later,
                                  after.game.turn)
    assert w.plain and w.hand_end is None and w.room_values is None and decided.room is None
    assert not decided.ends_match and decided.expect_v == m.v


def test_a_turn_clock_deadline_is_set_when_the_turn_passes() -> None:
    room = playing(lobby(), turn_seconds=20)
    m = room.match
    assert m is not None and m.deadline == START + timedelta(seconds=20)
    later = START + timedelta(seconds=7)
    mover = to_move(room)
    while True:  # play the turn through to its last move: the deadline restarts for the next seat
        move = m.engine.game.legal_moves()[0]
        decided = decide_move(room, mover, move, None, later)
        assert isinstance(decided, CommitMove)
        passes = decided.deadline != m.deadline
        apply_steps(m, [decided.step], decided.deadline)
        if passes:
            break
    assert m.deadline == later + timedelta(seconds=20) and to_move(room) is not mover


def test_the_next_hand_and_a_rematch_wait_for_the_end() -> None:
    room = playing(lobby())
    with pytest.raises(RoomError) as early:
        decide_next_hand(room, HOST, START, FRESH)
    assert early.value.code == E.NOT_ALLOWED_NOW
    with pytest.raises(RoomError) as no_rematch:
        decide_start(room, HOST, rematch=True, now=START, fresh=FRESH, settings=RULES)
    assert no_rematch.value.code == E.NOT_ALLOWED_NOW


def hand_over(room: Room) -> Room:
    """Play first legal moves until the hand is over (a match to 500, pay-off piles of 5)."""
    m = room.match
    assert m is not None
    while m.playing:
        decided = decide_seat_move(room, m.turn, m.engine.game.legal_moves()[0], "player", None, START)
        apply_steps(m, [decided.step], decided.deadline, previewed=decided.previewed)
    assert m.engine.status == MatchStatus.HAND_OVER
    arm_next_hand(m, START, 20)
    return room


def test_the_next_hand_is_dealt_when_everyone_is_ready_or_the_countdown_ends() -> None:
    room = hand_over(playing(lobby(overrides={"payoff_size": 5, "match_target": 500})))
    m = room.match
    assert m is not None and m.next_deadline == START + timedelta(seconds=20)
    first = decide_next_hand(room, HOST, START, FRESH)
    assert first == MarkReady(m.id, m.v, 0)  # the guest is still reading: nothing to deal
    m.ready.add(first.seat)
    timer = next_timer(room, START + timedelta(seconds=5), 0.0, RULES)
    assert timer == Timer(pytest.approx(15.0), DEAL, m.v)
    assert decide_due_deal(room, m.v, START + timedelta(seconds=5), FRESH) is None
    both = decide_next_hand(room, GUEST, START, FRESH)
    assert isinstance(both, DealHand) and both.deal.number == 2 and both.expect_v == m.v
    # Nobody else says so: the countdown deals.
    due = decide_due_deal(room, m.v, START + timedelta(seconds=20), FRESH)
    assert due is not None and due.deal.number == 2
    assert decide_due_deal(room, m.v - 1, START + timedelta(seconds=30), FRESH) is None  # armed for another version
    with pytest.raises(RoomError) as watcher:
        decide_next_hand(room, OTHER, START, FRESH)
    assert watcher.value.code == E.NOT_ALLOWED_NOW


def test_bots_and_people_away_count_as_ready() -> None:
    room = hand_over(playing(lobby(overrides={"payoff_size": 5, "match_target": 500}), bot="easy"))
    m = room.match
    assert m is not None
    assert next_timer(room, START, 0.0, RULES) == Timer(pytest.approx(20.0), DEAL, m.v)
    assert isinstance(decide_next_hand(room, HOST, START, FRESH), DealHand)  # the bot is always ready
    room2 = hand_over(playing(lobby(overrides={"payoff_size": 5, "match_target": 500})))
    del room2.here[GUEST.player_id]  # the guest left
    deal = decide_next_hand(room2, HOST, START, FRESH)
    assert isinstance(deal, DealHand) and room2.match is not None
    dealt = room2.match
    apply_steps(dealt, [deal.deal], None)
    arm_next_hand(dealt, START, 20)
    assert dealt.playing and dealt.next_deadline is None and not dealt.ready


def test_hints_are_for_the_player_to_move_in_rooms_that_allow_them() -> None:
    room = playing(lobby())
    ask = decide_hint(room, to_move(room))
    assert ask.v == 0 and ask.view["legal_moves"]
    with pytest.raises(RoomError) as not_yours:
        decide_hint(room, GUEST if to_move(room) is HOST else HOST)
    assert not_yours.value.code == E.NOT_YOUR_TURN
    room.state = replace(room.state, hints=False)
    with pytest.raises(RoomError) as off:
        decide_hint(room, to_move(room))
    assert off.value.code == E.HINTS_OFF


# The timer.
def test_a_bot_moves_after_the_pause_and_a_person_is_waited_for() -> None:
    room = playing(lobby(), bot="easy")
    m = room.match
    assert m is not None
    room.changed_at = 500.0
    if m.turn == 0:  # the person first: nothing to do while they are here and no clock runs
        assert next_timer(room, START, 500.0, RULES) is None
        mover = HOST
        while m.turn == 0:
            decided = decide_move(room, mover, m.engine.game.legal_moves()[0], None, START)
            assert isinstance(decided, CommitMove)
            apply_steps(m, [decided.step], decided.deadline)
    timer = next_timer(room, START, 500.2, RULES)
    assert timer == Timer(pytest.approx(RULES.bot_delay - 0.2), BOT, m.v)
    ask = decide_automatic(room, Timer(0, BOT, m.v), START, 500.0 + RULES.bot_delay, RULES)
    assert ask is not None and (ask.seat, ask.level, ask.kind) == (1, "easy", BOT)
    assert ask.view["you"] == 1 and ask.view["hand"]  # the bot's own view, nobody else's
    assert decide_automatic(room, Timer(0, BOT, m.v - 1), START, 600.0, RULES) is None  # the table moved on


def test_the_clock_plays_at_the_deadline_and_a_stand_in_after_the_grace() -> None:
    room = playing(lobby(), turn_seconds=10)
    m = room.match
    assert m is not None
    seat = m.turn
    timer = next_timer(room, START + timedelta(seconds=4), 1000.0, RULES)
    assert timer is not None and timer.kind == CLOCK and timer.delay == pytest.approx(6)
    # The player to move leaves: a stand-in plays once they have been away the grace (the
    # clock comes first if it is sooner).
    m.turn_seconds, m.deadline = None, None
    mover = to_move(room)
    room.here.pop(mover.player_id)
    room.presence = {mover.player_id: Seen(False, START)}
    timer = next_timer(room, START + timedelta(seconds=10), 1000.0, RULES)
    assert timer is not None and timer.kind == ABSENT and timer.delay == pytest.approx(RULES.absent_grace - 10)
    assert absent_seats(room, START + timedelta(seconds=10), RULES.absent_grace) == []
    due = START + timedelta(seconds=RULES.absent_grace)
    assert absent_seats(room, due, RULES.absent_grace) == [seat]
    ask = decide_automatic(room, Timer(0, ABSENT, m.v), due, 1000.0, RULES)
    assert ask is not None and (ask.seat, ask.level) == (seat, RULES.takeover_level)
    room.here.clear()  # nobody left in the room: nobody is played for
    assert next_timer(room, due, 1000.0, RULES) is None


# Steps and notices.
def test_the_applier_refuses_gaps_and_rebuilding_reproduces_the_match() -> None:
    room = playing(lobby())
    m = room.match
    assert m is not None
    steps: list[MoveStep | DealStep] = [DealStep(0, 1, FRESH.seed)]
    for _ in range(12):
        move = m.engine.game.legal_moves()[-1]
        step = MoveStep(m.v + 1, m.turn, move, "player", f"c{m.v}")
        apply_steps(m, [step], None)
        steps.append(step)
    with pytest.raises(StepRefused):
        apply_steps(m, [MoveStep(m.v + 2, m.turn, Move("end_turn"))], None)
    log = MatchLog(m.id, 1, make_options("standard").to_json(), m.seats, None, m.v, None, steps)
    again = rebuild(log)
    assert again.engine.game.hands == m.engine.game.hands and again.client_ids == m.client_ids
    with pytest.raises(StepRefused):
        rebuild(MatchLog(m.id, 1, log.options, m.seats, None, m.v + 1, None, steps))


def test_autoplayed_moves_carry_an_autoplay_event() -> None:
    engine = Match(make_options("standard"), ["a", "b"])
    m = new_match("x", 1, engine, [SeatInfo("a", "a"), SeatInfo("b", "b")], None)
    apply_steps(m, [DealStep(0, 1, "seed")], None)
    move = engine.game.legal_moves()[0]
    apply_steps(m, [MoveStep(1, engine.game.turn, move, CLOCK)], None)
    assert b'"autoplay"' in m.events[1] and b'"clock"' in m.events[1]
    assert engine.status == MatchStatus.PLAYING


def test_bus_notices_round_trip_and_garbage_means_resync() -> None:
    step = MoveStep(3, 1, Move("end_turn"), "bot", None)
    for notice in (Advanced("m", 3, False, step, START), Advanced("m", 4, True), RoomChanged(),
                   ChatSaid({"name": "a"}, "hi", "t")):
        assert notice_from_json(notice_json(notice, "me")) == notice
    for garbage in ({"kind": "v"}, {"kind": "v", "match": "m", "v": "x"}, {"kind": "what"},
                    {"kind": "v", "match": "m", "v": 1, "move": {"seq": 1}}):
        assert isinstance(notice_from_json(garbage), Resync)


def test_seeded_rooms_later_hands_cannot_be_computed_from_the_first_hands_seed() -> None:
    from app.rooms.core.match_rules import hand_seed

    key_a, key_b = Fresh("m", "x", b"key-a"), Fresh("m", "x", b"key-b")
    assert hand_seed("room-seed", key_a, 1, 1) == "room-seed"  # the room's own seed deals hand 1
    later = hand_seed("room-seed", key_a, 1, 2)
    assert later == hand_seed("room-seed", key_a, 1, 2) and len(later) == 64  # repeatable with the key
    assert later not in ("room-seed/1/2", hand_seed("room-seed", key_b, 1, 2))
    assert hand_seed(None, key_a, 1, 2) == "x"  # unseeded rooms: a fresh secret every hand


def test_bots_wait_while_nobody_is_in_the_room() -> None:
    room = playing(lobby(), bot="easy")
    m = room.match
    assert m is not None
    room.here.clear()
    assert next_timer(room, START, 2000.0, RULES) is None
    room.here["o"] = 1  # a watcher is enough
    if m.turn == 1:
        assert next_timer(room, START, 2000.0, RULES) is not None


def test_the_host_may_free_anyones_seat_before_the_match_and_no_other() -> None:
    """A connected squatter cannot stall the start; the host frees the seat."""
    room = lobby(3)
    sit(room, HOST)
    sit(room, GUEST)
    room.here.update({HOST.player_id: 1, GUEST.player_id: 1})
    patch = decide_lobby(room, HOST, C.FreeSeat(1), START, RULES)  # Gus is here: the host may still
    assert patch is not None and not isinstance(patch.seating, C.Unset)
    assert patch.seating[1] is None and patch.seating[0] is not None
    with pytest.raises(RoomError) as own:
        decide_lobby(room, HOST, C.FreeSeat(0), START, RULES)
    assert own.value.code == E.NOT_ALLOWED_NOW
    with pytest.raises(RoomError) as not_host:
        decide_lobby(room, OTHER, C.FreeSeat(1), START, RULES)
    assert not_host.value.code == E.NOT_HOST
    with pytest.raises(RoomError) as empty:
        decide_lobby(room, HOST, C.FreeSeat(2), START, RULES)
    assert empty.value.code == E.NOT_ALLOWED_NOW


def test_a_stand_in_host_frees_only_the_seats_of_players_who_are_away() -> None:
    room = lobby(3)
    sit(room, HOST)
    sit(room, GUEST)
    sit(room, OTHER)
    del room.here[HOST.player_id]
    room.here.update({GUEST.player_id: 1, OTHER.player_id: 1})
    room.presence = {HOST.player_id: Seen(False, START)}
    later = START + timedelta(seconds=RULES.absent_grace + 1)
    with pytest.raises(RoomError) as here:  # Gus is here: only the host could free his seat
        decide_lobby(room, OTHER, C.FreeSeat(1), later, RULES)
    assert here.value.code == E.NOT_ALLOWED_NOW
    patch = decide_lobby(room, OTHER, C.FreeSeat(0), later, RULES)  # the absent host's seat
    assert patch is not None and not isinstance(patch.seating, C.Unset) and patch.seating[0] is None


def test_each_receiver_is_sent_the_events_the_observer_allows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Today every event is public; should the observer ever say otherwise (a squared side
    stack's buried card, say), the room keeps and sends each receiver its own list."""
    import orjson

    import app.rooms.core.model as model

    room = playing(lobby())
    m = room.match
    assert m is not None
    monkeypatch.setattr(model, "events_same_for_all", lambda events: False)
    monkeypatch.setattr(model, "events_for", lambda events, seat: [e for e in events if e.get("to") == seat])
    m.remember(m.v + 1, [{"type": "x", "to": 0}, {"type": "y", "to": 1}, {"type": "z", "to": None}])
    m.engine.v += 1  # as if version v+1 were applied
    mine, theirs, watcher = (m.events_since(m.v - 1, s) for s in (0, 1, None))

    def decoded(events: object) -> list[str]:
        return [e["type"] for e in orjson.loads(orjson.dumps(events))]

    assert (decoded(mine), decoded(theirs), decoded(watcher)) == (["x"], ["y"], ["z"])


def test_nobody_sits_under_a_name_someone_at_the_table_already_has() -> None:
    room = lobby(3)
    sit(room, HOST)
    sit(room, Actor("x", "hana"))  # the host is Hana
    sit(room, Actor("y", "Hana"))
    assert [s.name for s in room.state.seating if s] == ["Hana", "hana (2)", "Hana (3)"]


def test_adopting_the_previewed_move_is_the_same_as_making_it_again() -> None:
    """A committed move replaces the match by the copy it was decided on: over a whole hand
    of first-legal and last-legal moves that must leave exactly what applying it would."""
    import random

    room = playing(lobby())
    m = room.match
    assert m is not None
    again = Match(m.engine.options, m.engine.names)
    again.deal(FRESH.seed)
    rng = random.Random(3)
    for _ in range(400):
        if not m.playing:
            break
        moves = m.engine.game.legal_moves()
        move = rng.choice(moves)
        decided = decide_move(room, to_move(room), move, None, START)
        assert isinstance(decided, CommitMove) and decided.previewed is not None
        apply_steps(m, [decided.step], decided.deadline, previewed=decided.previewed)
        expected = again.apply(move, decided.step.seat)
        g, h = m.engine.game, again.game
        assert (g.hands, g.payoff, g.side, g.centre, g.stock, g.turn, g.outcome, m.v, m.engine.totals) == \
            (h.hands, h.payoff, h.side, h.centre, h.stock, h.turn, h.outcome, again.v, again.totals)
        assert m.events[m.v] == __import__("orjson").dumps(expected)
    assert m.v > 50
