"""Graceful shutdown: on SIGTERM an instance lets the moves in flight commit (each is answered,
with its state or a refusal, before the socket closes), closes every socket with 1012
("restart", docs/protocol.md), and hands its rooms' timers to the other instance at once; the
clients reconnect there and carry on."""

from __future__ import annotations

import asyncio
import random
import signal
import time

import httpx

from app.web.http.services import services
from tests.web.helpers import Sock, new_person, new_room, pick, seat_everyone

from .cluster import Cluster, drive, query, reopen
from .conftest import needs_services
from .consistency import check_prefix

RESTART = 1012


async def _table(http: httpx.AsyncClient, bases: tuple[str, str], i: int, bot: bool) -> list[Sock]:
    ann, bob = await new_person(http, f"A{i}"), await new_person(http, f"B{i}")
    code = (await new_room(http, ann, preset="short", options={"payoff_size": 6}, seats=3 if bot else 2,
                           seed=f"drain-{i}"))["code"]
    socks = [await Sock.open(bases[0], code, ann), await Sock.open(bases[1], code, bob)]
    await seat_everyone(socks[0], socks)
    if bot:
        await socks[0].room({"type": "add_bot", "seat": 2, "level": "random"}, lambda r: r["seats"][2]["bot"])
    await socks[0].wait(lambda m: m["type"] == "room" and all(s["player_id"] or s["bot"] for s in m["room"]["seats"]))
    await socks[0].send({"type": "start"})
    for s in socks:
        await s.state_at(0)
    return socks


@needs_services
async def test_sigterm_drains_then_clients_carry_on_elsewhere(cluster: Cluster) -> None:
    leaving, staying = cluster.start(2)
    rng = random.Random(5)
    async with httpx.AsyncClient(base_url=staying.base, timeout=30) as http:
        tables = [await _table(http, (leaving.base, staying.base), i, bot=i == 0) for i in range(4)]
    # Bring every table to a state where the player on the leaving instance is to move.
    for socks in tables:
        await drive(socks, rng, lambda st: st["view"]["status"] == "playing" and st["view"]["turn"] == 0,
                    timeout=30)
    in_flight = []
    for socks in tables:
        st = socks[0].last_state()
        assert st is not None and st["view"]["legal_moves"]
        move_id = socks[0].next_id()
        in_flight.append((st["v"], move_id))
        await socks[0].send({"type": "move", "id": move_id, "move": pick(st["view"]["legal_moves"], rng)})
    leaving.terminate()
    for socks, (v, move_id) in zip(tables, in_flight, strict=True):
        sock = socks[0]
        deadline = time.monotonic() + 15
        while sock.closed is None:
            assert time.monotonic() < deadline, "the draining instance did not close the socket"
            await asyncio.sleep(0.02)
        assert sock.closed[0] == RESTART, sock.closed
        answered = [m for m in sock.messages if (m["type"] == "state" and m["v"] == v + 1)
                    or (m["type"] == "error" and m.get("id") == move_id)]
        assert answered, "a move in flight is answered before the socket closes"
        stored = await query(cluster.db_url, "SELECT count(*) FROM moves WHERE client_id = :c", c=move_id)
        assert stored[0][0] == (1 if answered[0]["type"] == "state" else 0)
    assert leaving.proc is not None and leaving.proc.wait(20) in (0, -signal.SIGTERM)  # uvicorn re-raises SIGTERM
    log = cluster.logs[cluster.servers.index(leaving)].read_text()
    assert "drained: every move in flight committed" in log and '"level":"error"' not in log

    # The clients come back on the other instance and finish; the bot there plays at once.
    for i, socks in enumerate(tables):
        socks.append(await reopen(socks[0], staying.base))
        players = [socks[2], socks[1]]
        start = time.monotonic()
        last = await drive(players, rng, lambda st: st["view"]["status"] == "match_over", timeout=90)
        assert time.monotonic() - start < 90
        for s in players:
            await s.state_at(last["v"])
        async with httpx.AsyncClient(base_url=staying.base, timeout=30) as http:
            replay = (await http.get(f"/api/matches/{last['match_id']}/replay")).json()
        received = {0: socks[0].states() + socks[2].states(), 1: socks[1].states()}
        assert check_prefix(replay, received, last["match_id"]) > last["v"]
        if i == 0:
            bot_after = [m for m in replay["moves"] if m["actor"] == "bot" and m["seq"] > in_flight[0][0] + 1]
            assert bot_after, "the bot kept playing on the other instance"


async def test_a_draining_instance_turns_new_sockets_away(db_url: str) -> None:
    """While it drains, an instance answers /healthz and new socket handshakes with 503 (a proxy
    then tries another instance) and refuses requests on open sockets."""
    from websockets.exceptions import InvalidStatus

    from app.web.app import create_app
    from tests.web.helpers import ServerThread, make_settings

    server = ServerThread(create_app(make_settings(db_url))).start()
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann = await new_person(http, "Ann")
            code = (await new_room(http, ann, preset="short", seats=2))["code"]
            sock = await Sock.open(server.base, code, ann)
            services(server.app).rooms.pump.draining = True
            assert (await http.get("/healthz")).status_code == 503
            err = await sock.error({"type": "sit", "seat": 0})
            assert err["code"] == "unavailable"
            try:
                await Sock.open(server.base, code, ann)
            except InvalidStatus as e:
                assert e.response.status_code == 503
            else:
                raise AssertionError("a draining instance accepted a new socket")
            services(server.app).rooms.pump.draining = False
            await sock.close()
    finally:
        server.stop()
