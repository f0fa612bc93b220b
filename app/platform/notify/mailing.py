"""The outbox's email channel (with SPITE_SMTP_URL): turns an `email` row into a mail and hands
it to the SMTP server, and queues digests when reminders are decided (off the move path: a
listener of `app.rooms.shell.reminder_outbox`). SMTP answers map onto the outbox's outcomes: a 4xx answer, a
timeout or a failed connection is tried again later; a 5xx answer fails the row for good."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from datetime import timedelta

import aiosmtplib
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.domain.reminder import YOUR_TURN, Reminder
from app.platform.notify import email as mail
from app.platform.notify.push import BadSubscription
from app.platform.notify.worker import Failed, Retry
from app.platform.settings import Settings
from app.store.repositories import emails, outbox
from app.store.tables import Notification, utcnow

log = logging.getLogger(__name__)
CONFIRM_PATH, UNSUBSCRIBE_PATH, NEVER_PATH = "/api/email/confirm", "/api/email/unsubscribe", "/api/email/never"


async def load_signer(sessions: async_sessionmaker[AsyncSession]) -> mail.Signer:
    """The key of email links, made once and kept (every instance reads the same)."""
    import secrets

    async with sessions() as s:
        key = await outbox.kept_key(s, "email", lambda: secrets.token_urlsafe(32))
    return mail.Signer(key.encode())


class Mailer:
    """Sends the outbox's `email` rows."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], signer: mail.Signer,
                 poke: Callable[[], None] | None = None) -> None:
        assert settings.smtp_url
        self.settings = settings
        self.sessions = sessions
        self.signer = signer
        self.target = mail.SmtpTarget.parse(settings.smtp_url)
        self.poke = poke

    @property
    def site(self) -> str:
        return self.settings.public_url.rstrip("/")

    def confirm_expiry(self) -> int:
        return int(time.time()) + self.settings.email_confirm_hours * 3600

    def unsubscribe_link(self, player_id: str, email: str) -> str:
        return mail.link(self.site, UNSUBSCRIBE_PATH, self.signer.sign(mail.UNSUBSCRIBE, player_id, email, 0))

    def never_link(self, email: str) -> str:
        """The recipient's "never mail me" link: the address alone, whoever's account set it; no expiry."""
        return mail.link(self.site, NEVER_PATH, self.signer.sign(mail.NEVER, "", email.lower(), 0))

    async def reminded(self, found: Sequence[Reminder]) -> None:
        """A listener of `Reminding`: queue a digest for each player told it is their turn."""
        players = sorted({r.player_id for r in found if r.kind == YOUR_TURN})
        if not players:
            return
        async with self.sessions() as s:
            new = await emails.queue_digests(s, players, self.settings.email_digest_minutes)
        if new and self.poke is not None:
            self.poke()

    async def __call__(self, row: Notification) -> str:
        kind = row.payload.get("type")
        async with self.sessions() as s:
            address = await emails.address_of(s, row.player_id)
            lang = await emails.player_lang(s, row.player_id)
            rooms = await emails.your_turns(s, row.player_id) if kind == emails.DIGEST else []
            never = address is not None and await emails.never_mailed(s, address.email)
        if never:
            raise BadSubscription("the recipient asked never to be mailed")
        if kind == emails.CONFIRM:
            if address is None or address.email != row.payload.get("email"):
                raise BadSubscription("the address was changed or removed before its confirmation was sent")
            token = self.signer.sign(mail.CONFIRM, row.player_id, address.email, int(row.payload["expires"]))
            msg = mail.confirmation(lang, self.settings.smtp_from, address.email,
                                    mail.link(self.site, CONFIRM_PATH, token), self.settings.email_confirm_hours,
                                    self.never_link(address.email))
            await self._send(msg)
            return outbox.SENT
        if kind != emails.DIGEST:
            raise BadSubscription(f"no email of type {kind}")
        if address is None or address.confirmed_at is None:
            raise BadSubscription("no confirmed address")
        if row.attempts <= 1:  # the first try: later reminders queue the next digest
            async with self.sessions() as s:
                await emails.digest_begun(s, row.player_id)
        period = timedelta(minutes=self.settings.email_digest_minutes)
        if address.digest_at is not None and address.digest_at + period > utcnow():
            raise Retry("the last digest was mailed less than SPITE_EMAIL_DIGEST_MINUTES ago")
        if not rooms:  # they moved everywhere meanwhile: nothing to tell
            return outbox.DROPPED
        unsubscribe = self.unsubscribe_link(row.player_id, address.email)
        msg = mail.digest(lang, self.settings.smtp_from, address.email, self.site, rooms, unsubscribe, unsubscribe)
        await self._send(msg)
        async with self.sessions() as s:
            await emails.digest_mailed(s, row.player_id)
        return outbox.SENT

    async def _send(self, msg: mail.EmailMessage) -> None:
        timeout = self.settings.smtp_timeout
        try:
            await asyncio.wait_for(mail.send(self.target, msg, timeout), timeout + 1)
        except aiosmtplib.SMTPRecipientsRefused as e:
            codes = [r.code for r in e.recipients]
            if all(c >= 500 for c in codes):
                raise Failed(f"the SMTP server refused the address ({codes})") from e
            raise Retry(f"the SMTP server deferred the address ({codes})") from e
        except aiosmtplib.SMTPResponseException as e:
            if e.code >= 500:
                raise Failed(f"the SMTP server answered {e.code}") from e
            raise Retry(f"the SMTP server answered {e.code}") from e
        except aiosmtplib.SMTPException as e:  # a failed connection, a timeout, a broken exchange
            raise Retry(f"{type(e).__name__}: {e}") from e
