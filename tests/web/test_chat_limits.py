"""Chat and watchers as a load lever: each player's chat lines (over all their sockets) and each
room's are rate-limited before anyone is shown them, and the sockets of people without a seat are
capped per room. The chat buckets run on a clock that stands still until the test moves it, so
the counts are exact however long the machine takes to carry the lines."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.rooms.fakes import FakeClock

from .helpers import LoopServer, ServerThread, Sock, new_person, new_room


def _chats(sock: Sock) -> list[str]:
    return [m["text"] for m in sock.messages if m["type"] == "chat"]


def _limited(sock: Sock) -> int:
    return sum(1 for m in sock.messages if m["type"] == "error" and m["code"] == "rate_limited")


async def _settle(socks: list[Sock]) -> None:
    """Every line sent so far has reached every socket: a socket answers a ping once it has
    handled what came before (a chat line is handed to every reader's queue by then), and a
    reader's second pong queues behind the lines handed to it during the first round."""
    for _ in range(2):
        for s in socks:
            await s.request({"type": "ping"}, lambda m: m["type"] == "pong")


async def test_a_players_chat_lines_are_limited_over_all_their_sockets(start_clocked: Any,
                                                                       still_clock: FakeClock) -> None:
    clock = still_clock
    server: LoopServer = await start_clocked(on=clock)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann, eve = await new_person(http, "Ann"), await new_person(http, "Eve")
        code = (await new_room(http, ann))["code"]
    reader = await Sock.open(server.base, code, ann)
    eves = [await Sock.open(server.base, code, eve) for _ in range(2)]
    for i in range(8):  # SPITE_CHAT_BURST: 5 at once, then 1 a second
        for j, s in enumerate(eves):
            await s.send({"type": "chat", "text": f"spam {i}.{j}"})
    await _settle([reader, *eves])
    shown = _chats(reader)
    assert len(shown) == 5 and all(line.startswith("spam ") for line in shown), shown  # two sockets, any order
    assert sum(_limited(s) for s in eves) == 11
    await eves[0].send({"type": "chat", "text": "still too soon"})
    await clock.advance(1.0)  # one line's worth of time
    await eves[1].send({"type": "chat", "text": "a second later"})
    await _settle([reader, *eves])
    assert _chats(reader)[5:] == ["a second later"] and sum(_limited(s) for s in eves) == 12
    await reader.send({"type": "chat", "text": "the host may still talk"})
    await reader.wait(lambda m: m["type"] == "chat" and m["text"] == "the host may still talk")


async def test_a_rooms_chat_is_limited_for_everyone_together(start_clocked: Any, still_clock: FakeClock) -> None:
    server: LoopServer = await start_clocked(on=still_clock, room_chat_burst=6, room_chat_per_second=0.5)
    async with httpx.AsyncClient(base_url=server.base) as http:
        people = [await new_person(http, f"P{i}") for i in range(4)]
        code = (await new_room(http, people[0]))["code"]
    socks = [await Sock.open(server.base, code, p) for p in people]
    for i in range(3):
        for s in socks:
            await s.send({"type": "chat", "text": f"line {i}"})
    await _settle(socks)
    assert len(_chats(socks[0])) == 6  # of 12 sent, each player within their own rate
    assert sum(_limited(s) for s in socks) == 6


async def test_watchers_per_room_are_capped(start_server: Any) -> None:
    server: ServerThread = start_server(max_watchers_per_room=2)
    async with httpx.AsyncClient(base_url=server.base) as http:
        host = await new_person(http, "Host")
        guests = [await new_person(http, f"W{i}") for i in range(3)]
        code = (await new_room(http, host))["code"]
    h = await Sock.open(server.base, code, host)
    await h.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == host.id)
    watchers = [await Sock.open(server.base, code, g) for g in guests[:2]]
    third = await Sock.open(server.base, code, guests[2], hello=False)
    await third.send({"type": "hello", "token": guests[2].token})
    for _ in range(100):
        if third.closed:
            break
        await asyncio.sleep(0.05)
    assert third.closed is not None and third.closed[0] == 4429 and "watchers" in third.closed[1]
    assert not any(m["type"] == "welcome" for m in third.messages)
    again = await Sock.open(server.base, code, host)  # a seated player is never a watcher
    assert again.messages[0]["type"] == "welcome"
    await watchers[0].close()
    await asyncio.sleep(0.2)
    late = await Sock.open(server.base, code, guests[2])
    assert late.messages[0]["type"] == "welcome"
