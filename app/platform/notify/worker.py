"""The outbox worker: on every instance, a loop that claims due notifications (each row goes to
one worker: `outbox.claim`), sends each in its own task with a timeout, at most
SPITE_NOTIFY_CONCURRENCY at once and one at a time per subscription (a hanging push service holds
its own place, never the rows behind it), and records the outcome: sent; retried
with backoff (a timeout, a failed connection, 429 or 5xx); dropped with its subscription (404 or
410: the browser unsubscribed; or SPITE_PUSH_FAILURE_BUDGET failed sends in a row); failed (any
other answer, or the tries used up). Nothing here
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
        # The sends under way: each task, with its subscription (an email row: minus its own id).
        self._sending: dict[asyncio.Task[None], int] = {}

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def poke(self) -> None:
        """Something was queued (or a send ended): look now."""
        self._wake.set()

    async def close(self) -> None:
        tasks = [t for t in (self._task, *self._sending) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.client.aclose()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.fill()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the outbox could not be drained")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.notify_poll_seconds)

    async def fill(self) -> int:
        """Claim due rows for the free places of the pool (SPITE_NOTIFY_CONCURRENCY), each sent by
        its own task: a slow push service holds its own place only, never the rows behind it.
        Rows of a subscription being sent to wait for that send to end. How many were claimed."""
        claimed = 0
        while (free := self.settings.notify_concurrency - len(self._sending)) > 0:
            async with self.sessions() as s:
                rows, passed = await outbox.claim(s, free, self.settings.notify_claim_seconds,
                                                  busy={v for v in self._sending.values() if v > 0})
            for row in rows:
                task = asyncio.get_running_loop().create_task(self._deliver(row))
                self._sending[task] = row.subscription_id if row.subscription_id is not None else -row.id
                task.add_done_callback(self._sent)
            claimed += len(rows)
            if not rows or (len(rows) < free and not passed):
                break
        return claimed

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.pop(task, None)
        self._wake.set()  # a place is free, and that subscription's next row may go

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
        try:
            status = await asyncio.wait_for(
                send(self.client, self.vapid, sub.endpoint, sub.p256dh, sub.auth, body, self.settings.push_ttl,
                     timeout), timeout + 1)
        except (httpx.HTTPError, TimeoutError, OSError) as e:
            await self._failed(sub.id, f"{type(e).__name__}: {e}")
            raise
        if 200 <= status < 300:
            async with self.sessions() as s:
                await outbox.push_sent(s, sub.id)
            return outbox.SENT
        if status in (404, 410):
            async with self.sessions() as s:
                await outbox.drop_subscription(s, sub.id)
            raise BadSubscription(f"the push service answered {status}: subscription removed")
        await self._failed(sub.id, f"the push service answered {status}")
        if status == 429 or status >= 500:
            raise Retry(f"the push service answered {status}")
        raise Failed(f"the push service answered {status}")

    async def _failed(self, subscription_id: int, why: str) -> None:
        """Count a failed send to the subscription; past SPITE_PUSH_FAILURE_BUDGET in a row it
        is dropped, and so is this row (BadSubscription)."""
        budget = self.settings.push_failure_budget
        async with self.sessions() as s:
            dropped = await outbox.push_failed(s, subscription_id, budget)
        if dropped:
            raise BadSubscription(f"{why}; {budget} failures in a row: subscription removed")
