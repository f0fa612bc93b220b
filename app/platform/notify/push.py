"""Web Push (RFC 8030) with encrypted payloads (RFC 8291, `aes128gcm`, by `http_ece`) and VAPID
(RFC 8292, by `py-vapid`), posted with httpx (async, with a timeout, never following a redirect).

Why these and not pywebpush: pywebpush sends with `requests`, which blocks the event loop (it
would need a thread per message); `http_ece` and `py-vapid` are the libraries pywebpush itself is
built on, so the cryptography is theirs, and the request is ours, with our timeouts.

The server posts only to endpoints that passed `check_endpoint` when they were subscribed:
https on port 443 (http, on any port, only with SPITE_PUSH_ALLOW_HTTP, for tests), a host on
SPITE_PUSH_HOSTS, no user name or password in the address. A client never picks where the server sends.
"""

from __future__ import annotations

import base64
import binascii
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import http_ece
import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

MAX_ENDPOINT = 1024


class BadSubscription(ValueError):
    """A subscription the server refuses (the message says why)."""


def b64url_decode(text: str) -> bytes:
    text = text.strip()
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def host_allowed(host: str, allowed: str) -> bool:
    """Is `host` one of the comma-separated `allowed` hosts ('*.example.com': any subdomain)?"""
    host = host.lower().rstrip(".")
    for entry in (e.strip().lower() for e in allowed.split(",")):
        if not entry:
            continue
        if entry.startswith("*."):
            if host.endswith(entry[1:]) and len(host) > len(entry) - 1:
                return True
        elif host == entry:
            return True
    return False


def check_endpoint(endpoint: str, allowed: str, allow_http: bool) -> str:
    """The endpoint if the server may post to it, else BadSubscription."""
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= MAX_ENDPOINT or not endpoint.isprintable():
        raise BadSubscription(f"endpoint must be a URL of at most {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError as e:
        raise BadSubscription("endpoint is not a URL") from e
    if parts.scheme != "https" and not (allow_http and parts.scheme == "http"):
        raise BadSubscription("endpoint must be an https URL")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise BadSubscription("endpoint must not carry a user name or password")
    host = parts.hostname or ""
    if not host or not host_allowed(host, allowed):
        raise BadSubscription(f"endpoint host {host or '(none)'} is not a push service this server sends to")
    if port is not None and not 0 < port < 65536:
        raise BadSubscription("endpoint port is out of range")
    if parts.scheme == "https" and port not in (None, 443):  # push services listen on 443, nowhere else
        raise BadSubscription("endpoint must be on port 443")
    return endpoint


def check_keys(p256dh: str, auth: str) -> tuple[str, str]:
    """The browser's keys, checked: `p256dh` an uncompressed P-256 point, `auth` 16 bytes."""
    try:
        point = b64url_decode(p256dh)
        secret = b64url_decode(auth)
    except (binascii.Error, ValueError) as e:
        raise BadSubscription("keys.p256dh and keys.auth must be base64url") from e
    if len(point) != 65 or point[0] != 4:
        raise BadSubscription("keys.p256dh must be an uncompressed P-256 public key (65 bytes)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError as e:
        raise BadSubscription("keys.p256dh is not a point on P-256") from e
    if len(secret) != 16:
        raise BadSubscription("keys.auth must be 16 bytes")
    return b64url(point), b64url(secret)


def new_vapid_key() -> str:
    """A new VAPID private key, as base64url DER (what SPITE_VAPID_PRIVATE_KEY takes)."""
    key = ec.generate_private_key(ec.SECP256R1())
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    return b64url(der)


@dataclass
class Vapid:
    """The server's VAPID identity."""

    signer: Vapid02
    subject: str

    @classmethod
    def from_key(cls, private_key: str, subject: str) -> Vapid:
        return cls(Vapid02.from_string(private_key), subject)

    @property
    def public_key(self) -> str:
        """base64url of the uncompressed public point (the browser's applicationServerKey)."""
        point = self.signer.public_key.public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return b64url(point)

    def headers(self, endpoint: str) -> dict[str, str]:
        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": self.subject,
                  "exp": int(time.time()) + 12 * 3600}  # under the 24 hours push services allow
        signed: dict[str, str] = self.signer.sign(claims)
        return signed


def encrypt(payload: bytes, p256dh: str, auth: str) -> bytes:
    """The RFC 8291 body for this subscription (a fresh sender key and salt each time)."""
    sender = ec.generate_private_key(ec.SECP256R1())
    body: bytes = http_ece.encrypt(payload, private_key=sender, dh=b64url_decode(p256dh),
                                   auth_secret=b64url_decode(auth), version="aes128gcm")
    return body


async def send(client: httpx.AsyncClient, vapid: Vapid, endpoint: str, p256dh: str, auth: str, payload: bytes,
               ttl: int, timeout: float) -> int:
    """Post one message; the push service's status code (raises httpx errors on a timeout or
    a failed connection). Redirects are not followed."""
    headers = {**vapid.headers(endpoint), "TTL": str(ttl), "Content-Encoding": "aes128gcm",
               "Content-Type": "application/octet-stream", "Urgency": "normal"}
    r = await client.post(endpoint, content=encrypt(payload, p256dh, auth), headers=headers, timeout=timeout,
                          follow_redirects=False)
    return r.status_code
