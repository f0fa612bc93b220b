"""Reminding: after each applied effect, queue the reminders the core decides (`reminders.decide`)
in the outbox, off the move path: the write runs as a task of its own, never awaited by the
mover, so a slow or failing outbox never delays or loses a move (a failure is logged and
counted). The outbox's worker (`app/notify/worker.py`) sends them."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from app.settings import Settings

from .effects import Effect
from .live import LiveRoom
from .metrics import REMINDERS
from .ports import Storage
from .reminders import Reminder, decide

log = logging.getLogger(__name__)


class Reminding:
    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.settings = settings
        self.storage = storage
        self.pending: set[asyncio.Task[None]] = set()

    def after(self, room: LiveRoom, effect: Effect) -> None:
        """Called by the executor once `effect` is committed, applied and shown."""
        found = decide(room.room, effect, self.settings.missed_turns)
        if not found:
            return
        task = asyncio.get_running_loop().create_task(self._queue(room.code, found))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _queue(self, code: str, found: list[Reminder]) -> None:
        try:
            await self.storage.remind(found)
            REMINDERS.labels("queued").inc(len(found))
        except Exception:
            REMINDERS.labels("failed").inc(len(found))
            log.exception("could not queue reminders of room %s", code)

    async def close(self) -> None:
        """Let the reminders being queued finish (briefly)."""
        if self.pending:
            with contextlib.suppress(Exception):
                await asyncio.wait(list(self.pending), timeout=5)
