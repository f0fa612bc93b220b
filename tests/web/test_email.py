"""Email, the optional channel, against a real SMTP server in this process (aiosmtpd on
127.0.0.1): an address is confirmed by the link its confirmation mail carries, and no mail but
that one goes to it before; a confirmed address gets a digest listing every room where it is
the player's turn, with RFC 8058 one-click unsubscribe headers, at most one per period; the
unsubscribe POST works without signing in; bad tokens are 4xx. Without SPITE_SMTP_URL the
routes are absent (404 email_disabled)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import httpx
from aiosmtpd.controller import Controller

from app.store.tables import EmailAddress, Notification

from .helpers import Person, Sock, free_socket, new_account, new_person, new_room, seat_everyone
from .test_push import PUSH, eventually, play_turn, rows


class Inbox:
    """aiosmtpd's handler: keeps every mail it is given."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.raw: list[bytes] = []  # each mail as the SMTP server got it, headers unparsed

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        mail = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(mail, EmailMessage)
        mail["X-Envelope-To"] = ",".join(envelope.rcpt_tos)
        self.mails.append(mail)
        self.raw.append(envelope.original_content or envelope.content)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]


def text_of(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def link_in(mail: EmailMessage, path: str) -> str:
    found = re.search(r"https?://\S+" + re.escape(path) + r"\?token=\S+", text_of(mail))
    assert found, text_of(mail)
    parts = urlsplit(found.group(0))
    return f"{parts.path}?{parts.query}"


async def mails_sent(http: httpx.AsyncClient) -> float:
    """The `sent` count of the email channel in /metrics (0 before the first)."""
    found = re.search(r'^spite_notifications_total\{channel="email",outcome="sent"\} ([0-9.e+]+)$',
                      (await http.get("/metrics")).text, re.M)
    return float(found.group(1)) if found else 0.0


async def bob_to_move(server: Any, http: httpx.AsyncClient, ann: Person, bob: Person, seed: str) -> str:
    """A turn-based room of Ann's and Bob's where it is Bob's turn, with Bob away."""
    code = (await new_room(http, ann, preset="short", seats=2, seed=seed, pace="turn_based",
                           turn_seconds=3600))["code"]
    a, b = await Sock.open(server.base, code, ann), await Sock.open(server.base, code, bob)
    await seat_everyone(a, [a, b])
    await a.send({"type": "start"})
    st = await a.state_at(0)
    v = st["v"]
    if st["view"]["turn"] == 1:
        v = await play_turn(b, v)
    start = len(a.messages)
    await b.close()
    await a.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["connected"] is False, start=start)
    await play_turn(a, v)
    await a.close()
    return str(code)


async def test_confirm_digest_and_one_click_unsubscribe(start_server: Any, db_url: str) -> None:
    inbox = Inbox()
    with free_socket() as probe:
        port = probe.getsockname()[1]
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        server = start_server(**PUSH, smtp_url=f"smtp://127.0.0.1:{port}",
                              smtp_timeout=5, email_digest_minutes=60, public_url="https://spite.example")
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            sent_before = await mails_sent(http)  # the counter is the process's: other tests count too
            ann, bob = await new_account(http, "Ann", "ann"), await new_account(http, "Bob", "bob")
            guest = await new_person(http, "Gus")
            assert (await http.put("/api/players/me/email", headers=guest.auth,
                                   json={"email": "gus@example.org"})).status_code == 403
            for bad in ("no-at-sign", "a@b", "x@example.org\r\nBcc: all@example.org", "a b@example.org", 5):
                r = await http.put("/api/players/me/email", headers=bob.auth, json={"email": bad})
                assert r.status_code == 422, (bad, r.text)
            r = await http.put("/api/players/me/email", headers=bob.auth, json={"email": "bob@Example.ORG"})
            assert r.status_code == 202, r.text
            assert r.json() == {"email": "bob@example.org", "confirmed": False, "digest_minutes": 60,
                                "confirmation": "sent"}
            sent = await eventually(lambda: asyncio.sleep(0, inbox.to("bob@example.org")))
            confirm = sent[0]
            assert confirm["Subject"] == "Confirm your address for Spite and Malice"
            link = link_in(confirm, "/api/email/confirm")
            assert "https://spite.example/api/email/confirm?token=" in text_of(confirm)

            # Not confirmed yet: Bob's turn comes and no mail goes (no digest is even queued).
            first = await bob_to_move(server, http, ann, bob, "mail-1")
            await asyncio.sleep(1.0)
            assert len(inbox.mails) == 1
            assert not [n for n in await rows(db_url, Notification) if n.key.startswith("digest:")]

            for bad in ("", "x", link.split("token=")[1][:-3] + "AAA", "a.b", "é" * 600):
                r = await http.get("/api/email/confirm", params={"token": bad})
                assert r.status_code == 400, (bad, r.status_code)
            unsubscribe_as_confirm = link.replace("/confirm", "/unsubscribe")
            assert (await http.post(unsubscribe_as_confirm)).status_code == 400  # a token is for one purpose
            r = await http.get(link)
            assert r.status_code == 200 and "confirmed" in r.text
            me = (await http.get("/api/players/me/email", headers=bob.auth)).json()
            assert me == {"email": "bob@example.org", "confirmed": True, "digest_minutes": 60, "confirmation": None}

            # Confirmed: the next turn brings a digest listing both rooms where it is his turn.
            second = await bob_to_move(server, http, ann, bob, "mail-2")
            got = await eventually(lambda: asyncio.sleep(0, inbox.to("bob@example.org")[1:]))
            mail = got[0]
            assert mail["Subject"] == "Your turn in 2 games"
            body = text_of(mail)
            assert f"https://spite.example/r/{first}" in body and f"https://spite.example/r/{second}" in body
            assert "the game with Ann" in body
            assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
            header = mail["List-Unsubscribe"]
            assert header.startswith("<https://spite.example/api/email/unsubscribe?token=") and header.endswith(">")
            # On the wire as RFC 2369 and 8058 want it: the URL itself on one line, not RFC 2047 encoded text.
            raw = inbox.raw[inbox.mails.index(mail)].decode("ascii").splitlines()
            assert f"List-Unsubscribe: {header}" in raw
            assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw

            # A third turn within the period: the next digest waits for the period's end.
            await bob_to_move(server, http, ann, bob, "mail-3")
            queued = await eventually(lambda: _digests(db_url, "queued"))
            address = [a for a in await rows(db_url, EmailAddress) if a.player_id == bob.id][0]
            assert address.digest_at is not None
            assert queued[0].next_at >= address.digest_at + timedelta(minutes=59)
            assert len(inbox.to("bob@example.org")) == 2

            # One click, no sign-in (RFC 8058): the address is forgotten; a GET only asks.
            url = urlsplit(header[1:-1])
            path = f"{url.path}?{url.query}"
            page = await http.get(path)
            assert page.status_code == 200 and "<form method=\"post\"" in page.text
            assert (await http.get("/api/players/me/email", headers=bob.auth)).json()["confirmed"] is True
            for bad in ("", "garbage", url.query.split("token=")[1][:-2]):
                r = await http.post("/api/email/unsubscribe", params={"token": bad})
                assert r.status_code == 400, bad
            r = await http.post(path, content=b"List-Unsubscribe=One-Click",
                                headers={"content-type": "application/x-www-form-urlencoded"})
            assert r.status_code == 200, r.text
            assert (await http.get("/api/players/me/email", headers=bob.auth)).json()["email"] is None
            assert (await http.post(path)).status_code == 200  # again: the same answer
            assert await mails_sent(http) - sent_before == 2  # the confirmation and the digest
    finally:
        smtp.stop()


async def _digests(db_url: str, state: str) -> list[Notification]:
    return [n for n in await rows(db_url, Notification) if n.key.startswith("digest:") and n.state == state]


async def test_without_smtp_the_feature_is_absent(api: httpx.AsyncClient) -> None:
    ann = await new_account(api, "Ann", "ann")
    for method, path in (("GET", "/api/players/me/email"), ("PUT", "/api/players/me/email"),
                         ("DELETE", "/api/players/me/email"), ("GET", "/api/email/confirm?token=x"),
                         ("GET", "/api/email/unsubscribe?token=x"), ("POST", "/api/email/unsubscribe?token=x")):
        r = await api.request(method, path, headers=ann.auth, json={"email": "ann@example.org"})
        assert r.status_code == 404, (method, path)
        assert r.json()["code"] == "email_disabled"


@contextlib.contextmanager
def smtp_sink() -> Iterator[tuple[Inbox, str]]:
    """A real SMTP server on 127.0.0.1: its inbox and the SPITE_SMTP_URL that reaches it."""
    inbox = Inbox()
    with free_socket() as probe:
        port = probe.getsockname()[1]
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        yield inbox, f"smtp://127.0.0.1:{port}"
    finally:
        smtp.stop()


async def _confirmations_to(db_url: str, address: str) -> list[Notification]:
    return [n for n in await rows(db_url, Notification)
            if n.payload.get("type") == "confirm" and str(n.payload.get("email")).lower() == address]


async def test_one_pending_confirmation_per_address_a_client_limit_and_never_mail_me(start_server: Any,
                                                                                       db_url: str) -> None:
    with smtp_sink() as (inbox, smtp_url):
        server = start_server(**PUSH, smtp_url=smtp_url, smtp_timeout=5, public_url="https://spite.example",
                              limit_email_clients="4/hour", email_resend_minutes=60)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            people = [await new_account(http, name, name.lower()) for name in ("Ann", "Bob", "Cid", "Dee")]
            ann, bob, cid, dee = people
            put = "/api/players/me/email"
            r = await http.put(put, headers=ann.auth, json={"email": "victim@example.org"})
            assert r.status_code == 202 and r.json()["confirmation"] == "sent", r.text
            # Within SPITE_EMAIL_RESEND_MINUTES: kept, but not mailed again, whoever asks, however spelled.
            for who, spelled in ((ann, "victim@example.org"), (bob, "Victim@EXAMPLE.org")):
                r = await http.put(put, headers=who.auth, json={"email": spelled})
                assert r.status_code == 202 and r.json()["confirmation"] == "pending", r.text
                assert r.json()["confirmed"] is False
            assert len(await _confirmations_to(db_url, "victim@example.org")) == 1
            mail = (await eventually(lambda: asyncio.sleep(0, inbox.to("victim@example.org"))))[0]

            # "Never mail me": a signed link in the confirmation mail; a GET only asks (link scanners).
            never = link_in(mail, "/api/email/never")
            page = await http.get(never, headers={"accept-language": "de"})
            assert page.status_code == 200 and '<form method="post"' in page.text and 'lang="de"' in page.text
            for bad in ("", "garbage", link_in(mail, "/api/email/confirm").split("token=")[1]):
                assert (await http.post("/api/email/never", params={"token": bad})).status_code == 400
            done = await http.post(never, headers={"accept-language": "fr"})
            assert done.status_code == 200 and 'lang="fr"' in done.text
            assert (await http.post(never)).status_code == 200  # again: the same answer
            for who in (ann, bob):  # the address is forgotten everywhere it was kept
                assert (await http.get(put, headers=who.auth)).json()["email"] is None
            r = await http.put(put, headers=cid.auth, json={"email": "VICTIM@example.org"})
            assert r.status_code == 403 and r.json()["reason"] == "email_refused", r.text
            assert (await http.get(put, headers=cid.auth)).json()["email"] is None  # refused: nothing kept
            assert (await http.get(link_in(mail, "/api/email/confirm"))).status_code == 400
            assert len(await _confirmations_to(db_url, "victim@example.org")) == 1
            # The fifth address set from this client address within the hour (SPITE_LIMIT_EMAIL_CLIENTS).
            r = await http.put(put, headers=dee.auth, json={"email": "dee@example.org"})
            assert r.status_code == 429 and r.json()["params"]["what"] == "email_clients", r.text
            assert (await http.get(put, headers=dee.auth)).json()["email"] is None


async def test_confirmation_mails_per_recipient_address_are_limited(start_server: Any, db_url: str) -> None:
    with smtp_sink() as (inbox, smtp_url):
        server = start_server(**PUSH, smtp_url=smtp_url, smtp_timeout=5, public_url="https://spite.example",
                              limit_email_recipients="2/day")
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            put = "/api/players/me/email"
            for n, name in enumerate(("Ann", "Bob")):
                who = await new_account(http, name, name.lower())
                r = await http.put(put, headers=who.auth, json={"email": "someone@example.org"})
                assert r.status_code == 202 and r.json()["confirmation"] == "sent", r.text
                got = await eventually(lambda n=n: asyncio.sleep(0, inbox.to("someone@example.org")[n:]))
                assert (await http.get(link_in(got[0], "/api/email/confirm"))).status_code == 200  # no longer pending
            cid = await new_account(http, "Cid", "cid")
            r = await http.put(put, headers=cid.auth, json={"email": "someone@example.org"})
            assert r.status_code == 429 and r.json()["params"]["what"] == "email_recipients", r.text
            assert int(r.headers["retry-after"]) > 0
            assert (await http.get(put, headers=cid.auth)).json()["email"] is None
            assert len(await _confirmations_to(db_url, "someone@example.org")) == 2
