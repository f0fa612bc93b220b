"""Delta frames in the fan-out (`app.rooms.shell.fanout`), over in-memory ports: a socket that
holds the table the room last pushed is sent the change from it, which made whole is the view a
full socket is sent; one that holds another table (or none) is sent the whole; `sync` sends the
whole, and the deltas go on from it. No server (tests/web/test_delta_frames.py has the sockets)."""

from __future__ import annotations

from typing import Any

import orjson

from app.rooms.core import commands as C
from app.rooms.core.delta import apply_delta

from .fakes import RecordingPeer
from .test_shell import mover, play_first_legal, seated
from .test_shell import world as world  # noqa: F401  (the fixture)


class DeltaPeer(RecordingPeer):
    """A delta socket as `app.web.sockets.room.Connection` is one: the serial of the table it
    holds, and for each table the change from it (made whole here) or the whole."""

    def __init__(self, player_id: str, name: str) -> None:
        super().__init__(player_id, name)
        self.held: int | None = None
        self.view: dict[str, Any] | None = None
        self.kinds: list[str] = []

    def send_state(self, v: int, table: Any, events: Any, extra: Any) -> None:
        change, self.held = table.delta(self.held), table.serial
        if change is None:
            self.view = table.full()
            self.kinds.append("state")
        else:
            assert self.view is not None
            msg = {"gone": change.gone, "shared": orjson.loads(orjson.dumps(change.shared)),
                   "players": orjson.loads(orjson.dumps(change.players)), "own": change.own}
            self.view = apply_delta(self.view, msg)
            self.kinds.append("delta")
        super().send_state(v, table, events, extra)


async def test_deltas_follow_the_last_push_and_anything_else_is_sent_whole(world: Any) -> None:
    storage, _clock, make = world
    svc = await make()
    live, host, guest = await seated(svc, storage)
    watcher = DeltaPeer("w", "Wanda")
    hosts = DeltaPeer("h", "Hana")  # a second socket of the host, speaking delta
    await svc.join("ROOM", watcher, None)
    await svc.join("ROOM", hosts, None)
    await svc.handle(live, host, C.Start())
    for _ in range(6):
        await play_first_legal(svc, live, mover(live, host, guest))
    assert hosts.kinds[0] == "state" and hosts.kinds[-6:] == ["delta"] * 6
    assert hosts.view == host.last("state")["view"] and watcher.view == watcher.last("state")["view"]

    hosts.held = -1  # holds a table the room did not last push: the next one comes whole
    watcher.held = None  # holds none
    await play_first_legal(svc, live, mover(live, host, guest))
    assert hosts.kinds[-1] == watcher.kinds[-1] == "state"
    assert hosts.view == host.last("state")["view"]

    seen = len(watcher.kinds)
    await svc.handle(live, hosts, C.Sync())  # the whole table, to the asker only
    assert hosts.kinds[-1] == "state" and len(watcher.kinds) == seen
    await play_first_legal(svc, live, mover(live, host, guest))
    assert hosts.kinds[-1] == "delta" and hosts.view == host.last("state")["view"]
