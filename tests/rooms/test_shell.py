"""The room shell over in-memory ports and a fake clock: commit, apply, fan out, publish and
schedule in that order; conflicts between two instances; the bots, the turn clock and absent
players driven by the clock; next hand and rematch. No server, no database."""

from __future__ import annotations

import gc
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from app.domain.records import RoomStatus
from app.engine import Match, MatchStatus
from app.engine.moves import END
from app.platform.bus import LocalBus
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.core.match_rules import Fresh
from app.rooms.core.messages import TableView
from app.rooms.core.model import LiveMatch
from app.rooms.shell.live import LiveRoom
from app.rooms.shell.service import RoomService

from .fakes import FakeClock, MemoryStorage, RecordingPeer, SeededBots, settings, settle

Make = Callable[..., Awaitable[RoomService]]


@pytest.fixture
async def world() -> AsyncIterator[tuple[MemoryStorage, FakeClock, Make]]:
    clock = FakeClock()
    storage = MemoryStorage(clock=clock)
    bus = LocalBus()
    made: list[RoomService] = []
    ids = itertools.count()

    async def make(name: str = "a", **overrides: Any) -> RoomService:
        svc = RoomService(settings(**overrides), storage, bus, SeededBots(), clock=clock, instance_id=name,
                          fresh=lambda: Fresh(f"m{next(ids)}", f"seed-{next(ids)}"))
        await svc.start()
        made.append(svc)
        return svc

    yield storage, clock, make
    for svc in made:
        await svc.close()


async def seated(svc: RoomService, storage: MemoryStorage, *, bot: str | None = None,
                 **room: Any) -> tuple[LiveRoom, RecordingPeer, RecordingPeer]:
    """A room with the host (and a guest, or a bot) seated, both people connected."""
    if "ROOM" not in storage.rooms:
        storage.add_room("ROOM", "h", **room)
    host, guest = RecordingPeer("h", "Hana"), RecordingPeer("g", "Gus")
    live = await svc.join("ROOM", host, None)
    await svc.join("ROOM", guest, None)
    await svc.handle(live, host, C.Sit())
    if bot is None:
        await svc.handle(live, guest, C.Sit())
    else:
        await svc.handle(live, host, C.AddBot(None, bot))
    return live, host, guest


def mover(live: LiveRoom, host: RecordingPeer, guest: RecordingPeer) -> RecordingPeer:
    assert live.room.match is not None
    return host if live.room.match.turn == 0 else guest


async def play_first_legal(svc: RoomService, live: LiveRoom, peer: RecordingPeer, move_id: str | None = None) -> None:
    assert live.room.match is not None
    await svc.handle(live, peer, C.MakeMove(live.room.match.engine.game.legal_moves()[0], move_id))


async def test_a_move_is_committed_then_applied_then_shown_to_every_socket(world: Any) -> None:
    storage, _clock, make = world
    svc = await make()
    live, host, guest = await seated(svc, storage)
    await svc.handle(live, host, C.Start())
    assert live.room.match is not None and live.room.state.status == RoomStatus.PLAYING
    assert host.last("state")["v"] == guest.last("state")["v"] == 0
    peer = mover(live, host, guest)
    await play_first_legal(svc, live, peer, "m-1")
    assert [s.v for s in storage.steps(live.room.match.id)] == [0, 1]
    assert host.last("state")["v"] == guest.last("state")["v"] == 1
    assert host.last("state")["view"]["hand"] != guest.last("state")["view"]["hand"]  # each their own view
    sent = len(peer.got)
    await svc.handle(live, peer, C.MakeMove(END, "m-1"))  # a resent id: the table, no new move
    assert storage.matches[live.room.match.id].log.v == 1 and peer.got[sent][0] == "state"


async def test_moves_leave_no_cyclic_garbage_behind(world: Any) -> None:
    """Each move's old engine match is freed by reference counting once the next version
    replaces it. A reference cycle through it (each version's views once held the tables that
    made them) kept every version's whole game alive until a garbage collection found it, and
    those collections cost more CPU than the engine's work on the move."""
    storage, _clock, make = world
    svc = await make()
    live, host, guest = await seated(svc, storage)
    await svc.handle(live, host, C.Start())
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable is kept in gc.garbage
    try:
        for i in range(30):
            assert live.room.match is not None
            if live.room.match.engine.status != MatchStatus.PLAYING:
                break
            await play_first_legal(svc, live, mover(live, host, guest), f"m-{i}")
        gc.collect()
        found = [type(o).__qualname__ for o in gc.garbage if isinstance(o, Match | TableView)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert live.room.match is not None and live.room.match.engine.v > 5
    assert found == []


async def test_a_move_the_store_refuses_is_shown_to_nobody(world: Any) -> None:
    storage, _clock, make = world
    svc = await make()
    live, host, guest = await seated(svc, storage)
    await svc.handle(live, host, C.Start())
    peer = mover(live, host, guest)
    sent = (len(host.got), len(guest.got))
    storage.fail = OSError("disk full")
    with pytest.raises(RoomError) as refused:
        await play_first_legal(svc, live, peer, "x")
    assert (refused.value.code, refused.value.move_id) == (E.UNAVAILABLE, "x")
    assert live.room.match is not None and live.room.match.v == 0 and live.stale  # nothing applied
    assert (len(host.got), len(guest.got)) == sent  # nobody was told anything, nobody was disconnected
    assert host.closed is None and guest.closed is None
    await play_first_legal(svc, live, peer, "x")  # the store is back: read first, then the move
    assert live.room.match.v == 1 and not live.stale and host.last("state")["v"] == 1


async def test_two_instances_racing_for_one_version_converge(world: Any) -> None:
    storage, clock, make = world
    a, b = await make("a"), await make("b")
    live_a, host, guest = await seated(a, storage)
    await a.handle(live_a, host, C.Start())
    await settle()
    watcher = RecordingPeer("w", "Walt")
    live_b = await b.join("ROOM", watcher, None)
    assert live_b.room.match is not None and live_b.room.match.v == 0
    peer = mover(live_a, host, guest)
    twin = RecordingPeer(peer.player_id, peer.name)  # the same player on instance b
    await b.join("ROOM", twin, None)
    moves = live_a.room.match.engine.game.legal_moves() if live_a.room.match else []
    # b commits first; a still decides from version 0 (the bus has not delivered yet).
    await b.handle(live_b, twin, C.MakeMove(moves[0], "b-1"))
    with pytest.raises(RoomError) as lost:
        await a.handle(live_a, peer, C.MakeMove(moves[-1], "a-1"))
    assert lost.value.code == E.CONFLICT
    await settle()
    assert live_a.room.match is not None and live_b.room.match is not None
    assert live_a.room.match.v == live_b.room.match.v == 1
    assert live_a.room.match.engine.game.hands == live_b.room.match.engine.game.hands
    assert peer.last("state")["v"] == 1 and watcher.last("state")["v"] == 1


async def test_a_lobby_change_made_elsewhere_is_decided_again_on_the_fresh_room(world: Any) -> None:
    storage, _clock, make = world
    a, b = await make("a"), await make("b")
    storage.add_room("ROOM", "h", seats=3)
    host, guest, other = RecordingPeer("h", "Hana"), RecordingPeer("g", "Gus"), RecordingPeer("o", "Olga")
    live_a = await a.join("ROOM", host, None)
    live_b = await b.join("ROOM", guest, None)
    await a.join("ROOM", other, None)
    await a.handle(live_a, host, C.Sit(0))
    await b.handle(live_b, guest, C.Sit(1))  # b has not heard of the host's seat: its revision is stale
    await a.handle(live_a, other, C.Sit(None))  # a's copy may be stale too: decided again after the reload
    await settle()
    seats = [s.player_id if s else None for s in storage.rooms["ROOM"].seating]
    assert seats == ["h", "g", "o"]
    assert [s.player_id if s else None for s in live_a.room.state.seating] == seats


async def bot_to_move(svc: RoomService, storage: MemoryStorage) -> LiveMatch:
    """A started match against an easy bot, played by the host until it is the bot's turn."""
    live, host, _guest = await seated(svc, storage, bot="easy")
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    while m.turn == 0:
        await play_first_legal(svc, live, host)
    return m


async def test_a_bot_plays_its_turn_after_the_pause(world: Any) -> None:
    storage, clock, make = world
    m = await bot_to_move(await make(bot_delay=0.5), storage)
    v = m.v
    await clock.advance(0.2)
    assert m.v == v  # still thinking about it: people can follow
    await clock.advance(0.4)
    assert m.v > v and storage.steps(m.id)[v + 1].actor == "bot"


async def test_a_bot_whose_lease_was_let_go_for_a_moment_still_plays(world: Any) -> None:
    """The lease keeper let the room's lease go while the bot's timer was armed (its renewal
    found no driver needed at that instant): the timer stands down, asks for the lease again, and
    the bot plays once the lease is back, instead of the room waiting for ever."""
    storage, clock, make = world
    svc = await make(bot_delay=0.5, presence_debounce=5)  # nothing else re-arms the room meanwhile
    m = await bot_to_move(svc, storage)
    v = m.v
    await settle()
    assert svc.driving.holds("ROOM")
    await storage.release(["ROOM"], svc.instance)  # what _renew does with an idle room
    svc.driving.held.pop("ROOM")
    await clock.advance(0.6)  # the timer fires without the lease: it stands down and asks again
    await settle()
    await clock.advance(0.6)
    assert m.v > v and storage.steps(m.id)[v + 1].actor == "bot"


async def test_the_turn_clock_plays_for_a_player_who_runs_out_of_time(world: Any) -> None:
    storage, clock, make = world
    svc = await make(bot_delay=0.5)
    live, host, guest = await seated(svc, storage, turn_seconds=10)
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None and host.last("state")["clock"]["remaining"] == 10
    seat, v = m.turn, m.v
    await clock.advance(9)
    assert m.v == v
    await clock.advance(1.5)
    steps = storage.steps(m.id)
    assert m.v > v and steps[v + 1].actor == "clock" and steps[v + 1].seat == seat
    assert any(e["type"] == "autoplay" for s in host.of("state") for e in _events(s))


def _events(state: dict[str, Any]) -> list[dict[str, Any]]:
    import orjson

    events = state["events"]
    return orjson.loads(orjson.dumps(events)) if not isinstance(events, list) else events


async def test_a_stand_in_plays_for_an_absent_player_after_the_grace_until_they_return(world: Any) -> None:
    storage, clock, make = world
    svc = await make(absent_grace=30, bot_delay=0.5)
    live, host, guest = await seated(svc, storage)
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    away = mover(live, host, guest)
    await svc.leave(live, away)
    v = m.v
    await clock.advance(20)
    assert m.v == v
    await clock.advance(11)
    assert m.v > v and storage.steps(m.id)[v + 1].actor == "absent"
    back = RecordingPeer(away.player_id, away.name)
    await svc.join("ROOM", back, None)
    assert back.last("state")["autoplay"] == []


async def play_out_the_hand(svc: RoomService, live: LiveRoom, host: RecordingPeer, guest: RecordingPeer,
                            clock: FakeClock) -> None:
    """The guest leaves; the host plays the first legal move, a stand-in plays for the guest."""
    m = live.room.match
    assert m is not None
    await svc.leave(live, guest)
    for _ in range(2000):
        if not m.playing:
            return
        if m.turn == 0:
            await play_first_legal(svc, live, host)
        await clock.advance(1)
    raise AssertionError("the hand did not end")


async def test_the_next_hand_is_dealt_once_a_hand_is_over(world: Any) -> None:
    storage, clock, make = world
    svc = await make(absent_grace=0, bot_delay=0)
    live, host, guest = await seated(svc, storage, overrides={"payoff_size": 5, "match_target": 500})
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    with pytest.raises(RoomError) as early:
        await svc.handle(live, host, C.NextHand())
    assert early.value.code == E.NOT_ALLOWED_NOW
    await play_out_the_hand(svc, live, host, guest, clock)
    assert m.engine.status == MatchStatus.HAND_OVER and host.last("state")["view"]["result"] is not None
    await svc.handle(live, host, C.NextHand())
    assert len(m.engine.hands) == 2 and m.playing and host.last("state")["view"]["hand_number"] == 2
    assert storage.matches[m.id].log.steps[-1].v == m.v
    with pytest.raises(RoomError) as twice:
        await svc.handle(live, host, C.NextHand())
    assert twice.value.code == E.NOT_ALLOWED_NOW


async def test_the_next_hand_waits_for_every_seated_person_or_the_countdown(world: Any) -> None:
    storage, clock, make = world
    svc = await make(absent_grace=0, bot_delay=0, next_hand_seconds=20)
    live, host, guest = await seated(svc, storage, overrides={"payoff_size": 5, "match_target": 500})
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    await play_out_the_hand(svc, live, host, guest, clock)
    back = RecordingPeer("g", "Gus")
    await svc.join("ROOM", back, None)  # the guest is back, reading the result
    await clock.advance(1)
    assert host.last("state")["next_hand"]["ready"] == []
    await svc.handle(live, host, C.NextHand())
    assert len(m.engine.hands) == 1 and not m.playing  # the guest has not said so yet
    assert back.last("state")["next_hand"]["ready"] == [0]
    await svc.handle(live, back, C.NextHand())
    assert len(m.engine.hands) == 2 and m.playing and back.last("state")["next_hand"] is None
    # The next hand's end: nobody says anything, the countdown deals after 20 seconds.
    await play_out_the_hand(svc, live, host, back, clock)
    await svc.join("ROOM", RecordingPeer("g", "Gus"), None)
    await clock.advance(1)
    hands = len(m.engine.hands)
    left = host.last("state")["next_hand"]["remaining"]
    assert 0 < left <= 20
    await clock.advance(left - 1)
    assert len(m.engine.hands) == hands
    await clock.advance(2)
    assert len(m.engine.hands) == hands + 1 and m.playing


async def test_ready_marks_cross_instances(world: Any) -> None:
    storage, clock, make = world
    a, b = await make("a", absent_grace=0, bot_delay=0), await make("b", absent_grace=0, bot_delay=0)
    live_a, host, guest = await seated(a, storage, overrides={"payoff_size": 5, "match_target": 500})
    await a.handle(live_a, host, C.Start())
    await play_out_the_hand(a, live_a, host, guest, clock)
    back = RecordingPeer("g", "Gus")
    live_b = await b.join("ROOM", back, None)  # the guest comes back through instance b
    await clock.advance(1)
    m_a, m_b = live_a.room.match, live_b.room.match
    assert m_a is not None and m_b is not None and m_b.v == m_a.v
    await a.handle(live_a, host, C.NextHand())
    await settle()
    assert len(m_a.engine.hands) == 1 and back.last("state")["next_hand"]["ready"] == [0]  # heard on the bus
    await b.handle(live_b, back, C.NextHand())  # b knows everyone is ready: it deals
    await settle()
    assert len(m_b.engine.hands) == 2 and m_b.playing
    assert live_a.room.match is not None and len(live_a.room.match.engine.hands) == 2
    assert host.last("state")["view"]["hand_number"] == 2


async def test_a_rematch_is_an_offer_that_starts_once_every_seated_person_accepts(world: Any) -> None:
    storage, clock, make = world
    svc = await make(absent_grace=0, bot_delay=0)
    other = await make("b")
    live, host, guest = await seated(svc, storage, overrides={"payoff_size": 5})
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    with pytest.raises(RoomError) as early:
        await svc.handle(live, host, C.Rematch())
    assert early.value.code == E.NOT_ALLOWED_NOW
    await play_out_the_hand(svc, live, host, guest, clock)
    assert m.engine.status == MatchStatus.MATCH_OVER
    assert live.room.state.status == RoomStatus.OVER and storage.rooms["ROOM"].status == RoomStatus.OVER
    assert host.last("room")["room"]["rematch"] is None
    with pytest.raises(RoomError) as nothing:
        await svc.handle(live, host, C.Rematch(accept=False))
    assert nothing.value.code == E.NOT_ALLOWED_NOW  # no offer to decline
    await svc.handle(live, host, C.Rematch())  # an offer: the guest has not accepted
    assert live.room.match is m
    offered = host.last("room")["room"]["rematch"]
    assert offered == {"by": 0, "seats": [{"seat": 0, "answer": "offered"}, {"seat": 1, "answer": "waiting"}]}
    # The guest comes back on another instance: the offer is shown there, and answered there.
    back = RecordingPeer("g", "Gus")
    live_b = await other.join("ROOM", back, None)
    await settle()
    assert back.last("room")["room"]["rematch"] == offered
    await other.handle(live_b, back, C.Rematch(accept=False))
    await settle()
    assert [s["answer"] for s in host.last("room")["room"]["rematch"]["seats"]] == ["offered", "declined"]
    assert live.room.match is m
    await other.handle(live_b, back, C.Rematch())  # changes their mind: everyone seated has accepted
    await settle()
    assert live.room.match is not None and live.room.match.number == 2 and live.room.match.id != m.id
    assert host.last("room")["room"]["rematch"] is None and storage.rooms["ROOM"].rematch == {}
    assert host.last("state")["match_number"] == 2 and host.last("state")["v"] == 0
    assert storage.rooms["ROOM"].match_count == 2


async def test_chat_reaches_every_instance_and_hints_answer_the_player_to_move(world: Any) -> None:
    storage, _clock, make = world
    a, b = await make("a"), await make("b")
    live, host, guest = await seated(a, storage)
    far = RecordingPeer("w", "Walt")
    live_b = await b.join("ROOM", far, None)
    await a.handle(live, host, C.Chat("  hello "))
    await settle()
    assert far.last("chat")["text"] == host.last("chat")["text"] == "hello"
    await a.handle(live, host, C.Start())
    peer = mover(live, host, guest)
    await a.handle(live, peer, C.Hint())
    assert peer.last("hint")["v"] == 0
    assert live_b is not None
