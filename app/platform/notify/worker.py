"""The outbox worker: on every instance, a loop that claims due notifications (each row goes to
one worker: `outbox.claim`), sends them with a timeout, and records the outcome: sent; retried
with backoff (a timeout, a failed connection, 429 or 5xx); dropped with its subscription (404 or
410: the browser unsubscribed); failed (any other answer, or the tries used up). Nothing here
runs on the move path: the room shell only writes rows (`app.rooms.shell.reminder_outbox`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import httpx
import orjson
from prometheus_client import Counter
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.platform.notify.push import BadSubscription, Vapid, check_endpoint, new_vapid_key, send
from app.platform.notify.texts import localized
from app.platform.settings import Settings
from app.store.repositories import outbox
from app.store.tables import Notification, utcnow

log = logging.getLogger(__name__)
SENT_TOTAL = Counter("spite_notifications", "Notifications by channel and outcome", ["channel", "outcome"])
BATCH = 20

Sender = Callable[[Notification], Awaitable[str]]  # a channel: returns the outcome's state


async def load_vapid(settings: Settings, sessions: async_sessionmaker[AsyncSession]) -> Vapid:
    """The VAPID key from SPITE_VAPID_PRIVATE_KEY, or the one kept in the store (made once)."""
    key = settings.vapid_private_key
    if not key:
        async with sessions() as s:
            key = await outbox.kept_key(s, "vapid", new_vapid_key)
    return Vapid.from_key(key, settings.vapid_subject)


class Retry(Exception):
    """Try again later."""


class Failed(Exception):
    """The channel refused the message for good."""


class Outbox:
    """Drains the outbox on this instance."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], vapid: Vapid) -> None:
        self.settings = settings
        self.sessions = sessions
        self.vapid = vapid
        self.client = httpx.AsyncClient(follow_redirects=False, trust_env=False)
        self.channels: dict[str, Sender] = {"push": self._push}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def poke(self) -> None:
        """Something was queued: look now."""
        self._wake.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        await self.client.aclose()

    async def _run(self) -> None:
        while True:
            try:
                if await self.drain_once():
                    continue
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the outbox could not be drained")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.notify_poll_seconds)
            self._wake.clear()

    async def drain_once(self) -> int:
        """Claim and deliver one batch; how many were claimed."""
        async with self.sessions() as s:
            rows = await outbox.claim(s, BATCH, self.settings.notify_claim_seconds)
        if rows:
            await asyncio.gather(*(self._deliver(row) for row in rows))
        return len(rows)

    async def _deliver(self, row: Notification) -> None:
        sender = self.channels.get(row.channel)
        error: str | None = None
        try:
            if sender is None:
                raise BadSubscription(f"no channel {row.channel} on this server")
            state = await sender(row)
        except Retry as e:
            state, error = outbox.QUEUED, str(e)
        except (httpx.HTTPError, TimeoutError, OSError) as e:
            state, error = outbox.QUEUED, f"{type(e).__name__}: {e}"
        except BadSubscription as e:
            state, error = outbox.DROPPED, str(e)
        except Failed as e:
            state, error = outbox.FAILED, str(e)
        except Exception as e:  # a bug must not stop the loop: the row fails, the log says why
            log.exception("notification %s failed", row.id)
            state, error = outbox.FAILED, f"{type(e).__name__}: {e}"
        retry_at: datetime | None = None
        if state == outbox.QUEUED:
            if row.attempts >= self.settings.notify_attempts:
                state = outbox.FAILED
            else:
                delay = min(3600.0, self.settings.notify_backoff * 2 ** max(0, row.attempts - 1))
                retry_at = utcnow() + timedelta(seconds=delay)
        outcome = {outbox.QUEUED: "retried"}.get(state, state)
        SENT_TOTAL.labels(row.channel, outcome).inc()
        if state != outbox.SENT:
            log.warning("notification %s (%s) %s: %s", row.id, row.channel, outcome, error)
        async with self.sessions() as s:
            await outbox.finish(s, row.id, state, error=error, retry_at=retry_at)

    async def _push(self, row: Notification) -> str:
        async with self.sessions() as s:
            sub = await outbox.subscription(s, row.subscription_id) if row.subscription_id is not None else None
            lang = await outbox.language_of(s, row.player_id)
        if sub is None:
            raise BadSubscription("the subscription is gone")
        # Checked again at sending: the allowlist may have changed since it was subscribed.
        check_endpoint(sub.endpoint, self.settings.push_hosts, self.settings.push_allow_http)
        timeout = self.settings.push_timeout
        body = orjson.dumps(localized(row.payload, lang))  # in the recipient's language
        status = await asyncio.wait_for(
            send(self.client, self.vapid, sub.endpoint, sub.p256dh, sub.auth, body, self.settings.push_ttl, timeout),
            timeout + 1)
        if 200 <= status < 300:
            return outbox.SENT
        if status in (404, 410):
            async with self.sessions() as s:
                await outbox.drop_subscription(s, sub.id)
            raise BadSubscription(f"the push service answered {status}: subscription removed")
        if status == 429 or status >= 500:
            raise Retry(f"the push service answered {status}")
        raise Failed(f"the push service answered {status}")
