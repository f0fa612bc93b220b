"""Email, the optional channel: present only with SPITE_SMTP_URL.

Two mails, both sent by the outbox worker (`worker.Outbox`, channel `email`) with its timeouts,
retries and backoff, never on the move path: the confirmation of an address (a link with a
signed token, and a second one by which the recipient says "never mail me"), and the "your
turn" digest, listing every room where it is the player's turn when it is sent. Every digest
carries a one-click unsubscribe (RFC 8058: `List-Unsubscribe` with an https link, sent as
written on one line, and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`); the link's token
is signed, so the POST works without signing in. Texts come from the catalogue in the player's
language.

Tokens are the purpose, player, address and expiry in base64url with their HMAC-SHA256, keyed
with a secret made once and kept in the store (`server_keys`, name `email`), so every instance
checks every token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from urllib.parse import parse_qs, quote, unquote, urlsplit

import aiosmtplib

from app.i18n import render

CONFIRM, UNSUBSCRIBE, NEVER = "confirm", "unsubscribe", "never"
MAX_TOKEN = 512


class BadToken(ValueError):
    """A token that is not ours, is for something else, or has expired."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Signer:
    """Signs and checks the tokens of confirmation and unsubscribe links."""

    key: bytes

    def sign(self, purpose: str, player_id: str, email: str, expires: int) -> str:
        body = f"{purpose}\n{player_id}\n{email}\n{expires}".encode()
        mac = hmac.new(self.key, body, hashlib.sha256).digest()[:20]
        return f"{_b64(body)}.{_b64(mac)}"

    def check(self, token: str, purpose: str, now: float | None = None) -> tuple[str, str]:
        """(player id, email) of a good token for `purpose`, else BadToken."""
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN or token.count(".") != 1:
            raise BadToken("the link is not valid")
        head, _, mac = token.partition(".")
        try:
            body, sig = _unb64(head), _unb64(mac)
            parts = body.decode().split("\n")
        except (ValueError, UnicodeDecodeError) as e:
            raise BadToken("the link is not valid") from e
        if not hmac.compare_digest(hmac.new(self.key, body, hashlib.sha256).digest()[:20], sig) or len(parts) != 4:
            raise BadToken("the link is not valid")
        kind, player_id, email, expires = parts
        if kind != purpose or not expires.isdigit():
            raise BadToken("the link is not valid")
        if int(expires) and int(expires) < (now if now is not None else time.time()):
            raise BadToken("the link has expired; ask for a new one")
        return player_id, email


@dataclass(frozen=True)
class SmtpTarget:
    """Where and how to send, from SPITE_SMTP_URL."""

    host: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool
    start_tls: bool | None  # None: if the server offers it

    @classmethod
    def parse(cls, url: str) -> SmtpTarget:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("SPITE_SMTP_URL must be smtp://host[:port] or smtps://host[:port]")
        query = parse_qs(parts.query)
        tls = parts.scheme == "smtps"
        starttls = query.get("starttls", [""])[0].lower()
        start_tls = None if tls or starttls in ("", "auto") else starttls in ("require", "true", "1")
        return cls(parts.hostname, parts.port or (465 if tls else 25),
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, tls, start_tls)


class _AsWritten(UnstructuredHeader, BaseHeader):
    """A header that goes out as written, on one line: `List-Unsubscribe` is a URL in angle
    brackets (RFC 2369, 8058), which the default folding would turn into RFC 2047 encoded text
    that no mail client reads as a link. Its value is ASCII with no line break (`digest` checks)."""

    max_count = 1

    def fold(self, *, policy: policy.Policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"


_HEADERS = HeaderRegistry()
_HEADERS.map_to_type("list-unsubscribe", _AsWritten)
_POLICY = policy.default.clone(header_factory=_HEADERS)


def _footer(lang: str | None, unsubscribe_page: str) -> str:
    return render(lang, "email.footer", {"url": unsubscribe_page})


def confirmation(lang: str | None, sender: str, to: str, link: str, hours: int, never: str) -> EmailMessage:
    """The mail that confirms an address, with the link by which its recipient says "never mail me"."""
    msg = _message(sender, to, render(lang, "email.confirm.subject"))
    msg.set_content(render(lang, "email.confirm.body", {"url": link, "n": hours}) + "\n\n"
                    + render(lang, "email.confirm.never", {"url": never}) + "\n")
    return msg


def digest(lang: str | None, sender: str, to: str, site: str, rooms: list[tuple[str, datetime | None, list[str]]],
           unsubscribe_url: str, unsubscribe_page: str) -> EmailMessage:
    """The "your turn" digest: every room where it is the player's turn, each with its link."""
    msg = _message(sender, to, render(lang, "email.digest.subject", {"n": len(rooms)}))
    lines = [render(lang, "email.digest.intro", {"n": len(rooms)}), ""]
    for code, deadline, others in rooms:
        who = ", ".join(others) or code
        line = render(lang, "email.digest.room", {"names": who, "url": f"{site}/r/{code}"})
        if deadline is not None:
            line += " " + render(lang, "email.digest.deadline", {"at": deadline.strftime("%Y-%m-%d %H:%M UTC")})
        lines.append(f"- {line}")
    lines += ["", _footer(lang, unsubscribe_page)]
    msg.set_content("\n".join(lines) + "\n")
    if not (unsubscribe_url.isascii() and unsubscribe_url.isprintable() and " " not in unsubscribe_url):
        raise ValueError("an unsubscribe URL is printable ASCII without spaces")
    msg["List-Unsubscribe"] = f"<{unsubscribe_url}>"  # RFC 8058: one click, by POST, no sign-in
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no auto-replies
    return msg


def _message(sender: str, to: str, subject: str) -> EmailMessage:
    msg = EmailMessage(policy=_POLICY)
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = format_datetime(datetime.now().astimezone())
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip(">") or None)
    return msg


def link(site: str, path: str, token: str) -> str:
    return f"{site.rstrip('/')}{path}?token={quote(token)}"


async def send(target: SmtpTarget, msg: EmailMessage, timeout: float) -> None:
    """Hand one mail to the SMTP server (raises aiosmtplib errors, or TimeoutError)."""
    await aiosmtplib.send(msg, hostname=target.host, port=target.port, username=target.username,
                          password=target.password, use_tls=target.use_tls, start_tls=target.start_tls,
                          timeout=timeout)
