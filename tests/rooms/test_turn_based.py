"""Turn-based rooms: the core's decisions (pure, at chosen times) and the shell over
in-memory ports and a fake clock: the deadline acts with nobody connected, missed turns hand
the seat to a bot until its player moves, bots move at once, an idle room waits in the store
and comes back when due. No server, no database (tests/web/test_turn_based.py has those)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from app.rooms.core import commands as C
from app.rooms.core.config import resolve
from app.rooms.core.errors import ConfigError
from app.rooms.core.model import Room
from app.rooms.core.pace import DEADLINE, STANDIN, act_at, count_missed, handed, person_deadline
from app.rooms.core.timers import BOT, next_timer

from .fakes import START, MemoryStorage, RecordingPeer, settings
from .test_shell import play_first_legal, seated
from .test_shell import world as world  # noqa: F401  (the fixture)

TURN = 600  # seconds a turn in these rooms


def rules(**overrides: Any) -> Any:
    return settings(turn_based_min_seconds=60, **overrides)


# The core, pure.
def test_turn_bounds_of_a_turn_based_room() -> None:
    config = resolve("standard", None, 2, None, min_turn=1, max_turn=3600, pace="turn_based", turn_based_min=3600)
    assert config.turn_seconds == 86_400  # one day unless given
    assert resolve("standard", None, 2, 14 * 86_400, min_turn=1, max_turn=3600, pace="turn_based",
                   turn_based_min=3600).turn_seconds == 14 * 86_400
    for bad in (3599, 14 * 86_400 + 1):
        with pytest.raises(ConfigError) as e:
            resolve("standard", None, 2, bad, min_turn=1, max_turn=3600, pace="turn_based", turn_based_min=3600)
        assert e.value.option == "turn_seconds"
    with pytest.raises(ConfigError) as e:
        resolve("standard", None, 2, None, min_turn=1, max_turn=3600, pace="slow")
    assert e.value.option == "pace"
    # Live rooms keep their bounds: an hour at most.
    with pytest.raises(ConfigError):
        resolve("standard", None, 2, 7200, min_turn=1, max_turn=3600)


def test_missed_turns_count_deadline_turns_in_a_row_and_a_players_move_resets_them() -> None:
    missed = [0, 0]
    count_missed(missed, 0, DEADLINE, False)  # a deadline move that did not end the turn
    assert missed == [0, 0]
    for _ in range(3):
        count_missed(missed, 0, DEADLINE, True)
    count_missed(missed, 0, STANDIN, True)  # the bot playing a handed seat counts nothing
    assert missed == [3, 0] and handed(missed, 0, 3) and not handed(missed, 0, 4)
    count_missed(missed, 0, "player", False)
    assert missed == [0, 0] and not handed(missed, 0, 3)


def test_the_stored_deadline_is_a_whole_turn_for_a_person_and_now_for_a_bot() -> None:
    assert act_at(START, TURN, person=True, handed_over=False) == START + timedelta(seconds=TURN)
    assert act_at(START, TURN, person=False, handed_over=False) == START
    assert act_at(START, TURN, person=True, handed_over=True) == START
    # A connected player of a handed seat has the whole turn from its start.
    assert person_deadline(START, TURN, True) == START + timedelta(seconds=TURN)
    assert person_deadline(START, TURN, False) == START


async def _started(svc: Any, storage: MemoryStorage, **room: Any) -> tuple[Any, RecordingPeer, RecordingPeer]:
    live, host, guest = await seated(svc, storage, pace="turn_based", turn_seconds=TURN, **room)
    await svc.handle(live, host, C.Start())
    return live, host, guest


async def test_next_timer_of_a_turn_based_room_needs_nobody_connected(world: Any) -> None:
    storage, clock, make = world
    svc = await make(turn_based_min_seconds=60, deadline_horizon=120)
    live, host, guest = await _started(svc, storage)
    room: Room = live.room
    m = room.match
    assert m is not None and m.deadline == clock.now() + timedelta(seconds=TURN)
    at = clock.now()
    # Everyone gone: a live room would wait; a turn-based one waits only for the horizon.
    room.here.clear()
    room.presence = {}
    assert next_timer(room, at, clock.monotonic(), rules(deadline_horizon=120)) is None  # 600 s off
    later = at + timedelta(seconds=TURN - 100)
    timer = next_timer(room, later, clock.monotonic(), rules(deadline_horizon=120))
    assert timer is not None and timer.kind == DEADLINE and timer.delay == pytest.approx(100)
    # Handed to a bot after the missed turns: the bot plays at once while its player is away.
    m.missed[m.turn] = 3
    timer = next_timer(room, at, clock.monotonic(), rules(missed_turns=3))
    assert timer is not None and timer.kind == STANDIN and timer.delay == 0


async def test_the_deadline_plays_the_turn_with_nobody_connected(world: Any) -> None:
    storage, clock, make = world
    svc = await make(turn_based_min_seconds=60, deadline_horizon=120, bot_delay=0.5)
    live, host, guest = await _started(svc, storage)
    m = live.room.match
    assert m is not None
    seat, v = m.turn, m.v
    await svc.leave(live, host)
    await svc.leave(live, guest)
    await clock.advance(TURN - 5)
    await svc.driving._adopt()  # the lease keeper's poll: the room is due within the horizon
    await clock.advance(4)
    assert m.v == v  # not before its time
    await clock.advance(2)
    steps = storage.steps(m.id)
    assert m.v > v and steps[v + 1].actor == DEADLINE and steps[v + 1].seat == seat
    # The server plays the whole turn, at once (nobody watches), and the next seat's clock starts.
    await clock.advance(1)
    assert m.turn != seat and all(s.actor == DEADLINE for s in storage.steps(m.id)[v + 1:])
    assert m.missed[seat] == 1 and m.deadline is not None
    assert m.deadline - clock.now() > timedelta(seconds=TURN - 5)  # the next seat has a whole turn


async def test_missed_turns_hand_the_seat_to_a_bot_until_its_player_moves(world: Any) -> None:
    storage, clock, make = world
    svc = await make(turn_based_min_seconds=60, deadline_horizon=TURN + 60, missed_turns=2, bot_delay=0.5)
    live, host, guest = await _started(svc, storage)
    m = live.room.match
    assert m is not None
    away = guest if m.turn == 1 else host
    here = host if away is guest else guest
    away_seat = 1 if away is guest else 0
    await svc.leave(live, away)
    for _ in range(2):  # two deadlines missed in a row by the away seat
        while m.turn != away_seat:
            await play_first_legal(svc, live, here)
        await clock.advance(TURN + 1)
    assert m.missed[away_seat] == 2
    while m.turn != away_seat:
        await play_first_legal(svc, live, here)
    v = m.v
    await clock.advance(1)  # handed: a bot plays at once (after the pause, since someone watches)
    assert m.v > v and storage.steps(m.id)[v + 1].actor == STANDIN
    assert here.last("state")["autoplay"] == [away_seat]
    # The player comes back: their seat is theirs again (no stand-in while they are here), and
    # their own move resets the count.
    while m.turn == away_seat:
        await clock.advance(1)
    back = RecordingPeer(away.player_id, away.name)
    await svc.join("ROOM", back, None)
    while m.turn != away_seat:
        await play_first_legal(svc, live, here)
    v = m.v
    await clock.advance(5)
    assert m.v == v  # their turn, while they are here: nobody plays it for them
    await play_first_legal(svc, live, back)
    assert m.missed[away_seat] == 0 and storage.steps(m.id)[v + 1].actor == "player"


async def test_bots_in_a_turn_based_room_move_at_once_with_nobody_connected(world: Any) -> None:
    storage, clock, make = world
    svc = await make(turn_based_min_seconds=60, bot_delay=5)
    live, host, _guest = await seated(svc, storage, bot="easy", pace="turn_based", turn_seconds=TURN)
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    while m.turn == 0:
        await play_first_legal(svc, live, host)
    await svc.leave(live, host)
    await svc.leave(live, _guest)
    v = m.v
    await clock.advance(0.01)  # no pause: nobody watches
    assert m.v > v and storage.steps(m.id)[v + 1].actor == BOT
    while m.turn == 1:
        await clock.advance(0.01)
    assert m.turn == 0 and storage.wake[m.id] == m.deadline


async def _left_with_a_bot(world: Any, missed_turns: int) -> tuple[Any, Any, Any]:
    """A turn-based room of the host and an Easy bot, started, then left by everyone: the
    service, the loaded room and its match."""
    storage, _clock, make = world
    svc = await make(turn_based_min_seconds=60, deadline_horizon=TURN + 60, missed_turns=missed_turns, bot_delay=0.5)
    live, host, guest = await seated(svc, storage, bot="easy", pace="turn_based", turn_seconds=TURN)
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    await svc.leave(live, host)
    await svc.leave(live, guest)
    return svc, live, m


async def test_a_table_only_bots_play_waits_until_someone_comes(world: Any) -> None:
    """Once every person's seat is handed to a bot, bots face only bots: with nobody connected
    nothing plays (no timer, no wake time in the store), and a watcher coming wakes the table
    (hardening 3, #1: a room of bots played 35,461 moves in 40 s for nobody)."""
    storage, clock, make = world
    svc, live, m = await _left_with_a_bot(world, missed_turns=1)
    while m.missed[0] < 1:  # the host's turn passes at its deadline: the seat is handed to a bot
        await clock.advance(TURN + 1)
    await clock.advance(1)
    v = m.v
    await clock.advance(TURN * 10)
    assert m.v == v, "nobody plays and nobody watches: the bots wait"
    assert storage.wake[m.id] is None and not svc.autoplay.needs_driver("ROOM")
    watcher = RecordingPeer("w", "Wanda")
    await svc.join("ROOM", watcher, None)
    await clock.advance(1)
    assert m.v > v, "someone watches: the bots and the stand-in play on"
    await svc.leave(live, watcher)
    await clock.advance(1)
    v = m.v
    await clock.advance(TURN * 10)
    assert m.v == v


async def test_a_person_still_playing_keeps_the_table_going_with_nobody_connected(world: Any) -> None:
    storage, clock, _make = world
    _svc, _live, m = await _left_with_a_bot(world, missed_turns=3)
    await clock.advance(TURN + 2)  # one turn missed of three: the host still plays
    assert m.missed[0] == 1 and m.turn == 0 and storage.wake[m.id] == m.deadline


async def test_an_idle_room_waits_in_the_store_unloaded_and_its_deadline_still_acts(world: Any) -> None:
    storage, clock, make = world
    svc = await make(turn_based_min_seconds=60, deadline_horizon=60, bot_delay=0.5)
    live, host, guest = await _started(svc, storage)
    m = live.room.match
    assert m is not None
    await svc.leave(live, host)
    await svc.leave(live, guest)
    await clock.advance(1)
    assert not svc.autoplay.needs_driver("ROOM")  # nothing armed, no lease: the deadline is far off
    assert "ROOM" not in storage.leases
    svc.rooms.unload(live)  # what the heartbeat does with a room nobody here needs
    assert storage.due and await storage.due(60) == []
    await clock.advance(TURN - 30)
    assert await storage.due(60) == ["ROOM"]
    await svc.driving._adopt()
    again = svc.rooms.get("ROOM")
    assert again is not None and again is not live
    await clock.advance(31)
    am = again.room.match
    assert am is not None and any(getattr(s, "actor", None) == DEADLINE for s in storage.steps(am.id))


async def test_live_rooms_still_wait_when_nobody_is_connected(world: Any) -> None:
    storage, clock, make = world
    svc = await make(bot_delay=0.5)
    live, host, guest = await seated(svc, storage, turn_seconds=10)
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None and storage.wake[m.id] is None  # live matches never enter the due list
    v = m.v
    await svc.leave(live, host)
    await svc.leave(live, guest)
    await clock.advance(60)
    assert m.v == v


async def test_the_turn_passing_to_a_player_with_no_socket_queues_one_reminder(world: Any) -> None:
    storage, clock, make = world
    svc = await make(turn_based_min_seconds=60, bot_delay=0.5)
    live, host, guest = await _started(svc, storage)
    m = live.room.match
    assert m is not None
    while m.turn != 0:  # the guest plays while here: nobody is told
        await play_first_legal(svc, live, guest)
    await svc.leave(live, guest)
    await clock.advance(1)
    assert storage.reminded == []
    while m.turn == 0:
        await play_first_legal(svc, live, host)
    await clock.advance(0.1)
    assert [(r.kind, r.player_id, r.room) for r in storage.reminded] == [("your_turn", "g", "ROOM")]
    r = storage.reminded[0]
    assert r.key == f"your_turn:ROOM:{m.id}:{m.v}" and r.deadline == m.deadline
    said = {"title": "push.your_turn.title", "body": "push.your_turn", "params": {"names": ["Hana"]}}
    assert r.payload() == {"type": "your_turn", "room": "ROOM", "url": "/r/ROOM", "title": "Your turn",
                           "body": "It is your move in the game with Hana.", "deadline": m.deadline.isoformat(),
                           "i18n": said}  # the catalogue's keys: said in the recipient's language at sending


async def test_live_rooms_queue_no_reminders(world: Any) -> None:
    storage, clock, make = world
    svc = await make(bot_delay=0.5)
    live, host, guest = await seated(svc, storage)
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    while m.turn != 0:
        await play_first_legal(svc, live, guest)
    await svc.leave(live, guest)
    while m.turn == 0:
        await play_first_legal(svc, live, host)
    await clock.advance(0.1)
    assert storage.reminded == []
