"""Reminding: after each applied effect, queue the reminders the core decides (`reminders.decide`)
in the outbox, off the move path: the write runs as a task of its own, never awaited by the
mover, so a slow or failing outbox never delays or loses a move (a failure is logged and
counted). The outbox's worker (`app/platform/notify/worker.py`) sends them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from app.domain.reminder import Reminder
from app.platform.metrics import REMINDERS
from app.platform.settings import Settings
from app.rooms.core.effects import CommitMove, Effect
from app.rooms.core.reminders import decide
from app.rooms.ports import Storage
from app.rooms.shell.live import LiveRoom

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

    def after(self, room: LiveRoom, effect: Effect) -> None:
        """Called by the executor once `effect` is committed, applied and shown. A player's own
        move ends their vacation (off the move path too)."""
        if isinstance(effect, CommitMove) and effect.step.actor == "player" and room.room.match is not None:
            pid = room.room.match.seats[effect.step.seat].player_id
            if pid is not None and room.room.vacations.pop(pid, None) is not None:
                self._spawn(self._back(pid))
        found = decide(room.room, effect, self.settings.missed_turns)
        if not found:
            return
        self._spawn(self._queue(room.code, found))

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
