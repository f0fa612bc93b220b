"""Per-address limits count an IPv6 client by its /64 (SPITE_IPV6_LIMIT_PREFIX), an IPv4 client by
its address: a host holding a whole /64 gets one budget, not one per address. Through the real
server, the client's address given by X-Forwarded-For from a trusted proxy (127.0.0.1, the test
client's own address), for a REST limit and the socket connect limit."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from app.web.http.addresses import address_key

from .helpers import ServerThread, new_person, new_room

SAME_64 = ["2001:db8:1:2::a", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2:1234::9"]
OTHER_64 = "2001:db8:1:3::a"


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def _new_player(http: httpx.AsyncClient, address: str) -> int:
    return (await http.post("/api/players", json={"name": "P"}, headers=_from(address))).status_code


async def test_addresses_of_one_ipv6_64_share_a_budget_and_other_64s_do_not(
        start_server: Callable[..., ServerThread]) -> None:
    server = start_server(trusted_proxies="127.0.0.1", limit_new_players="3/minute")
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        assert [await _new_player(http, a) for a in SAME_64] == [201, 201, 201]
        assert await _new_player(http, "2001:db8:1:2::b") == 429  # a fourth address of the same /64
        assert await _new_player(http, OTHER_64) == 201  # the next /64 has its own budget
        # IPv4 clients count by the address: neighbours do not share
        assert [await _new_player(http, "198.51.100.7") for _ in range(4)] == [201, 201, 201, 429]
        assert await _new_player(http, "198.51.100.8") == 201
        assert await _new_player(http, "::ffff:198.51.100.7") == 429  # the same IPv4 address, written as IPv6


async def test_the_prefix_is_a_setting(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(trusted_proxies="127.0.0.1", limit_new_players="1/minute", ipv6_limit_prefix=128)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        assert [await _new_player(http, a) for a in SAME_64] == [201, 201, 201]
        assert await _new_player(http, SAME_64[0]) == 429
    wide = start_server(trusted_proxies="127.0.0.1", limit_new_players="1/minute", ipv6_limit_prefix=48)
    async with httpx.AsyncClient(base_url=wide.base, timeout=30) as http:
        assert [await _new_player(http, a) for a in (SAME_64[0], OTHER_64)] == [201, 429]  # one /48


async def _connects(server: ServerThread, code: str, address: str) -> int:
    url = server.base.replace("http", "ws", 1) + f"/ws/rooms/{code}"
    try:
        async with connect(url, additional_headers=_from(address), open_timeout=10):
            return 101
    except InvalidStatus as e:
        return e.response.status_code


async def test_socket_connects_from_one_ipv6_64_share_a_budget(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(trusted_proxies="127.0.0.1", limit_connects="3/minute")
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        code = (await new_room(http, await new_person(http, "Ann")))["code"]
    assert [await _connects(server, code, a) for a in SAME_64] == [101, 101, 101]
    assert await _connects(server, code, "2001:db8:1:2::b") == 429
    assert await _connects(server, code, OTHER_64) == 101


@pytest.mark.parametrize(("host", "prefix", "key"), [
    ("2001:db8:1:2:3:4:5:6", 64, "2001:db8:1:2::/64"),
    ("2001:db8:1:2:3:4:5:6", 56, "2001:db8:1::/56"),
    ("2001:db8::1", 128, "2001:db8::1/128"),
    ("203.0.113.9", 64, "203.0.113.9"),
    ("::ffff:203.0.113.9", 64, "203.0.113.9"),
    ("unknown", 64, "unknown"),
])
def test_the_key_of_an_address(host: str, prefix: int, key: str) -> None:
    assert address_key(host, prefix) == key
