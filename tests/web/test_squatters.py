"""A squatter cannot stall a room: before the match starts the host frees
the seat of anyone, connected or not, and a block (PUT /api/players/me/blocks/{id}) keeps them
from sitting at the host's table again; they may still watch."""

from __future__ import annotations

import httpx

from .helpers import ServerThread, Sock, new_person, new_room


async def test_the_host_removes_a_connected_squatter_and_blocks_them(server: ServerThread,
                                                                     http: httpx.AsyncClient) -> None:
    host, squatter = await new_person(http, "Host"), await new_person(http, "Squat")
    room = await new_room(http, host, seats=2, public=True)
    h = await Sock.open(server.base, room["code"], host)
    s = await Sock.open(server.base, room["code"], squatter)
    await h.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == host.id)
    await s.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == squatter.id)
    freed = await h.room({"type": "free_seat", "seat": 1}, lambda r: r["seats"][1]["player_id"] is None)
    assert freed["seats"][1]["player_id"] is None and s.closed is None  # still here, as a watcher
    r = await http.put(f"/api/players/me/blocks/{squatter.id}", headers=host.auth)
    assert r.status_code == 204, r.text
    refused = await s.error({"type": "sit", "seat": 1})
    assert refused["code"] == "seat_refused"
    own = await h.error({"type": "free_seat", "seat": 0})
    assert own["code"] == "not_allowed_now"  # your own seat: stand instead
