"""Who a per-address limit counts: `client_key`, the one key every per-address limit uses
(REST's `per_address` limits, public rooms, sign-ins, socket connects).

An IPv4 client is its address. An IPv6 client is its network of `SPITE_IPV6_LIMIT_PREFIX` bits
(default 64): a single host is commonly given a whole /64 and may take a fresh address from it
for every request, so counting exact IPv6 addresses would give it unlimited budgets. An IPv4
address written as IPv6 (`::ffff:192.0.2.7`) counts as the IPv4 address. The client's address
is the one `proxies.TrustedProxies` found (behind a trusted proxy: from X-Forwarded-For)."""

from __future__ import annotations

import ipaddress

from starlette.requests import HTTPConnection

from app.web.http.services import services


def address_key(host: str, ipv6_prefix: int) -> str:
    """The key a per-address limit counts `host` under (something that is not an address, such as
    "unknown" or a test client's name, is its own key)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return str(ip)


def client_key(conn: HTTPConnection) -> str:
    """The per-address limits' key for the client of a request or a socket."""
    host = conn.client.host if conn.client else "unknown"
    return address_key(host, services(conn.app).settings.ipv6_limit_prefix)
