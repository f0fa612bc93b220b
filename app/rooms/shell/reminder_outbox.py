"""Reminding: after each applied effect, queue the reminders the core decided
(`app.rooms.core.reminders`, in the pump's `Outbox`) in the outbox, off the move path: the
write runs as a task of its own, never awaited by the mover, so a slow or failing outbox never
delays or loses a move (a failure is logged and counted). The outbox's worker
(`app/platform/notify/worker.py`) sends them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from app.domain.reminder import Reminder
from app.platform.metrics import REMINDERS
from app.platform.settings import Settings
from app.rooms.ports import Storage

log = logging.getLogger(__name__)


class Reminding:
    def __init__(self, settings: Settings, storage: Storage, *,
                 changed: Callable[[list[str]], Awaitable[None]] | None = None) -> None:
        """`changed(codes)`: these rooms' deadlines changed in the store (read them again)."""
        self.settings = settings
        self.storage = storage
        self.changed = changed
        self.pending: set[asyncio.Task[None]] = set()
        # Also told of every reminder (the lobby socket's `your_turn`), after the outbox.
        self.listeners: list[Callable[[list[Reminder]], Awaitable[None]]] = []

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    def deliver(self, code: str, reminders: list[Reminder], back: str | None = None) -> None:
        """Queue the reminders the core decided for room `code` once a change was committed,
        applied and shown, and end the vacation of `back` (a player's own move ends it): each
        off the move path."""
        if back is not None:
            self._spawn(self._back(back))
        if reminders:
            self._spawn(self._queue(code, reminders))

    async def _back(self, player_id: str) -> None:
        try:
            codes = await self.storage.back_from_vacation(player_id)
            if codes and self.changed is not None:
                await self.changed(codes)
        except Exception:
            log.exception("could not end the vacation of player %s", player_id)

    async def _queue(self, code: str, found: list[Reminder]) -> None:
        try:
            await self.storage.remind(found)
            REMINDERS.labels("queued").inc(len(found))
        except Exception:
            REMINDERS.labels("failed").inc(len(found))
            log.exception("could not queue reminders of room %s", code)
        for listener in self.listeners:
            try:
                await listener(found)
            except Exception:
                log.exception("a reminder listener failed for room %s", code)

    async def close(self) -> None:
        """Let the reminders being queued finish (briefly)."""
        if self.pending:
            with contextlib.suppress(Exception):
                await asyncio.wait(list(self.pending), timeout=5)
