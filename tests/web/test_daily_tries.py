"""The daily deal, one try a day per player, per device (its `spite_device` cookie) and per
client address (`SPITE_DAILY_TRIES_PER_ADDRESS`, an IPv6 /64 as one), however many guests one
person makes; and no hints in the daily room. Real server, real database."""

from __future__ import annotations

import httpx

from .helpers import Person, ServerThread, Sock, new_person

QUICK = {"daily_options": {"payoff_size": 5}, "bot_think_ms": 10, "bot_delay": 0.0}


async def play(server: ServerThread, who: Person, address: str | None = None,
               device: httpx.AsyncClient | None = None) -> httpx.Response:
    """`POST /api/daily` from a device (a client with its own cookies: a fresh one if None),
    through the trusted proxy from `address` if given."""
    headers = {**who.auth, **({"X-Forwarded-For": address} if address else {})}
    if device is not None:
        return await device.post("/api/daily", headers=headers)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as fresh:
        return await fresh.post("/api/daily", headers=headers)


async def test_one_try_a_day_per_address_whoever_plays(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(trusted_proxies="127.0.0.1", **QUICK)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, scout, bob, carol, dan = [await new_person(http, n) for n in ("Ann", "Scout", "Bob", "Carol", "Dan")]
        assert (await play(server, scout, "203.0.113.7")).status_code == 201
        refused = await play(server, ann, "203.0.113.7")  # another guest, another device, the same address
        assert refused.status_code == 409 and refused.json()["reason"] == "daily_address", refused.text
        assert refused.json()["room"] is None
        assert (await http.get("/api/daily", headers=ann.auth)).json()["you"] == {"room": None, "result": None}
        assert (await play(server, ann, "198.51.100.1")).status_code == 201  # her own try is still hers
        assert (await play(server, bob, "2001:db8:0:1::1")).status_code == 201
        same_64 = await play(server, carol, "2001:db8:0:1:ffff::2")
        assert same_64.status_code == 409 and same_64.json()["reason"] == "daily_address"
        assert (await play(server, dan, "2001:db8:0:2::1")).status_code == 201  # another /64
        day = (await http.get("/api/daily")).json()["date"]
        assert (await http.get(f"/api/daily/{day}/results")).status_code == 200


async def test_one_try_a_day_per_device_whoever_plays(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(daily_tries_per_address=10, **QUICK)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann, scout = await new_person(http, "Ann"), await new_person(http, "Scout")
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as device:
            first = await play(server, scout, device=device)
            assert first.status_code == 201 and "spite_device" in first.cookies
            refused = await play(server, ann, device=device)  # a new guest on the same browser
            assert refused.status_code == 409 and refused.json()["reason"] == "daily_device", refused.text
            assert refused.json()["message"] == ("today's deal has been played on this device already: "
                                                 "one try a day per device")
        assert (await play(server, ann)).status_code == 201  # her own device


async def test_racing_guests_of_one_address_get_one_try(start_server) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    server: ServerThread = start_server(**QUICK)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        guests = [await new_person(http, f"G{i}") for i in range(5)]
        answers = await asyncio.gather(*[play(server, g) for g in guests])
        assert sorted(r.status_code for r in answers) == [201] + [409] * 4
        assert {r.json()["reason"] for r in answers if r.status_code == 409} == {"daily_address"}


async def test_the_daily_room_gives_no_hints(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(**QUICK)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        ann = await new_person(http, "Ann")
        code = (await http.post("/api/daily", headers=ann.auth)).json()["room"]
        sock = await Sock.open(server.base, code, ann)
        room = await sock.wait(lambda m: m["type"] == "room")
        assert room["room"]["hints"] is False
        refused = await sock.request({"type": "hint"}, lambda m: m["type"] in ("hint", "error"))
        assert (refused["type"], refused["code"], refused["reason"]) == ("error", "hints_off", "daily_no_hints")
        assert refused["message"] == "the daily deal gives no hints: everyone plays the same deal on their own"
        await sock.close()
