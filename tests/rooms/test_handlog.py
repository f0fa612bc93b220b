"""The move log rebuilt on every (re)connect: every version of the hand being
played, the moves the server made for a returning player's seat, the same from an instance
that loads the room from the store."""

from __future__ import annotations

from typing import Any

from app.rooms.core import commands as C

from .fakes import RecordingPeer
from .test_shell import mover, play_first_legal, seated, world

__all__ = ["world"]


async def test_a_returning_player_gets_the_whole_hand_and_what_was_made_for_them(world: Any) -> None:
    storage, clock, make = world
    svc = await make(absent_grace=30, bot_delay=0.5)
    live, host, guest = await seated(svc, storage)
    await svc.handle(live, host, C.Start())
    m = live.room.match
    assert m is not None
    await play_first_legal(svc, live, mover(live, host, guest))  # someone's own move first
    away = mover(live, host, guest)
    stay = host if away is guest else guest
    seat = m.seat_of(away.player_id)
    await svc.leave(live, away)
    v = m.v
    await clock.advance(31)  # the stand-in plays the absent player's turn
    steps = storage.steps(m.id)
    assert m.v > v and steps[v + 1].actor == "absent"
    made = [s.v for s in steps[v + 1:] if s is not None and s.actor == "absent" and s.seat == seat]
    back = RecordingPeer(away.player_id, away.name)
    await svc.join("ROOM", back, None)
    log = back.last("log")
    assert [e["v"] for e in log["entries"]] == list(range(0, m.v + 1))
    assert log["entries"][0]["events"][0]["type"] == "deal"
    assert log["made_for_you"] == made and made
    firsts = [log["entries"][k]["events"][0] for k in made]
    assert all(e == {"type": "autoplay", "seat": seat, "by": "absent"} for e in firsts)
    # What the live sockets were sent, version by version, is what the log says.
    sent = {st["v"]: st["events"] for st in stay.of("state") if st["events"]}
    for entry in log["entries"][1:]:
        if entry["v"] in sent:
            assert entry["events"] == _json(sent[entry["v"]])
    # Another instance loads the match from the store: the same log.
    other = await make("b")
    fresh = RecordingPeer(away.player_id, away.name)
    await other.join("ROOM", fresh, None)
    assert fresh.last("log") == log
    watcher = RecordingPeer("w", "Wes")
    await svc.join("ROOM", watcher, None)
    assert watcher.last("log")["made_for_you"] == []


def _json(events: Any) -> Any:
    import orjson

    return orjson.loads(orjson.dumps(events))
