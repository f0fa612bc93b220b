"""Client addresses behind a proxy: `SPITE_TRUSTED_PROXIES` names the proxies (addresses or
networks, comma-separated; default none). Only a request whose peer is one of them has its
`X-Forwarded-For` read, from the right: each trusted hop's entry names the hop before it, and
the first entry that is not a trusted proxy is the client. Whatever a client writes at the left
of the header is never believed (deploy/nginx.conf also sets the header to the address it saw
rather than appending to the client's). The address found replaces the ASGI scope's `client`,
so every rate limit, `/metrics` and the logs see the client, on REST and sockets alike."""

from __future__ import annotations

import ipaddress
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> list[Network]:
    """"10.0.0.5, 172.28.0.0/16" -> networks; raises ValueError on a bad entry."""
    return [ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()]


class TrustedProxies:
    """ASGI middleware: the client's address from the trusted proxies' X-Forwarded-For."""

    def __init__(self, app: Any, trusted: str) -> None:
        self.app = app
        self.networks = parse_networks(trusted)

    def trusted(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self.networks)

    def client(self, peer: str, forwarded: list[str]) -> str:
        """The client's address, given the peer's and the header's entries (left to right)."""
        seen = peer
        for entry in reversed(forwarded):
            try:
                address = str(ipaddress.ip_address(entry))
            except ValueError:
                return seen  # not an address: stop at the last hop believed
            if not self.trusted(address):
                return address
            seen = address
        return seen  # every hop a trusted proxy: the leftmost

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.networks and scope["type"] in ("http", "websocket") and scope.get("client"):
            peer = scope["client"][0]
            if self.trusted(peer):
                values = [v.decode("latin-1") for k, v in scope["headers"] if k == b"x-forwarded-for"]
                entries = [e.strip() for e in ",".join(values).split(",") if e.strip()]
                if entries:
                    scope = {**scope, "client": (self.client(peer, entries), 0)}
        await self.app(scope, receive, send)
